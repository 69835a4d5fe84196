import Audit
import AuditRules
import AuditWording
import FlowStore
import Foundation
import TestSupport
import XCTest

final class FlowStoreMigrationTests: XCTestCase {
  func testAnEmptyDirectoryBecomesAStoreAtTheCurrentSchema() throws {
    let dir = TemporaryDirectory()
    let store = try FlowStore(directory: dir.url.appendingPathComponent("new/store"))
    XCTAssertEqual(try store.schemaVersionOnDisk(), FlowStore.schemaVersion)
    XCTAssertTrue(FileManager.default.fileExists(atPath: store.databaseURL.path))
    var isDirectory: ObjCBool = false
    XCTAssertTrue(
      FileManager.default.fileExists(
        atPath: store.capturesDirectory.path, isDirectory: &isDirectory) && isDirectory.boolValue)
    // The tables of the audit half exist, with the index that allows one open session.
    let sqlite = try XCTUnwrap(
      ExternalTool.run(
        "sqlite3", [store.databaseURL.path, "SELECT name FROM sqlite_master ORDER BY name"]))
    for name in [
      "audit_projects", "audit_allowlist", "audit_sessions", "audit_markers",
      "audit_sessions_single_open",
      "flows", "flows_audit_session", "packets", "capture_sessions",
    ] {
      XCTAssertTrue(sqlite.output.split(separator: "\n").contains(Substring(name)), name)
    }
    let journal = try XCTUnwrap(
      ExternalTool.run("sqlite3", [store.databaseURL.path, "PRAGMA journal_mode"]))
    XCTAssertEqual(journal.output.trimmingCharacters(in: .whitespacesAndNewlines), "wal")
  }

  func testReopeningAStoreKeepsWhatItHolds() throws {
    let dir = TemporaryDirectory()
    let id = try FlowStore(directory: dir.url).createAuditProject(
      AuditProjectDraft(name: "P"), at: FlowFixture.epoch
    ).id
    let reopened = try FlowStore(directory: dir.url)
    XCTAssertEqual(try reopened.auditProject(id: id)?.name, "P")
    XCTAssertEqual(try reopened.schemaVersionOnDisk(), FlowStore.schemaVersion)
  }

  func testADatabaseOfANewerVersionIsRefusedAndLeftAsItIs() throws {
    let dir = TemporaryDirectory()
    let store = try FlowStore(directory: dir.url)
    let path = store.databaseURL.path
    _ = try ExternalTool.run(
      "sqlite3", [path, "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA user_version = 99"])
    let before = try Data(contentsOf: store.databaseURL)
    XCTAssertThrowsError(try FlowStore(directory: dir.url)) { error in
      guard case FlowStoreError.newerSchema(_, let found, let supported)? = error as? FlowStoreError
      else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(found, 99)
      XCTAssertEqual(supported, FlowStore.schemaVersion)
      XCTAssertTrue("\(error)".contains("newer version"))
    }
    XCTAssertEqual(try Data(contentsOf: store.databaseURL), before)
  }

  func testAFileThatIsNotADatabaseIsRefusedAndLeftAsItIs() throws {
    let dir = TemporaryDirectory()
    let file = dir.path(FlowStore.databaseName)
    let garbage = Data("this is a text file that somebody put here, not a database\n".utf8)
    try garbage.write(to: file)
    XCTAssertThrowsError(try FlowStore(directory: dir.url)) { error in
      guard case FlowStoreError.notAStore(let path, _)? = error as? FlowStoreError else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(path, file.path)
      XCTAssertTrue("\(error)".contains("not a SQLite database"), "\(error)")
    }
    XCTAssertEqual(try Data(contentsOf: file), garbage)
    XCTAssertFalse(FileManager.default.fileExists(atPath: file.path + "-wal"))
  }

  func testADamagedDatabaseIsRefusedNamingTheFileAndLeftAsItIs() throws {
    let dir = TemporaryDirectory()
    let url: URL
    do {
      let store = try FlowStore(directory: dir.url)
      url = store.databaseURL
      for i in 0..<300 {
        _ = try store.createAuditProject(
          AuditProjectDraft(name: "Project \(i) " + String(repeating: "x", count: 200)),
          at: FlowFixture.epoch)
      }
    }  // closed: the last connection checkpoints the WAL into the file
    let whole = try Data(contentsOf: url)
    XCTAssertGreaterThan(whole.count, 40_000)
    let half = whole.prefix(whole.count / 2)
    try half.write(to: url)
    XCTAssertThrowsError(try FlowStore(directory: dir.url).auditProjects()) { error in
      guard case FlowStoreError.damaged(let path, let sqlite)? = error as? FlowStoreError else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(path, url.path)
      XCTAssertEqual(sqlite.primaryCode, 11)
      XCTAssertEqual(
        "\(error)",
        "\(url.path) is damaged: SQLite reports “\(sqlite.message)”. Restore it from a backup, or use another --store."
      )
    }
    XCTAssertEqual(try Data(contentsOf: url), half)
  }

