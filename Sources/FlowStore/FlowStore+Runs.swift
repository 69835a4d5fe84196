import Audit
import AuditRules
import Foundation

/// The columns of `capture_sessions`: a recorder run, or an import (no source).
enum RunColumn: Int, TableColumns {
  case id, startedAt, source, live, processId, aliveAt, endedAt, endKind
  case inspectionLog, inspectionLogState, inspectionLinesUnreadable
  case filter, libpcap
}

/// The columns of `proxy_starts`: what an inspecting proxy said of itself when it started.
enum ProxyStartColumn: Int, TableColumns {
  case id, captureSessionId, tool, version, options
}

extension FlowStore {
  /// Begins a recorder run: its capture session, with what it reads and who it is. Returns its id.
  public func beginRecorderRun(
    _ claim: RecorderClaim, at date: Date, inspectionLog: String?, filter: String? = nil,
    libpcap: String? = nil
  ) throws -> Int64 {
    try transaction {
      try db.run(
        """
        INSERT INTO capture_sessions
          (started_at, source, live, process_id, alive_at, inspection_log, filter, libpcap)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """,
        [
          .integer(Instant.nanoseconds(date)), .text(claim.sourceName), .bool(claim.isLive),
          .int(claim.processID), .integer(Instant.nanoseconds(date)), .string(inspectionLog),
          .string(filter), .string(libpcap),
        ])
      return db.lastInsertRowID
    }
  }

  /// What the inspecting proxy said of itself when it started, as the run read it.
  public func addProxyStart(_ start: RecorderRun.ProxyRun, toRun id: Int64) throws {
    let options = JSONValue.object(start.options.mapValues { .string($0) }).serialized()
    try wrap {
      try db.run(
        "INSERT INTO proxy_starts (capture_session_id, tool, version, options) VALUES (?, ?, ?, ?)",
        [.integer(id), .text(start.tool), .string(start.version), .text(options)])
    }
  }

  /// The proxy starts of the runs, by run, each run's in the order read.
  func proxyStarts(ofRuns ids: [Int64]) throws -> [Int64: [RecorderRun.ProxyRun]] {
    guard !ids.isEmpty else { return [:] }
    let rows = try db.rows(
      """
      SELECT \(ProxyStartColumn.selectList()) FROM proxy_starts
      WHERE capture_session_id IN (\(ids.map { _ in "?" }.joined(separator: ", "))) ORDER BY id
      """, ids.map { .integer($0) }
    ) { row in
      (
        row.int64(column: ProxyStartColumn.captureSessionId),
        RecorderRun.ProxyRun(
          tool: row.string(column: ProxyStartColumn.tool),
          version: row.optionalString(column: ProxyStartColumn.version),
          options: Self.options(row.string(column: ProxyStartColumn.options)))
      )
    }
    return Dictionary(grouping: rows, by: \.0).mapValues { $0.map(\.1) }
  }

  /// The proxy starts of an imported session: those its import read from the inspection log
  /// given beside the capture, kept with the import's capture session (one without a source).
  public func importProxyStarts(inAuditSession id: Int64) throws -> [RecorderRun.ProxyRun] {
    try wrap {
      let imports = try db.rows(
        """
        SELECT DISTINCT c.id FROM capture_sessions c JOIN flows f ON f.session = c.id
        WHERE f.audit_session_id = ? AND c.source IS NULL ORDER BY c.id
        """, [.integer(id)]
      ) { $0.int64(0) }
      let starts = try proxyStarts(ofRuns: imports)
      return imports.flatMap { starts[$0] ?? [] }
    }
  }

  /// A proxy start's options as stored: a JSON object of strings (anything else reads as none).
  static func options(_ text: String) -> [String: String] {
    guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    else { return [:] }
    return object.compactMapValues { $0 as? String }
  }

  /// The run's sign of life, what became of its inspection log, and how many of the log's lines
  /// it could not read so far.
  public func recorderRunAlive(
    _ id: Int64, at date: Date, inspectionLog: InspectionLogState?, unreadableLines: Int = 0
  ) throws {
    try wrap {
      try db.run(
        """
        UPDATE capture_sessions SET alive_at = max(alive_at, ?), inspection_log_state = ?,
          inspection_lines_unreadable = ?
        WHERE id = ?
        """,
        [
          .integer(Instant.nanoseconds(date)), .int(inspectionLog?.rawValue), .int(unreadableLines),
          .integer(id),
        ])
    }
  }

  /// The run ended, and how.
  public func endRecorderRun(_ id: Int64, at date: Date, _ end: RecorderRunEnd) throws {
    try transaction {
      try db.run(
        """
        UPDATE capture_sessions SET alive_at = max(alive_at, ?), ended_at = ?, end_kind = ?
        WHERE id = ? AND ended_at IS NULL
        """,
        [
          .integer(Instant.nanoseconds(date)), .integer(Instant.nanoseconds(date)),
          .int(end.rawValue), .integer(id),
        ])
    }
  }

