import Audit
import AuditRules
import AuditWording
import Capture
import FlowStore
import Foundation
import Import
import SystemCalls

/// What a recording asks for besides its source.
public struct RecordingRequest: Sendable {
  public var devices: [String]
  /// Stop after this long; nil: until interrupted or the source ends.
  public var duration: TimeInterval?
  public var rotationBytes: UInt64
  public var retention: RetentionSettings
  /// Retention is applied at each rotation and at least this often.
  public var retentionInterval: TimeInterval
  /// An inspecting proxy's log, followed as it grows: its outcomes become the flows'.
  public var inspectionLog: URL?
  /// The BPF filter the capture was opened with, for the test log.
  public var filter: String?

  public init(
    devices: [String] = [], duration: TimeInterval? = nil,
    rotationBytes: UInt64 = PcapWriter.defaultRotationBytes,
    retention: RetentionSettings = .default, retentionInterval: TimeInterval = 600,
    inspectionLog: URL? = nil, filter: String? = nil
  ) {
    self.inspectionLog = inspectionLog
    self.filter = filter
    self.devices = devices
    self.duration = duration
    self.rotationBytes = rotationBytes
    self.retention = retention
    self.retentionInterval = retentionInterval
  }
}

/// Records a capture into the store as it arrives: every connection written in the transaction
/// it opens in and again as it goes, its packets into the store's capture files, each connection
/// let go once no packet can join it. The store's tagging rule (`upsertFlow`) ties what is
/// written while an audit session is open to that session; another process opens and ends
/// sessions, and places markers, while this one runs. What was committed is sound whenever the
/// process ends: packet bytes reach their file before the rows that point at them.
public final class Recorder: @unchecked Sendable {
  /// How long the recorder waits for frames before it writes what it holds: with the hold for
  /// time order, at most a tenth of a second between a packet read and its row committed.
  static let commitInterval: TimeInterval = 0.05
  static let tickInterval: TimeInterval = 1

  let store: FlowStore
  let capture: PacketCapture
  let request: RecordingRequest
  private let queue = FrameQueue()
  private var tracker: FlowTracker
  /// By slot: the store row the connection held in it is written to now.
  private var rows: [ConnectionRow] = []
  /// The audit session open now, read again at each write (inside its transaction, so that no
  /// other process ends or starts one while it decides).
  private var openSession: OpenSessionStart?
  private var dirty: Set<Int> = []
  private var pending: [StoredPacket] = []
  /// The pending packets whose rows are not written yet (their `flowID` is 0): where each is in
  /// `pending`, and the slot whose row it joins.
  private var waiting: [(packet: Int, slot: Int)] = []
  /// Slots whose rows opened in this write and are not in the store yet, in the order they
  /// opened: each is inserted once, as the write ends, instead of inserted and then updated.
  private var unwritten: [Int] = []
  private var writer: PcapWriter?
  private var captureSession: Int64 = 0
  /// The clock files are dated by (the machine's, as `run` was given it).
  private var now: () -> Date = { Date() }
  private var rotated = false
  private var dataVersion: Int64?
  private var notedSessions: Set<Int64> = []
  private let follower: InspectionLogFollower?
  private let scope: RecordingScope
  /// `holdMicroseconds` of the source.
  private let hold: Int64
  /// Frames held back to go in time order.
  private var ordered = TimeOrderedFrames()
  private var holdTimes = FrameHoldTimes()
  /// By slot: the log line joined to the flow held in it.
  private var outcomes: [Int: InspectionLogEntry] = [:]
  /// The storage limits, applied on a thread of their own.
  let retention: RetentionRunner
  public private(set) var status: RecorderStatus
  /// Told the phases of the run's end (`TUNNELVISION_TRACE=1`).
  public var trace: PhaseTrace?

