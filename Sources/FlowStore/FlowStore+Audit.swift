import Audit
import AuditRules
import CSQLite
import Foundation

extension FlowStore {
  // MARK: Projects

  public func createAuditProject(_ draft: AuditProjectDraft, at date: Date) throws -> AuditProject {
    let name = try Self.validatedName(draft)
    let id: Int64 = try transaction {
      try db.run(
        "INSERT INTO audit_projects (name, bundle_id, catalogue_version, created_at) VALUES (?, ?, ?, ?)",
        [
          .text(name), .string(Self.blankToNil(draft.bundleIdentifier)),
          .string(Self.blankToNil(draft.catalogueVersion)), .integer(Instant.nanoseconds(date)),
        ])
      let id = db.lastInsertRowID
      try writeAllowlist(draft.allowlist, project: id)
      return id
    }
    guard let project = try auditProject(id: id) else { throw AuditStoreError.projectNotFound(id) }
    return project
  }

  /// Newest first.
  public func auditProjects() throws -> [AuditProject] {
    let ids = try wrap {
      try db.rows("SELECT id FROM audit_projects ORDER BY created_at DESC, id DESC") { $0.int64(0) }
    }
    return try ids.compactMap { try auditProject(id: $0) }
  }

  public func auditProject(id: Int64) throws -> AuditProject? {
    try wrap {
      guard
        let head = try db.firstRow(
          "SELECT \(ProjectColumn.selectList()) FROM audit_projects WHERE id = ?",
          [.integer(id)],
          {
            (
              $0.int64(column: ProjectColumn.id), $0.string(column: ProjectColumn.name),
              $0.optionalString(column: ProjectColumn.bundleId),
              $0.optionalString(column: ProjectColumn.catalogueVersion),
              $0.date(column: ProjectColumn.createdAt)
            )
          })
      else { return nil }
      let entries = try db.rows(
        "SELECT \(AllowlistColumn.selectList()) FROM audit_allowlist WHERE project_id = ? ORDER BY position",
        [.integer(id)]
      ) { row -> AllowlistEntry? in
        guard let pattern = try? DomainPattern(parsing: row.string(column: AllowlistColumn.pattern))
        else {
          return nil
        }
        return AllowlistEntry(
          pattern: pattern, note: row.optionalString(column: AllowlistColumn.note))
      }
      return AuditProject(
        id: head.0, name: head.1, bundleIdentifier: head.2, catalogueVersion: head.3,
        allowlist: entries.compactMap { $0 }, createdAt: head.4)
    }
  }

  public func updateAuditProject(id: Int64, with draft: AuditProjectDraft) throws -> AuditProject {
    let name = try Self.validatedName(draft)
    try transaction {
      try db.run(
        "UPDATE audit_projects SET name = ?, bundle_id = ?, catalogue_version = ? WHERE id = ?",
        [
          .text(name), .string(Self.blankToNil(draft.bundleIdentifier)),
          .string(Self.blankToNil(draft.catalogueVersion)), .integer(id),
        ])
      guard db.changes == 1 else { throw AuditStoreError.projectNotFound(id) }
      try db.run("DELETE FROM audit_allowlist WHERE project_id = ?", [.integer(id)])
      try writeAllowlist(draft.allowlist, project: id)
    }
    guard let project = try auditProject(id: id) else { throw AuditStoreError.projectNotFound(id) }
    return project
  }

  /// Deletes the project, its sessions and markers. The flows stay in the history, untagged.
  public func deleteAuditProject(id: Int64) throws {
    try transaction {
      try db.run("DELETE FROM audit_projects WHERE id = ?", [.integer(id)])
      guard db.changes == 1 else { throw AuditStoreError.projectNotFound(id) }
    }
  }

  private func writeAllowlist(_ entries: [AllowlistEntry], project: Int64) throws {
    var seen = Set<String>()
    for (position, entry) in entries.enumerated() {
      guard seen.insert(entry.pattern.text).inserted else {
        throw AuditStoreError.duplicateAllowlistPattern(entry.pattern.text)
      }
      try db.run(
        "INSERT INTO audit_allowlist (project_id, position, pattern, note) VALUES (?, ?, ?, ?)",
        [.integer(project), .int(position), .text(entry.pattern.text), .string(entry.note)])
    }
  }

