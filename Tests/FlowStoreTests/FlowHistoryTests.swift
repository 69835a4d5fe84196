import Audit
import AuditRules
import AuditWording
import FlowStore
import Foundation
import TestSupport
import XCTest

final class FlowHistoryTests: StoreTestCase {
  var capture: Int64 = 0
  var projectID: Int64 = 0

  override func setUpWithError() throws {
    try super.setUpWithError()
    capture = try store.beginCaptureSession(at: FlowFixture.epoch)
    projectID = try store.createAuditProject(AuditProjectDraft(name: "P"), at: FlowFixture.epoch).id
  }

  func write(_ flow: StoredFlow) throws -> Int64 {
    var flow = flow
    flow.captureSessionID = capture
    return try store.upsertFlow(flow)
  }

  func testAFlowWrittenWhileASessionIsOpenIsTaggedWithItAndOneWrittenAfterItEndedIsNot() throws {
    let before = try write(FlowFixture.tcp(at: 0))
    let s = try store.startAuditSession(
      FlowFixture.sessionDraft(project: projectID), at: FlowFixture.at(10))
    let during = try write(FlowFixture.tcp(at: 11))
    _ = try store.endAuditSession(id: s.id, at: FlowFixture.at(20))
    let after = try write(FlowFixture.tcp(at: 21))
    XCTAssertNil(try store.flow(id: before)?.auditSessionID)
    XCTAssertEqual(try store.flow(id: during)?.auditSessionID, s.id)
    XCTAssertNil(try store.flow(id: after)?.auditSessionID)
    XCTAssertEqual(try store.flows(inAuditSession: s.id).map(\.id), [during])
    XCTAssertEqual(try store.flowCount(inAuditSession: s.id), 1)
  }

  func testARowsSessionIsDecidedWhenItIsMadeAndNeverMoved() throws {
    var flow = FlowFixture.tcp(at: 0)
    flow.id = try write(flow)
    let s = try store.startAuditSession(
      FlowFixture.sessionDraft(project: projectID), at: FlowFixture.at(10))
    flow.lastSeen = FlowFixture.at(12)
    _ = try write(flow)
    XCTAssertNil(
      try store.flow(id: flow.id)?.auditSessionID,
      "a row made before the session stays history: the recorder continues it in a new row")
    var inSession = FlowFixture.tcp(at: 11)
    inSession.id = try write(inSession)
    XCTAssertEqual(try store.flow(id: inSession.id)?.auditSessionID, s.id, "made while it is open")
    flow = inSession
    _ = try store.endAuditSession(id: s.id, at: FlowFixture.at(20))
    let other = try store.startAuditSession(
      FlowFixture.sessionDraft(project: projectID), at: FlowFixture.at(30))
    flow.lastSeen = FlowFixture.at(31)
    _ = try write(flow)
    XCTAssertEqual(
      try store.flow(id: flow.id)?.auditSessionID, s.id, "a tag is never moved to a later session")
    XCTAssertNotEqual(other.id, s.id)
  }

  func testFlowsOfASessionComeOldestFirstAndTheLimitCuts() throws {
    let s = try store.startAuditSession(
      FlowFixture.sessionDraft(project: projectID), at: FlowFixture.at(0))
    let late = try write(FlowFixture.tcp(at: 30))
    let early = try write(FlowFixture.tcp(at: 10))
    let middle = try write(FlowFixture.tcp(at: 20))
    XCTAssertEqual(try store.flows(inAuditSession: s.id).map(\.id), [early, middle, late])
    XCTAssertEqual(try store.flows(inAuditSession: s.id, limit: 2).map(\.id), [early, middle])
  }

  func testEveryReadingOfAFlowSurvivesTheRoundTrip() throws {
    let flows = FlowFixture.everyReading
    for flow in flows {
      let id = try write(flow)
      var expected = flow
      expected.id = id
      expected.captureSessionID = capture
      XCTAssertEqual(try store.flow(id: id), expected)
    }
  }

