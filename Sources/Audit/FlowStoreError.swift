/// Why a store could not be opened or read, as facts (`StorePresentation` words them). Rules of
/// the audit model are `AuditStoreError`.
public enum FlowStoreError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The database was written by a newer version of the tool.
  case newerSchema(path: String, found: Int, supported: Int)
  /// The file is not a SQLite database, or not one of ours.
  case notAStore(path: String, reason: String)
  /// The store directory could not be created or read.
  case directoryUnavailable(path: String, reason: String)
  /// SQLite found the database file damaged (SQLITE_CORRUPT).
  case damaged(path: String, error: SQLiteError)
  /// The disk holding the database is full (SQLITE_FULL): the change was rolled back.
  case diskFull(path: String)
  /// The database cannot be written (SQLITE_READONLY): a read-only file or file system.
  case readOnly(path: String)
  /// Reading or writing the database, or the files beside it, failed (SQLITE_IOERR): on a full
  /// disk, opening fails so, as the shared-memory file beside the database cannot grow.
  case inputOutput(path: String, error: SQLiteError)
  case sqlite(SQLiteError)
  /// Nothing is at the path, or an empty directory: a reading command does not make a store.
  case noStore(path: String)
  /// Capture files without the database that says what they hold: a store whose history.sqlite
  /// was lost or is yet to be restored. Nothing is made over them.
  case capturesWithoutDatabase(path: String, files: Int)
  /// history.sqlite is a directory.
  case databaseIsDirectory(path: String)

  public var description: String { StorePresentation.sentence(for: self) }
}