  public init(
    store: FlowStore, capture: PacketCapture, claim: RecorderClaim, request: RecordingRequest
  ) {
    self.store = store
    self.capture = capture
    self.request = request
    tracker = FlowTracker(devices: request.devices)
    scope = RecordingScope(devices: request.devices)
    hold = Self.holdMicroseconds(capture.source)
    status = RecorderStatus(claim: claim)
    follower = request.inspectionLog.map(InspectionLogFollower.init(url:))
    retention = RetentionRunner(directory: store.directory, settings: request.retention)
    if follower != nil { status.inspection = InspectionLogSummary() }
  }

  /// What the inspection log gives now (nil: none is followed).
  public var inspectionLogState: InspectionLogState? { follower?.state }

  /// Asks the recording to stop, from any thread (a signal's handler): what was read is written.
  public func stop() {
    queue.finish(.stopped)
    capture.stop()
  }

  /// Records until the source ends, `stop()` is called or the duration passes; `report` is
  /// called with the status about once a second. Throws when the store cannot be written or the
  /// capture fails, after writing what was read.
  public func run(now: @escaping () -> Date, report: (RecorderStatus) -> Void) throws
    -> RecordingEnd
  {
    self.now = now
    let start = now()
    captureSession = try store.beginRecorderRun(
      status.claim, at: start, inspectionLog: request.inspectionLog?.lastPathComponent,
      filter: request.filter, libpcap: PacketCapture.libraryVersion)
    do {
      let end = try record(from: start, report: report)
      try store.endRecorderRun(captureSession, at: now(), end.runEnd)
      return end
    } catch {
      // Said when it can be: a store that refuses writes leaves the run to be found vanished.
      try? store.endRecorderRun(captureSession, at: now(), .failed)
      throw error
    }
  }

  private func record(from start: Date, report: (RecorderStatus) -> Void) throws -> RecordingEnd {
    writer = PcapWriter(
      directory: store.capturesDirectory, rotationBytes: request.rotationBytes
    ) { [unowned self] in
      rotated = true
      status.captureFiles += 1
      return try store.claimCaptureFileSequence(at: self.now())
    }
    let queue = self.queue
    let capture = self.capture
    let reader = Thread {
      let end = capture.run { queue.give($0) }
      queue.finish(end)
    }
    reader.start()
    var lastTick = Date.distantPast
    var lastRetention = start
    var durationReached = false
    try tick()
    report(status)
    // A regular file can be read at will: a batch short of the limit means the reader thread was
    // slow, not that the source caught up, and nothing is let go before its window (under load,
    // frames of interfaces written out of step were let go early and the next refused).
    let fromFile = Self.isRegularFile(capture.source)
    while true {
      let (frames, end) = queue.take(
        limit: Self.batchLimit, waitingUntil: Date().addingTimeInterval(Self.commitInterval))
      // Caught up with the source (fewer frames than a batch takes), only its last moments are
      // held back for order; idle for a commit interval, none are.
      if frames.isEmpty {
        // Nothing came: the frames held back go now, in a transaction only when there are any.
        if !ordered.isEmpty && !fromFile { try write([], letting: .all) }
      } else {
        try write(
          frames, letting: frames.count < Self.batchLimit && !fromFile ? .olderThanHold : .window)
      }
      let t = now()
      if rotated || t.timeIntervalSince(lastRetention) >= request.retentionInterval,
        try retain(t)
      {
        lastRetention = t
      }
      try count(retention.collect())
      if let end {
        try write([], letting: .all)  // the frames held back for order, last
        trace?.mark("read and wrote the stream to its end")
        try count(retention.finish())
        trace?.mark("waited for the retention pass under way")
        try finish()
        try tick()
        // Leaving nothing in the -wal file: the database alone is the store's whole history.
        try store.checkpoint()
        trace?.mark("closed the run and the capture file, checkpointed the store")
        switch end {
        case .ended: return .sourceEnded
        case .stopped: return durationReached ? .durationReached : .interrupted
        case .failed(let error): throw error
        }
      }
      if t.timeIntervalSince(lastTick) >= Self.tickInterval {
        try tick()
        lastTick = t
        report(status)
      }
      if let duration = request.duration, !durationReached, t.timeIntervalSince(start) >= duration {
        durationReached = true
        stop()
      }
    }
  }

