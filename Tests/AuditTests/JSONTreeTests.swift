import Audit
import Foundation
import XCTest

/// The tree reader reads values as Foundation's `JSONDecoder` reads them (verify reads
/// flows.json's flows with the one and the rest of the bundle with the other).
final class JSONTreeTests: XCTestCase {
  enum Key: String, CodingKey { case v }

  struct Held<T: Decodable>: Decodable { let v: T }

  /// `{"v": text}` read as `T` by each reader: the same value, or refused by both.
  func agree<T: Decodable & JSONTreeDecodable & Equatable>(
    _: T.Type, _ text: String, file: StaticString = #filePath, line: UInt = #line
  ) {
    let document = "{\"v\":\(text)}"
    let byDecoder = try? JSONDecoder().decode(Held<T>.self, from: Data(document.utf8)).v
    let byTree = try? JSONMembers<Key>(JSONTree.parse(Array(document.utf8))).decode(
      T.self, forKey: .v)
    XCTAssertEqual(byDecoder, byTree, "\(T.self) \(text)", file: file, line: line)
  }

  func testNumbersReadAsJSONDecoderReadsThemIntoEachType() {
    let numbers = [
      "1", "1.0", "1e2", "1E2", "-0", "1.5", "-1", "9223372036854775807", "9223372036854775808",
      "1.0e0", "0.0", "-0.0", "100000000000000000000", "65535", "65536", "255", "256", "2e1",
      "4294967295", "4294967296", "\"1\"", "true", "null",
    ]
    for text in numbers {
      agree(Int64.self, text)
      agree(UInt64.self, text)
      agree(UInt32.self, text)
      agree(UInt16.self, text)
      agree(UInt8.self, text)
      agree(Int.self, text)
    }
    for text in numbers + ["1e400", "-1e400", "5e-324", "1e-400", "0e-400", "0.000", "2.5e-3"] {
      agree(Double.self, text)
    }
  }

  func testStringsBooleansNullsAndListsReadAsJSONDecoderReadsThem() {
    for text in [
      "\"a\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\ud83d\\ude00\"", "\"a\\u0000b\"", "\"\\u00e9\"",
      "\"é\"", "\"\\/\\b\\f\\n\\r\\t\\\"\\\\\"", "1", "null", "true", "[\"a\"]",
    ] {
      agree(String.self, text)
      agree(String?.self, text)
    }
    for text in ["true", "false", "1", "\"true\"", "null"] {
      agree(Bool.self, text)
    }
    for text in ["[]", "[\"a\",\"b\"]", "[\"a\",null]", "\"x\"", "[1]", "null"] {
      agree([String].self, text)
    }
  }

  func testMembersMissingOrNullAndNamedTwiceReadAsAKeyedContainerReadsThem() throws {
    let missing = try JSONMembers<Key>(JSONTree.parse(Array("{}".utf8)))
    XCTAssertFalse(missing.contains(.v))
    XCTAssertThrowsError(try missing.decode(String?.self, forKey: .v), "decode needs the member")
    XCTAssertNil(try missing.decodeIfPresent(String.self, forKey: .v))
    XCTAssertThrowsError(try missing.decodeNil(forKey: .v))
    let null = try JSONMembers<Key>(JSONTree.parse(Array("{\"v\":null}".utf8)))
    XCTAssertTrue(try null.decodeNil(forKey: .v))
    XCTAssertNil(try null.decode(String?.self, forKey: .v))
    XCTAssertNil(try null.decodeIfPresent(String.self, forKey: .v))
    let twice = #"{"v":"a","v":"b"}"#
    XCTAssertEqual(
      try JSONMembers<Key>(JSONTree.parse(Array(twice.utf8))).decode(String.self, forKey: .v),
      try JSONDecoder().decode(Held<String>.self, from: Data(twice.utf8)).v)
  }

