import Audit
import AuditRules
import AuditWording
import Capture
import FlowStore
import Foundation
import Import

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

  public init(
    devices: [String] = [], duration: TimeInterval? = nil,
    rotationBytes: UInt64 = PcapWriter.defaultRotationBytes,
    retention: RetentionSettings = .default, retentionInterval: TimeInterval = 600,
    inspectionLog: URL? = nil
  ) {
    self.inspectionLog = inspectionLog
    self.devices = devices
    self.duration = duration
    self.rotationBytes = rotationBytes
    self.retention = retention
    self.retentionInterval = retentionInterval
  }
}

/// Records a capture into the store as it arrives: every connection written when it opens and
/// again as it goes, its packets into the store's capture files, each connection let go once no
/// packet can join it. The store's tagging rule (`upsertFlow`) ties what is written while an
/// audit session is open to that session; another process opens and ends sessions, and places
/// markers, while this one runs. What was committed is sound whenever the process ends: packet
/// bytes reach their file before the rows that point at them.
public final class Recorder: @unchecked Sendable {
  /// At most this long between a packet read and its row committed.
  static let commitInterval: TimeInterval = 0.2
  static let tickInterval: TimeInterval = 1

  let store: FlowStore
  let capture: PacketCapture
  let request: RecordingRequest
  private let queue = FrameQueue()
  private var tracker: FlowTracker
  /// By slot: the store's id of the flow in it.
  private var ids: [Int64] = []
  private var dirty: Set<Int> = []
  private var pending: [StoredPacket] = []
  private var writer: PcapWriter?
  private var captureSession: Int64 = 0
  /// The clock files are dated by (the machine's, as `run` was given it).
  private var now: () -> Date = { Date() }
  private var rotated = false
  private var dataVersion: Int64?
  private var notedSessions: Set<Int64> = []
  private let follower: InspectionLogFollower?
  private let scope: RecordingScope
  /// Frames held back to go in time order.
  private var ordered = TimeOrderedFrames()
  /// By slot: the log line joined to the flow held in it.
  private var outcomes: [Int: InspectionLogEntry] = [:]
  public private(set) var status: RecorderStatus

