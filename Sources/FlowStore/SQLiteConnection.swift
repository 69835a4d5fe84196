import Audit
import AuditRules
import CSQLite
import Foundation

/// Owns one `sqlite3` handle. Not shared between threads: every process or thread opens its own.
public final class SQLiteConnection {
  let handle: OpaquePointer
  public let path: String
  private var statements: [StatementText: SQLiteStatement] = [:]

  /// `immutable`: read-only, and the file taken as unchanging (SQLite's immutable=1): no journal
  /// or shared-memory file is made, so a database on a read-only file system can be read.
  public init(path: String, readOnly: Bool = false, immutable: Bool = false) throws {
    var db: OpaquePointer?
    let flags =
      (readOnly || immutable ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE))
      | SQLITE_OPEN_NOMUTEX | (immutable ? SQLITE_OPEN_URI : 0)
    let name =
      immutable
      ? "file:"
        + (path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path)
        + "?immutable=1" : path
    let rc = sqlite3_open_v2(name, &db, flags, nil)
    guard rc == SQLITE_OK, let db else {
      let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      if let db { sqlite3_close_v2(db) }
      throw SQLiteError(code: rc, message: message)
    }
    handle = db
    self.path = path
    sqlite3_extended_result_codes(db, 1)
    sqlite3_busy_timeout(db, 10_000)
  }

  deinit {
    statements.removeAll()
    sqlite3_close_v2(handle)
  }

  func error(_ code: Int32, sql: String?) -> SQLiteError {
    SQLiteError(
      code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)),
      sql: sql
    )
    .withCode(code)
  }

  /// Runs one or more statements that return no rows.
  public func execute(_ sql: String) throws {
    var message: UnsafeMutablePointer<CChar>?
    let rc = sqlite3_exec(handle, sql, nil, nil, &message)
    if rc != SQLITE_OK {
      let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
      sqlite3_free(message)
      throw SQLiteError(code: sqlite3_extended_errcode(handle), message: text, sql: sql)
    }
  }

  /// A prepared statement, cached by its text.
  public func statement(_ sql: String) throws -> SQLiteStatement {
    let key = StatementText(sql)
    if let cached = statements[key] {
      cached.reset()
      return cached
    }
    let statement = try SQLiteStatement(connection: self, sql: sql)
    statements[key] = statement
    return statement
  }

  /// Binds, steps through every row and hands each to `row`.
  public func query(_ sql: String, _ bindings: [SQLiteValue] = [], row: (SQLiteRow) throws -> Void)
    throws
  {
    let statement = try self.statement(sql)
    defer { statement.reset() }
    try statement.bind(bindings)
    while try statement.step() { try row(SQLiteRow(statement: statement)) }
  }

  public func rows<T>(_ sql: String, _ bindings: [SQLiteValue] = [], _ map: (SQLiteRow) throws -> T)
    throws -> [T]
  {
    var result: [T] = []
    try query(sql, bindings) { result.append(try map($0)) }
    return result
  }

  public func firstRow<T>(
    _ sql: String, _ bindings: [SQLiteValue] = [], _ map: (SQLiteRow) throws -> T
  ) throws -> T? {
    var result: T?
    try query(sql, bindings) { row in if result == nil { result = try map(row) } }
    return result
  }

  /// Runs a statement that returns no rows, with bindings.
  public func run(_ sql: String, _ bindings: [SQLiteValue] = []) throws {
    let statement = try self.statement(sql)
    defer { statement.reset() }
    try statement.bind(bindings)
    while try statement.step() {}
  }

  public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
  public var changes: Int { Int(sqlite3_changes(handle)) }
  /// Rows this connection has inserted, updated or deleted since it opened (sqlite3_total_changes64).
  public var totalChanges: Int64 { sqlite3_total_changes64(handle) }

  /// `PRAGMA data_version`: changes whenever another connection (of this process or another)
  /// has committed to the database since this one last asked.
  public func dataVersion() throws -> Int64 {
    try firstRow("PRAGMA data_version") { $0.int64(0) } ?? 0
  }

  public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

  /// How long a statement waits for another connection's write to end before it fails as busy.
  public func setBusyTimeout(milliseconds: Int32) { sqlite3_busy_timeout(handle, milliseconds) }

  /// `BEGIN IMMEDIATE … COMMIT`, rolled back if the body throws. Inside a transaction
  /// already open, the body joins it.
  public func immediateTransaction<T>(_ body: () throws -> T) throws -> T {
    if isInTransaction { return try body() }
    try execute("BEGIN IMMEDIATE")
    do {
      let value = try body()
      try execute("COMMIT")
      return value
    } catch {
      try? execute("ROLLBACK")
      throw error
    }
  }
}