  private static func validatedName(_ draft: AuditProjectDraft) throws -> String {
    let name = draft.name.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !name.isEmpty else { throw AuditStoreError.emptyProjectName }
    return name
  }

  private static func blankToNil(_ text: String?) -> String? {
    guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty
    else { return nil }
    return trimmed
  }

  // MARK: Sessions

  static let sessionColumns = SessionColumn.allCases.map(\.name).joined(separator: ", ")

  static func session(from row: SQLiteRow) -> AuditSession {
    let kind: AuditSessionKind =
      row.int64(column: SessionColumn.kind) == AuditSerialization.baseline
      ? .baseline
      : .audit(
        AppRelease(
          version: row.string(column: SessionColumn.appVersion),
          build: row.string(column: SessionColumn.buildNumber)))
    return AuditSession(
      id: row.int64(column: SessionColumn.id),
      projectID: row.int64(column: SessionColumn.projectId), kind: kind,
      environment: AuditEnvironment(
        deviceModel: row.string(column: SessionColumn.deviceModel),
        osVersion: row.string(column: SessionColumn.osVersion),
        toolVersion: row.string(column: SessionColumn.toolVersion)),
      inspection: InspectionConditions(
        inspectionEnabled: row.bool(column: SessionColumn.inspectionEnabled),
        scenario: row.optionalInt64(column: SessionColumn.certificateScenario).flatMap {
          CertificateScenario(rawValue: Int($0))
        }),
      startedAt: row.date(column: SessionColumn.startedAt),
      endedAt: row.optionalDate(column: SessionColumn.endedAt),
      notes: row.string(column: SessionColumn.notes),
      source: row.optionalString(column: SessionColumn.captureSha256).map {
        CaptureSource(
          fileName: row.string(column: SessionColumn.captureFileName), sha256: $0,
          application: row.optionalString(column: SessionColumn.captureApplication),
          host: row.optionalString(column: SessionColumn.captureHost))
      }, recorderAtEnd: row.optionalInt64(column: SessionColumn.recorderAtEnd),
      inspectionLogAtEnd: row.optionalInt64(column: SessionColumn.inspectionLogAtEnd).flatMap {
        InspectionLogState(rawValue: Int($0))
      })
  }

  /// The sessions imported from a capture file of this SHA-256, oldest first.
  public func auditSessions(importedFromCaptureSHA256 digest: String) throws -> [AuditSession] {
    try wrap {
      try db.rows(
        "SELECT \(Self.sessionColumns) FROM audit_sessions WHERE capture_sha256 = ? ORDER BY id",
        [.text(digest)], Self.session(from:))
    }
  }

  /// Opens a session. Only one can be open across all projects: the one in the way is named.
  public func startAuditSession(_ draft: AuditSessionDraft, at date: Date) throws -> AuditSession {
    let id: Int64 = try transaction {
      guard
        try db.firstRow(
          "SELECT 1 FROM audit_projects WHERE id = ?", [.integer(draft.projectID)], { _ in true })
          != nil
      else {
        throw AuditStoreError.projectNotFound(draft.projectID)
      }
      if let open = try db.firstRow(
        "SELECT id FROM audit_sessions WHERE ended_at IS NULL", [], { $0.int64(0) })
      {
        throw AuditStoreError.sessionAlreadyOpen(open)
      }
      let release = draft.kind.release
      try db.run(
        """
        INSERT INTO audit_sessions (project_id, kind, app_version, build_number, device_model, os_version,
            tool_version, inspection_enabled, ca_trusted, started_at, ended_at, notes,
            capture_sha256, capture_file_name, capture_application, capture_host,
            certificate_scenario)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?)
        """,
        [
          .integer(draft.projectID),
          .integer(release == nil ? AuditSerialization.baseline : AuditSerialization.audit),
          .string(release?.version), .string(release?.build), .text(draft.environment.deviceModel),
          .text(draft.environment.osVersion), .text(draft.environment.toolVersion),
          .bool(draft.inspection.inspectionEnabled), .bool(draft.inspection.caTrusted),
          .integer(Instant.nanoseconds(date)), .text(draft.notes), .string(draft.source?.sha256),
          .string(draft.source?.fileName), .string(draft.source?.application),
          .string(draft.source?.host), .int(draft.inspection.scenario?.rawValue),
        ])
      return db.lastInsertRowID
    }
    guard let session = try auditSession(id: id) else { throw AuditStoreError.sessionNotFound(id) }
    return session
  }

