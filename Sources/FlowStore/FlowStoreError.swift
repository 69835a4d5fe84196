import Audit
import AuditRules
import CSQLite

extension FlowStoreError {
  /// A SQLite error of the database at `path`, by what its code says of it.
  public static func of(_ error: SQLiteError, path: String) -> FlowStoreError {
    switch error.primaryCode {
    case SQLITE_CORRUPT: return .damaged(path: path, error: error)
    case SQLITE_FULL: return .diskFull(path: path)
    case SQLITE_READONLY: return .readOnly(path: path)
    case SQLITE_IOERR: return .inputOutput(path: path, error: error)
    default: return .sqlite(error)
    }
  }

}
