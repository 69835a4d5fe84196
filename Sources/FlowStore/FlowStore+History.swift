import Audit
import AuditRules
import Foundation

/// A packet of a session whose bytes are in a capture file.
public struct SessionCapturedPacket: Sendable, Hashable {
  public let flowID: Int64
  public let date: Date
  public let direction: PacketDirection
  public let length: Int
  public let offset: UInt64
  public init(flowID: Int64, date: Date, direction: PacketDirection, length: Int, offset: UInt64) {
    self.flowID = flowID
    self.date = date
    self.direction = direction
    self.length = length
    self.offset = offset
  }
}

/// A packet of a capture file as slicing reads it: whose it is, which way it went, and where its
/// record starts.
public struct FilePacket: Sendable, Hashable {
  public let flowID: Int64
  public let direction: PacketDirection
  public let offset: UInt64
}

extension FlowStore {
  // MARK: Capture sessions and files

  /// Records that the store was opened for capture at `date`: flows written afterwards carry this id.
  public func beginCaptureSession(at date: Date) throws -> Int64 {
    try wrap {
      try db.run(
        "INSERT INTO capture_sessions (started_at) VALUES (?)",
        [.integer(Instant.nanoseconds(date))])
      return db.lastInsertRowID
    }
  }

  /// The highest capture file sequence ever started, whether or not the file is still there.
  public func highestCaptureFileSequence() throws -> UInt32 {
    try wrap {
      let files =
        try db.firstRow("SELECT max(sequence) FROM capture_files") { $0.optionalInt64(0) } ?? nil
      let packets =
        try db.firstRow("SELECT max(file_seq) FROM packets") { $0.optionalInt64(0) } ?? nil
      return UInt32(max(files ?? 0, packets ?? 0))
    }
  }

  /// Claims the next capture file sequence, so that no two files ever share one.
  /// The capture files the history knows of, written or being written: a file in the captures
  /// directory that is not among them was left by an import that did not finish (its claim was
  /// rolled back with the rest of it).
  public func claimedCaptureFileSequences() throws -> Set<UInt32> {
    try wrap {
      Set(
        try db.rows("SELECT sequence FROM capture_files") {
          UInt32(truncatingIfNeeded: $0.int64(0))
        })
    }
  }

  /// When each capture file the history knows of was started, by its sequence: what the store
  /// recorded as it claimed the sequence (a file's own times are those of its last write).
  public func captureFileStartDates() throws -> [UInt32: Date] {
    try wrap {
      Dictionary(
        try db.rows("SELECT \(CaptureFileColumn.selectList()) FROM capture_files") {
          (
            UInt32(truncatingIfNeeded: $0.int64(column: CaptureFileColumn.sequence)),
            $0.date(column: CaptureFileColumn.createdAt)
          )
        }, uniquingKeysWith: { a, _ in a })
    }
  }

  public func claimCaptureFileSequence(at date: Date) throws -> UInt32 {
    try transaction {
      let next = try highestCaptureFileSequence() + 1
      try db.run(
        "INSERT INTO capture_files (sequence, created_at) VALUES (?, ?)",
        [.int(next), .integer(Instant.nanoseconds(date))])
      return next
    }
  }

  // MARK: Flows

  /// Writes a flow: a new one (id 0) is inserted and tagged with `session` (nil: history
  /// alone); an existing one is updated, its session as it was. A row's session is decided once
  /// (`SessionTagging`): the recorder continues a connection in a new row at a session's edge.
  /// Returns the id.
  @discardableResult
  public func upsertFlow(_ flow: StoredFlow, session: Int64?) throws -> Int64 {
    let row = FlowRow.values(of: flow)
    return try wrap {
      let id: Int64
      if flow.id == 0 {
        try db.run(Self.insertFlow, row.values(of: FlowColumn.written) + [.int(session)])
        id = db.lastInsertRowID
      } else {
        try db.run(
          Self.updateFlowKeeping,
          row.values(of: FlowColumn.updated) + [.integer(flow.id)]
            + row.values(of: FlowColumn.kept))
        if db.changes == 0 {
          try db.run(Self.updateFlow, row.values(of: FlowColumn.written) + [.integer(flow.id)])
        }
        id = flow.id
        try db.run("DELETE FROM flow_certificates WHERE flow_id = ?", [.integer(id)])
      }
      if let certificates = flow.serverCertificate.presented {
        for (position, der) in certificates.chain.enumerated() {
          try db.run(
            "INSERT INTO flow_certificates (flow_id, position, der) VALUES (?, ?, ?)",
            [.integer(id), .int(position), .blob(der)])
        }
      }
      return id
    }
  }