/// A statement's text as the cache's key: hashed by its length and its first and last bytes,
/// compared whole. Hashing a whole text (4 kB for 64 packet rows) cost more than its lookup
/// saved; the texts a connection prepares are few.
struct StatementText: Hashable {
  let sql: String

  init(_ sql: String) { self.sql = sql }

  func hash(into hasher: inout Hasher) {
    var sql = sql
    sql.withUTF8 { bytes in
      hasher.combine(bytes.count)
      let edge = 32
      hasher.combine(
        bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes.prefix(edge))))
      hasher.combine(
        bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes.suffix(edge))))
    }
  }

  static func == (a: StatementText, b: StatementText) -> Bool { a.sql == b.sql }
}

extension SQLiteError {
  func withCode(_ fallback: Int32) -> SQLiteError {
    code == 0 ? SQLiteError(code: fallback, message: message, sql: sql) : self
  }
}

public enum SQLiteValue: Sendable, Hashable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob(Data)
}

extension SQLiteValue {
  public static func int<I: BinaryInteger>(_ value: I?) -> SQLiteValue {
    value.map { .integer(Int64($0)) } ?? .null
  }
  public static func string(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }
  public static func bool(_ value: Bool) -> SQLiteValue { .integer(value ? 1 : 0) }
}

/// Owns one `sqlite3_stmt`.
public final class SQLiteStatement {
  let handle: OpaquePointer
  let sql: String
  unowned let connection: SQLiteConnection

  init(connection: SQLiteConnection, sql: String) throws {
    var statement: OpaquePointer?
    let rc = sqlite3_prepare_v2(connection.handle, sql, -1, &statement, nil)
    guard rc == SQLITE_OK, let statement else { throw connection.error(rc, sql: sql) }
    handle = statement
    self.sql = sql
    self.connection = connection
  }

  deinit { sqlite3_finalize(handle) }

  func reset() {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
  }

  func bind(_ values: [SQLiteValue]) throws {
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      let rc: Int32
      switch value {
      case .null: rc = sqlite3_bind_null(handle, index)
      case .integer(let v): rc = sqlite3_bind_int64(handle, index, v)
      case .real(let v): rc = sqlite3_bind_double(handle, index, v)
      case .text(let v): rc = sqlite3_bind_text(handle, index, v, -1, csqlite_transient())
      case .blob(let v):
        rc = v.withUnsafeBytes { raw in
          sqlite3_bind_blob(
            handle, index, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(v.count),
            csqlite_transient())
        }
      }
      guard rc == SQLITE_OK else { throw connection.error(rc, sql: sql) }
    }
  }

  /// One integer bound, at a 1-based parameter index.
  func bind(_ value: Int64, at index: Int32) throws {
    let rc = sqlite3_bind_int64(handle, index, value)
    guard rc == SQLITE_OK else { throw connection.error(rc, sql: sql) }
  }

  /// True while there is a row.
  func step() throws -> Bool {
    let rc = sqlite3_step(handle)
    switch rc {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default: throw connection.error(rc, sql: sql)
    }
  }
}

/// The current row of a statement, read by column index (named columns: see `FlowColumn`).
public struct SQLiteRow {
  let statement: SQLiteStatement

  public func isNull(_ i: Int32) -> Bool { sqlite3_column_type(statement.handle, i) == SQLITE_NULL }
  public func int64(_ i: Int32) -> Int64 { sqlite3_column_int64(statement.handle, i) }
  public func int(_ i: Int32) -> Int { Int(int64(i)) }
  public func optionalInt64(_ i: Int32) -> Int64? { isNull(i) ? nil : int64(i) }
  public func bool(_ i: Int32) -> Bool { int64(i) != 0 }
  public func string(_ i: Int32) -> String {
    guard let text = sqlite3_column_text(statement.handle, i) else { return "" }
    return String(cString: text)
  }
  public func optionalString(_ i: Int32) -> String? { isNull(i) ? nil : string(i) }
  public func data(_ i: Int32) -> Data {
    let count = Int(sqlite3_column_bytes(statement.handle, i))
    guard count > 0, let bytes = sqlite3_column_blob(statement.handle, i) else { return Data() }
    return Data(bytes: bytes, count: count)
  }
  public func date(_ i: Int32) -> Date { Instant.date(nanoseconds: int64(i)) }
  /// The names of the statement's result columns, in their order.
  public var columnNames: [String] {
    (0..<sqlite3_column_count(statement.handle)).map {
      sqlite3_column_name(statement.handle, $0).map { String(cString: $0) } ?? ""
    }
  }
  public func optionalDate(_ i: Int32) -> Date? { isNull(i) ? nil : date(i) }
}
