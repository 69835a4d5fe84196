import Audit
import AuditRules
import Foundation

extension FlowStore {
  /// A page of the history as `query` selects it, newest first unless it asks otherwise, after
  /// `cursor`: at most `limit` flows, and the cursor of the last when more may follow.
  public func historyPage(_ query: HistoryQuery, after cursor: HistoryCursor?, limit: Int) throws
    -> (flows: [StoredFlow], next: HistoryCursor?)
  {
    var conditions: [String] = []
    var bindings: [SQLiteValue] = []
    if let id = query.auditSessionID {
      conditions.append("\(FlowColumn.auditSessionId.name) = ?")
      bindings.append(.integer(id))
    }
    if let host = query.host, !host.isEmpty {
      let pattern =
        "%"
        + host.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
          of: "%", with: "\\%"
        )
        .replacingOccurrences(of: "_", with: "\\_") + "%"
      let columns: [FlowColumn] = [
        .sni, .connectHost, .dnsName, .dnsOtherNames, .httpHost, .addrA, .addrB,
      ]
      conditions.append(
        "(" + columns.map { "\($0.name) LIKE ? ESCAPE '\\'" }.joined(separator: " OR ") + ")")
      bindings += columns.map { _ in .text(pattern) }
    }
    if let since = query.since {
      conditions.append("\(FlowColumn.lastSeen.name) >= ?")
      bindings.append(.integer(Instant.nanoseconds(since)))
    }
    if let until = query.until {
      conditions.append("\(FlowColumn.firstSeen.name) <= ?")
      bindings.append(.integer(Instant.nanoseconds(until)))
    }
    if let status = query.status {
      conditions.append("\(FlowColumn.tlsStatus.name) = ?")
      bindings.append(.int(status.rawValue))
    }
    if let p = query.ipProtocol {
      conditions.append("\(FlowColumn.protocol.name) = ?")
      bindings.append(.int(p.rawValue))
    }
    if let ids = query.flowIDs {
      conditions.append(
        "\(FlowColumn.id.name) IN (\(ids.sorted().map(String.init).joined(separator: ", ")))")
    }
    if let after = query.afterID {
      conditions.append("\(FlowColumn.id.name) > ?")
      bindings.append(.integer(after))
    }
    let order = query.oldestFirst ? "ASC" : "DESC"
    if let cursor {
      conditions.append(
        "(\(FlowColumn.firstSeen.name), \(FlowColumn.id.name)) \(query.oldestFirst ? ">" : "<") (?, ?)"
      )
      bindings += [.integer(Instant.nanoseconds(cursor.firstSeen)), .integer(cursor.id)]
    }
    let sql = """
      SELECT \(FlowColumn.selectList) FROM flows\
      \(conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")) \
      ORDER BY \(FlowColumn.firstSeen.name) \(order), \(FlowColumn.id.name) \(order) LIMIT ?
      """
    let flows = try readFlows(sql, bindings + [.int(limit + 1)], expected: limit + 1)
    let page = Array(flows.prefix(limit))
    let next =
      flows.count > limit
      ? page.last.map { HistoryCursor(firstSeen: $0.firstSeen, id: $0.id) } : nil
    return (page, next)
  }

  /// The id of the flow written last (ids grow as flows are inserted); 0 for none.
  public func highestFlowID() throws -> Int64 {
    try wrap { try db.firstRow("SELECT coalesce(max(id), 0) FROM flows") { $0.int64(0) } ?? 0 }
  }

  /// The packets of the flows seen in a stretch of time, per interval of it: the flows by
  /// `flows_last_seen` (those last seen before the stretch are never read: the first page's
  /// stretch is the newest), their packets in it by `packets_flow`. Reading the packets by time
  /// alone read every packet of the history.
  static let packetActivityQuery = """
    SELECT \(ActivityColumn.selectList) FROM flows f CROSS JOIN packets p
    ON p.flow_id = f.id AND p.ts >= ? AND p.ts < ?
    WHERE f.last_seen >= ? AND +f.first_seen < ? GROUP BY 1
    """

  /// Packets of the whole history per interval from `start`, `count` intervals of `width`.
  public func packetActivity(from start: Date, width: TimeInterval, count: Int) throws -> [Int] {
    let startNanos = Instant.nanoseconds(start)
    let widthNanos = max(1, Int64(width * 1e9))
    let endNanos = startNanos + widthNanos * Int64(count)
    var counts = [Int](repeating: 0, count: count)
    try wrap {
      try db.query(
        Self.packetActivityQuery,
        [
          .integer(startNanos), .integer(widthNanos), .integer(startNanos), .integer(endNanos),
          .integer(startNanos), .integer(endNanos),
        ]
      ) { row in
        let bucket = row.int(column: ActivityColumn.bucket)
        if counts.indices.contains(bucket) {
          counts[bucket] = row.int(column: ActivityColumn.packets)
        }
      }
    }
    return counts
  }
}

/// What the history holds of one capture file: its packets, and the audit sessions whose
/// evidence they are.
public struct CaptureFileUse: Sendable, Hashable {
  public var packets = 0
  public var sessions: [Int64] = []
}

extension FlowStore {
  /// By file sequence: the packets the history keeps in it and the sessions they are evidence of.
  public func captureFileUse() throws -> [UInt32: CaptureFileUse] {
    var use: [UInt32: CaptureFileUse] = [:]
    try wrap {
      try db.query(
        "SELECT \(FilePacketsColumn.selectList) FROM packets WHERE file_seq > 0 GROUP BY file_seq"
      ) {
        use[
          UInt32(truncatingIfNeeded: $0.int64(column: FilePacketsColumn.fileSeq)),
          default: CaptureFileUse()
        ].packets = $0.int(column: FilePacketsColumn.packets)
      }
      try db.query(
        """
        SELECT DISTINCT \(FileSessionColumn.selectList) FROM flows f CROSS JOIN packets p ON p.flow_id = f.id
        WHERE f.audit_session_id IS NOT NULL AND p.file_seq > 0 ORDER BY 1, 2
        """
      ) {
        use[
          UInt32(truncatingIfNeeded: $0.int64(column: FileSessionColumn.fileSeq)),
          default: CaptureFileUse()
        ].sessions.append($0.int64(column: FileSessionColumn.auditSessionId))
      }
    }
    return use
  }
}

/// The packets of the history per interval: each interval's number from the start, and its count.
enum ActivityColumn: Int, QueryColumns {
  case bucket, packets
  var expression: String { self == .bucket ? "(p.ts - ?) / ?" : "count(*)" }
}

/// The packets each capture file holds.
enum FilePacketsColumn: Int, QueryColumns {
  case fileSeq, packets
  var expression: String { self == .fileSeq ? "file_seq" : "count(*)" }
}

/// The audit sessions whose packets each capture file holds.
enum FileSessionColumn: Int, QueryColumns {
  case fileSeq, auditSessionId
  var expression: String { self == .fileSeq ? "p.file_seq" : "f.audit_session_id" }
}