  /// Writes a flow, a new one tagged by the rule (`SessionTagging`) with the session open now,
  /// by its latest packet; `taggable` false leaves it out of any session.
  @discardableResult
  public func upsertFlow(_ flow: StoredFlow, taggable: Bool = true) throws -> Int64 {
    let session =
      flow.id == 0
      ? SessionTagging.session(
        forPacketAt: flow.lastSeen, open: try openSessionStart(), inScope: taggable) : nil
    return try upsertFlow(flow, session: session)
  }

  /// The session open now, as the tagging rule reads it.
  public func openSessionStart() throws -> OpenSessionStart? {
    try wrap {
      try db.firstRow(
        "SELECT \(OpenSessionColumn.selectList()) FROM audit_sessions WHERE ended_at IS NULL",
        [],
        {
          OpenSessionStart(
            id: $0.int64(column: OpenSessionColumn.id),
            startedAt: $0.date(column: OpenSessionColumn.startedAt),
            scenario: $0.optionalInt64(column: OpenSessionColumn.certificateScenario).flatMap {
              CertificateScenario(rawValue: Int($0))
            })
        })
    }
  }

  private static let insertFlow = """
    INSERT INTO flows (\(FlowColumn.written.map(\.name).joined(separator: ", ")), \
    \(FlowColumn.auditSessionId.name)) \
    VALUES (\(FlowColumn.written.map { _ in "?" }.joined(separator: ", ")), ?)
    """

  private static let updateFlow = """
    UPDATE flows SET \(FlowColumn.written.map { "\($0.name) = ?" }.joined(separator: ", ")) \
    WHERE id = ?
    """

  /// The update of a row whose `kept` columns are as they were (no row changed: they were not).
  private static let updateFlowKeeping = """
    UPDATE flows SET \(FlowColumn.updated.map { "\($0.name) = ?" }.joined(separator: ", ")) \
    WHERE id = ? AND \(FlowColumn.kept.map { "\($0.name) IS ?" }.joined(separator: " AND "))
    """

  public func flow(id: Int64) throws -> StoredFlow? {
    try readFlows("SELECT \(FlowColumn.selectList) FROM flows WHERE id = ?", [.integer(id)]).first
  }

  /// Every flow of the history, oldest first.
  public func allFlows(limit: Int = Int.max) throws -> [StoredFlow] {
    try readFlows(
      "SELECT \(FlowColumn.selectList) FROM flows ORDER BY first_seen, id LIMIT ?", [.int(limit)])
  }

  public func historyFlowCount() throws -> Int {
    try wrap { try db.firstRow("SELECT count(*) FROM flows") { $0.int(0) } ?? 0 }
  }

  /// `expected`: how many rows the caller counted, so that the array is made once at its size
  /// instead of growing by doubling (20 000 flows: 5 MB instead of 8 MB and the copies between).
  func readFlows(_ sql: String, _ bindings: [SQLiteValue], expected: Int = 0) throws -> [StoredFlow]
  {
    var flows: [StoredFlow] = []
    flows.reserveCapacity(expected)
    try wrap { try Self.forEachFlow(on: db, sql, bindings) { flows.append($0) } }
    return flows
  }

  /// Each flow the query selects (with `FlowColumn.selectList`), its certificate chain read with it.
  static func forEachFlow(
    on db: SQLiteConnection, _ sql: String, _ bindings: [SQLiteValue],
    _ body: (StoredFlow) throws -> Void
  ) throws {
    let shared = SharedValues()
    var namesChecked = false
    try db.query(sql, bindings) { row in
      if !namesChecked {
        precondition(
          row.columnNames == FlowColumn.allCases.map(\.name),
          "a flow query selects other columns than FlowColumn.selectList")
        namesChecked = true
      }
      var flow = FlowRow.flow(from: row, sharing: shared)
      if let complete = flow.serverCertificate.presented?.chainIsComplete {
        let chain = try db.rows(
          "SELECT \(CertificateColumn.selectList()) FROM flow_certificates WHERE flow_id = ? ORDER BY position",
          [.integer(flow.id)]
        ) { $0.data(column: CertificateColumn.der) }
        flow.serverCertificate = .presented(chain: chain, chainIsComplete: complete)
      }
      try body(flow)
    }
  }

  // MARK: Packets

