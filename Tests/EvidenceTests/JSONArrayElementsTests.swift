@testable import Evidence
import Foundation
import XCTest

/// Finding a JSON array's elements by the JSON's syntax, so that verify can decode flows.json a
/// flow at a time.
final class JSONArrayElementsTests: XCTestCase {
    func elements(_ text: String, _ key: String = "flows") -> [String]? {
        let data = Data(text.utf8)
        return JSONArrayElements.ranges(of: key, in: data)?.elements.map { String(decoding: data.subdata(in: $0), as: UTF8.self) }
    }

    func testElementsAreFoundWhateverTheirStringsAndNestingHold() {
        let text = #"{"a": {"flows": [9]}, "flows": [ {"n": "x]}\"[{"}, [1, [2]], "s\\", 3.5e2, true , null ], "z": "]"}"#
        XCTAssertEqual(elements(text), [#"{"n": "x]}\"[{"}"#, "[1, [2]]", #""s\\""#, "3.5e2", "true", "null"])
        XCTAssertEqual(elements(#"{"flows": []}"#), [])
        XCTAssertEqual(elements(#"  {"k": 1,"flows":[{}]}  "#), ["{}"])
    }

    func testTheArraysOwnRangeIncludesItsBrackets() throws {
        let data = Data(#"{"x": 1, "flows": [1, 2]}"#.utf8)
        let found = try XCTUnwrap(JSONArrayElements.ranges(of: "flows", in: data))
        XCTAssertEqual(String(decoding: data.subdata(in: found.array), as: UTF8.self), "[1, 2]")
    }

    func testADocumentThatDoesNotReadAsSuchAnObjectGivesNothing() {
        XCTAssertNil(elements(#"[1, 2]"#))
        XCTAssertNil(elements(#"{"other": [1]}"#), "no such key")
        XCTAssertNil(elements(#"{"flows": 3}"#), "not an array")
        XCTAssertNil(elements(#"{"flows": [1, 2"#), "cut short")
        XCTAssertNil(elements(#"{"flows": ["unterminated]}"#))
        XCTAssertNil(elements(#"{"a" 1, "flows": []}"#), "a member without its colon")
    }

    func testVerifyDecodesTheFlowsOneAtATimeAndStillRefusesADamagedRest() throws {
        let flow = #"{"id": 1, "protocol": "tcp", "firstSeen": "a", "lastSeen": "b", "durationSeconds": 0, "bytesOut": 0, "bytesIn": 0, "packetCount": 0, "peers": [], "tlsStatus": "none", "name": null, "sni": null, "dnsName": null, "dnsOtherNames": [], "streamOpening": null, "clientTLS": null, "serverTLS": null, "quic": null, "serverCertificate": {"visibility": "unknown"}, "findingIDs": []}"#
        XCTAssertEqual(BundleVerifier.decodeFlows(Data(#"{"flows": [\#(flow), \#(flow)], "formatVersion": 1}"#.utf8))?.count, 2)
        XCTAssertNil(BundleVerifier.decodeFlows(Data(#"{"flows": [\#(flow)], "formatVersion": 1x}"#.utf8)), "the rest must be JSON too")
        XCTAssertNil(BundleVerifier.decodeFlows(Data(#"{"flows": [\#(flow), {"id": "one"}]}"#.utf8)), "every flow must decode")
    }
}