  public init(
    store: FlowStore, capture: PacketCapture, claim: RecorderClaim, request: RecordingRequest
  ) {
    self.store = store
    self.capture = capture
    self.request = request
    tracker = FlowTracker(devices: request.devices)
    scope = RecordingScope(devices: request.devices)
    status = RecorderStatus(claim: claim)
    follower = request.inspectionLog.map(InspectionLogFollower.init(url:))
    if follower != nil { status.inspection = InspectionLogSummary() }
  }

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
    captureSession = try store.beginCaptureSession(at: start)
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
    while true {
      let (frames, end) = queue.take(
        limit: Self.batchLimit, waitingUntil: Date().addingTimeInterval(Self.commitInterval))
      // Caught up with the source (fewer frames than a batch takes), only its last moments are
      // held back for order; idle for a commit interval, none are.
      if frames.isEmpty {
        // Nothing came: the frames held back go now, in a transaction only when there are any.
        if !ordered.isEmpty { try write([], letting: .all) }
      } else {
        try write(frames, letting: frames.count < Self.batchLimit ? .olderThanHold : .window)
      }
      let t = now()
      if rotated || t.timeIntervalSince(lastRetention) >= request.retentionInterval {
        try retain(t)
        lastRetention = t
      }
      if let end {
        try write([], letting: .all)  // the frames held back for order, last
        try finish()
        try tick()
        // Leaving nothing in the -wal file: the database alone is the store's whole history.
        try store.checkpoint()
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
  /// How far back in a stream's time frames are held for order once the reader has caught up.
  static let holdMicroseconds: Int64 = 250_000

  /// Which frames held back for time order a write lets go.
  enum Release {
    /// Only those the window pushes out (more frames are waiting).
    case window
    /// Also those dated more than `holdMicroseconds` before the latest (caught up).
    case olderThanHold
    /// All (the source is idle, or ended).
    case all
  }

  /// Writes frames in one transaction: new flows inserted (and tagged) as they open, packets
  /// appended once their bytes are in the file, flows that changed updated, flows over let go.
  /// Frames go in time order, as import reads them: a stream a little out of step is put in order
  /// within `TimeOrderedFrames.window` frames (`letting` says how many of those held go now); a
  /// frame out of order by more stops the recording, named, after what came before it is written.
  private func write(_ frames: [DecodedFrame], letting held: Release) throws {
    guard let writer else { return }
    var outOfOrder: CaptureFileError?
    try store.transaction {
      do {
        for frame in frames { try ordered.add(frame) { try keep($0, writer) } }
        switch held {
        case .window: break
        case .olderThanHold:
          try ordered.release(olderThan: Self.holdMicroseconds) { try keep($0, writer) }
        case .all: try ordered.finish { try keep($0, writer) }
        }
      } catch let error as CaptureFileError {
        outOfOrder = error
      }
      try writer.flush()
      try store.appendPackets(pending)
      pending.removeAll(keepingCapacity: true)
      joinInspectionLog()
      let over = tracker.lastMicroseconds.map { tracker.over(at: $0) } ?? []
      try update(dirty.union(over))
      for slot in over { release(slot) }
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
    if packet.opened {
      var flow = tracker.flow(packet.slot)
      flow.captureSessionID = captureSession
      let id = try store.upsertFlow(flow, taggable: scope.tags(flow))
      if packet.slot == ids.count { ids.append(id) } else { ids[packet.slot] = id }
      status.connections += 1
    }
    let date = Instant.date(microseconds: frame.microseconds)
    let location = try writer.write(Data(packet.datagram), at: date)
    pending.append(
      StoredPacket(
        flowID: ids[packet.slot], date: date, direction: packet.outbound ? .outbound : .inbound,
        length: packet.datagram.count, tcpFlags: packet.tcpFlags, location: location))
    dirty.insert(packet.slot)
    status.packets += 1
    status.bytes += UInt64(packet.datagram.count)
  }

  private func release(_ slot: Int) {
    status.piecesNotReassembled += tracker.piecesNotReassembled(slot)
    tracker.release(slot)
    outcomes[slot] = nil
  }

  /// Lines not joined yet: their connection's packets may still be on their way from the
  /// capture (libpcap hands packets over in blocks), so a line waits for them a while.
  private var waitingLines: [InspectionLogEntry] = []
  /// How long, by the packets' clock, a line waits for its connection (µs).
  static let lineWait: Int64 = 5_000_000

  /// The log's new lines, each joined to the flow it is about among those held (a line comes
  /// when its connection closes, well before the flow is let go); a line that joins none waits
  /// for the packets read after it, and is counted as joining none once they are past it (or,
  /// `final`, at the end).
  private func joinInspectionLog(final: Bool = false) {
    guard let follower else { return }
    let entries = waitingLines + follower.newEntries()
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
      if let index = InspectionJoin.match(entry, in: candidates), outcomes[slots[index]] == nil {
        outcomes[slots[index]] = entry
        dirty.insert(slots[index])
        status.inspection?.count(entry, joined: true)
      } else if !final, clock < (entry.end ?? entry.start) + Self.lineWait {
        waitingLines.append(entry)
      } else {
        status.inspection?.count(entry, joined: false)
      }
    }
  }

  private func update(_ slots: Set<Int>) throws {
    for slot in slots.sorted() {
      var flow = tracker.flow(slot)
      if let entry = outcomes[slot] { flow = InspectionJoin.applying(entry, to: flow) }
      flow.id = ids[slot]
      flow.captureSessionID = captureSession
      try store.upsertFlow(flow, taggable: scope.tags(flow))
    }
    dirty.removeAll(keepingCapacity: true)
  }

  /// The last write: every flow held, the capture file closed.
  private func finish() throws {
    guard let writer else { return }
    try store.transaction {
      try writer.close()
      joinInspectionLog(final: true)
      try update(dirty.union(tracker.held))
      for slot in tracker.held { release(slot) }
    }
    self.writer = nil
    status.openConnections = 0
  }

  /// Once a second: the open session (read again when another process changed the store), and
  /// what the capture dropped.
  private func tick() throws {
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

  /// The storage limits, at each rotation and every `retentionInterval`. Ages are counted on the
  /// clock that stamps the packets: a capture of last month replayed now is not history a month
  /// old the moment it is written.
  private func retain(_ now: Date) throws {
    rotated = false
    let latest = tracker.lastMicroseconds.map { Instant.date(microseconds: $0) } ?? now
    let outcome = try StorageManager(store: store).enforce(
      request.retention, recordingSequence: writer?.currentSequence, now: min(now, latest))
    status.captureFilesDeleted += outcome.deletedFiles.count
  }
}

/// Why a recording stopped on what it read.
public enum RecordingRefused: Error, Sendable, Hashable {
  /// A frame earlier than one already written by more than the reorder window: what it is.
  case outOfOrder(String)
}
