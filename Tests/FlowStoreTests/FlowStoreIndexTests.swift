import Audit
import Foundation
import TestSupport
import XCTest

@testable import FlowStore

/// The queries that must not grow with the history use an index: deleting a flow checks every
/// row that refers to it (without an index on `continued_from`, pruning 40 000 flows took 269 s,
/// each deletion a scan of the table), and a restarted recorder or a late log line looks rows up
/// by their ends.
final class FlowStoreIndexTests: StoreTestCase {
  var database: String { dir.url.appendingPathComponent("history.sqlite").path }

  func sqlite(_ sql: String) throws -> [String] {
    let run = try XCTUnwrap(ExternalTool.run("sqlite3", [database, sql]))
    XCTAssertEqual(run.status, 0, run.error)
    return run.output.split(separator: "\n").map(String.init)
  }

  /// Pruning, its foreign-key checks off, clears each of these itself: a new one must join it.
  func testEveryColumnThatRefersToAFlowLeadsAnIndexAndIsOneThatPruningClears() throws {
    let tables = try sqlite("SELECT name FROM sqlite_master WHERE type = 'table'")
    var referring: Set<String> = []
    for table in tables {
      // "id|seq|table|from|to|on_update|on_delete|match"
      for key in try sqlite("PRAGMA foreign_key_list(\(table))") {
        let fields = key.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        guard fields[2] == "flows" else { continue }
        let column = fields[3]
        let leading = try sqlite("PRAGMA index_list(\(table))").compactMap { index -> String? in
          let name = index.split(separator: "|")[1]
          return try sqlite("PRAGMA index_info(\(name))").first?.split(separator: "|").last.map(
            String.init)
        }
        XCTAssertTrue(leading.contains(column), "\(table).\(column) leads no index: \(leading)")
        referring.insert("\(table).\(column)")
      }
    }
    XCTAssertEqual(
      referring, Set(FlowStore.pruneBatchReferences.map { "\($0.table).\($0.column)" }))
  }

  func testTheLookUpByEndsUsesAnIndex() throws {
    let plan = try sqlite(
      "EXPLAIN QUERY PLAN SELECT id FROM flows WHERE protocol = 6 AND addr_a = '10.0.0.2' AND port_a = 50000 AND addr_b = '93.184.216.34' AND port_b = 443 AND first_seen <= 2 AND last_seen >= 1"
    ).joined(separator: "\n")
    XCTAssertTrue(plan.contains("USING INDEX flows_ports"), plan)
  }

  func testPruningGoesAlongTheRowidFromWhereTheLastBatchStopped() throws {
    for sql in [FlowStore.pruneBatchQuery, FlowStore.pruneBatchDeletion] {
      let plan = try sqlite(
        "EXPLAIN QUERY PLAN "
          + sql.replacingOccurrences(of: "LIMIT ?", with: "LIMIT 10")
          .replacingOccurrences(of: "?", with: "1")
      ).joined(separator: "\n")
      XCTAssertTrue(plan.contains("USING INTEGER PRIMARY KEY (rowid>"), "\(sql)\n\(plan)")
      XCTAssertFalse(plan.contains("TEMP B-TREE"), plan)
    }
  }

  func testWhatRefersToABatchIsFoundByItsIndexAndTheBatchAlongTheRowid() throws {
    let searches = [
      "SEARCH packets USING INDEX packets_flow (flow_id=?)",
      "SEARCH flow_certificates USING PRIMARY KEY (flow_id=?)",
      "SEARCH exchanges USING INDEX exchanges_flow (flow_id=?)",
      "SEARCH flows USING INDEX flows_continued_from (continued_from=?)",
    ]
    XCTAssertEqual(FlowStore.pruneBatchDependants.count, searches.count)
    for (sql, search) in zip(FlowStore.pruneBatchDependants, searches) {
      let plan = try self.plan(sql)
      XCTAssertTrue(plan.contains(search), "\(sql)\n\(plan)")
      XCTAssertTrue(plan.contains("USING INTEGER PRIMARY KEY (rowid>"), plan)
    }
  }

  func plan(_ sql: String) throws -> String {
    try sqlite(
      "EXPLAIN QUERY PLAN "
        + sql.replacingOccurrences(of: "LIMIT ?", with: "LIMIT 10")
        .replacingOccurrences(of: "?", with: "1")
    ).joined(separator: "\n")
  }

  /// A retention pass with nothing due read every history row (its count along the audit session
  /// index, the batches along the rowid to the end): now only the rows past the cutoff.
  func testRetentionReadsTheRowsPastTheCutoffByWhenTheyWereLastSeen() throws {
    let count = try plan(FlowStore.prunableCount)
    XCTAssertTrue(count.contains("USING INDEX flows_last_seen (last_seen<?)"), count)
    let highest = try plan(FlowStore.prunableHighestID)
    XCTAssertTrue(
      highest.contains("USING COVERING INDEX flows_last_seen (last_seen<?)"),
      "not the table read backwards from its newest row: \(highest)")
    let batch = try plan(FlowStore.pruneBatchQuery)
    XCTAssertTrue(batch.contains("(rowid>? AND rowid<?)"), "bounded by the highest: \(batch)")
  }

  /// The files retention must keep, read from the sessions' flows: not every packet's.
  func testTheEvidenceFilesAreReadFromTheSessionsFlows() throws {
    let evidence = try plan(FlowStore.auditEvidenceFilesQuery)
    let lines = evidence.split(separator: "\n")
    let flows = try XCTUnwrap(lines.firstIndex { $0.contains("flows_audit_session") }, evidence)
    let packets = try XCTUnwrap(
      lines.firstIndex { $0.contains("SEARCH p USING COVERING INDEX packets_flow (flow_id=?)") },
      evidence)
    XCTAssertLessThan(flows, packets, evidence)
  }

  /// The activity line of `flows` read every packet of the history for its stretch of time.
  func testTheActivityLineReadsTheFlowsSeenInItsStretch() throws {
    let activity = try plan(FlowStore.packetActivityQuery)
    XCTAssertTrue(activity.contains("SEARCH f USING INDEX flows_last_seen (last_seen>?)"), activity)
    XCTAssertTrue(
      activity.contains("SEARCH p USING COVERING INDEX packets_flow (flow_id=? AND ts>? AND ts<?)"),
      activity)
    XCTAssertFalse(activity.contains("SCAN"), activity)
  }
}