  func testAnUpdateWritesEveryColumnThoseARowKeepsFromItsInsertAsMuchAsTheOthers() throws {
    for flow in FlowFixture.everyReading {
      var expected = flow
      expected.id = try write(flow)
      expected.captureSessionID = capture
      expected.lastSeen = flow.lastSeen.addingTimeInterval(5)
      expected.packetCount += 1
      _ = try store.upsertFlow(expected)
      XCTAssertEqual(try store.flow(id: expected.id), expected, "its ends and start as they were")
      let earlier = try write(FlowFixture.tcp(at: 0, sourcePort: 40000))
      expected.firstSeen = flow.firstSeen.addingTimeInterval(-1)
      expected.peers = FlowPeers(
        FlowEndpoint(address: "10.0.0.9", port: 40001),
        FlowEndpoint(address: "192.0.2.7", port: 8443))
      expected.continuedFrom = earlier
      _ = try store.upsertFlow(expected)
      XCTAssertEqual(try store.flow(id: expected.id), expected, "its ends and start changed")
    }
  }

  func testAReadersSnapshotReadsTheFingerprintAsTheHistoryStoodWhenItBegan() throws {
    let s = try store.startAuditSession(
      FlowFixture.sessionDraft(project: projectID), at: FlowFixture.at(0))
    _ = try write(FlowFixture.tcp(at: 1))
    let before = try store.auditSessionFingerprint(id: s.id)
    let reader = try FlowReader(store: store)
    try reader.beginSnapshot()
    _ = try store.addMarker(.consentGiven, toSession: s.id, at: FlowFixture.at(2))
    let after = try store.auditSessionFingerprint(id: s.id)
    XCTAssertNotEqual(after, before, "a marker is part of the fingerprint")
    func read() throws -> String {
      try reader.packetCountsAndFingerprint(inAuditSession: s.id, start: .min, end: .max)
        .fingerprint
    }
    XCTAssertEqual(
      try read(), before,
      "the history as it stood when the snapshot began, the marker committed since")
    try reader.endSnapshot()
    XCTAssertEqual(try read(), after)
  }

  func testAFilesPacketsComeByOffsetWithTheirFlowAndDirectionWhateverTheirSession() throws {
    let a = try write(FlowFixture.tcp(at: 1))
    let b = try write(FlowFixture.tcp(at: 2))
    func packet(_ flow: Int64, _ direction: PacketDirection, _ file: UInt32, _ offset: UInt64)
      -> StoredPacket
    {
      StoredPacket(
        flowID: flow, date: FlowFixture.at(Double(offset)), direction: direction, length: 60,
        tcpFlags: 0x18, location: CaptureLocation(fileSequence: file, offset: offset))
    }
    try store.appendPackets([
      packet(a, .outbound, 1, 900), packet(b, .inbound, 1, 24), packet(a, .inbound, 2, 24),
      packet(a, .outbound, 0, 0), packet(b, .outbound, 1, 400), packet(b, .inbound, 0, 24),
      packet(b, .outbound, 2, 0),
    ])
    var read: [FilePacket] = []
    try store.forEachPacket(inFile: 1) { read.append($0) }
    XCTAssertEqual(
      read.map { "\($0.flowID) \($0.direction) \($0.offset)" },
      ["\(b) inbound 24", "\(b) outbound 400", "\(a) outbound 900"])
    read = []
    try store.forEachPacket(inFile: 0) { read.append($0) }
    XCTAssertEqual(
      read.map { "\($0.flowID) \($0.direction) \($0.offset)" }, ["\(b) inbound 24"],
      "a packet never written to a file (file 0, offset 0) is in none; file 0's others are in it")
    read = []
    try store.forEachPacket(inFile: 2) { read.append($0) }
    XCTAssertEqual(
      read.map { "\($0.flowID) \($0.direction) \($0.offset)" },
      ["\(b) outbound 0", "\(a) inbound 24"],
      "offset 0 of any other file is handed over, for the reader to find it is no record")
  }

  /// An outbound packet of `flow` at `seconds`, at `offset` of capture file `file` (0, 0: never
  /// captured).
  func packet(_ flow: Int64, _ seconds: Double, _ file: UInt32, _ offset: UInt64) -> StoredPacket {
    StoredPacket(
      flowID: flow, date: FlowFixture.at(seconds), direction: .outbound, length: 60,
      tcpFlags: 0x18, location: CaptureLocation(fileSequence: file, offset: offset))
  }