  /// Appends packets in one transaction, in their order (their ids follow it), several rows to
  /// a statement: fewer statements looked up, stepped and reset for the same rows.
  public func appendPackets(_ packets: [StoredPacket]) throws {
    try transaction {
      var at = 0
      while at < packets.count {
        let rows = packets[at..<min(at + Self.packetRowsPerStatement, packets.count)]
        let statement = try db.statement(
          rows.count == Self.packetRowsPerStatement
            ? Self.fullPacketInsert : Self.packetInsert(rows: rows.count))
        defer { statement.reset() }
        var column: Int32 = 0
        func bind(_ value: Int64) throws {
          column += 1
          try statement.bind(value, at: column)
        }
        for packet in rows {
          try bind(packet.flowID)
          try bind(Instant.nanoseconds(packet.date))
          try bind(Int64(packet.direction.rawValue))
          try bind(Int64(packet.length))
          try bind(Int64(packet.tcpFlags))
          try bind(Int64(packet.location.fileSequence))
          try bind(Int64(packet.location.offset))
        }
        while try statement.step() {}
        at += rows.count
      }
    }
  }

  static let packetRowsPerStatement = 64
  static let fullPacketInsert = packetInsert(rows: packetRowsPerStatement)

  /// The insert of `rows` packets; one text for each count, so that the statement cache holds
  /// at most `packetRowsPerStatement` of them.
  static func packetInsert(rows: Int) -> String {
    "INSERT INTO packets (flow_id, ts, direction, length, tcp_flags, file_seq, file_offset) VALUES "
      + repeatElement("(?, ?, ?, ?, ?, ?, ?)", count: rows).joined(separator: ", ")
  }

  /// A flow's packets, in the order they were stamped.
  public func packets(forFlow id: Int64) throws -> [StoredPacket] {
    try wrap {
      try db.rows(
        "SELECT \(PacketColumn.selectList()) FROM packets WHERE flow_id = ? ORDER BY ts, id",
        [.integer(id)]
      ) { row in
        let packet = Self.capturedPacket(row)
        return StoredPacket(
          flowID: packet.flowID, date: packet.date, direction: packet.direction,
          length: packet.length,
          tcpFlags: UInt8(truncatingIfNeeded: row.int(column: PacketColumn.tcpFlags)),
          location: CaptureLocation(
            fileSequence: UInt32(truncatingIfNeeded: row.int64(column: PacketColumn.fileSeq)),
            offset: packet.offset))
      }
    }
  }

  public func historyPacketCount() throws -> Int {
    try wrap { try db.firstRow("SELECT count(*) FROM packets") { $0.int(0) } ?? 0 }
  }
}

extension FlowStore {
  /// How many flows `prune(before:sparing:)` would delete.
  public func prunableFlowCount(before date: Date, sparing captureSession: Int64? = nil) throws
    -> Int
  {
    try wrap {
      try db.firstRow(
        Self.prunableCount, [.integer(Instant.nanoseconds(date)), .int(captureSession)]
      ) { $0.int(0) } ?? 0
    }
  }

  /// Along `flows_last_seen`: the rows past the cutoff, not the history kept (`+` keeps the
  /// planner off the audit session index, which holds every history row under NULL).
  static let prunableCount =
    "SELECT count(*) FROM flows WHERE last_seen < ? AND +audit_session_id IS NULL AND session IS NOT ?"
  /// The highest id a prunable row can have: batches stop there rather than read the rows kept.
  /// `+id` keeps SQLite from reading the table backwards from its newest row for the maximum.
  static let prunableHighestID = "SELECT max(+id) FROM flows WHERE last_seen < ?"

  /// How many flows one transaction of `prune` deletes: a recorder waiting on the write lock
  /// waits for one batch, not the whole history, and the write-ahead log stays small.
  static let pruneBatch = 5_000
  /// The next batch, along the rowid from where the last stopped up to the highest prunable id:
  /// `+` keeps the planner off the audit session index (which would read every history row from
  /// the start at each batch) and off `flows_last_seen` (which would sort the batch).
  static let pruneBatchQuery = """
    SELECT id FROM flows WHERE id > ? AND id <= ? AND +last_seen < ? AND +audit_session_id IS NULL
    AND session IS NOT ? ORDER BY id LIMIT ?
    """
  static let pruneBatchFlows = """
    id >= ? AND id <= ? AND +last_seen < ? AND +audit_session_id IS NULL AND session IS NOT ?
    """
  static let pruneBatchDeletion = "DELETE FROM flows WHERE \(pruneBatchFlows)"
  /// Every column that refers to a flow, and what a batch's deletion does to its rows.
  static let pruneBatchReferences: [(table: String, column: String, deletes: Bool)] = [
    ("packets", "flow_id", true), ("flow_certificates", "flow_id", true),
    ("exchanges", "flow_id", true), ("flows", "continued_from", false),
  ]
  /// What refers to the batch, set-based before its flows, foreign-key checks off: the
  /// cascades' seek per deleted flow into each referring index took half of a prune's time.
  /// Packets in one pass along `packets_flow`: one cascade per flow took a fifth longer still.
  static let pruneBatchDependants = pruneBatchReferences.map { reference in
    let batch = "\(reference.column) IN (SELECT id FROM flows WHERE \(pruneBatchFlows))"
    return reference.deletes
      ? "DELETE FROM \(reference.table) WHERE \(batch)"
      : "UPDATE \(reference.table) SET \(reference.column) = NULL WHERE \(batch)"
  }

