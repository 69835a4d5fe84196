import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Crypto
import FlowStore
import Foundation
import ReportContent
import ReportLayout
import ReportModel
import Sample
import SystemCalls
import TestSupport
import XCTest

@testable import Evidence

/// The export takes the flows out of the bundle it assessed them in and writes flows.json and
/// flows.csv from them: in the bundle's order, each once, a piece let go as it is written.
final class HeldFlowsTests: XCTestCase {
  var dir: TemporaryDirectory!
  var store: FlowStore!
  override func tearDown() {
    store = nil
    dir = nil
    super.tearDown()
  }

  func sessionID() throws -> Int64 {
    let project = try XCTUnwrap(
      store.auditProjects().first { $0.name == SampleScenario.projectName })
    return try XCTUnwrap(
      store.auditSessions(forProject: project.id).first { $0.kind.release?.version == "2.4.0" }
    ).id
  }

  func sql(_ statement: String) throws {
    let run = try XCTUnwrap(
      ExternalTool.run(
        "python3",
        [
          "-c",
          "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2]); c.commit()",
          store.databaseURL.path, statement,
        ]))
    XCTAssertEqual(run.status, 0, run.error)
  }

  func drained(_ held: HeldFlows) -> [Int64] {
    var ids: [Int64] = []
    held.drain { ids.append($0.id) }
    return ids
  }

  override func setUpWithError() throws {
    dir = TemporaryDirectory("held-flows")
    _ = try SampleWriter.write(
      SampleScenario.plan(SampleOptions()), to: dir.url.appendingPathComponent("store"))
    store = try FlowStore(directory: dir.url.appendingPathComponent("store"))
  }

  func testTheFlowsTakenFromABundleComeInItsOrderEvenWhereTheHistoryOrdersOtherwise() throws {
    let session = try sessionID()
    let stored = try store.flows(inAuditSession: session)
    // Two flows a nanosecond apart, the later one with the lower id: the history orders them by
    // nanosecond, a bundle by date, which cannot tell them apart.
    let (lower, higher) = (stored[3].id, stored[4].id)
    XCTAssertLessThan(lower, higher)
    let base = Int64(1_791_370_000) * 1_000_000_000
    try sql("UPDATE flows SET first_seen = \(base + 1) WHERE id = \(lower)")
    try sql("UPDATE flows SET first_seen = \(base) WHERE id = \(higher)")
    let exporter = EvidenceExporter(
      store: store, temporaryDirectory: dir.url.appendingPathComponent("tmp"))
    var (bundle, _) = try exporter.bundle(
      sessionID: session, exportedWith: "t", now: Date(timeIntervalSince1970: 1_791_370_800))
    let historyOrder = try store.flows(inAuditSession: session).map(\.id)
    XCTAssertNotEqual(
      historyOrder, bundle.flowIDs,
      "the fixture orders two flows otherwise in the history than in the bundle")
    XCTAssertEqual(Set(historyOrder), Set(bundle.flowIDs))
    XCTAssertEqual(bundle.flows.map(\.id), bundle.flowIDs)
    let tlsReadings = bundle.tlsReadings
    let prefix = bundle.flowsDocument.prefix
    let held = HeldFlows(bundle.takeFlows())
    XCTAssertTrue(bundle.flows.isEmpty, "the bundle holds none once they are taken")
    XCTAssertFalse(bundle.holdsFlows)
    XCTAssertEqual(bundle.flowCount, stored.count)
    XCTAssertEqual(bundle.tlsReadings, tlsReadings)
    XCTAssertEqual(bundle.flowsDocument.prefix, prefix)
    XCTAssertEqual(drained(held), bundle.flowIDs)
    XCTAssertEqual(drained(held), [], "each piece is let go once written")
  }

  func testAPieceOfFlowsIsLargeEnoughToBeMappedApartFromTheHeap() {
    XCTAssertGreaterThanOrEqual(
      HeldFlows.pieceCount * MemoryLayout<StoredFlow>.stride, MallocArenas.mappedApartFrom)
  }

  func testFlowsAcrossSeveralPiecesComeInTheirOrderEachOnce() throws {
    let flow = try XCTUnwrap(store.flows(inAuditSession: try sessionID()).first)
    for count in [
      0, 1, HeldFlows.pieceCount - 1, HeldFlows.pieceCount, 2 * HeldFlows.pieceCount + 3,
    ] {
      let ids = (0..<count).map { Int64(1_000 + $0) }
      let held = HeldFlows(
        ids.map {
          var copy = flow
          copy.id = $0
          return copy
        })
      XCTAssertEqual(drained(held), ids, "\(count) flows")
      XCTAssertEqual(drained(held), [], "\(count) flows, drained again")
    }
  }

  func testAFlowNewToTheSessionWhileItIsExportedIsTheHistoryHavingChanged() throws {
    let session = try sessionID()
    let other = try XCTUnwrap(
      store.flows(inAuditSession: session - 1).first
        ?? store.flows(inAuditSession: session + 1).first)
    let exporter = EvidenceExporter(
      store: store, temporaryDirectory: dir.url.appendingPathComponent("tmp"))
    exporter.beforeFinalCheck = {
      try self.sql("UPDATE flows SET audit_session_id = \(session) WHERE id = \(other.id)")
    }
    let destination = dir.url.appendingPathComponent("out.zip")
    XCTAssertThrowsError(
      try exporter.export(
        sessionID: session, exportedWith: "t", now: Date(timeIntervalSince1970: 1_791_370_800),
        destination: destination)
    ) {
      XCTAssertEqual($0 as? EvidenceExportError, .historyChangedWhileExporting)
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path))
  }
}
