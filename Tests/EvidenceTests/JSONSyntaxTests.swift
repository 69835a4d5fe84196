import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Crypto
import Foundation
import ReportContent
import ReportLayout
import ReportModel
import Sample
import TestSupport
import XCTest

/// The strict JSON check verify makes, held against Python's json module (with NaN and Infinity
/// refused, as RFC 8259 does).
final class JSONSyntaxTests: XCTestCase {
  func valid(_ text: String) -> Bool { JSONSyntax.problem(in: Data(text.utf8)) == nil }

  func testWellFormedJSONPasses() {
    for text in [
      #"{}"#, #"[]"#, #" {"a": [1, -0.5e+10, 0, 2E3, true, false, null, "é \u00e9 \n \/ \\ \""]} "#,
      #""just a string""#,
      #"{"nested": {"deeper": [[[]], {}]}}"#, "12", "-0",
    ] {
      XCTAssertTrue(valid(text), text)
    }
  }

  func testAMemberNamedTwiceIsRefusedWhereverItIs() {
    XCTAssertEqual(
      JSONSyntax.problem(in: Data(#"{"a": 1, "b": {"c": 2, "c": 3}}"#.utf8)),
      "a member named twice at byte 23")
    XCTAssertNil(JSONSyntax.problem(in: Data(#"{"a": {"a": 1}, "b": [{"a": 2}, {"a": 3}]}"#.utf8)))
  }

  /// Names are looked through in a list while an object has few, in a set beyond: a name written
  /// twice is found either way, and names that differ only in length or in their last byte are
  /// two names, escaped or not ("\u0061" is written otherwise than "a").
  func testANameWrittenTwiceIsFoundAmongFewNamesOrMany() {
    for count in [1, 31, 32, 33, 200] {
      let names = (0..<count).map { "\"k\($0)\": \($0)" }
      let object = "{" + names.joined(separator: ", ")
      XCTAssertNil(JSONSyntax.problem(in: Data((object + "}").utf8)), "\(count) names")
      for again in [0, count - 1] {
        let text = object + ", \"k\(again)\": 0}"
        XCTAssertEqual(
          JSONSyntax.problem(in: Data(text.utf8)),
          "a member named twice at byte \(object.utf8.count + 2)",
          "\(count) names, k\(again) again")
      }
    }
    XCTAssertNil(
      JSONSyntax.problem(in: Data(#"{"a": 1, "ab": 2, "b": 3, "\u0061": 4, "": 5}"#.utf8)))
  }

  func testWhatFoundationForgivesOrRFC8259RefusesIsNamedWithItsByte() {
    XCTAssertEqual(
      JSONSyntax.problem(in: Data(#"{"a": 1,}"#.utf8)),
      "a member name missing (a trailing comma?) at byte 8")
    XCTAssertEqual(JSONSyntax.problem(in: Data(#"[1, 2,]"#.utf8)), "a trailing comma at byte 6")
    for text in [
      "01", ".5", "1.", "1e", "+1", #"{'a': 1}"#, #"{"a": 1} // note"#, #"["\x"]"#, #"["\u12"]"#,
      "[\"a\u{01}\"]", #"["open"#,
      "NaN", "tru", #"{"a" 1}"#, #"{"a": 1 "b": 2}"#, "", "[] []",
    ] {
      XCTAssertFalse(valid(text), text)
    }
    XCTAssertNotNil(JSONSyntax.problem(in: Data([0x22, 0xFF, 0x22])), "bytes that are not UTF-8")
    // Named at the byte where the first sequence that is not UTF-8 starts: a lone 0xFF, a lead byte
    // cut short by a quote, an overlong form, a surrogate; and every scalar Swift's own decoder accepts passes.
    XCTAssertEqual(
      JSONSyntax.problem(in: Data([0x22, 0xFF, 0x22])), "bytes that are not UTF-8 at byte 1")
    XCTAssertEqual(
      JSONSyntax.problem(in: Data([0x22, 0x61, 0xC3, 0xA9, 0xC3, 0x22])),
      "bytes that are not UTF-8 at byte 4")
    XCTAssertEqual(
      JSONSyntax.problem(in: Data([0x22, 0xC0, 0xAF, 0x22])), "bytes that are not UTF-8 at byte 1")
    XCTAssertEqual(
      JSONSyntax.problem(in: Data([0x22, 0xED, 0xA0, 0x80, 0x22])),
      "bytes that are not UTF-8 at byte 1")
    var random = SystemRandomNumberGenerator()
    for _ in 0..<20_000 {
      let bytes = (0..<Int.random(in: 1...6, using: &random)).map { _ in
        UInt8.random(in: 0...255, using: &random)
      }
      var iterator = bytes.makeIterator()
      var decoder = UTF8()
      var valid = true
      decoding: while true {
        switch decoder.decode(&iterator) {
        case .scalarValue: continue
        case .emptyInput: break decoding
        case .error:
          valid = false
          break decoding
        }
      }
      XCTAssertEqual(JSONSyntax.isUTF8(Data(bytes)), valid, "\(bytes)")
    }
    XCTAssertNotNil(
      JSONSyntax.problem(
        in: Data((String(repeating: "[", count: 600) + String(repeating: "]", count: 600)).utf8)),
      "nesting is bounded, not the stack")
  }

  func testTheVerdictAgreesWithPythonOnMutationsOfARealDocument() throws {
    let source = Data(
      #"{"flows": [{"id": 1, "name": {"text": "a\"b", "origin": "sni"}, "ports": [443, -1.5e3], "ok": true, "x": null}], "v": 2}"#
        .utf8)
    let cases = JSONMutations.of([UInt8](source), count: 300, seed: 42).map { Data($0) }
    let script = """
      import json,sys,base64
      def refuse(c): raise ValueError(c)
      def once(pairs):
          if len({k for k, _ in pairs}) != len(pairs): raise ValueError('a member named twice')
          return dict(pairs)
      out=[]
      for b in json.loads(sys.stdin.read()):
          try: json.loads(base64.b64decode(b).decode('utf-8'), parse_constant=refuse, object_pairs_hook=once); out.append(True)
          except Exception: out.append(False)
      print(json.dumps(out))
      """
    let input = try JSONSerialization.data(withJSONObject: cases.map { $0.base64EncodedString() })
    let result = try XCTUnwrap(ExternalTool.run("python3", ["-c", script], input: input))
    XCTAssertEqual(result.status, 0, result.error)
    let python = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [Bool])
    var disagreements: [String] = []
    for (data, pythonSays) in zip(cases, python)
    where (JSONSyntax.problem(in: data) == nil) != pythonSays {
      disagreements.append(String(decoding: data, as: UTF8.self))
    }
    XCTAssertEqual(
      disagreements, [], "both valid and invalid mutations must be judged as Python judges them")
    XCTAssertGreaterThan(python.filter { $0 }.count, 10, "some mutations stay valid JSON")
    XCTAssertGreaterThan(python.filter { !$0 }.count, 100)
  }

  /// verify takes a flow that parses strictly as one the syntax check would find nothing wrong
  /// with, and checks only the others: on mutations of a real flow, valid and invalid, a strict
  /// parse never accepts what the check refuses at the depth a flow lies at.
  func testWhatParsesStrictlyTheSyntaxCheckAccepts() throws {
    var writer = JSONWriter()
    EvidenceFlowRecord.write(
      FlowFixture.tcp(id: 1, sni: "api.example-health.de"), findingIDs: ["F-1"], to: &writer)
    var parsed = 0
    var refused = 0
    for bytes in JSONMutations.of(writer.bytes, count: 2_000, seed: 11) {
      guard (try? JSONTree.parse(bytes, strictlyAt: 2)) != nil else { continue }
      parsed += 1
      if let failure = JSONSyntax.failure(in: Data(bytes), depth: 2) {
        refused += 1
        XCTFail("\(String(decoding: bytes, as: UTF8.self)): \(failure.reason) at \(failure.at)")
      }
    }
    XCTAssertEqual(refused, 0)
    XCTAssertGreaterThan(parsed, 50, "some mutations stay valid JSON")
  }
}