  /// Ends the session; `recorderAtEnd`: the run recording now, which covers it to its end (and
  /// what had become of its inspection log, as its last sign of life said).
  public func endAuditSession(id: Int64, at date: Date, recorderAtEnd: RecorderRun? = nil) throws
    -> AuditSession
  {
    try transaction {
      try requireOpenSession(id, acceptingChangeAt: date)
      try db.run(
        """
        UPDATE audit_sessions SET ended_at = ?, recorder_at_end = ?, inspection_log_at_end = ?
        WHERE id = ?
        """,
        [
          .integer(Instant.nanoseconds(date)), .int(recorderAtEnd?.id),
          .int(recorderAtEnd?.inspectionLogState?.rawValue), .integer(id),
        ])
    }
    guard let session = try auditSession(id: id) else { throw AuditStoreError.sessionNotFound(id) }
    return session
  }

  /// The rules an end and a marker share: the session exists, is open, and began before `date`.
  @discardableResult
  private func requireOpenSession(_ id: Int64, acceptingChangeAt date: Date) throws
    -> AuditSession
  {
    guard
      let session = try db.firstRow(
        "SELECT \(Self.sessionColumns) FROM audit_sessions WHERE id = ?",
        [.integer(id)], Self.session(from:))
    else {
      throw AuditStoreError.sessionNotFound(id)
    }
    guard session.isOpen else { throw AuditStoreError.sessionAlreadyEnded(id) }
    guard Instant.nanoseconds(date) >= Instant.nanoseconds(session.startedAt) else {
      throw AuditStoreError.dateBeforeSessionStart
    }
    return session
  }

  /// Open or ended. Its markers go with it; its flows stay in the history, untagged.
  public func deleteAuditSession(id: Int64) throws {
    try transaction {
      try db.run("DELETE FROM audit_sessions WHERE id = ?", [.integer(id)])
      guard db.changes == 1 else { throw AuditStoreError.sessionNotFound(id) }
    }
  }

  public func openAuditSession() throws -> AuditSession? {
    try wrap {
      try db.firstRow(
        "SELECT \(Self.sessionColumns) FROM audit_sessions WHERE ended_at IS NULL", [],
        Self.session(from:))
    }
  }

  public func auditSession(id: Int64) throws -> AuditSession? {
    try wrap {
      try db.firstRow(
        "SELECT \(Self.sessionColumns) FROM audit_sessions WHERE id = ?", [.integer(id)],
        Self.session(from:))
    }
  }

  /// Newest first.
  public func auditSessions(forProject projectID: Int64) throws -> [AuditSession] {
    try wrap {
      try db.rows(
        "SELECT \(Self.sessionColumns) FROM audit_sessions WHERE project_id = ? ORDER BY started_at DESC, id DESC",
        [.integer(projectID)], Self.session(from:))
    }
  }

  // MARK: Markers

  public func addMarker(_ kind: SessionMarkerKind, toSession id: Int64, at date: Date) throws
    -> SessionMarker
  {
    let (code, label) = AuditSerialization.markerKind(kind)
    let trimmedLabel = label?.trimmingCharacters(in: .whitespacesAndNewlines)
    if case .custom = kind, trimmedLabel?.isEmpty ?? true { throw AuditStoreError.emptyMarkerLabel }
    let markerID: Int64 = try transaction {
      let session = try requireOpenSession(id, acceptingChangeAt: date)
      if let refusal = AuditStoreError.markerRefusal(kind, in: session.kind) { throw refusal }
      try db.run(
        "INSERT INTO audit_markers (session_id, ts, kind, label) VALUES (?, ?, ?, ?)",
        [.integer(id), .integer(Instant.nanoseconds(date)), .integer(code), .string(trimmedLabel)])
      return db.lastInsertRowID
    }
    let kindStored: SessionMarkerKind = trimmedLabel.map { .custom($0) } ?? kind
    return SessionMarker(
      id: markerID, sessionID: id, date: Instant.date(nanoseconds: Instant.nanoseconds(date)),
      kind: kindStored)
  }

