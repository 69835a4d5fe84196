import Audit
import AuditRules
import CSQLite
import Foundation

/// A store: one SQLite database (`history.sqlite`) and a directory of rotated captures
/// (`captures/NNNNNNNN.pcap`). The only place in the project that speaks SQL.
///
/// One instance owns one connection; it is not shared between threads. Two processes
/// may open the same store: WAL and a busy timeout let them take turns.
public final class FlowStore {
  public static let databaseName = "history.sqlite"
  public static let capturesDirectoryName = "captures"

  public let directory: URL
  public let databaseURL: URL
  public var capturesDirectory: URL {
    directory.appendingPathComponent(Self.capturesDirectoryName, isDirectory: true)
  }
  private(set) var db: SQLiteConnection

  /// Whether opening made the store (it was not there).
  public private(set) var wasCreated = false
  /// Opened to read alone: the store could not be written.
  public private(set) var isReadOnly = false

  /// Whether opening failed for want of writing: read-only, a disk I/O error (a full disk cannot
  /// grow the shared-memory file), a file that cannot be opened to write.
  static func cannotWrite(_ error: Error) -> Bool {
    switch error {
    case FlowStoreError.readOnly, FlowStoreError.inputOutput: return true
    case FlowStoreError.sqlite(let error): return cannotWrite(error)
    case let error as SQLiteError:
      return [SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_IOERR, SQLITE_PERM].contains(
        error.primaryCode)
    default: return false
    }
  }

  /// A store opened to read alone is taken as it is: one of ours, at this build's schema.
  private func checkAsItIs() throws {
    let path = databaseURL.path
    let (version, application) = try wrap {
      (
        try db.firstRow("PRAGMA user_version") { $0.int(0) } ?? 0,
        try db.firstRow("PRAGMA application_id") { Int32(truncatingIfNeeded: $0.int64(0)) } ?? 0
      )
    }
    guard application == StoreSchema.applicationID else {
      throw FlowStoreError.notAStore(path: path, reason: "it is not a store this tool wrote")
    }
    if version > StoreSchema.currentVersion {
      throw FlowStoreError.newerSchema(
        path: path, found: version, supported: StoreSchema.currentVersion)
    }
    guard version == StoreSchema.currentVersion else {
      throw FlowStoreError.readOnly(path: path)
    }
  }

  /// Opens the store in `directory`, migrating it to the current schema; `creating`: makes it
  /// when nothing (or an empty directory) is there, as a writing command does. A directory of
  /// capture files without their database is never made a store.
  /// `reading`: when the store cannot be opened to write (a read-only file or file system, a full
  /// disk), it is opened to read alone, as it is (no migration: an older schema is refused).
  public init(directory: URL, creating: Bool = true, reading: Bool = false) throws {
    self.directory = directory
    self.databaseURL = directory.appendingPathComponent(Self.databaseName)
    let fm = FileManager.default
    var isDirectory: ObjCBool = false
    let exists = fm.fileExists(atPath: directory.path, isDirectory: &isDirectory)
    if exists, !isDirectory.boolValue {
      throw FlowStoreError.directoryUnavailable(
        path: directory.path, reason: "it is a file, and a store is a directory")
    }
    var databaseIsDirectory: ObjCBool = false
    let hasDatabase = fm.fileExists(atPath: databaseURL.path, isDirectory: &databaseIsDirectory)
    if hasDatabase, databaseIsDirectory.boolValue {
      throw FlowStoreError.databaseIsDirectory(path: databaseURL.path)
    }
    let databaseBytes =
      (try? fm.attributesOfItem(atPath: databaseURL.path)[.size] as? NSNumber)??.uint64Value ?? 0
    if databaseBytes == 0 {
      let captures =
        (try? fm.contentsOfDirectory(
          atPath: directory.appendingPathComponent(Self.capturesDirectoryName).path))?
        .filter { $0.hasSuffix(".pcap") }.count ?? 0
      if captures > 0 {
        throw FlowStoreError.capturesWithoutDatabase(path: directory.path, files: captures)
      }
      guard creating else { throw FlowStoreError.noStore(path: directory.path) }
      wasCreated = !hasDatabase
    }
    do {
      try fm.createDirectory(at: directory, withIntermediateDirectories: true)
      try fm.createDirectory(
        at: directory.appendingPathComponent(Self.capturesDirectoryName),
        withIntermediateDirectories: true)
    } catch {
      throw FlowStoreError.directoryUnavailable(
        path: directory.path, reason: SystemErrorText.reason(error))
    }
    do {
      db = try SQLiteConnection(path: databaseURL.path)
      try openAndMigrate()
    } catch let error where reading && !wasCreated && Self.cannotWrite(error) {
      do {
        db = try SQLiteConnection(path: databaseURL.path, immutable: true)
      } catch let error as SQLiteError {
        throw FlowStoreError.of(error, path: databaseURL.path)
      }
      isReadOnly = true
      try checkAsItIs()
    } catch let error where Self.cannotWrite(error) && access(directory.path, W_OK) != 0 {
      // Writing asked of a store on a read-only file system or directory: say that.
      throw FlowStoreError.readOnly(path: databaseURL.path)
    } catch let error as SQLiteError {
      throw FlowStoreError.of(error, path: databaseURL.path)
    }
  }