  func testWhatIsNotOneJSONValueIsRefused() {
    for text in [
      "", "{", "[,]", "{,}", "[1,,2]", "{\"a\":1,,}", "01", "1.", ".5", "-", "1e", "tru", "nul",
      "\"a", "\"\u{1}\"",
      "[1] 2", "{\"a\" 1}", "\"\\x\"", "\"\\u12\"", "+1",
    ] {
      XCTAssertThrowsError(try JSONTree.parse(Array(text.utf8)), text)
      XCTAssertThrowsError(try JSONDecoder().decode(JSONTree.self, from: Data(text.utf8)), text)
    }
    XCTAssertThrowsError(try JSONTree.parse([0x22, 0xFF, 0x22]), "bytes that are not UTF-8")
    let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
    XCTAssertThrowsError(try JSONTree.parse(Array(deep.utf8)), "nested too deep for the stack")
    // A comma before the end, as JSONDecoder forgives it.
    XCTAssertEqual(try JSONTree.parse(Array("[1,]".utf8)), .array([.number("1")]))
    XCTAssertEqual(
      try JSONDecoder().decode(JSONTree.self, from: Data("[1,]".utf8)), .array([.number("1")]))
    XCTAssertEqual(try JSONTree.parse(Array("{\"a\":1 , }".utf8)), .object([("a", .number("1"))]))
    // White space is the four characters RFC 8259 names, wherever a value may be surrounded.
    let spaced = "\t{\r\n \"a\"\t: [ 1\r, 2\n]\r\n}\n"
    XCTAssertEqual(
      try JSONTree.parse(Array(spaced.utf8), strictlyAt: 0),
      .object([("a", .array([.number("1"), .number("2")]))]))
    for other in ["\u{0B}1", "\u{0C}1", "[1\u{0C}]", "{\"a\":\u{A0}1}"] {
      XCTAssertThrowsError(try JSONTree.parse(Array(other.utf8)), "\(Array(other.unicodeScalars))")
    }
    XCTAssertEqual(
      try JSONTree.parse(Array(" {\"a\": [1, -2.5e3, true, null, \"x\"]} ".utf8)),
      .object([("a", .array([.number("1"), .number("-2.5e3"), .bool(true), .null, .string("x")]))]))
  }

  /// Parsed strictly, what JSONDecoder forgives and the syntax check does not is refused, and
  /// what is parsed is the tree the forgiving parse gives.
  func testAStrictParseRefusesWhatTheSyntaxCheckWouldName() throws {
    for text in [
      "[1,]", "{\"a\":1 , }", "{\"a\":1,\"a\":2}", "{\"a\":1,\"\\u0061\":2}",
      "[{\"b\":[1,]}]",
    ] {
      XCTAssertNoThrow(try JSONTree.parse(Array(text.utf8)), text)
      XCTAssertThrowsError(try JSONTree.parse(Array(text.utf8), strictlyAt: 0), text)
    }
    // Nesting counts from where the value lies, as the check counts it: 511 levels fit at the
    // top, not two levels down.
    let deep = String(repeating: "[", count: 511) + String(repeating: "]", count: 511)
    XCTAssertNoThrow(try JSONTree.parse(Array(deep.utf8), strictlyAt: 0))
    XCTAssertNil(JSONSyntax.failure(in: Data(deep.utf8), depth: 0))
    XCTAssertThrowsError(try JSONTree.parse(Array(deep.utf8), strictlyAt: 2))
    XCTAssertNotNil(JSONSyntax.failure(in: Data(deep.utf8), depth: 2))
    let text = #" {"a": [1, -2.5e3, true, null, "x\u00e9"], "b": {}} "#
    XCTAssertEqual(
      try JSONTree.parse(Array(text.utf8), strictlyAt: 2), try JSONTree.parse(Array(text.utf8)))
  }

  /// Two members are named alike when a lookup would find either by the name: the same text, in
  /// the same number of bytes. Among forty members as among two.
  func testMembersAreNamedTwiceWhenALookupWouldFindEither() throws {
    let many = (0..<40).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
    for text in [#"{"v": 1, "v": 2}"#, "{\(many), \"k39\": 0}", "{\(many), \"k0\": 0}"] {
      XCTAssertThrowsError(try JSONTree.parse(Array(text.utf8), strictlyAt: 0), text)
      guard case .object(let members) = try JSONTree.parse(Array(text.utf8)) else {
        return XCTFail(text)
      }
      XCTAssertEqual(members.count, text.hasPrefix("{\"v\"") ? 1 : 40, "the first kept: \(text)")
    }
    XCTAssertNoThrow(try JSONTree.parse(Array("{\(many)}".utf8), strictlyAt: 0))
    // KELVIN SIGN is canonically the letter K, in three bytes: a lookup of "K" finds the letter.
    let kelvin = #"{"K": "letter", "\u212A": "sign"}"#
    let tree = try JSONTree.parse(Array(kelvin.utf8), strictlyAt: 0)
    guard case .object(let members) = tree else { return XCTFail(kelvin) }
    XCTAssertEqual(members.count, 2)
    enum Letter: String, CodingKey { case k = "K" }
    XCTAssertEqual(try JSONMembers<Letter>(tree).decode(String.self, forKey: .k), "letter")
  }
}
