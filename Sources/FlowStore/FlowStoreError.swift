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
    case sqlite(SQLiteError)

    /// A SQLite error of the database at `path`, as the store words it.
    public static func of(_ error: SQLiteError, path: String) -> FlowStoreError {
        error.primaryCode == SQLITE_CORRUPT ? .damaged(path: path, error: error) : .sqlite(error)
    }

    public var description: String {
        switch self {
        case let .newerSchema(path, found, supported):
            return "\(path) was written by a newer version of tunnelvision (schema \(found); this version reads up to \(supported)). Use that version, or another store."
        case let .notAStore(path, reason):
            return "\(path) is not a tunnelvision store: \(reason). It was left as it is."
        case let .directoryUnavailable(path, reason):
            return "The store directory \(path) cannot be used: \(reason)."
        case let .damaged(path, error):
            return "\(path) is damaged: SQLite reports “\(error.message)”. Restore it from a backup, or use another --store."
        case .sqlite(let error):
            return error.description
        }
    }
}
