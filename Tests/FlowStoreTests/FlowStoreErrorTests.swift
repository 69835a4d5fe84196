import Audit
import AuditRules
import AuditWording
import CSQLite
import XCTest

@testable import FlowStore

final class FlowStoreErrorTests: XCTestCase {
  func testAFullDiskAndAReadOnlyStoreAreSaidInASentenceNotInSQLitesCodes() {
    let full = FlowStoreError.of(
      SQLiteError(code: SQLITE_FULL, message: "database or disk is full", sql: "COMMIT"),
      path: "/s/history.sqlite")
    XCTAssertEqual(full, .diskFull(path: "/s/history.sqlite"))
    XCTAssertEqual(
      full.description,
      "The disk holding /s/history.sqlite is full, so nothing was changed in the store. Free some space and try again."
    )
    // Extended codes carry the primary one in their low byte.
    let readOnly = FlowStoreError.of(
      SQLiteError(
        code: SQLITE_READONLY | (1 << 8), message: "attempt to write a readonly database"),
      path: "/s/h")
    XCTAssertEqual(readOnly, .readOnly(path: "/s/h"))
    XCTAssertTrue(readOnly.description.hasPrefix("/s/h cannot be written"), readOnly.description)
    let io = FlowStoreError.of(
      SQLiteError(code: 4874, message: "disk I/O error", sql: "PRAGMA user_version"), path: "/s/h")
    XCTAssertEqual(
      io.description,
      "/s/h or a file beside it could not be read or written (SQLite reports “disk I/O error”, code 4874); nothing was changed in the store. Check that its disk has free space and works."
    )
    let busy = FlowStoreError.of(
      SQLiteError(code: SQLITE_BUSY, message: "database is locked"), path: "/s/h")
    XCTAssertEqual(busy, .sqlite(SQLiteError(code: SQLITE_BUSY, message: "database is locked")))
  }
}
