import Audit
import Foundation
import XCTest

final class JSONValueTests: XCTestCase {
    func testKeysAreSortedByTheirBytesAndTheTextParsesBack() throws {
        let value = JSONValue.object(["b": .int(2), "a": .array([.string("x"), .null, .bool(true)]), "Z": .double(0.5), "ä": .object([:])])
        let text = value.serialized()
        XCTAssertEqual(text, """
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

    func testKeysThatShareAPrefixOrLeaveASCIIAreOrderedByTheirUTF8Bytes() {
        let keys = ["ab", "a", "é", "z", "Z", "ä", "a\u{0}", "🩺", "", "e\u{301}"]
        let expected = keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        XCTAssertEqual(JSONText.sortedKeys(keys), expected)
        XCTAssertEqual(expected.prefix(4), ["", "Z", "a", "a\u{0}"])
    }

    func testStringsAreEscapedSoThatAnIndependentParserReadsThemBack() throws {
        let nasty = "quote \" backslash \\ newline \n tab \t bell \u{07} nul \u{00} emoji 🩺 ünïcödé"
        let text = JSONValue.array([.string(nasty)]).serialized()
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String]
        XCTAssertEqual(parsed, [nasty])
        XCTAssertFalse(text.contains("\u{07}"))
    }
}