  /// The most frames one transaction takes.
  static let batchLimit = 65_536
  /// How long frames are held for order once the reader has caught up: by the stream's time and,
  /// as long, by the recorder's clock since the frame was taken.
  /// An interface's packets come as they arrive (libpcap's immediate mode), in the kernel's
  /// order: a short hold. A file or a pipe may be a capture of interfaces written out of step.
  static func holdMicroseconds(_ source: PacketSource) -> Int64 {
    if case .interface = source { return 50_000 }
    return 250_000
  }

  /// Which frames held back for time order a write lets go.
  enum Release {
    /// Only those the window pushes out (more frames are waiting).
    case window
    /// Also those dated more than `holdMicroseconds` before the latest and taken as long ago
    /// (caught up).
    case olderThanHold
    /// All (the source is idle, or ended).
    case all
  }

  /// Whether the source is a regular file (not standard input, a FIFO or an interface).
  static func isRegularFile(_ source: PacketSource) -> Bool {
    guard case .file(let path) = source, path != "-" else { return false }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
      !isDirectory.boolValue,
      let type = try? FileManager.default.attributesOfItem(atPath: path)[.type]
        as? FileAttributeType
    else { return false }
    return type == .typeRegular
  }

  /// Writes frames in one transaction: new flows tagged as they open and inserted once the frames
  /// are read, packets appended once their bytes are in the file, flows that changed updated, flows
  /// over let go. Frames go in time order, as import reads them: a stream a little out of step is
  /// put in order within `TimeOrderedFrames.window` frames (`letting` says how many of those held
  /// go now); a frame out of order by more stops the recording, named, after what came before it is
  /// written.
  private func write(_ frames: [DecodedFrame], letting held: Release) throws {
    guard let writer else { return }
    var outOfOrder: CaptureFileError?
    try store.transaction {
      openSession = try store.openSessionStart()
      do {
        for frame in frames { try ordered.add(frame) { try keep($0, writer) } }
        let t = now()
        if !frames.isEmpty { holdTimes.taken(at: t, through: ordered.readCount) }
        // Batches are trimmed as they come, also while only the window lets frames go.
        let heldLongEnough = holdTimes.readUpTo(
          takenBy: t.addingTimeInterval(-Double(hold) / 1_000_000))
        switch held {
        case .window: break
        case .olderThanHold:
          try ordered.release(olderThan: hold, readUpTo: heldLongEnough) { try keep($0, writer) }
        case .all: try ordered.finish { try keep($0, writer) }
        }
      } catch let error as CaptureFileError {
        outOfOrder = error
      }
      try writer.flush()
      let inserted = try insertUnwritten()
      try store.appendPackets(pending)
      pending.removeAll(keepingCapacity: true)
      try joinInspectionLog()
      let over = tracker.lastMicroseconds.map { tracker.over(at: $0) } ?? []
      try joinExchanges(final: false)
      // A row inserted as it stands is not written again unless it changed since (is dirty).
      try update(dirty.union(over.filter { !inserted.contains($0) }), closing: Set(over))
      for slot in over { release(slot) }
      // A commit is a sign of life as much as the heartbeat: a run killed between two heartbeats
      // still covered what it wrote (a session started after its last heartbeat included).
      try store.recorderRunAlive(
        captureSession, at: signOfLife(), inspectionLog: status.inspectionLogState,
        unreadableLines: status.inspectionUnreadableLines)
    }
    status.openConnections = tracker.heldCount
    status.deviceAddresses = tracker.deviceAddresses
    status.devicesInferred = tracker.devicesInferred
    if let outOfOrder { throw RecordingRefused.outOfOrder(outOfOrder.reason) }
  }