  /// Deletes the flows (and their packets) last seen before `date` that belong to no audit
  /// session and not to the capture session `sparing` (one a recorder writes now): audit
  /// evidence stays until its session is deleted. In batches by id, each its own
  /// transaction, each resuming where the last stopped (a scan from the start each time would
  /// read the kept rows again and again). `progress` is told the count deleted so far after each
  /// batch. Returns how many went.
  @discardableResult
  public func prune(
    before date: Date, sparing captureSession: Int64? = nil, progress: (Int) -> Void = { _ in }
  ) throws -> Int {
    var deleted = 0
    var after: Int64 = 0
    let cutoff = SQLiteValue.integer(Instant.nanoseconds(date))
    guard
      let highest = try wrap({
        try db.firstRow(Self.prunableHighestID, [cutoff]) { $0.optionalInt64(0) } ?? nil
      })
    else { return 0 }
    while true {
      // Each batch does what the cascades would.
      let (count, last) = try transaction(checkingReferences: false) { () -> (Int, Int64?) in
        let ids = try db.rows(
          Self.pruneBatchQuery,
          [.integer(after), .integer(highest), cutoff, .int(captureSession), .int(Self.pruneBatch)]
        ) { $0.int64(0) }
        guard let last = ids.last else { return (0, nil) }
        let batch: [SQLiteValue] = [.integer(ids[0]), .integer(last), cutoff, .int(captureSession)]
        for dependants in Self.pruneBatchDependants { try db.run(dependants, batch) }
        try db.run(Self.pruneBatchDeletion, batch)
        return (db.changes, last)
      }
      guard let last else { return deleted }
      deleted += count
      after = last
      progress(deleted)
    }
  }
}

extension FlowStore {
  /// The TCP flows with one of these pairs of ends that were open at some time between `start`
  /// and `end` (µs), with their certificates: the rows an inspection log's line may be about.
  public func flows(withEnds ends: [FlowPeers], from start: Int64, to end: Int64) throws
    -> [StoredFlow]
  {
    var flows: [StoredFlow] = []
    for peers in Set(ends) {
      flows += try readFlows(
        """
        SELECT \(FlowColumn.selectList) FROM flows
        WHERE protocol = 6 AND addr_a = ? AND port_a = ? AND addr_b = ? AND port_b = ?
          AND first_seen <= ? AND last_seen >= ? ORDER BY id
        """,
        [
          .text(peers.a.address), .int(peers.a.port), .text(peers.b.address), .int(peers.b.port),
          .integer(end.multipliedReportingOverflow(by: 1000).overflow ? .max : end * 1000),
          .integer(start.multipliedReportingOverflow(by: 1000).overflow ? .min : start * 1000),
        ])
    }
    return flows
  }
}

extension FlowStore {
  /// The flows with `openedIn` filled in for each that continues a row.
  public func withOpenings(_ flows: consuming [StoredFlow]) throws -> [StoredFlow] {
    // In place: a mapped copy held a session's flows twice (20,000 of them, 9.9 MB each time).
    for index in flows.indices {
      if let earlier = flows[index].continuedFrom {
        flows[index].openedIn = try opening(from: earlier)
      }
    }
    return flows
  }

  /// The first row of the chain `continued_from` leads back through from `id` (a chain is a
  /// connection's rows across sessions' edges and recorder runs: a few at most; the walk stops
  /// after a thousand), with its session.
  func opening(from id: Int64) throws -> ConnectionOpening? {
    var current = id
    var result: ConnectionOpening?
    for _ in 0..<1_000 {
      guard
        let (earlier, session) = try wrap({
          try db.firstRow(
            "SELECT \(ChainColumn.selectList()) FROM flows WHERE id = ?", [.integer(current)]
          ) {
            (
              $0.optionalInt64(column: ChainColumn.continuedFrom),
              $0.optionalInt64(column: ChainColumn.auditSessionId)
            )
          }
        })
      else { return result }
      result = ConnectionOpening(flowID: current, session: session)
      guard let earlier else { return result }
      current = earlier
    }
    return result
  }
}

/// The columns of `audit_sessions` the tagging rule reads of the open session.
enum OpenSessionColumn: Int, TableColumns {
  case id, startedAt, certificateScenario
}

/// The columns of `flows` a connection's chain of rows is walked by.
enum ChainColumn: Int, TableColumns {
  case continuedFrom, auditSessionId
}