  /// The schema version this build writes.
  public static var schemaVersion: Int { StoreSchema.currentVersion }

  public func schemaVersionOnDisk() throws -> Int {
    try wrap { try db.firstRow("PRAGMA user_version") { $0.int(0) } ?? 0 }
  }

  private func openAndMigrate() throws {
    let path = databaseURL.path
    let found: (version: Int, application: Int32, objects: Int)
    do {
      found = try (
        db.firstRow("PRAGMA user_version") { $0.int(0) } ?? 0,
        db.firstRow("PRAGMA application_id") { Int32(truncatingIfNeeded: $0.int64(0)) } ?? 0,
        db.firstRow("SELECT count(*) FROM sqlite_master") { $0.int(0) } ?? 0
      )
    } catch let error as SQLiteError where error.primaryCode == SQLITE_NOTADB {
      throw FlowStoreError.notAStore(path: path, reason: "it is not a SQLite database")
    } catch let error as SQLiteError {
      throw FlowStoreError.of(error, path: path)
    }
    if found.application != StoreSchema.applicationID
      && (found.application != 0 || found.objects > 0)
    {
      throw FlowStoreError.notAStore(
        path: path, reason: "it is a SQLite database of another application")
    }
    if found.version > StoreSchema.currentVersion {
      throw FlowStoreError.newerSchema(
        path: path, found: found.version, supported: StoreSchema.currentVersion)
    }
    let mismatch = FlowStoreError.notAStore(
      path: path,
      reason:
        "its schema version (\(found.version)) does not match the tables it holds, so something other than tunnelvision changed it"
    )
    if found.version < 0 || (found.version == 0 && found.objects > 0) { throw mismatch }
    try wrap {
      try db.execute("PRAGMA journal_mode = WAL")
      try db.execute("PRAGMA foreign_keys = ON")
      try db.execute("PRAGMA synchronous = NORMAL")
      for migration in StoreSchema.migrations {
        try db.immediateTransaction {
          // Read again inside the transaction: another process may have migrated meanwhile.
          let current = try db.firstRow("PRAGMA user_version") { $0.int(0) } ?? 0
          guard current < migration.version else { return }
          do { try db.execute(migration.sql) } catch let error as SQLiteError
            where error.message.contains("already exists")
          {
            // A migration meeting its own tables: the version written does not match them.
            throw mismatch
          }
          try db.execute("PRAGMA application_id = \(StoreSchema.applicationID)")
          try db.execute("PRAGMA user_version = \(migration.version)")
        }
      }
    }
  }

  /// Turns SQLite's errors into the store's.
  func wrap<T>(_ body: () throws -> T) throws -> T { try Self.wrap(databaseURL.path, body) }

  /// SQLite's errors as the store's, for the database at `path` (a `FlowReader`'s too): the path
  /// made only for an error (a URL's path is made anew each time it is asked for, and the store is
  /// asked something for every connection a recorder writes).
  static func wrap<T>(_ path: @autoclosure () -> String, _ body: () throws -> T) throws -> T {
    do { return try body() } catch let error as SQLiteError {
      throw FlowStoreError.of(error, path: path())
    }
  }

  /// How long a write waits for another process's (SQLite's busy timeout; 10 s unless set).
  public func setBusyTimeout(seconds: Int) {
    db.setBusyTimeout(milliseconds: Int32(clamping: seconds * 1000))
  }

  /// Moves what the write-ahead log holds into the database file and empties the log, so that
  /// history.sqlite alone holds every committed row (a copy of it is a store's whole history).
  public func checkpoint() throws {
    try wrap { try db.run("PRAGMA wal_checkpoint(TRUNCATE)") }
  }

  /// Runs `body` in one immediate transaction.
  /// `checkingReferences` false: SQLite's foreign-key checks (and cascades) off for the
  /// transaction, for a writer that keeps the references itself. The pragma is set outside the
  /// transaction, where SQLite heeds it, and on again however it ends; inside another
  /// transaction it is ignored and the checks stay on.
  public func transaction<T>(checkingReferences: Bool = true, _ body: () throws -> T) throws -> T {
    if !checkingReferences { try wrap { try db.execute("PRAGMA foreign_keys = OFF") } }
    defer { if !checkingReferences { try? db.execute("PRAGMA foreign_keys = ON") } }
    return try wrap { try db.immediateTransaction(body) }
  }

}