  /// Places a marker in whichever session is open, or says there is none.
  public func addMarkerToOpenSession(_ kind: SessionMarkerKind, at date: Date) throws
    -> OpenSessionMarkerOutcome
  {
    guard let recording = try auditRecording() else { return .noOpenSession }
    do {
      let marker = try addMarker(kind, toSession: recording.session.id, at: date)
      return .placed(marker, in: recording)
    } catch AuditStoreError.sessionNotFound, AuditStoreError.sessionAlreadyEnded {
      // Ended or deleted between the two reads: there is no open session to mark.
      return .noOpenSession
    }
  }

  /// Adds a line to an open session's notes (the recorder's facts of how it was recorded).
  public func appendNote(_ line: String, toOpenSession id: Int64) throws {
    try wrap {
      try db.run(
        """
        UPDATE audit_sessions SET notes = CASE WHEN notes = '' THEN ? ELSE notes || char(10) || ? END
        WHERE id = ? AND ended_at IS NULL
        """, [.text(line), .text(line), .integer(id)])
    }
  }

  /// The open session, with its project's name.
  public func auditRecording() throws -> AuditRecording? {
    try wrap {
      try db.firstRow(
        """
        SELECT \(SessionColumn.allCases.map { "s." + $0.name }.joined(separator: ", ")), p.name
        FROM audit_sessions s JOIN audit_projects p ON p.id = s.project_id WHERE s.ended_at IS NULL
        """, []
      ) {
        // The project's name comes after the session's columns.
        AuditRecording(
          session: Self.session(from: $0),
          projectName: $0.string(Int32(SessionColumn.allCases.count)))
      }
    }
  }

  /// As they happened.
  public func markers(forSession id: Int64) throws -> [SessionMarker] {
    try wrap {
      try db.rows(
        "SELECT \(MarkerColumn.selectList()) FROM audit_markers WHERE session_id = ? ORDER BY ts, id",
        [.integer(id)]
      ) {
        SessionMarker(
          id: $0.int64(column: MarkerColumn.id),
          sessionID: $0.int64(column: MarkerColumn.sessionId),
          date: $0.date(column: MarkerColumn.ts),
          kind: AuditSerialization.markerKind(
            code: $0.int64(column: MarkerColumn.kind),
            label: $0.optionalString(column: MarkerColumn.label)))
      }
    }
  }

  // MARK: Flows of a session

  /// Oldest first.
  public func flows(inAuditSession id: Int64, limit: Int = Int.max) throws -> [StoredFlow] {
    try readFlows(
      Self.sessionFlowsSQL, [.integer(id), .int(limit)],
      expected: min(limit, try flowCount(inAuditSession: id)))
  }

  /// A session's flows, oldest first.
  static let sessionFlowsSQL =
    "SELECT \(FlowColumn.selectList) FROM flows WHERE audit_session_id = ? ORDER BY first_seen, id LIMIT ?"

  public func flowCount(inAuditSession id: Int64) throws -> Int {
    try wrap {
      try db.firstRow("SELECT count(*) FROM flows WHERE audit_session_id = ?", [.integer(id)]) {
        $0.int(0)
      } ?? 0
    }
  }

  /// The capture files the session's packets point at (file 0 / offset 0 is never a file).
  public func captureFileSequences(inAuditSession id: Int64) throws -> Set<UInt32> {
    try wrap {
      Set(
        try db.rows(
          """
          SELECT DISTINCT p.file_seq FROM packets p JOIN flows f ON f.id = p.flow_id
          WHERE f.audit_session_id = ? AND NOT (p.file_seq = 0 AND p.file_offset = 0)
          """, [.integer(id)]
        ) { UInt32(truncatingIfNeeded: $0.int64(0)) })
    }
  }

  /// The capture files that hold evidence of any audit session: exempt from retention. From the
  /// sessions' flows to their packets (`CROSS JOIN` fixes the order): the other way round read
  /// every packet of the history at each retention pass.
  public func auditEvidenceFileSequences() throws -> Set<UInt32> {
    try wrap {
      Set(try db.rows(Self.auditEvidenceFilesQuery) { UInt32(truncatingIfNeeded: $0.int64(0)) })
    }
  }
  static let auditEvidenceFilesQuery = """
    SELECT DISTINCT p.file_seq FROM flows f CROSS JOIN packets p ON p.flow_id = f.id
    WHERE f.audit_session_id IS NOT NULL AND NOT (p.file_seq = 0 AND p.file_offset = 0)
    """