  /// One frame, in time order: its flow opened or followed, its bytes in the capture file.
  private func keep(_ frame: DecodedFrame, _ writer: PcapWriter) throws {
    guard Instant.storableMicroseconds.contains(frame.microseconds) else {
      status.timesOutOfRange += 1
      return
    }
    guard let packet = tracker.add(frame) else {
      status.unreadFrames += 1
      return
    }
    let date = Instant.date(microseconds: frame.microseconds)
    let slot = packet.slot
    if packet.opened {
      let flow = tracker.flow(slot)
      var row = ConnectionRow(opening: flow, inScope: scope.tags(flow))
      if let earlier = try predecessor(of: flow) {
        row.continuedFrom = earlier.id
        row.inherited = earlier
      }
      if slot == rows.count { rows.append(row) } else { rows[slot] = row }
      insert(
        slot,
        tagged: SessionTagging.session(
          forPacketAt: date, open: openSession, inScope: row.inScope))
      status.connections += 1
    } else {
      let session = SessionTagging.session(
        forPacketAt: date, open: openSession, inScope: rows[slot].inScope)
      if session != rows[slot].session {
        try continueInNewRow(slot, at: date, tagged: session, packet: packet)
      }
    }
    rows[slot].last = date
    let location = try writer.write(packet.datagram, at: date)
    pending.append(
      StoredPacket(
        flowID: rows[slot].id, date: date, direction: packet.outbound ? .outbound : .inbound,
        length: packet.datagram.count, tcpFlags: packet.tcpFlags, location: location))
    if rows[slot].id == 0 { waiting.append((pending.count - 1, slot)) }
    dirty.insert(packet.slot)
    status.packets += 1
    status.bytes += UInt64(packet.datagram.count)
  }

  /// Tags the slot's new row; it is written when the write ends (`insertUnwritten`).
  private func insert(_ slot: Int, tagged session: Int64?) {
    rows[slot].session = session
    unwritten.append(slot)
  }

  /// Inserts the rows not written yet as they stand now, in the order they opened, and gives
  /// their ids to the packets waiting for them. The slots inserted.
  @discardableResult
  private func insertUnwritten() throws -> Set<Int> {
    guard !unwritten.isEmpty else { return [] }
    for slot in unwritten {
      rows[slot].id = try store.upsertFlow(flow(slot), session: rows[slot].session)
    }
    for (packet, slot) in waiting { pending[packet].flowID = rows[slot].id }
    waiting.removeAll(keepingCapacity: true)
    let inserted = Set(unwritten)
    dirty.subtract(inserted)
    unwritten.removeAll(keepingCapacity: true)
    return inserted
  }

  /// The connection's next packet falls to another session than its row's (one started or
  /// ended): the row as it stood before the packet is written (unless its session has ended,
  /// which sealed it), and the connection goes on in a new row that says which it continues.
  private func continueInNewRow(
    _ slot: Int, at date: Date, tagged session: Int64?, packet: FlowTracker.Packet
  ) throws {
    // The row it continues has an id, and the rows opened before it keep theirs in order.
    try insertUnwritten()
    let length = UInt64(packet.datagram.count)
    var before = read(slot)
    before.packetCount -= 1
    if packet.outbound {
      before.bytesOut -= min(before.bytesOut, length)
    } else {
      before.bytesIn -= min(before.bytesIn, length)
    }
    before.captureSessionID = captureSession
    if isWritable(rows[slot]) {
      try store.upsertFlow(
        rows[slot].applied(to: before, lastSeen: rows[slot].last ?? rows[slot].first),
        session: nil)
    }
    rows[slot] = rows[slot].continued(at: date, after: before)
    insert(slot, tagged: session)
  }

  /// The instant up to which the run has written what it read: now, or for an interface (whose
  /// packets are dated by this machine's clock) the earliest frame still held back for time
  /// order. A run killed then is known to have covered no more: its gap starts where what it
  /// kept ends, not at a commit that came after frames it lost.
  private func signOfLife() -> Date {
    let t = now()
    guard case .interface = capture.source, let held = ordered.earliestHeld else { return t }
    return min(t, Instant.date(microseconds: held))
  }

  /// Whether a row may still be written: its session (if any) is the one open now.
  private func isWritable(_ row: ConnectionRow) -> Bool {
    row.session == nil || row.session == openSession?.id
  }

  /// What the tracker read of the slot's connection, with what the earlier row it continues
  /// read before this run.
  private func read(_ slot: Int) -> StoredFlow {
    let flow = tracker.flow(slot)
    return rows[slot].inherited.map { ConnectionContinuation.inheriting($0, into: flow) } ?? flow
  }