  /// Runs that never said they ended, other than the one running now (its process's, when one
  /// holds the recorder's lock): they vanished, known to have run until their last sign of life.
  /// Returns how many were found.
  @discardableResult
  public func settleVanishedRuns(runningProcess: Int32?) throws -> Int {
    try transaction {
      try db.run(
        """
        UPDATE capture_sessions SET ended_at = alive_at, end_kind = ?
        WHERE source IS NOT NULL AND ended_at IS NULL AND process_id IS NOT ?
        """, [.int(RecorderRunEnd.vanished.rawValue), .int(runningProcess)])
      return db.changes
    }
  }

  /// The recorder runs that overlap `start`…`end` (nil: up to now), oldest first.
  public func recorderRuns(from start: Date, to end: Date?) throws -> [RecorderRun] {
    try wrap {
      let runs = try db.rows(
        """
        SELECT \(RunColumn.selectList()) FROM capture_sessions
        WHERE source IS NOT NULL AND started_at <= ? AND (ended_at IS NULL OR ended_at >= ?)
        ORDER BY started_at, id
        """,
        [.integer(end.map(Instant.nanoseconds) ?? .max), .integer(Instant.nanoseconds(start))],
        Self.run(from:))
      return runs.withProxies(try proxyStarts(ofRuns: runs.map(\.id)))
    }
  }

  /// Whether the run recorded a flow of the session: those kept before runs were (schema 5)
  /// have capture sessions without a source.
  public func hasFlowsOfUnknownRuns(inAuditSession id: Int64) throws -> Bool {
    try wrap {
      try db.firstRow(
        """
        SELECT EXISTS (SELECT 1 FROM flows f JOIN capture_sessions c ON c.id = f.session
        WHERE f.audit_session_id = ? AND c.source IS NULL)
        """, [.integer(id)]
      ) { $0.bool(0) } ?? false
    }
  }

  static func run(from row: SQLiteRow) -> RecorderRun {
    RecorderRun(
      id: row.int64(column: RunColumn.id), source: row.string(column: RunColumn.source),
      isLive: row.bool(column: RunColumn.live),
      processID: Int32(truncatingIfNeeded: row.int64(column: RunColumn.processId)),
      startedAt: row.date(column: RunColumn.startedAt),
      aliveAt: row.date(column: RunColumn.aliveAt),
      endedAt: row.optionalDate(column: RunColumn.endedAt),
      end: row.optionalInt64(column: RunColumn.endKind).flatMap {
        RecorderRunEnd(rawValue: Int($0))
      },
      inspectionLog: row.optionalString(column: RunColumn.inspectionLog),
      inspectionLogState: row.optionalInt64(column: RunColumn.inspectionLogState).flatMap {
        InspectionLogState(rawValue: Int($0))
      }, inspectionLinesUnreadable: row.int(column: RunColumn.inspectionLinesUnreadable),
      filter: row.optionalString(column: RunColumn.filter),
      libpcap: row.optionalString(column: RunColumn.libpcap))
  }
}

extension Array where Element == RecorderRun {
  fileprivate func withProxies(_ starts: [Int64: [RecorderRun.ProxyRun]]) -> [RecorderRun] {
    map { run in
      var run = run
      run.proxies = starts[run.id] ?? []
      return run
    }
  }
}

extension FlowStore {
  /// The session's connections as its coverage reads them: each one's run and last packet.
  public func coverageConnections(inAuditSession id: Int64) throws -> [SessionCoverage.Connection] {
    try wrap {
      try db.rows(
        "SELECT \(CoverageColumn.selectList()) FROM flows WHERE audit_session_id = ?",
        [.integer(id)]
      ) {
        SessionCoverage.Connection(
          run: $0.int64(column: CoverageColumn.session),
          lastSeen: $0.date(column: CoverageColumn.lastSeen))
      }
    }
  }

  /// The session's coverage: its window against the runs of this store. `runningProcess`: the
  /// process holding the recorder's lock now, if one does.
  public func coverage(of session: AuditSession, runningProcess: Int32?, now: Date) throws
    -> SessionCoverage
  {
    SessionCoverage.of(
      session, runs: try recorderRuns(from: session.startedAt, to: session.endedAt),
      runningProcess: runningProcess, now: now,
      connections: try coverageConnections(inAuditSession: session.id),
      runsNotKept: try hasFlowsOfUnknownRuns(inAuditSession: session.id))
  }

  /// The run of this process, if it has not ended: the one recording now.
  public func unendedRun(ofProcess processID: Int32) throws -> RecorderRun? {
    try wrap {
      try db.firstRow(
        """
        SELECT \(RunColumn.selectList()) FROM capture_sessions
        WHERE source IS NOT NULL AND ended_at IS NULL AND process_id = ? ORDER BY id DESC
        """, [.int(processID)], Self.run(from:))
    }
  }
}

/// The columns of `flows` a session's coverage reads.
enum CoverageColumn: Int, TableColumns {
  case session, lastSeen
}
