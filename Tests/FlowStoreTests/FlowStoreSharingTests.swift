import Foundation
import TestSupport
import XCTest

@testable import FlowStore

/// Two connections of one store in one process (the recorder's retention pass has its own):
/// POSIX locks belong to the process, and closing any descriptor of the database file drops
/// them all, after which another process may reset the write-ahead log under the first.
final class FlowStoreSharingTests: XCTestCase {
  func count(_ directory: URL) throws -> String {
    let run = try XCTUnwrap(
      ExternalTool.run(
        "sqlite3",
        [
          directory.appendingPathComponent("history.sqlite").path,
          "SELECT count(*) FROM capture_sessions",
        ]))
    XCTAssertEqual(run.status, 0, run.error)
    return run.output.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  func testWritesStayVisibleAfterASecondConnectionInTheProcessCloses() throws {
    let dir = TemporaryDirectory("sharing")
    let store = try FlowStore(directory: dir.url)
    try store.db.execute("INSERT INTO capture_sessions (id, started_at) VALUES (1, 0)")
    do { _ = try FlowStore(directory: dir.url, creating: false) }
    XCTAssertEqual(try count(dir.url), "1")
    for id in 2...3 {
      try store.db.execute("INSERT INTO capture_sessions (id, started_at) VALUES (\(id), 0)")
      XCTAssertEqual(try count(dir.url), "\(id)")
    }
  }
}
