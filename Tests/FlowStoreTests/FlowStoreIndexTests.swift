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

  func testEveryColumnThatRefersToAFlowLeadsAnIndex() throws {
    let tables = try sqlite("SELECT name FROM sqlite_master WHERE type = 'table'")
    var checked = 0
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
        checked += 1
      }
    }
    XCTAssertGreaterThanOrEqual(checked, 4, "packets, flow_certificates, exchanges, flows")
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

  /// `count` history flows, each with a packet, every tenth continuing the one before, all
  /// older than the cutoff; the least CPU time their pruning took on this thread (SQLite works on
  /// the caller's) in three tries, each on a copy of the same store: wall time would measure the
  /// suite's other workers as much.
  func pruneSeconds(_ count: Int) throws -> Double {
    let dir = TemporaryDirectory("prune-\(count)")
    let original = dir.url.appendingPathComponent("original")
    _ = try FlowStore(directory: original)
    let filled = try XCTUnwrap(
      ExternalTool.run(
        "sqlite3",
        [
          original.appendingPathComponent("history.sqlite").path,
          """
          INSERT INTO capture_sessions (id, started_at) VALUES (1, 0);
          WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < \(count))
          INSERT INTO flows (id, session, protocol, addr_a, port_a, addr_b, port_b, first_seen,
            last_seen, tls_status, dns_other_names, dns_questions, continued_from)
          SELECT i, 1, 6, '10.0.0.2', 1024 + i % 60000, '93.184.216.34', 443, i * 1000,
            i * 1000 + 1, 1, '', '', CASE WHEN i % 10 = 0 THEN i - 1 END FROM c;
          INSERT INTO packets (flow_id, ts, direction, length) SELECT id, first_seen, 1, 60 FROM flows;
          """,
        ]))
    XCTAssertEqual(filled.status, 0, filled.error)
    var least = Double.infinity
    for attempt in 0..<3 {
      let copy = dir.url.appendingPathComponent("copy-\(attempt)")
      try FileManager.default.copyItem(at: original, to: copy)
      let store = try FlowStore(directory: copy)
      let start = Self.threadCPUSeconds()
      let pruned = try store.prune(before: Date(timeIntervalSince1970: 1))
      least = min(least, Self.threadCPUSeconds() - start)
      XCTAssertEqual(pruned, count)
    }
    return least
  }

  static func threadCPUSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
  }

  /// Each deletion walks B-trees a level deeper in the larger store and misses the processor's
  /// caches more: 12–14 times the time for ten times the history here. Quadratic pruning (each
  /// deletion a scan) took 22 times as long for four times the history, and over 100 for ten.
  func testPruningTenTimesTheHistoryTakesAboutTenTimesAsLong() throws {
    let small = try pruneSeconds(10_000)
    let large = try pruneSeconds(100_000)
    XCTAssertLessThanOrEqual(
      large / max(small, 0.001), 15, "10 000: \(small) s, 100 000: \(large) s")
  }
}
