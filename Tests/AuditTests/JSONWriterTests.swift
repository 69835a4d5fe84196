import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Foundation
import ReportContent
import ReportLayout
import ReportModel
import TestSupport
import XCTest

/// The one place that lays JSON out: what it writes is checked against Python's json module (an
/// independent writer), and a record written call by call against the same record as a value.
final class JSONWriterTests: XCTestCase {
  private var random = SystemRandomNumberGenerator()

  /// A random tree of what Python writes the same way: integers, strings (escapes, non-ASCII,
  /// control characters), booleans, null, arrays and objects, empty ones included.
  private func tree(depth: Int) -> JSONValue {
    let leaf = depth >= 4
    switch Int.random(in: 0..<(leaf ? 5 : 8), using: &random) {
    case 0: return .null
    case 1: return .bool(Bool.random(using: &random))
    case 2:
      return .integer(Int64.random(in: -1_000_000_000_000...1_000_000_000_000, using: &random))
    case 3: return .string(text())
    case 4:
      return .ints(
        (0..<Int.random(in: 0...4, using: &random)).map { _ in
          Int64.random(in: .min ... .max, using: &random)
        })
    case 5, 6:
      var members: [String: JSONValue] = [:]
      for _ in 0..<Int.random(in: 0...4, using: &random) {
        members[text()] = tree(depth: depth + 1)
      }
      return .object(members)
    default:
      return .array((0..<Int.random(in: 0...4, using: &random)).map { _ in tree(depth: depth + 1) })
    }
  }

  private func text() -> String {
    let pieces = [
      "a", "Z", "host.example", "\"", "\\", "\n", "\t", "\u{01}", "\u{1F}", "é", "ä", "🩺", " ", "/",
      "",
    ]
    return (0..<Int.random(in: 0...4, using: &random)).map { _ in
      pieces.randomElement(using: &random)!
    }.joined()
  }

