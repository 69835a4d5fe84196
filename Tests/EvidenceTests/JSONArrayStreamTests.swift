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

@testable import Evidence

/// flows.json read as it is inflated: the same elements as the whole document gives, and the same
/// verdict on its syntax, however the bytes are cut.
final class JSONArrayStreamTests: XCTestCase {
  /// The elements handed over and the skeleton kept, the text fed `size` bytes at a time.
  func streamed(_ text: String, size: Int, key: String = "flows") -> (
    elements: [String], skeleton: String, stream: JSONArrayStream
  ) {
    var stream = JSONArrayStream(key: key)
    var elements: [String] = []
    let bytes = Array(text.utf8)
    for start in stride(from: 0, to: bytes.count, by: size) {
      stream.feed(Data(bytes[start..<min(start + size, bytes.count)])) { element, at in
        elements.append(String(decoding: element, as: UTF8.self))
        XCTAssertEqual(
          Array(bytes[at..<(at + element.count)]), element, "an element's offset is where it lies")
      }
    }
    stream.finish { element, _ in elements.append(String(decoding: element, as: UTF8.self)) }
    return (elements, String(decoding: stream.skeleton, as: UTF8.self), stream)
  }

  /// The skeleton is handed over once the document has ended, and not kept beside its outline.
  func testTheSkeletonIsHandedOverAndNotKept() {
    var (_, skeleton, stream) = streamed(
      #"{"checks": [1, 2], "flows": [{"n": 1}], "z": 2}"#, size: 5)
    XCTAssertEqual(String(decoding: stream.takeSkeleton(), as: UTF8.self), skeleton)
    XCTAssertEqual(skeleton, #"{"checks": [1, 2], "flows": [], "z": 2}"#)
    XCTAssertTrue(stream.skeleton.isEmpty)
  }

  func testTheElementsAreThoseTheWholeDocumentGivesWhereverTheChunksEnd() {
    let text =
      #"{"a": {"flows": [9]}, "flows": [ {"n": "x]}\"[{"}, [1, [2]], "s\\", 3.5e2, true , null ], "z": "]"}"#
    let whole = [#"{"n": "x]}\"[{"}"#, "[1, [2]]", #""s\\""#, "3.5e2", "true", "null"]
    for size in [1, 2, 3, 5, 7, 64, 4096] {
      let (elements, skeleton, stream) = streamed(text, size: size)
      XCTAssertEqual(elements, whole, "chunks of \(size)")
      XCTAssertEqual(
        skeleton, #"{"a": {"flows": [9]}, "flows": [], "z": "]"}"#, "chunks of \(size)")
      XCTAssertEqual(stream.faults.count, 0)
      // The closing bracket of the skeleton is the document's.
      let close = Array(skeleton.utf8).indices.filter {
        Array(skeleton.utf8)[$0] == UInt8(ascii: "]")
      }[1]
      XCTAssertEqual(
        Array(text.utf8)[stream.documentOffset(ofSkeletonByte: close)], UInt8(ascii: "]"))
    }
  }

  /// Strings of quotes, backslashes and brackets, escaped as a writer escapes them, cut anywhere:
  /// each element comes out as written.
  func testElementsWithEscapedStringsComeOutWholeWhereverTheChunksEnd() throws {
    var generator = SampleRandom(seed: 21)
    let alphabet: [Character] = ["a", "\"", "\\", "]", "}", "[", "{", ",", " ", "é", "\n"]
    var elements: [String] = []
    for index in 0..<60 {
      let text = String(
        (0..<Int(generator.next() % 12)).map { _ in
          alphabet[Int(generator.next() % UInt64(alphabet.count))]
        })
      let json = String(
        decoding: try JSONSerialization.data(withJSONObject: [text], options: .fragmentsAllowed),
        as: UTF8.self)
      let string = String(json.dropFirst().dropLast())
      elements.append(index % 3 == 0 ? string : #"{"s": \#(string), "a": [\#(string)]}"#)
    }
    let text = #"{"flows": ["# + elements.joined(separator: ", ") + "]}"
    for size in [1, 2, 3, 7, 16, 4096] {
      let (streamedElements, skeleton, stream) = streamed(text, size: size)
      XCTAssertEqual(streamedElements, elements, "chunks of \(size)")
      XCTAssertEqual(skeleton, #"{"flows": []}"#, "chunks of \(size)")
      XCTAssertEqual(stream.faults.count, 0, "chunks of \(size)")
    }
  }

  struct Numbered: Decodable, Equatable { let n: Int }
  struct Numbers: Decodable { let items: [Numbered] }

  /// What the elements give read on a second thread too, in batches: the same elements handed
  /// over in the same order, and the same verdict, with batches cut anywhere, an element only a
  /// lenient parse reads and one that cannot be read among them.
  func testElementsDecodedAlongsideAreHandedOverAsWhenDecodedHere() {
    func read(_ tree: JSONTree) throws -> Numbered {
      guard case .object(let members) = tree, let value = members.first?.value,
        case .number(let text) = value, let n = Int(text)
      else { throw JSONTree.Unreadable() }
      return Numbered(n: n)
    }
    func reading(_ text: String, alongside: Bool) -> ([Numbered], String?, Bool) {
      var handed: [Numbered] = []
      let reading = StreamedArrayReading<Numbers, Numbered>(
        key: "items", elements: \.items, read: read, decodingAlongside: alongside
      ) { handed.append($0) }
      let bytes = Array(text.utf8)
      for start in stride(from: 0, to: bytes.count, by: 97) {
        reading.feed(Data(bytes[start..<min(start + 97, bytes.count)]))
      }
      let (syntax, readable) = reading.finish()
      return (handed, syntax, readable)
    }
    let batch = StreamedArrayReading<Numbers, Numbered>.batchLength
    for count in [0, 1, batch - 1, batch, batch + 1, 2 * batch + 1, 10 * batch + 3] {
      for odd in [nil, #"{"n": 5,}"#, #"{"n": "five"}"#] {
        var items = (0..<count).map { #"{"n": \#($0)}"# }
        if let odd, count > 2 { items[count / 2] = odd }
        let text = #"{"items": ["# + items.joined(separator: ", ") + "]}"
        let here = reading(text, alongside: false)
        let alongside = reading(text, alongside: true)
        let label = "\(count) elements, \(odd ?? "none odd")"
        XCTAssertEqual(alongside.0, here.0, label)
        XCTAssertEqual(alongside.1, here.1, label)
        XCTAssertEqual(alongside.2, here.2, label)
        if odd == nil { XCTAssertEqual(here.0.map(\.n), Array(0..<count), label) }
      }
    }
  }

  func testADocumentWithoutTheArrayIsKeptWholeAndHandsNothingOver() {
    for text in [#"[1, 2]"#, #"{"other": [1]}"#, #"{"flows": 3}"#, #"{"flows": "[1]"}"#, #"  "#] {
      let (elements, skeleton, stream) = streamed(text, size: 3)
      XCTAssertEqual(elements, [], text)
      XCTAssertEqual(skeleton, text, text)
      XCTAssertFalse(stream.foundArray, text)
    }
  }

  func testWhatLiesBetweenTheElementsIsHeldToTheGrammar() {
    for (text, reason, at) in [
      (#"{"flows": [1, 2,]}"#, "a trailing comma", 16),
      (#"{"flows": [,1]}"#, "an unexpected character", 11),
      (#"{"flows": [1,, 2]}"#, "an unexpected character", 13),
      (#"{"flows": [{} {}]}"#, "a comma or a closing bracket missing", 14),
      (#"{"flows": [1, 2"#, "a comma or a closing bracket missing", 15),
    ] {
      let (_, _, stream) = streamed(text, size: 2)
      XCTAssertEqual(stream.faults.map(\.reason), [reason], text)
      XCTAssertEqual(stream.faults.map(\.at), [at], text)
    }
  }

  func testVerifyDecodesTheFlowsOneAtATimeAndStillRefusesADamagedRest() throws {
    var writer = JSONWriter()
    EvidenceFlowRecord.write(
      FlowFixture.tcp(id: 1, sni: "api.example-health.de"), findingIDs: [], to: &writer)
    let flow = String(decoding: writer.bytes, as: UTF8.self)
    XCTAssertEqual(
      BundleVerifier.decodeFlows(
        Data(#"{"flows": [\#(flow), \#(flow)], "formatVersion": 1}"#.utf8))?.count, 2)
    XCTAssertEqual(
      BundleVerifier.decodeFlows(Data(#"{"formatVersion": 1, "flows": [\#(flow)]}"#.utf8))?.count,
      1, "wherever the array is")
    XCTAssertNil(
      BundleVerifier.decodeFlows(Data(#"{"flows": [\#(flow)], "formatVersion": 1x}"#.utf8)),
      "the rest must be JSON too")
    XCTAssertNil(
      BundleVerifier.decodeFlows(Data(#"{"flows": [\#(flow), {"id": "one"}]}"#.utf8)),
      "every flow must decode")
    XCTAssertNil(BundleVerifier.decodeFlows(Data(#"{"flows": [\#(flow)"#.utf8)), "cut short")
    let unnamedStatus = flow.replacingOccurrences(of: #""encrypted""#, with: #""none""#)
    XCTAssertNil(
      BundleVerifier.decodeFlows(Data(#"{"flows": [\#(unnamedStatus)]}"#.utf8)),
      "a status the format does not define")
  }

  /// flows.json's verdict read in pieces against the verdict on the whole document, on mutations
  /// of a real one: valid and invalid alike.
  func testTheVerdictReadInPiecesIsTheVerdictOnTheWholeDocument() {
    let flow =
      #"{"id": 7, "name": {"text": "a\"b]", "origin": "sni"}, "ports": [443, -1.5e3], "ok": true, "x": null}"#
    let source = Array(#"{"flowCount": 2, "flows": [\#(flow), \#(flow)], "v": [2]}"#.utf8)
    var generator = SampleRandom(seed: 8)
    var valid = 0
    var invalid = 0
    for bytes in JSONMutations.of(source, count: 400, seed: 7) {
      let whole = JSONSyntax.problem(in: Data(bytes))
      let reading = FlowsJSONReading(csv: nil)
      let size = 1 + Int(generator.next() % 40)
      for start in stride(from: 0, to: bytes.count, by: size) {
        reading.feed(Data(bytes[start..<min(start + size, bytes.count)]))
      }
      let pieces = reading.finish().syntax
      XCTAssertEqual(
        pieces == nil, whole == nil,
        "\(String(decoding: bytes, as: UTF8.self)): whole says \(whole ?? "valid"), in pieces \(pieces ?? "valid")"
      )
      if whole == nil { valid += 1 } else { invalid += 1 }
    }
    XCTAssertGreaterThan(valid, 20, "some mutations stay valid JSON")
    XCTAssertGreaterThan(invalid, 200)
  }
  /// verify makes room for as many flows as capture.json lists before flows.json is read: the
  /// sample's flows come out whole and in order whether that room is none, too little, exact or
  /// too much (a capture.json that miscounts).
  func testTheFlowsAreReadWholeWhateverRoomWasMadeForThem() throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Samples/example-health-2.4.0-evidence.zip")
    let archive = try ZipArchiveReader(url: url)
    let data = try archive.data(try XCTUnwrap(archive.entries.first { $0.name == "flows.json" }))
    let whole = try XCTUnwrap(
      (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["flows"] as? [[String: Any]]
    )
    let ids = whole.compactMap { ($0["id"] as? NSNumber)?.int64Value }
    XCTAssertEqual(ids.count, 35)
    for expected in [0, 1, 10, 35, 100] {
      let reading = FlowsJSONReading(csv: nil, expected: expected)
      for start in stride(from: 0, to: data.count, by: 4096) {
        reading.feed(data[start..<min(start + 4096, data.count)])
      }
      XCTAssertTrue(reading.finish().readable, "room for \(expected)")
      XCTAssertEqual(reading.records.map(\.id), ids, "room for \(expected)")
      XCTAssertEqual(reading.flows.map(\.id), ids, "room for \(expected)")
    }
  }
}
