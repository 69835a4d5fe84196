import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import ReportContent
import ReportLayout
import ReportModel
import XCTest

final class EvidenceCaptureForecastTests: XCTestCase {
  typealias Forecast = EvidenceCaptureForecast

  func summary(
    _ counts: [(fileSequence: UInt32?, packets: Int, beforeStart: Int, afterEnd: Int)],
    _ files: [Forecast.File]
  ) -> EvidenceCaptureSummary {
    Forecast.document(
      sessionID: 7, flowIDs: [],
      counts: counts.map {
        SessionPacketCount(
          fileSequence: $0.fileSequence, packets: $0.packets, beforeStart: $0.beforeStart,
          afterEnd: $0.afterEnd)
      },
      files: files, start: 1_000, end: 2_000
    ).summary
  }

  func testATallyWrittenMemberByMemberIsItsValueSerializedWithOrWithoutAFlowsID() {
    let tallies = [
      EvidencePacketTally(),
      EvidencePacketTally(written: 7, withoutBytes: [.recordUnreadable: 2]),
      EvidencePacketTally(
        written: 1, withoutBytes: [.notCaptured: 3, .captureFileMissing: 40, .recordUnreadable: 5]),
    ]
    for (index, tally) in tallies.enumerated() {
      let id = Int64(index * 1000 + 7)
      guard case .object(var entry) = tally.json else { return XCTFail("not an object") }
      entry[CaptureDocument.FlowKey.id.rawValue] = .int(id)
      for (written, value) in [(nil, tally.json), (id, JSONValue.object(entry))] {
        var w = JSONWriter(indent: 2)
        tally.write(id: written, to: &w)
        XCTAssertEqual(String(decoding: w.bytes, as: UTF8.self), value.serialized(indent: 2))
      }
    }
  }

  func testPacketsNeverCapturedOrInAMissingOrUnreadableFileAreCountedByReason() {
    let s = summary(
      [(nil, 3, 0, 0), (1, 4, 0, 0), (2, 5, 1, 0), (3, 6, 0, 2)],
      [
        .init(sequence: 1, standing: .missing), .init(sequence: 2, standing: .unreadable),
        .init(sequence: 3, standing: .readable(size: 10_000, snaplen: 1_500, edgePackets: [])),
      ])
    XCTAssertEqual(s.packets.withoutBytes[.notCaptured], 3)
    XCTAssertEqual(s.packets.withoutBytes[.captureFileMissing], 4)
    XCTAssertEqual(s.packets.withoutBytes[.recordUnreadable], 5)
    XCTAssertEqual(s.packets.written, 6)
    XCTAssertEqual(s.beforeStart, 0, "packets outside the window count only when they are written")
    XCTAssertEqual(s.afterEnd, 2)
  }

  func testARecordInTheHeaderPastTheEndOrCutShortIsUnreadableAndLeavesTheWindowCounts() {
    let edges: [Forecast.EdgePacket] = [
      // inside the 24-byte header, before the start
      .init(offset: 10, length: 60, microseconds: 500),
      .init(offset: 9_900, length: 60, microseconds: 1_500),  // 9900 + 16 + 60 fits in 10 000
      .init(offset: 9_950, length: 60, microseconds: 2_500),  // cut short, after the end
      .init(offset: 10_000, length: 0, microseconds: 1_500),  // past the end
    ]
    let s = summary(
      [(1, 20, 3, 4)],
      [.init(sequence: 1, standing: .readable(size: 10_000, snaplen: 1_500, edgePackets: edges))])
    XCTAssertEqual(s.packets.withoutBytes[.recordUnreadable], 3)
    XCTAssertEqual(s.packets.written, 17)
    XCTAssertEqual(s.beforeStart, 2)
    XCTAssertEqual(s.afterEnd, 3)
  }