  func testASQLiteDatabaseOfAnotherApplicationIsRefusedAndLeftAsItIs() throws {
    let dir = TemporaryDirectory()
    let file = dir.path(FlowStore.databaseName)
    _ = try ExternalTool.run(
      "sqlite3", [file.path, "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine');"])
    let before = try Data(contentsOf: file)
    XCTAssertThrowsError(try FlowStore(directory: dir.url)) { error in
      guard case FlowStoreError.notAStore(_, let reason)? = error as? FlowStoreError else {
        return XCTFail("\(error)")
      }
      XCTAssertTrue(reason.contains("another application"))
    }
    XCTAssertEqual(try Data(contentsOf: file), before)
  }

  func testAnSQLiteErrorCarriesTheExtendedCodeTheMessageAndTheSQL() throws {
    let dir = TemporaryDirectory()
    let store = try FlowStore(directory: dir.url)
    var flow = FlowFixture.tcp()
    flow.captureSessionID = 999  // no such capture session: the foreign key refuses it
    XCTAssertThrowsError(try store.upsertFlow(flow)) { error in
      guard case FlowStoreError.sqlite(let sqlite)? = error as? FlowStoreError else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(sqlite.code, 787)  // SQLITE_CONSTRAINT_FOREIGNKEY
      XCTAssertEqual(sqlite.primaryCode, 19)  // SQLITE_CONSTRAINT
      XCTAssertTrue(sqlite.message.contains("FOREIGN KEY"), sqlite.message)
      XCTAssertTrue(sqlite.sql?.hasPrefix("INSERT INTO flows") ?? false)
    }
  }

  func testAStoreIsRecognisedNotAssumedAndNothingIsMadeOverCapturesWithoutTheirDatabase() throws {
    let dir = TemporaryDirectory("recognised")
    let missing = dir.url.appendingPathComponent("mistyped")
    XCTAssertThrowsError(try FlowStore(directory: missing, creating: false)) {
      XCTAssertEqual($0 as? FlowStoreError, .noStore(path: missing.path))
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: missing.path), "nothing made")
    let lost = dir.url.appendingPathComponent("lost")
    let captures = lost.appendingPathComponent("captures")
    try FileManager.default.createDirectory(at: captures, withIntermediateDirectories: true)
    let evidence = Data(repeating: 7, count: 130_075)
    try evidence.write(to: captures.appendingPathComponent("00000001.pcap"))
    for creating in [false, true] {
      XCTAssertThrowsError(try FlowStore(directory: lost, creating: creating)) {
        XCTAssertEqual($0 as? FlowStoreError, .capturesWithoutDatabase(path: lost.path, files: 1))
      }
    }
    XCTAssertEqual(try Data(contentsOf: captures.appendingPathComponent("00000001.pcap")), evidence)
    XCTAssertFalse(FileManager.default.fileExists(atPath: lost.path + "/history.sqlite"))
    let odd = dir.url.appendingPathComponent("odd")
    try FileManager.default.createDirectory(
      at: odd.appendingPathComponent("history.sqlite"), withIntermediateDirectories: true)
    XCTAssertThrowsError(try FlowStore(directory: odd)) {
      XCTAssertEqual(
        $0 as? FlowStoreError, .databaseIsDirectory(path: odd.path + "/history.sqlite"))
    }
    let made = try FlowStore(directory: dir.url.appendingPathComponent("new"))
    XCTAssertTrue(made.wasCreated)
    XCTAssertFalse(try FlowStore(directory: made.directory, creating: false).wasCreated)
  }

  func testAVersionThatDoesNotMatchTheTablesIsRefusedInASentenceAndLeftAsItIs() throws {
    for version in [0, 1, -1] {
      let dir = TemporaryDirectory("mismatch")
      let path = try FlowStore(directory: dir.url).databaseURL.path
      guard
        try ExternalTool.run("sqlite3", [path, "PRAGMA user_version = \(version)"]) != nil
      else { throw XCTSkip("sqlite3 is not installed (make test installs it)") }
      let before = try Data(contentsOf: URL(fileURLWithPath: path))
      XCTAssertThrowsError(try FlowStore(directory: dir.url)) { error in
        guard case .notAStore(_, let reason)? = error as? FlowStoreError else {
          return XCTFail("\(error)")
        }
        XCTAssertTrue(reason.contains("schema version (\(version)) does not match"), reason)
        XCTAssertFalse("\(error)".contains("CREATE TABLE"), "no schema in the sentence")
      }
      XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before, "left as it is")
    }
  }
}
