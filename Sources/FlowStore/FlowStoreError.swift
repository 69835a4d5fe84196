import CSQLite

/// Why a store could not be opened or read. Rules of the audit model are `AuditStoreError`.
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

  /// A SQLite error of the database at `path`, as the store words it.
  public static func of(_ error: SQLiteError, path: String) -> FlowStoreError {
    switch error.primaryCode {
    case SQLITE_CORRUPT: return .damaged(path: path, error: error)
    case SQLITE_FULL: return .diskFull(path: path)
    case SQLITE_READONLY: return .readOnly(path: path)
    case SQLITE_IOERR: return .inputOutput(path: path, error: error)
    default: return .sqlite(error)
    }
  }

  public var description: String {
    switch self {
    case .newerSchema(let path, let found, let supported):
      return
        "\(path) was written by a newer version of tunnelvision (schema \(found); this version reads up to \(supported)). Use that version, or another store."
    case .notAStore(let path, let reason):
      return "\(path) is not a tunnelvision store: \(reason). It was left as it is."
    case .directoryUnavailable(let path, let reason):
      return "The store directory \(path) cannot be used: \(reason)."
    case .damaged(let path, let error):
      return
        "\(path) is damaged: SQLite reports “\(error.message)”. Restore it from a backup, or use another --store."
    case .diskFull(let path):
      return
        "The disk holding \(path) is full, so nothing was changed in the store. Free some space and try again."
    case .readOnly(let path):
      return
        "\(path) cannot be written (a read-only file or file system), so nothing was changed in the store."
    case .inputOutput(let path, let error):
      return
        "\(path) or a file beside it could not be read or written (SQLite reports “\(error.message)”, code \(error.code)); nothing was changed in the store. Check that its disk has free space and works."
    case .sqlite(let error):
      return error.description
    }
  }
}