  /// Per flow and per capture file (nil: never captured), how many packets the history holds,
  /// and how many of them are dated before `start` or after `end` (microseconds, as a capture
  /// record carries its time).
  public func packetCounts(inAuditSession id: Int64, start: Int64 = .min, end: Int64 = .max) throws
    -> [SessionPacketCount]
  {
    try wrap { try Self.packetCounts(on: db, inAuditSession: id, start: start, end: end) }
  }

  /// `packetCounts(inAuditSession:start:end:)` on a connection of its own (a `FlowReader`'s).
  static func packetCounts(
    on db: SQLiteConnection, inAuditSession id: Int64, start: Int64, end: Int64
  ) throws -> [SessionPacketCount] {
    try packetPass(on: db, inAuditSession: id, start: start, end: end).counts
  }

  /// The session's packet counts, and what its fingerprint says of its packets, from one pass
  /// over them: the fingerprint read them all again before.
  static func packetPass(
    on db: SQLiteConnection, inAuditSession id: Int64, start: Int64, end: Int64
  ) throws -> (counts: [SessionPacketCount], fingerprint: String) {
    // A record's microseconds are its nanoseconds divided down: before `start` is before
    // start × 1000 ns, after `end` is from (end + 1) × 1000 ns on.
    let before = start.multipliedReportingOverflow(by: 1_000)
    let after = (end == .max ? end : end + 1).multipliedReportingOverflow(by: 1_000)
    let beforeNanoseconds = before.overflow ? Int64.min : before.partialValue
    let afterNanoseconds = after.overflow ? Int64.max : after.partialValue
    // Summed here rather than with GROUP BY: SQLite's temporary B-tree for the grouping cost
    // more than reading the rows (0.18 s against 0.07 s for 400 000 packets). The rows come a
    // flow at a time (in the order the flows were first seen), a file at a time within it: a
    // flow's runs are gathered apart, put in order and summed when the next flow comes. Should
    // the flows not come by id, or a flow come back, the counts are put in order in place: a
    // sorted copy and a merged one beside them set the heap's high-water mark.
    var counts: [SessionPacketCount] = []
    var flowRuns: [SessionPacketCount] = []
    var inOrder = true
    var packets: Int64 = 0
    var highestID: Int64 = 0
    func closeFlow() {
      guard let first = flowRuns.first else { return }
      if let last = counts.last, last.flowID >= first.flowID { inOrder = false }
      if flowRuns.count > 1 { Self.mergeInPlace(&flowRuns) }
      counts.append(contentsOf: flowRuns)
      flowRuns.removeAll(keepingCapacity: true)
    }
    try db.query(
      """
      SELECT \(PacketCountColumn.selectList(of: "p"))
      FROM flows f JOIN packets p ON p.flow_id = f.id
      WHERE f.audit_session_id = ?
      """, [.integer(id)]
    ) { row in
      let sequence = row.int64(column: PacketCountColumn.fileSeq)
      let offset = row.int64(column: PacketCountColumn.fileOffset)
      let ts = row.int64(column: PacketCountColumn.ts)
      let flow = row.int64(column: PacketCountColumn.flowId)
      packets += 1
      highestID = max(highestID, row.int64(column: PacketCountColumn.id))
      let file = sequence == 0 && offset == 0 ? nil : UInt32(truncatingIfNeeded: sequence)
      if let open = flowRuns.last, open.flowID != flow { closeFlow() }
      let sum: SessionPacketCount
      if let last = flowRuns.last, last.fileSequence == file {
        sum = flowRuns.removeLast()
      } else {
        sum = SessionPacketCount(flowID: flow, fileSequence: file, packets: 0)
      }
      flowRuns.append(
        SessionPacketCount(
          flowID: flow, fileSequence: file, packets: sum.packets + 1,
          beforeStart: sum.beforeStart + (ts < beforeNanoseconds ? 1 : 0),
          afterEnd: sum.afterEnd + (ts >= afterNanoseconds ? 1 : 0)))
    }
    closeFlow()
    if !inOrder { Self.mergeInPlace(&counts) }
    // Held through the slicing: at its size.
    return (counts.fitted(), PacketsFingerprint.text(count: packets, highestID: highestID))
  }

