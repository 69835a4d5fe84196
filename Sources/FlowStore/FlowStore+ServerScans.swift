import Audit
import Foundation

/// The columns of `server_scans`, in the table's order.
enum ServerScanColumn: Int, TableColumns {
  case id, auditSessionId, storedAt, tool, fileName, sha256, output
}

extension FlowStore {
  /// Keeps a scan with its session (which must exist); returns its id.
  @discardableResult
  public func insertServerScan(_ scan: StoredServerScan) throws -> Int64 {
    try transaction {
      guard
        try db.firstRow(
          "SELECT 1 FROM audit_sessions WHERE id = ?", [.integer(scan.sessionID)], { _ in 1 })
          != nil
      else { throw AuditStoreError.sessionNotFound(scan.sessionID) }
      var values = ColumnValues<ServerScanColumn, SQLiteValue>(filledWith: .null)
      values[.auditSessionId] = .integer(scan.sessionID)
      values[.storedAt] = .integer(Instant.nanoseconds(scan.storedAt))
      values[.tool] = .text(scan.tool)
      values[.fileName] = .text(scan.fileName)
      values[.sha256] = .text(scan.sha256)
      values[.output] = .blob(scan.output)
      let columns = ServerScanColumn.allCases.dropFirst()
      try db.run(
        "INSERT INTO server_scans (\(columns.map(\.snakeCaseIdentifier).joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))",
        columns.map { values[$0] })
      return db.lastInsertRowID
    }
  }

  /// A session's scans, oldest first.
  public func serverScans(ofSession id: Int64) throws -> [StoredServerScan] {
    try wrap {
      try db.rows(
        "SELECT \(ServerScanColumn.selectList()) FROM server_scans WHERE audit_session_id = ? ORDER BY id",
        [.integer(id)]
      ) { row in
        StoredServerScan(
          id: row.int64(column: ServerScanColumn.id),
          sessionID: row.int64(column: ServerScanColumn.auditSessionId),
          storedAt: row.date(column: ServerScanColumn.storedAt),
          tool: row.string(column: ServerScanColumn.tool),
          fileName: row.string(column: ServerScanColumn.fileName),
          sha256: row.string(column: ServerScanColumn.sha256),
          output: row.data(column: ServerScanColumn.output))
      }
    }
  }
}
