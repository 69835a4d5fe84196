import Audit
import Foundation
import TestSupport
import XCTest

@testable import FlowStore

/// How retention's time grows with the history. A class named `…ScaleTests` runs alone after
/// the rest of the suite (scripts/test.py): its ratios measure this process, not its neighbours.
final class RetentionScaleTests: StoreTestCase {
  /// A store of `count` history flows, each with a packet, every tenth continuing the one
  /// before, all older than the cutoff.
  func historyStore(_ count: Int) throws -> URL {
    let original = dir.url.appendingPathComponent("prune-\(count)/original")
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
    return original
  }

  /// The CPU time pruning `copies` copies of `original` one after the other took on this thread
  /// (SQLite works on the caller's): wall time would measure the suite's other workers as much.
  func pruneSeconds(_ original: URL, count: Int, copies: Int) throws -> Double {
    let stores = try (0..<copies).map { copy in
      let url = original.deletingLastPathComponent().appendingPathComponent("copy-\(copy)")
      try FileManager.default.copyItem(at: original, to: url)
      return (url, try FlowStore(directory: url))
    }
    defer { for (url, _) in stores { try? FileManager.default.removeItem(at: url) } }
    let start = Self.threadCPUSeconds()
    for (_, store) in stores {
      XCTAssertEqual(try store.prune(before: Date(timeIntervalSince1970: 1)), count)
      try store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
    return Self.threadCPUSeconds() - start
  }

  static func threadCPUSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
  }

  /// Ten stores of 10 000 against one of 100 000: the same rows pruned, each side about half a
  /// second, so this machine's jitter weighs on both alike (one 10 000 alone, 45 ms, varied by
  /// half between attempts). Each deletion walks B-trees a level deeper in the larger store and
  /// misses the processor's caches more (the 10 000 fit in its second-level cache), so the ratio
  /// carries a log factor: 0.88–1.12 measured (issue #44's ratio of 12 is 1.2 here). Quadratic
  /// pruning (each deletion a scan) took 22 times as long for four times the history, and over
  /// 100 for ten. The sizes take turns, each the least of seven.
  func testPruningTenTimesTheHistoryTakesAboutTenTimesAsLong() throws {
    let small = try historyStore(10_000)
    let large = try historyStore(100_000)
    // Measured again when over the bound, three times at most: one run in the suite read 1.23,
    // one on a host slowed by others 1.24 and 1.25 (the test 27 s against 11-12 s), while
    // 1.00-1.09 is usual here; a regression (each deletion a scan) reads 10 and more every time.
    var measured: [String] = []
    for _ in 0..<3 {
      var tenSmall = Double.infinity
      var oneLarge = Double.infinity
      for _ in 0..<7 {
        tenSmall = min(tenSmall, try pruneSeconds(small, count: 10_000, copies: 10))
        oneLarge = min(oneLarge, try pruneSeconds(large, count: 100_000, copies: 1))
      }
      if oneLarge / tenSmall <= 1.2 { return }
      measured.append("ten of 10 000: \(tenSmall) s, one of 100 000: \(oneLarge) s")
    }
    XCTFail("over 1.2 three times: \(measured.joined(separator: "; "))")
  }
}