  /// By flow, then file, the never-captured first.
  static func precedes(_ a: SessionPacketCount, _ b: SessionPacketCount) -> Bool {
    (a.flowID, a.fileSequence.map { Int64($0) } ?? -1)
      < (b.flowID, b.fileSequence.map { Int64($0) } ?? -1)
  }

  /// Counts put in order, those of one flow and file summed into one, in place.
  static func mergeInPlace(_ counts: inout [SessionPacketCount]) {
    counts.sort(by: precedes)
    var kept = 0
    for index in counts.indices {
      let count = counts[index]
      if kept > 0, counts[kept - 1].flowID == count.flowID,
        counts[kept - 1].fileSequence == count.fileSequence
      {
        let last = counts[kept - 1]
        counts[kept - 1] = SessionPacketCount(
          flowID: last.flowID, fileSequence: last.fileSequence,
          packets: last.packets + count.packets, beforeStart: last.beforeStart + count.beforeStart,
          afterEnd: last.afterEnd + count.afterEnd)
      } else {
        counts[kept] = count
        kept += 1
      }
    }
    counts.removeLast(counts.count - kept)
  }

  /// The session's packets whose bytes are in one file, by ascending offset; with `outside`, only
  /// those whose offset is not in it (the forecast wants the packets at a file's edges: in its
  /// header, or close enough to its end that their record may not fit).
  public func capturedPackets(
    inAuditSession id: Int64, fileSequence: UInt32, outside middle: ClosedRange<UInt64>? = nil
  ) throws -> [SessionCapturedPacket] {
    // Without a middle to leave out, an empty one (1...0 matches no offset). Written as two
    // ranges: SQLite reads the index only at the file's edges, where NOT (a middle) read every
    // packet of the file.
    let low = middle.map { Int64(clamping: $0.lowerBound) } ?? 1
    let high = middle.map { Int64(clamping: $0.upperBound) } ?? 0
    return try wrap {
      try db.rows(
        """
        SELECT \(PacketColumn.selectList(of: "p"))
        FROM packets p JOIN flows f ON f.id = p.flow_id
        WHERE f.audit_session_id = ? AND p.file_seq = ? AND NOT (p.file_seq = 0 AND p.file_offset = 0)
          AND (p.file_offset < ? OR p.file_offset > ?)
        ORDER BY p.file_offset
        """, [.integer(id), .int(fileSequence), .integer(low), .integer(high)], Self.capturedPacket)
    }
  }

  /// Every packet whose bytes are in one file, whatever its session, by ascending offset, handed
  /// over as SQLite steps to them. Without the join to the flows this is about twice as fast as
  /// the session's packets alone (0.024 s against 0.045 s for a 64 MB file); the caller keeps
  /// those of the flows it holds.
  public func forEachPacket(
    inFile fileSequence: UInt32, _ body: (FilePacket) throws -> Void
  ) throws {
    try wrap {
      let sql = fileSequence == 0 ? Self.fileZeroPacketsSQL : Self.filePacketsSQL
      try db.query(sql, [.int(fileSequence)]) { row in
        try body(
          FilePacket(
            flowID: row.int64(column: PacketPlaceColumn.flowId),
            direction: PacketDirection(rawValue: row.int(column: PacketPlaceColumn.direction))
              ?? .outbound,
            offset: UInt64(row.int64(column: PacketPlaceColumn.fileOffset))))
      }
    }
  }

  /// A file's packets, by ascending offset. File 0 / offset 0 stands for a packet never captured:
  /// only file 0's query leaves it out; in any other file's the test cost each row three more
  /// steps of SQLite's program. Made once: the select list is made from the columns' names.
  static let filePacketsSQL = filePackets(where: "p.file_seq = ?")
  static let fileZeroPacketsSQL = filePackets(where: "p.file_seq = ? AND p.file_offset <> 0")
  private static func filePackets(where condition: String) -> String {
    "SELECT \(PacketPlaceColumn.selectList(of: "p")) FROM packets p WHERE \(condition) ORDER BY p.file_offset"
  }