  /// A session from 0 s to 100 s holding a flow first seen at each of `seconds`, in that order.
  func session(flowsAt seconds: [Double]) throws -> (AuditSession, [Int64]) {
    let s = try store.startAuditSession(
      FlowFixture.sessionDraft(project: projectID), at: FlowFixture.at(0))
    let ids = try seconds.map { try write(FlowFixture.tcp(at: $0)) }
    _ = try store.endAuditSession(id: s.id, at: FlowFixture.at(100))
    return (s, ids)
  }

  func testPacketCountsComeByFlowIdThoughTheFlowsAreReadInTheOrderFirstSeen() throws {
    let (s, flows) = try session(flowsAt: [30, 10])
    let (late, early) = (flows[0], flows[1])
    try store.appendPackets([
      packet(early, 10, 1, 24), packet(early, 11, 0, 0), packet(early, 12, 1, 100),
      packet(late, 30, 2, 24), packet(late, 31, 1, 300),
    ])
    XCTAssertLessThan(late, early)
    XCTAssertEqual(
      try store.packetCounts(inAuditSession: s.id).map {
        "\($0.flowID)/\($0.fileSequence.map(String.init) ?? "-")/\($0.packets)"
      },
      ["\(late)/1/1", "\(late)/2/1", "\(early)/-/1", "\(early)/1/2"],
      "by flow id, then file, the never-captured first; a flow's runs in one file summed")
  }

  func testPacketsAreCountedPerFlowAndFileWithTheUncapturedApart() throws {
    let (s, flows) = try session(flowsAt: [1, 2])
    let (a, b) = (flows[0], flows[1])
    let outside = try write(FlowFixture.tcp(at: 200))
    try store.appendPackets([
      packet(a, 1, 1, 900), packet(a, 2, 1, 24), packet(a, 3, 2, 24), packet(a, 4, 0, 0),
      packet(b, 5, 2, 400), packet(b, 6, 0, 0), packet(b, 7, 0, 0),
      // Back in file 2 after two never captured: one count of b's packets in file 2, not two.
      packet(b, 8, 2, 900),
      packet(outside, 201, 3, 24),
    ])
    XCTAssertEqual(
      Set(try store.packetCounts(inAuditSession: s.id)),
      [
        SessionPacketCount(flowID: a, fileSequence: 1, packets: 2),
        SessionPacketCount(flowID: a, fileSequence: 2, packets: 1),
        SessionPacketCount(flowID: a, fileSequence: nil, packets: 1),
        SessionPacketCount(flowID: b, fileSequence: 2, packets: 2),
        SessionPacketCount(flowID: b, fileSequence: nil, packets: 2),
      ])
    XCTAssertEqual(
      try store.packetCounts(inAuditSession: s.id).map {
        "\($0.flowID)/\($0.fileSequence.map(String.init) ?? "-")"
      },
      ["\(a)/-", "\(a)/1", "\(a)/2", "\(b)/-", "\(b)/2"],
      "by flow, then file, the never-captured first")
    // Dated against a window in microseconds, as capture records carry time: [2 s, 5 s].
    let window = try store.packetCounts(
      inAuditSession: s.id, start: Instant.microseconds(FlowFixture.at(2)),
      end: Instant.microseconds(FlowFixture.at(5)))
    XCTAssertEqual(
      window.map(\.beforeStart), [0, 1, 0, 0, 0], "only the packet at 1 s is before 2 s")
    XCTAssertEqual(
      window.map(\.afterEnd), [0, 0, 0, 2, 1],
      "those at 6 s, 7 s and 8 s are after 5 s; the one at 5 s is not")
    let read = try FlowReader(store: store).packetCountsAndFingerprint(
      inAuditSession: s.id, start: Instant.microseconds(FlowFixture.at(2)),
      end: Instant.microseconds(FlowFixture.at(5)))
    XCTAssertEqual(read.counts, window, "a reader's connection of its own counts as the store does")
    // The packet of the flow after the session has the highest id of all: not the session's.
    XCTAssertEqual(
      read.fingerprint, try store.auditSessionFingerprint(id: s.id),
      "the fingerprint from the same pass over the packets is the one read on its own")
    XCTAssertTrue(read.fingerprint.contains("/8|"), read.fingerprint)
    XCTAssertEqual(
      try store.capturedPackets(inAuditSession: s.id, fileSequence: 1, outside: 24...500).map(
        \.offset), [900],
      "only packets outside the middle")
    XCTAssertEqual(
      try store.capturedPackets(inAuditSession: s.id, fileSequence: 2, outside: 25...1_000).map(
        \.offset), [24])
    XCTAssertEqual(try store.captureFileSequences(inAuditSession: s.id), [1, 2])
    XCTAssertEqual(try store.auditEvidenceFileSequences(), [1, 2])
    let inFile1 = try store.capturedPackets(inAuditSession: s.id, fileSequence: 1)
    XCTAssertEqual(inFile1.map(\.offset), [24, 900], "ascending offset")
    XCTAssertEqual(inFile1.map(\.date), [FlowFixture.at(2), FlowFixture.at(1)])
    XCTAssertEqual(
      try store.capturedPackets(inAuditSession: s.id, fileSequence: 0), [],
      "file 0 / offset 0 is never a file")
    XCTAssertEqual(
      try store.packets(forFlow: b).map(\.location.isCaptured), [true, false, false, true])
  }

