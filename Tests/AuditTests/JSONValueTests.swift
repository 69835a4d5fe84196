import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Foundation
import ReportContent
import ReportLayout
import ReportModel
import XCTest

final class JSONValueTests: XCTestCase {
  func testKeysAreSortedByTheirBytesAndTheTextParsesBack() throws {
    let value = JSONValue.object([
      "b": .int(2), "a": .array([.string("x"), .null, .bool(true)]), "Z": .double(0.5),
      "ä": .object([:]),
    ])
    let text = value.serialized()
    XCTAssertEqual(
      text,
      """
      {
        "Z": 0.5,
        "a": [
          "x",
          null,
          true
        ],
        "b": 2,
        "ä": {}
      }
      """)
    let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    XCTAssertEqual(parsed?["b"] as? Int, 2)
  }

  func testAListOfIntegersIsTheSameValueAndTextHeldAsIntegersOrAsValues() {
    let held = JSONValue.ints([3, -7, Int64.max])
    let values = JSONValue.array([.integer(3), .integer(-7), .integer(.max)])
    guard case .integers = held else { return XCTFail("ints are held as integers") }
    XCTAssertEqual(held, values)
    XCTAssertEqual(values, held)
    XCTAssertEqual(held.hashValue, values.hashValue)
    XCTAssertEqual(held.serialized(indent: 2), values.serialized(indent: 2))
    XCTAssertEqual(JSONValue.ints([Int]()).serialized(), "[]")
    XCTAssertNotEqual(held, .array([.integer(3), .integer(-7)]))
    XCTAssertNotEqual(held, .array([.integer(3), .integer(-7), .string("9223372036854775807")]))
    XCTAssertNotEqual(held, .ints([3, -7, 0]))
    XCTAssertEqual(Set([held, values, .ints([1])]).count, 2)
  }

  func testKeysThatShareAPrefixOrLeaveASCIIAreOrderedByTheirUTF8Bytes() {
    let keys = ["ab", "a", "é", "z", "Z", "ä", "a\u{0}", "🩺", "", "e\u{301}"]
    let expected = keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    XCTAssertEqual(JSONText.sortedKeys(keys), expected)
    XCTAssertEqual(expected.prefix(4), ["", "Z", "a", "a\u{0}"])
  }

  func testRememberedKeyOrdersWriteTheSameBytesAsSortingEachObject() {
    // Objects of different kinds with as many keys, interleaved, and one kind with its keys
    // inserted in another order: each must still come out sorted.
    let peer = JSONValue.object(["port": .int(443), "address": .string("10.0.0.2")])
    let name = JSONValue.object(["text": .string("api.example.com"), "origin": .string("sni")])
    var built: [String: JSONValue] = [:]
    for key in ["zeta", "alpha", "mid", "Beta"] { built[key] = .int(key.count) }
    let values: [JSONValue] = [
      peer, name, peer, .object(built), name, .array([peer, name, .object(built)]),
    ]
    let orders = JSONKeyOrders()
    for value in values {
      var remembered: [UInt8] = []
      var fresh: [UInt8] = []
      JSONText.append(value, to: &remembered, indent: 0, orders: orders)
      JSONText.append(value, to: &fresh, indent: 0)
      XCTAssertEqual(
        String(decoding: remembered, as: UTF8.self), String(decoding: fresh, as: UTF8.self))
    }
    var out: [UInt8] = []
    JSONText.append(.object(built), to: &out, indent: 0, orders: orders)
    XCTAssertEqual(
      String(decoding: out, as: UTF8.self),
      "{\n  \"Beta\": 4,\n  \"alpha\": 5,\n  \"mid\": 3,\n  \"zeta\": 4\n}")
  }

  /// findings.json's prefix is handed over in pieces: joined, they are the bytes written whole,
  /// and none is much longer than the limit (a piece ends after the item that reached it).
  func testAValueDrainedInPiecesIsTheValueWrittenWhole() {
    let checks = JSONValue.object(
      Dictionary(
        uniqueKeysWithValues: (0..<20).map { check in
          (
            "check\(check)",
            JSONValue.object([
              "reasons": .array(
                (0..<3).map { reason in
                  .object(["flowIDs": .ints(Array(Int64(0)..<Int64(50 + check * reason)))])
                }),
              "satisfied": .int(check),
            ])
          )
        }))
    let document = StreamedJSONObject(
      fields: ["checks": checks, "formatVersion": .int(1)], streamedKey: "findings")
    var whole = Array("{\n  \"checks\": ".utf8)
    JSONText.append(checks, to: &whole, indent: 2)
    whole += Array(",\n  \"findings\": [".utf8)
    for limit in [1, 64, 1_000, .max] {
      var writer = JSONWriter(indent: 2)
      var pieces: [[UInt8]] = []
      writer.value(checks, drainingAt: limit) { pieces.append($0) }
      pieces.append(writer.bytes)
      var text: [UInt8] = []
      JSONText.append(checks, to: &text, indent: 2)
      XCTAssertEqual(Array(pieces.joined()), text, "drained at \(limit)")
      if limit == 1_000 {
        XCTAssertGreaterThan(pieces.count, 10)
        XCTAssertLessThan(pieces.map(\.count).max() ?? 0, 1_000 + 300)
      }
    }
    var prefix: [UInt8] = []
    document.writePrefix { prefix += $0 }
    XCTAssertEqual(String(decoding: prefix, as: UTF8.self), String(decoding: whole, as: UTF8.self))
    XCTAssertEqual(document.prefix, whole)
  }

  func testStringsAreEscapedSoThatAnIndependentParserReadsThemBack() throws {
    let nasty = "quote \" backslash \\ newline \n tab \t bell \u{07} nul \u{00} emoji 🩺 ünïcödé"
    let text = JSONValue.array([.string(nasty)]).serialized()
    let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String]
    XCTAssertEqual(parsed, [nasty])
    XCTAssertFalse(text.contains("\u{07}"))
  }
}
