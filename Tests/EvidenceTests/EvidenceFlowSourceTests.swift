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
import TestSupport
import XCTest

@testable import Evidence

/// The export lets the flows go once they are assessed and reads them again as it writes
/// flows.json and flows.csv: in the bundle's order, and only the bundle's.
final class EvidenceFlowSourceTests: XCTestCase {
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

  func ids(from exporter: EvidenceExporter, _ bundle: EvidenceBundle) throws -> [Int64] {
    var ids: [Int64] = []
    try exporter.flowSource(for: bundle)({ ids.append($0.id) })
    return ids
  }

  override func setUpWithError() throws {
    dir = TemporaryDirectory("flow-source")
    _ = try SampleWriter.write(
      SampleScenario.plan(SampleOptions()), to: dir.url.appendingPathComponent("store"))
    store = try FlowStore(directory: dir.url.appendingPathComponent("store"))
  }

  func testABundleThatLetItsFlowsGoGetsThemBackInItsOwnOrderEvenWhereTheHistoryOrdersOtherwise()
    throws
  {
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
    let (bundle, _) = try exporter.bundle(
      sessionID: session, exportedWith: "t", now: Date(timeIntervalSince1970: 1_791_370_800),
      holdingFlows: false)
    XCTAssertTrue(bundle.flows.isEmpty)
    XCTAssertEqual(bundle.flowCount, stored.count)
    let historyOrder = try store.flows(inAuditSession: session).map(\.id)
    XCTAssertNotEqual(
      historyOrder, bundle.flowIDs,
      "the fixture orders two flows otherwise in the history than in the bundle")
    XCTAssertEqual(Set(historyOrder), Set(bundle.flowIDs))
    XCTAssertEqual(try ids(from: exporter, bundle), bundle.flowIDs)
    let (holding, _) = try exporter.bundle(
      sessionID: session, exportedWith: "t", now: Date(timeIntervalSince1970: 1_791_370_800))
    XCTAssertEqual(holding.flows.map(\.id), bundle.flowIDs)
    XCTAssertEqual(holding.tlsReadings, bundle.tlsReadings)
    XCTAssertEqual(holding.flowsDocument.prefix, bundle.flowsDocument.prefix)
  }

  func testAFlowGoneFromTheHistoryOrOneNewToTheSessionIsTheHistoryHavingChanged() throws {
    let session = try sessionID()
    let exporter = EvidenceExporter(
      store: store, temporaryDirectory: dir.url.appendingPathComponent("tmp"))
    let (bundle, _) = try exporter.bundle(
      sessionID: session, exportedWith: "t", now: Date(timeIntervalSince1970: 1_791_370_800),
      holdingFlows: false)
    let other = try XCTUnwrap(
      store.flows(inAuditSession: session - 1).first
        ?? store.flows(inAuditSession: session + 1).first)
    try sql("UPDATE flows SET audit_session_id = \(session) WHERE id = \(other.id)")
    XCTAssertThrowsError(try ids(from: exporter, bundle)) {
      XCTAssertEqual($0 as? EvidenceExportError, .historyChangedWhileExporting)
    }
    try sql("UPDATE flows SET audit_session_id = \(other.auditSessionID!) WHERE id = \(other.id)")
    XCTAssertEqual(try ids(from: exporter, bundle), bundle.flowIDs)
    try sql("DELETE FROM flows WHERE id = \(bundle.flowIDs[7])")
    XCTAssertThrowsError(try ids(from: exporter, bundle)) {
      XCTAssertEqual($0 as? EvidenceExportError, .historyChangedWhileExporting)
    }
  }
}