  func testACaptureFileSequenceIsNeverClaimedTwice() throws {
    XCTAssertEqual(try store.claimCaptureFileSequence(at: FlowFixture.epoch), 1)
    XCTAssertEqual(try store.claimCaptureFileSequence(at: FlowFixture.epoch), 2)
    let flow = try write(FlowFixture.tcp())
    try store.appendPackets([
      StoredPacket(
        flowID: flow, date: FlowFixture.epoch, direction: .inbound, length: 1,
        location: CaptureLocation(fileSequence: 7, offset: 24))
    ])
    XCTAssertEqual(try store.claimCaptureFileSequence(at: FlowFixture.epoch), 8)
    let reopened = try FlowStore(directory: dir.url)
    XCTAssertEqual(try reopened.claimCaptureFileSequence(at: FlowFixture.epoch), 9)
  }

  /// Pruning turns the store's foreign-key checks off and clears what refers to a flow itself.
  func testPruningTakesAFlowsPacketsCertificatesAndExchangesAndUnlinksItsContinuation() throws {
    var old = FlowFixture.tcp(at: 0, sni: "old.example")
    old.serverCertificate = .presented(chain: [Data([0x30, 0x03, 0x00])], chainIsComplete: true)
    let gone = try write(old)
    try store.appendPackets([
      StoredPacket(flowID: gone, date: FlowFixture.at(0), direction: .outbound, length: 60)
    ])
    try store.insertExchange(
      HTTPExchange(
        flowID: gone, source: .proxy, start: FlowFixture.at(0), method: "GET", scheme: "https",
        host: "old.example", port: 443, target: "/", httpVersion: "HTTP/1.1"),
      session: nil)
    var later = FlowFixture.tcp(at: 100, sourcePort: 50001)
    later.continuedFrom = gone
    let kept = try write(later)

    XCTAssertEqual(try store.prune(before: FlowFixture.at(50)), 1)

    XCTAssertNil(try store.flow(id: gone))
    XCTAssertEqual(try store.packets(forFlow: gone), [])
    XCTAssertEqual(try store.exchanges(ofFlow: gone), [])
    XCTAssertNil(try store.flow(id: kept)?.continuedFrom)
    let database = dir.url.appendingPathComponent("history.sqlite").path
    let left = try XCTUnwrap(
      ExternalTool.run(
        "sqlite3",
        [database, "SELECT count(*) FROM flow_certificates; PRAGMA foreign_key_check;"]))
    XCTAssertEqual(left.output, "0\n", "no certificate left, nothing refers to a missing row")
    XCTAssertThrowsError(
      try store.appendPackets([
        StoredPacket(flowID: gone, date: FlowFixture.at(0), direction: .outbound, length: 60)
      ]), "the checks are on again")
  }
}