  /// The row an earlier run left of a connection first seen mid-stream, if one fits.
  private func predecessor(of flow: StoredFlow) throws -> StoredFlow? {
    guard flow.beganBeforeCapture, flow.ipProtocol == .tcp else { return nil }
    // The rows opened earlier in this write are among those a predecessor is sought in.
    try insertUnwritten()
    let candidates = try store.flows(
      withEnds: [flow.peers], from: ConnectionContinuation.earliestLastPacket(before: flow),
      to: Instant.microseconds(flow.firstSeen))
    return ConnectionContinuation.predecessor(of: flow, among: candidates)
  }

  /// The slot's connection as its current row holds it.
  private func flow(_ slot: Int) -> StoredFlow {
    var flow = read(slot)
    if let entry = outcomes[slot] { flow = InspectionJoin.joining(entry, to: flow) }
    flow = rows[slot].applied(to: flow, lastSeen: rows[slot].last ?? flow.lastSeen)
    flow.captureSessionID = captureSession
    return flow
  }

  private func release(_ slot: Int) {
    status.piecesNotReassembled += tracker.piecesNotReassembled(slot)
    tracker.release(slot)
    outcomes[slot] = nil
  }

  /// Lines not joined yet: their connection's packets may still be on their way from the
  /// capture (libpcap hands packets over in blocks), so a line waits for them a while.
  private var waitingLines: [InspectionLogEntry] = []
  /// Exchanges not written yet: they wait for their connection as lines do.
  private var waitingExchanges: [LoggedExchange] = []
  /// How long, by the packets' clock, a line waits for its connection (µs).
  static let lineWait: Int64 = 5_000_000

  /// The log's new lines, each joined to the flow it is about among those held (a line comes
  /// when its connection closes, well before the flow is let go); a line that joins none waits
  /// for the packets read after it, and is counted as joining none once they are past it (or,
  /// `final`, at the end).
  private func joinInspectionLog(final: Bool = false) throws {
    guard let follower else { return }
    let lines = follower.newLines()
    let entries = waitingLines + lines.entries
    waitingExchanges += lines.exchanges
    // What the proxy said of itself when it started: kept for the test log.
    for start in lines.starts {
      try store.addProxyStart(
        RecorderRun.ProxyRun(tool: start.tool, version: start.version, options: start.options),
        toRun: captureSession)
    }
    status.inspectionUnreadableLines = follower.unreadableCount
    status.inspectionLogRestarts = follower.restarts
    status.inspectionLogReplacements = follower.replacements
    status.inspectionLinesCut = follower.linesCut
    guard !entries.isEmpty else { return }
    waitingLines = []
    let slots = tracker.held
    let candidates = slots.map { InspectionJoin.Candidate(tracker.flow($0)) }
    let clock = tracker.lastMicroseconds ?? .min
    for entry in entries {
      if let open = openSession, !InspectionJoin.fits(entry, open.scenario) {
        status.inspection?.countOtherScenario(entry)
        continue
      }
      if let index = InspectionJoin.match(entry, in: candidates), outcomes[slots[index]] == nil {
        outcomes[slots[index]] = entry
        dirty.insert(slots[index])
        status.inspection?.count(entry, joined: true)
      } else if !final, clock < (entry.end ?? entry.start) + Self.lineWait {
        waitingLines.append(entry)
      } else {
        status.inspection?.count(entry, joined: (try? joinStored(entry)) ?? false)
      }
    }
  }