  func testRandomTreesAreLaidOutAsPythonsJSONModuleLaysThemOut() throws {
    // And a value nested deeper than the 64 spaces of indentation the writer keeps ready.
    let deep = (0..<40).reduce(JSONValue.string("floor")) { inner, level in
      level % 2 == 0 ? .array([.integer(Int64(level)), inner]) : .object(["k": inner, "n": .null])
    }
    let trees = (0..<300).map { _ in tree(depth: 0) } + [deep]
    // One tree a line, each line read by Python and written again with two spaces of indent and sorted keys.
    let lines = trees.map { value -> String in
      var out: [UInt8] = []
      JSONText.append(value, to: &out, indent: 0)
      return String(decoding: out, as: UTF8.self)
    }
    let input = try JSONSerialization.data(withJSONObject: lines)
    let script = """
      import json, sys
      texts = json.load(sys.stdin)
      print(json.dumps([json.dumps(json.loads(t), indent=2, sort_keys=True, ensure_ascii=False) for t in texts]))
      """
    let result = try XCTUnwrap(ExternalTool.run("python3", ["-c", script], input: input))
    XCTAssertEqual(result.status, 0, result.error)
    let python = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String])
    XCTAssertEqual(python.count, lines.count)
    for (ours, theirs) in zip(lines, python) where ours != theirs {
      XCTFail("ours:\n\(ours)\nPython's:\n\(theirs)")
      break
    }
  }

  func testARecordWrittenCallByCallIsTheSameBytesAsTheSameRecordAsAValueWithItsKeysSorted() {
    let value: JSONValue = .object([
      "yes": .bool(true), "alpn": .strings(["h2", "http/1.1"]), "empty": .array([]), "id": .int(7),
      "name": .object(["text": .string("api.example.com"), "origin": .string("sni")]),
      "none": .null, "nothing": .object([:]), "ratio": .double(0.634),
    ])
    for indent in [0, 4] {
      var byValue: [UInt8] = []
      var byCalls: [UInt8] = []
      JSONText.append(value, to: &byValue, indent: indent)
      JSONText.write(to: &byCalls, indent: indent) { w in
        w.beginObject()
        w.key("alpn")
        w.strings(["h2", "http/1.1"])
        w.key("empty")
        w.beginArray()
        w.endArray()
        w.key("id")
        w.int(7)
        w.key("name")
        w.beginObject()
        w.key("origin")
        w.string("sni")
        w.key("text")
        w.string("api.example.com")
        w.endObject()
        w.key("none")
        w.string(nil as String?)
        w.key("nothing")
        w.beginObject()
        w.endObject()
        w.key("ratio")
        w.double(0.634)
        w.key("yes")
        w.bool(true)
        w.endObject()
      }
      XCTAssertEqual(
        String(decoding: byCalls, as: UTF8.self), String(decoding: byValue, as: UTF8.self),
        "indent \(indent)")
    }
  }

  func testIntegersAreTheirDecimalDigitsToTheEdgesOfSixtyFourBits() {
    var values: [Int64] = [
      0, 1, 9, 10, 11, 99, 100, 1_000_000, -1, -9, -10, -100, .max, .max - 1, .min, .min + 1,
    ]
    for _ in 0..<2_000 { values.append(Int64.random(in: .min ... .max, using: &random)) }
    for _ in 0..<2_000 { values.append(Int64.random(in: -100_000...100_000, using: &random)) }
    for value in values {
      var writer = JSONWriter()
      writer.int(value)
      XCTAssertEqual(String(decoding: writer.bytes, as: UTF8.self), "\(value)")
    }
  }

  func testAnInstantIsTheStringOfItsRFC3339Text() {
    var dates = [
      Date(timeIntervalSince1970: 0), Instant.date(microseconds: 1_791_540_000_000_010),
      Instant.date(microseconds: 1_791_540_000_123_456),
      // Years of five digits, which CivilTime writes.
      Date(timeIntervalSince1970: 253_402_300_800), Date(timeIntervalSince1970: 253_402_300_800.5),
    ]
    for _ in 0..<2_000 {
      dates.append(Instant.date(microseconds: Int64.random(in: 0...4_102_444_800_000_000)))
    }
    for date in dates {
      var byBytes = JSONWriter()
      byBytes.instant(date)
      var byString = JSONWriter()
      byString.string(Instant.rfc3339(date))
      XCTAssertEqual(
        String(decoding: byBytes.bytes, as: UTF8.self),
        String(decoding: byString.bytes, as: UTF8.self))
    }
    XCTAssertEqual(Instant.rfc3339(Date(timeIntervalSince1970: 253_402_300_800.5)).suffix(3), ".5Z")
  }

  /// The writer gathers bytes in a buffer of its own before its array: strings of every length
  /// around that buffer's, after prefixes that end anywhere in it, are the bytes written
  /// straight to an array; what `bytes` reads, or is changed to, midway includes every byte so far.
  func testBytesGatheredInTheWritersBufferAreTheBytesWrittenStraightToAnArray() {
    // Plain text is put whole, text with escapes a byte at a time.
    for unit in ["aé🩺x", "aé\"\n🩺"] {
      for length in [0, 1, 100, 511, 512, 513, 1_023, 1_100, 4_000] {
        let text = String(
          String(repeating: unit, count: length / unit.utf8.count + 1).prefix(length))
        for prefix in [0, 1, 7, 300, 505, 511, 512, 513] {
          for readMidway in [false, true] {
            check(text, after: prefix, readMidway: readMidway)
          }
        }
      }
    }
    func check(_ text: String, after prefix: Int, readMidway: Bool) {
      var writer = JSONWriter(bytes: Array("<".utf8))
      var expected = Array("<[".utf8)
      writer.beginArray()
      for n in 0..<prefix {
        writer.int(n % 10)
        expected += Array("\(n > 0 ? "," : "")\n  \(n % 10)".utf8)
      }
      if readMidway { XCTAssertEqual(writer.bytes, expected, "read after \(prefix) items") }
      writer.string(text)
      expected += Array("\(prefix > 0 ? "," : "")\n  ".utf8)
      JSONText.appendString(text, to: &expected)
      writer.bytes.append(UInt8(ascii: "|"))
      writer.int(-42)
      writer.endArray()
      expected += Array("|,\n  -42\n]".utf8)
      XCTAssertEqual(
        String(decoding: writer.bytes, as: UTF8.self), String(decoding: expected, as: UTF8.self),
        "a string of \(text.utf8.count) bytes after \(prefix) items")
    }
    var replaced = JSONWriter()
    replaced.string(String(repeating: "x", count: 300))
    replaced.bytes = Array("new".utf8)
    replaced.null()
    XCTAssertEqual(String(decoding: replaced.bytes, as: UTF8.self), "newnull")
  }

  func testWhatIsWrittenIsAppendedAfterWhatTheBytesHeld() {
    var out = Array("prefix ".utf8)
    JSONText.write(to: &out, indent: 2) {
      $0.beginArray()
      $0.int(1)
      $0.endArray()
    }
    XCTAssertEqual(String(decoding: out, as: UTF8.self), "prefix [\n    1\n  ]")
  }

  /// Each key of a flow's enums, written from its bytes made once, at every depth up to and past
  /// the indentation those bytes keep, first in its object and after another key.
  func testAKeyMadeOnceIsWrittenAsTheSameKeyGivenAsText() {
    func check<K: WrittenKeys>(_: K.Type, file: StaticString = #filePath, line: UInt = #line) {
      for key in K.allCases {
        for depth in [0, 1, 2, 30, 31, 32, 33, 40] {
          for second in [false, true] {
            func written(_ write: (inout JSONWriter) -> Void) -> String {
              var writer = JSONWriter(indent: 0)
              for _ in 0..<depth { writer.beginArray() }
              writer.beginObject()
              if second {
                writer.key("")
                writer.null()
              }
              write(&writer)
              writer.int(1)
              writer.endObject()
              for _ in 0..<depth { writer.endArray() }
              return String(decoding: writer.bytes, as: UTF8.self)
            }
            XCTAssertEqual(
              written { $0.key(key) }, written { $0.key(key.rawValue) },
              "\(K.self).\(key) at depth \(depth)", file: file, line: line)
          }
        }
      }
    }
    typealias R = EvidenceFlowRecord
    check(R.Key.self)
    check(R.ConflictKey.self)
    check(R.ClientKey.self)
    check(R.NameKey.self)
    check(R.OpeningKey.self)
    check(R.PeerKey.self)
    check(R.RegistrationKey.self)
    check(R.QUICKey.self)
    check(R.CertificateKey.self)
    check(R.ServerKey.self)
    check(R.ServerKeyKey.self)
  }
}
