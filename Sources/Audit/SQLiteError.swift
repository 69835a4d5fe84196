/// One error for everything SQLite refuses: the extended result code, SQLite's message,
/// and the SQL that was running.
public struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
  public let code: Int32
  public let message: String
  public let sql: String?

  public init(code: Int32, message: String, sql: String? = nil) {
    self.code = code
    self.message = message
    self.sql = sql
  }

  /// The primary result code (SQLITE_BUSY, SQLITE_CONSTRAINT…), without the extended bits.
  public var primaryCode: Int32 { code & 0xff }

  public var description: String { StorePresentation.sentence(for: self) }
}