  func testEachFlowIsTalliedAndEachSourceFileListedInSequenceOrder() {
    let edges = [Forecast.EdgePacket(flowID: 2, offset: 9_990, length: 60, microseconds: 1_500)]
    let doc = Forecast.document(
      sessionID: 7, flowIDs: [2, 1, 3],
      counts: [
        .init(flowID: 1, fileSequence: nil, packets: 2),
        .init(flowID: 1, fileSequence: 5, packets: 3),
        .init(flowID: 2, fileSequence: 4, packets: 4, beforeStart: 1),
        .init(flowID: 2, fileSequence: 5, packets: 1),
      ],
      files: [
        .init(sequence: 5, standing: .missing),
        .init(sequence: 4, standing: .readable(size: 10_000, snaplen: 1_400, edgePackets: edges)),
      ],
      start: 1_000, end: 2_000)
    XCTAssertEqual(doc.flows.map(\.id), [2, 1, 3], "flows.json's order")
    XCTAssertEqual(
      doc.flows[0].tally,
      EvidencePacketTally(written: 3, withoutBytes: [.recordUnreadable: 1, .captureFileMissing: 1]))
    XCTAssertEqual(
      doc.flows[1].tally,
      EvidencePacketTally(written: 0, withoutBytes: [.notCaptured: 2, .captureFileMissing: 3]))
    XCTAssertEqual(
      doc.flows[2].tally, EvidencePacketTally(), "a flow without packets is listed with nothing")
    XCTAssertEqual(
      doc.sourceFiles,
      [
        EvidenceSourceFile(sequence: 4, status: .read, packets: 4, written: 3),
        EvidenceSourceFile(sequence: 5, status: .missing, packets: 4, written: 0),
      ])
    XCTAssertEqual(doc.snaplen, 1_400)
    XCTAssertEqual(doc.beforeStart, 1)
  }

  func testALengthOverTheSnaplenIsReadAsTheSnaplen() {
    // The writer kept at most snaplen bytes of a longer packet.
    let fits = Forecast.EdgePacket(offset: 8_000, length: 65_535, microseconds: 1_500)
    let s = summary(
      [(1, 1, 0, 0)],
      [
        .init(
          sequence: 1,
          standing: .readable(size: 8_000 + 16 + 1_500, snaplen: 1_500, edgePackets: [fits]))
      ])
    XCTAssertEqual(s.packets.written, 1)
    let short = summary(
      [(1, 1, 0, 0)],
      [
        .init(
          sequence: 1,
          standing: .readable(size: 8_000 + 16 + 1_499, snaplen: 1_500, edgePackets: [fits]))
      ])
    XCTAssertEqual(short.packets.withoutBytes[.recordUnreadable], 1)
  }

  func testEveryRecordThatCanBeCutShortStartsAfterTheTailBound() {
    for size: UInt64 in [0, 24, 100, 1_540, 1_541, 10_000] {
      let tail = Forecast.tailFrom(size: size, snaplen: 1_500)
      // A record starting at or before the bound holds at most 16 + 1500 bytes and still fits.
      if size > 1_516 {
        XCTAssertLessThanOrEqual(tail + 16 + 1_500, size)
      } else {
        XCTAssertEqual(tail, 0)
      }
    }
  }

  func testTwoSummariesAreEqualWhetherAReasonWithoutPacketsIsListedOrNot() {
    let a = EvidenceCaptureSummary(
      sessionID: 1, packets: EvidencePacketTally(written: 3, withoutBytes: [.notCaptured: 0]),
      beforeStart: 0, afterEnd: 0)
    let b = EvidenceCaptureSummary(
      sessionID: 1, packets: EvidencePacketTally(written: 3), beforeStart: 0, afterEnd: 0)
    XCTAssertEqual(a, b)
    XCTAssertNotEqual(
      a,
      EvidenceCaptureSummary(
        sessionID: 1, packets: EvidencePacketTally(written: 3, withoutBytes: [.notCaptured: 1]),
        beforeStart: 0, afterEnd: 0))
  }
}