  /// Writes the slots' rows again, but not one whose session has ended: it is sealed.
  /// A line about no connection held: one an earlier run recorded (the log holds lines from
  /// before this run), joined to its row when that row may still be written. A row that already
  /// has an outcome from the log was joined by the run that recorded it.
  private func joinStored(_ entry: InspectionLogEntry) throws -> Bool {
    let slack = InspectionJoin.slack
    let rows = try store.flows(
      withEnds: InspectionJoin.ends(of: entry), from: entry.start - slack,
      to: (entry.end ?? entry.start) + slack)
    guard let index = InspectionJoin.match(entry, in: rows.map(InspectionJoin.Candidate.init))
    else { return false }
    let row = rows[index]
    if row.tlsStatusBasis == .inspection { return true }
    guard row.auditSessionID == nil || row.auditSessionID == openSession?.id else { return false }
    try store.upsertFlow(InspectionJoin.joining(entry, to: row), session: nil)
    return true
  }

  private func update(_ slots: Set<Int>, closing: Set<Int> = []) throws {
    for slot in slots.sorted() where isWritable(rows[slot]) {
      try store.upsertFlow(flow(slot), session: nil)
    }
    for slot in slots.union(closing).sorted() {
      for exchange in tracker.takeExchanges(slot, closing: closing.contains(slot)) {
        try keepExchange(exchange, slot: slot)
      }
    }
    dirty.removeAll(keepingCapacity: true)
  }

  /// An exchange of the connection in `slot`, with its row and its row's session; one of a row
  /// whose session has ended is kept in the history, outside it: the session is sealed.
  private func keepExchange(_ exchange: HTTPExchange, slot: Int) throws {
    var kept = ContentDecoder.prepared(exchange)
    kept.flowID = rows[slot].id
    try store.insertExchange(kept, session: isWritable(rows[slot]) ? rows[slot].session : nil)
    status.exchanges += 1
  }

  /// The log's exchanges, each with the connection it went over among those held or, failing
  /// that, those of the store; one about no connection waits for its packets as a line does, then
  /// is kept without one, in the session open when it began.
  private func joinExchanges(final: Bool) throws {
    guard !waitingExchanges.isEmpty else { return }
    let waiting = waitingExchanges
    waitingExchanges = []
    let slots = tracker.held
    let candidates = slots.map { InspectionJoin.Candidate(tracker.flow($0)) }
    let clock = tracker.lastMicroseconds ?? .min
    for logged in waiting {
      if let open = openSession, logged.scenario != nil, logged.scenario != open.scenario {
        continue
      }
      if let index = InspectionJoin.match(logged, in: candidates) {
        try keepExchange(logged.exchange, slot: slots[index])
        continue
      }
      if !final, clock < (logged.end ?? logged.start) + Self.lineWait {
        waitingExchanges.append(logged)
        continue
      }
      let slack = InspectionJoin.slack
      let rows = try store.flows(
        withEnds: InspectionJoin.ends(of: logged), from: logged.start - slack,
        to: (logged.end ?? logged.start) + slack)
      var kept = ContentDecoder.prepared(logged.exchange)
      if let index = InspectionJoin.match(logged, in: rows.map(InspectionJoin.Candidate.init)) {
        kept.flowID = rows[index].id
        let session = rows[index].auditSessionID
        try store.insertExchange(
          kept, session: session == nil || session == openSession?.id ? session : nil)
      } else {
        let session = openSession.flatMap {
          Instant.date(microseconds: logged.start) >= $0.startedAt ? $0.id : nil
        }
        try store.insertExchange(kept, session: session)
        status.exchangesUnjoined += 1
      }
      status.exchanges += 1
    }
  }

  /// The last write: every flow held, the capture file closed.
  private func finish() throws {
    guard let writer else { return }
    try store.transaction {
      openSession = try store.openSessionStart()
      try insertUnwritten()
      try writer.close()
      try joinInspectionLog(final: true)
      try joinExchanges(final: true)
      try update(dirty.union(tracker.held), closing: Set(tracker.held))
      for slot in tracker.held { release(slot) }
    }
    self.writer = nil
    status.openConnections = 0
  }

