import Audit
import Foundation

/// A row selected with a `TableColumns` enum's `selectList` is read by column: its place in the
/// row is the column's own, so no query reads a table by a position written out by hand.
extension SQLiteRow {
  func isNull<C: TableColumns>(column c: C) -> Bool { isNull(Int32(c.rawValue)) }
  func int64<C: TableColumns>(column c: C) -> Int64 { int64(Int32(c.rawValue)) }
  func int<C: TableColumns>(column c: C) -> Int { int(Int32(c.rawValue)) }
  func optionalInt64<C: TableColumns>(column c: C) -> Int64? { optionalInt64(Int32(c.rawValue)) }
  func bool<C: TableColumns>(column c: C) -> Bool { bool(Int32(c.rawValue)) }
  func string<C: TableColumns>(column c: C) -> String { string(Int32(c.rawValue)) }
  func optionalString<C: TableColumns>(column c: C) -> String? { optionalString(Int32(c.rawValue)) }
  func date<C: TableColumns>(column c: C) -> Date { date(Int32(c.rawValue)) }
  func optionalDate<C: TableColumns>(column c: C) -> Date? { optionalDate(Int32(c.rawValue)) }
  func data<C: TableColumns>(column c: C) -> Data { data(Int32(c.rawValue)) }
}

extension TableColumns {
  /// The columns as a SELECT lists them, in their order, each qualified by `table` when given
  /// ("p.flow_id, p.ts, …").
  static func selectList(of table: String? = nil) -> String {
    allCases.map { (table.map { $0 + "." } ?? "") + $0.snakeCaseIdentifier }.joined(
      separator: ", ")
  }
}

/// The columns of `packets` that are read back: where a packet's bytes are and what it was.
enum PacketColumn: Int, TableColumns {
  case flowId, ts, direction, length, tcpFlags, fileSeq, fileOffset
}

/// The columns of `packets` a session's packet counts read, and its fingerprint (the highest id).
enum PacketCountColumn: Int, TableColumns {
  case id, flowId, ts, fileSeq, fileOffset
}

/// The columns of `packets` that say where a packet of a capture file is and whose it is: all a
/// capture's slicing reads of each of its packets.
enum PacketPlaceColumn: Int, TableColumns {
  case flowId, direction, fileOffset
}

/// The columns of `audit_markers`.
enum MarkerColumn: Int, TableColumns {
  case id, sessionId, ts, kind, label
}

/// The columns of `audit_projects`.
enum ProjectColumn: Int, TableColumns {
  case id, name, bundleId, catalogueVersion, createdAt
}

/// The columns of `audit_allowlist` that are read back, in their list's order.
enum AllowlistColumn: Int, TableColumns {
  case pattern, note
}

/// The columns of `capture_files`: a file's sequence, claimed when it was started.
enum CaptureFileColumn: Int, TableColumns {
  case sequence, createdAt
}

/// The single blob of `flow_certificates` read back.
enum CertificateColumn: Int, TableColumns {
  case der
}

/// The columns of a query's result that are expressions rather than a table's columns (a count,
/// a sum): each case selects its expression under its own name, and is read by that case.
protocol QueryColumns: TableColumns {
  var expression: String { get }
}

extension QueryColumns {
  /// "count(*) AS count, coalesce(max(id), 0) AS highest_id".
  static var selectList: String {
    allCases.map { "\($0.expression) AS \($0.snakeCaseIdentifier)" }.joined(separator: ", ")
  }
}
