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

final class EvidenceFlowRecordDecodingTests: XCTestCase {
  func written(_ flow: StoredFlow, findingIDs: [String] = ["F1", "F3"]) -> String {
    var writer = JSONWriter()
    EvidenceFlowRecord.write(flow, findingIDs: findingIDs, to: &writer)
    return String(decoding: writer.bytes, as: UTF8.self)
  }

  /// As verify reads a flow (parsed into a tree); `JSONDecoder` (a whole flows.json decoded at
  /// once) must read it alike.
  func decoded(_ text: String) throws -> EvidenceFlowRecord.Decoded {
    let record = try EvidenceFlowRecord.Decoded.read(Array(text.utf8))
    let byDecoder = try JSONDecoder().decode(EvidenceFlowRecord.Decoded.self, from: Data(text.utf8))
    XCTAssertEqual(byDecoder.flow, record.flow)
    XCTAssertEqual(byDecoder.findingIDs, record.findingIDs)
    return record
  }

  func testEveryReadingWrittenToFlowsJSONReadsBackAsTheFlowItWas() throws {
    for (n, flow) in FlowFixture.everyReading.enumerated() {
      var expected = flow
      expected.id = Int64(n + 1)
      let record = try decoded(written(expected))
      // The document carries the recorder run (`captureRun`), not the audit session.
      expected.auditSessionID = nil
      XCTAssertEqual(record.flow, expected, "flow \(n + 1)")
      XCTAssertEqual(record.findingIDs, ["F1", "F3"])
      XCTAssertEqual(written(record.flow), written(expected), "written again, the same bytes")
    }
  }

  func testARecordThatContradictsItselfOrNamesWhatTheFormatDoesNotDefineIsRefused() throws {
    var flow = FlowFixture.everyReading[0]
    flow.id = 7
    let text = written(flow)
    XCTAssertNoThrow(try decoded(text))
    for (from, to, what) in [
      (
        #""text": "api.example.com""#, #""text": "other.example.com""#,
        "a name its SNI does not give"
      ),
      (#""origin": "sni""#, #""origin": "dns""#, "a name from the other origin"),
      (#""durationSeconds": 1"#, #""durationSeconds": 2"#, "a duration the instants do not give"),
      (#""tlsStatus": "notInspectable""#, #""tlsStatus": "none""#, "a status with no name"),
      (#""versionValue": 771"#, #""versionValue": 772"#, "a version value under another name"),
      (
        #""cipherSuite": "0xC02F""#, #""cipherSuite": "0xc02f""#, "a cipher suite spelled otherwise"
      ),
      (
        #""firstSeen": "2026-10-09T10:00:00Z""#, #""firstSeen": "2026-10-09T12:00:00+02:00""#,
        "an instant not in UTC"
      ),
      (#""TLS 1.3""#, #""TLS 1.4""#, "a TLS version with no name"),
      (#""visibility": "presented""#, #""visibility": "shown""#, "a visibility with no name"),
      (#""sni": "api.example.com","#, "", "a member missing"),
      (#""from": "device""#, #""from": "client""#, "bytes from neither end"),
      (#""lastByte": 111"#, #""lastByte": 109"#, "a last byte before the first"),
    ] {
      XCTAssertTrue(text.contains(from), "the fixture holds \(from)")
      let altered = text.replacingOccurrences(of: from, with: to)
      XCTAssertThrowsError(try EvidenceFlowRecord.Decoded.read(Array(altered.utf8)), what)
      XCTAssertThrowsError(
        try JSONDecoder().decode(EvidenceFlowRecord.Decoded.self, from: Data(altered.utf8)), what)
    }
  }

  func testAnInstantIsReadOnlyAsTheDocumentsWriteIt() {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2_000 {
      let micros = Int64.random(in: Instant.storableMicroseconds, using: &generator)
      let text = Instant.rfc3339(microseconds: micros)
      XCTAssertEqual(Instant.parseWrittenMicroseconds(text), micros, text)
      // A Date holds microseconds exactly up to about 2100.
      let date = Instant.date(microseconds: micros % 4_102_444_800_000_000)
      XCTAssertEqual(Instant.parseWritten(Instant.rfc3339(date)), date)
    }
    for text in [
      "2026-10-09T10:00:00.500000Z", "2026-10-09T10:00:00.5", "2026-10-09 10:00:00Z",
      "2026-10-09T10:00:00+00:00", "2026-02-30T10:00:00Z", "2026-10-09T24:00:00Z", "",
      "2026-10-09T10:00:00.1234567Z", "２026-10-09T10:00:00Z",
    ] {
      XCTAssertNil(Instant.parseWritten(text), text)
    }
    XCTAssertEqual(
      Instant.parseWritten("2026-10-09T10:00:00.5Z"),
      Instant.date(microseconds: 1_791_540_000_500_000))
  }
}