  /// Once a second: the open session (read again when another process changed the store), and
  /// what the capture dropped.
  private func tick() throws {
    status.inspectionLogState = follower?.state
    try store.recorderRunAlive(
      captureSession, at: signOfLife(), inspectionLog: status.inspectionLogState,
      unreadableLines: status.inspectionUnreadableLines)
    if let stats = capture.statistics() {
      status.droppedByKernel = stats.droppedByKernel
      status.droppedByInterface = stats.droppedByInterface
    }
    let version = try store.othersDataVersion()
    if version != dataVersion {
      dataVersion = version
      if let open = try store.auditRecording() {
        let note = SessionNotes.sessionNote(
          status.claim, inspectionLog: request.inspectionLog?.lastPathComponent)
        if notedSessions.insert(open.session.id).inserted, !open.session.notes.contains(note) {
          let note = SessionNotes.sessionNote(
            status.claim, inspectionLog: request.inspectionLog?.lastPathComponent,
            logState: follower?.state)
          try store.appendNote(note, toOpenSession: open.session.id)
        }
        status.session = RecorderStatus.OpenSession(
          id: open.session.id, projectName: open.projectName,
          markers: try store.markers(forSession: open.session.id).count)
      } else {
        status.session = nil
      }
    }
  }

  /// Starts a pass of the storage limits unless one runs (a rotation meanwhile asks again at the
  /// next write): at each rotation and every `retentionInterval`. Ages are counted on the clock
  /// that stamps the packets: a capture of last month replayed now is not history a month old
  /// the moment it is written. Before the first packet only an interface's clock is known (a
  /// pass dated by the machine's would prune the old rows a replay is about to write while it
  /// writes them). The pass keeps the file written now and every later one (before the first,
  /// the one the writer will claim). Whether a pass started.
  private func retain(_ now: Date) throws -> Bool {
    let latest: Date
    if let last = tracker.lastMicroseconds {
      latest = Instant.date(microseconds: last)
    } else if case .interface = capture.source {
      latest = now
    } else {
      return false
    }
    let recording = try writer?.currentSequence ?? store.highestCaptureFileSequence() + 1
    guard retention.start(recordingSequence: recording, now: min(now, latest)) else { return false }
    rotated = false
    return true
  }

  private func count(_ outcomes: [RetentionOutcome]) {
    for outcome in outcomes { status.captureFilesDeleted += outcome.deletedFiles.count }
  }
}

/// Why a recording stopped on what it read.
public enum RecordingRefused: Error, Sendable, Hashable {
  /// A frame earlier than one already written by more than the reorder window: what it is.
  case outOfOrder(String)
}

/// The store row a held connection is written to: a connection open across a session's edge
/// goes on in a new row, which counts from the packet it began with.
private struct ConnectionRow {
  var id: Int64 = 0
  var session: Int64?
  /// Whether the recording's scope takes the connection (its ends, fixed when it opened).
  let inScope: Bool
  var continuedFrom: Int64?
  /// The row an earlier recorder run left of the connection, whose readings this one carries on.
  var inherited: StoredFlow?
  var first: Date
  /// Its latest packet; nil before the first is written to it.
  var last: Date?
  /// What the connection had before this row began.
  var packetsBefore = 0
  var bytesOutBefore: UInt64 = 0, bytesInBefore: UInt64 = 0

  init(opening flow: StoredFlow, inScope: Bool) {
    self.inScope = inScope
    first = flow.firstSeen
  }

  /// The row that continues this one from the packet at `date`, after what `before` had.
  func continued(at date: Date, after before: StoredFlow) -> ConnectionRow {
    var next = self
    next.id = 0
    next.continuedFrom = id
    next.first = date
    next.last = nil
    next.packetsBefore = before.packetCount
    next.bytesOutBefore = before.bytesOut
    next.bytesInBefore = before.bytesIn
    return next
  }

  /// The connection as this row holds it: its own packets and bytes, its own first and last.
  func applied(to connection: StoredFlow, lastSeen: Date) -> StoredFlow {
    var flow = connection
    flow.id = id
    flow.continuedFrom = continuedFrom
    flow.firstSeen = first
    flow.lastSeen = max(first, lastSeen)
    flow.packetCount = max(0, flow.packetCount - packetsBefore)
    flow.bytesOut -= min(flow.bytesOut, bytesOutBefore)
    flow.bytesIn -= min(flow.bytesIn, bytesInBefore)
    return flow
  }
}