  /// A row selected with `PacketColumn.selectList`.
  static func capturedPacket(_ row: SQLiteRow) -> SessionCapturedPacket {
    SessionCapturedPacket(
      flowID: row.int64(column: PacketColumn.flowId), date: row.date(column: PacketColumn.ts),
      direction: PacketDirection(rawValue: row.int(column: PacketColumn.direction)) ?? .outbound,
      length: row.int(column: PacketColumn.length),
      offset: UInt64(row.int64(column: PacketColumn.fileOffset)))
  }
}

/// The history's commit state as one connection sees it: two equal marks mean that nothing was
/// committed in between, by this connection or any other, so nothing read can have changed.
public struct HistoryMark: Sendable, Equatable {
  let dataVersion: Int64
  let ownChanges: Int64
}

extension FlowStore {
  /// Costs a read of the database header, where a session's fingerprint reads every packet row.
  /// `PRAGMA data_version`: it changes when another connection commits (the recorder's cheap
  /// look for a session started or ended, a marker placed).
  public func othersDataVersion() throws -> Int64 { try wrap { try db.dataVersion() } }

  public func historyMark() throws -> HistoryMark {
    try wrap { HistoryMark(dataVersion: try db.dataVersion(), ownChanges: db.totalChanges) }
  }

  /// What an export reads of a session, summed up: if it differs before and after, the history
  /// changed under the export.
  public func auditSessionFingerprint(id: Int64) throws -> String {
    try wrap { try Self.auditSessionFingerprint(on: db, id: id) }
  }

  /// `auditSessionFingerprint(id:)`, read on the connection given (a `FlowReader`'s).
  /// `packets`: what the fingerprint says of the session's packets, when a pass over them
  /// (`packetPass`) has said it in the same read transaction.
  static func auditSessionFingerprint(on db: SQLiteConnection, id: Int64, packets: String? = nil)
    throws -> String
  {
    func summed<C: QueryColumns>(_: C.Type, _ from: String) throws -> String? {
      try db.firstRow("SELECT \(C.selectList) \(from)", [.integer(id)]) { row in
        C.allCases.map { String(row.int64(column: $0)) }.joined(separator: "|")
      }
    }
    let session =
      try db.firstRow(
        "SELECT \(SessionFingerprint.selectList) FROM audit_sessions WHERE id = ?",
        [.integer(id)]
      ) {
        "\($0.int64(column: SessionFingerprint.endedAt))|\($0.string(column: SessionFingerprint.notes).utf8.count)"
      } ?? "gone"
    let flows = try summed(FlowsFingerprint.self, "FROM flows WHERE audit_session_id = ?") ?? ""
    let packets =
      try packets
      ?? db.firstRow(
        """
        SELECT \(PacketsFingerprint.selectList)
        FROM packets p JOIN flows f ON f.id = p.flow_id WHERE f.audit_session_id = ?
        """, [.integer(id)]
      ) {
        PacketsFingerprint.text(
          count: $0.int64(column: PacketsFingerprint.count),
          highestID: $0.int64(column: PacketsFingerprint.highestID))
      } ?? ""
    let markers =
      try summed(MarkersFingerprint.self, "FROM audit_markers WHERE session_id = ?") ?? ""
    return [session, flows, packets, markers].joined(separator: "/")
  }
}

/// What the fingerprint reads of the session's row.
enum SessionFingerprint: Int, QueryColumns {
  case endedAt, notes
  var expression: String { self == .endedAt ? "coalesce(ended_at, -1)" : "notes" }
}

/// What the fingerprint sums of the session's flows.
enum FlowsFingerprint: Int, QueryColumns {
  case count, packets, lastSeen, bytes
  var expression: String {
    switch self {
    case .count: "count(*)"
    case .packets: "coalesce(sum(packet_count), 0)"
    case .lastSeen: "coalesce(max(last_seen), 0)"
    case .bytes: "coalesce(sum(bytes_in + bytes_out), 0)"
    }
  }
}

/// What the fingerprint counts of the session's packets.
enum PacketsFingerprint: Int, QueryColumns {
  case count, highestID
  var expression: String { self == .count ? "count(*)" : "coalesce(max(p.id), 0)" }

  static func text(count: Int64, highestID: Int64) -> String { "\(count)|\(highestID)" }
}

/// What the fingerprint counts of the session's markers.
enum MarkersFingerprint: Int, QueryColumns {
  case count, highestID
  var expression: String { self == .count ? "count(*)" : "coalesce(max(id), 0)" }
}
