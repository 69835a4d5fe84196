import Audit
import Foundation

/// A session's window against the recorder runs that could have recorded it: recorded throughout,
/// or each stretch no recorder ran in, named. Derived from the runs alone, so verify derives it
/// again from session.json's; an ended session's never changes (the run running at its end
/// covers it to its end, however that run ends later).
public struct SessionCoverage: Sendable, Hashable {
  public enum Basis: String, Sendable, Hashable {
    /// A recorded session: its window against the runs.
    case runs
    /// An imported session: the capture file is the session.
    case imported
    /// Recorded before the store kept its recorder runs: not known.
    case runsNotKept
  }

  /// A stretch of the window no recorder ran in.
  public struct Gap: Sendable, Hashable {
    public var from: Date
    /// nil: to now (the session is open).
    public var to: Date?
    /// The run whose end opened the gap; nil before the first run.
    public var after: RecorderRun?
    /// The session's connections that run held when it vanished (their last packet within the
    /// idle time before its last sign of life): they may be cut short.
    public var cutConnections: Int

    public init(from: Date, to: Date?, after: RecorderRun?, cutConnections: Int = 0) {
      self.from = from
      self.to = to
      self.after = after
      self.cutConnections = cutConnections
    }
  }

  public var basis: Basis
  /// The runs that overlap the window, oldest first.
  public var runs: [RecorderRun]
  public var gaps: [Gap]

  public init(basis: Basis, runs: [RecorderRun], gaps: [Gap]) {
    self.basis = basis
    self.runs = runs
    self.gaps = gaps
  }

  public var isThroughout: Bool { basis != .runsNotKept && gaps.isEmpty }

  /// What no recorder saw of a recorded session's window: the stretches, and how long they last
  /// together (nil while one still goes on).
  public struct Unrecorded: Sendable, Hashable {
    public let stretches: Int
    public let seconds: TimeInterval?
    public init(stretches: Int, seconds: TimeInterval?) {
      self.stretches = stretches
      self.seconds = seconds
    }
  }

  /// nil when recorded throughout, imported, or not known.
  public var unrecorded: Unrecorded? {
    guard basis == .runs, !gaps.isEmpty else { return nil }
    let seconds = gaps.reduce(TimeInterval?(0)) { sum, gap in
      guard let sum, let to = gap.to else { return nil }
      return sum + to.timeIntervalSince(gap.from)
    }
    return Unrecorded(stretches: gaps.count, seconds: seconds)
  }

  /// The session's connection as coverage needs it: the run that recorded it, its last packet.
  public struct Connection: Sendable, Hashable {
    public let run: Int64
    public let lastSeen: Date
    public init(run: Int64, lastSeen: Date) {
      self.run = run
      self.lastSeen = lastSeen
    }
  }

  /// The coverage of `session`: `runs` those of the store that may overlap it, `runningProcess`
  /// the recorder holding the store's lock now (for an open session), `now` the end of an open
  /// session's window.
  public static func of(
    _ session: AuditSession, runs: [RecorderRun], runningProcess: Int32?, now: Date,
    connections: [Connection], runsNotKept: Bool = false
  ) -> SessionCoverage {
    if session.source != nil { return SessionCoverage(basis: .imported, runs: [], gaps: []) }
    let start = session.startedAt
    let end = session.endedAt ?? max(now, start)
    func coveredUntil(_ run: RecorderRun) -> Date {
      if let ended = session.endedAt, run.id == session.recorderAtEnd { return ended }
      if let ended = run.endedAt { return ended }
      if session.isOpen, run.processID == runningProcess { return end }
      return run.aliveAt
    }
    // An ended session's runs as they stood at its end: what a run did later is not its evidence.
    let runs =
      session.endedAt.map { ended in
        runs.map { run in
          guard run.endedAt.map({ $0 > ended }) ?? true else { return run }
          var clipped = run
          // The run recording at the end was alive then, whenever it last said so.
          clipped.aliveAt = run.id == session.recorderAtEnd ? ended : min(run.aliveAt, ended)
          clipped.endedAt = nil
          clipped.end = nil
          if run.id == session.recorderAtEnd {
            clipped.inspectionLogState = session.inspectionLogAtEnd
          }
          return clipped
        }
      } ?? runs
    let overlapping = runs.filter { $0.startedAt <= end && coveredUntil($0) >= start }
      .sorted { ($0.startedAt, $0.id) < ($1.startedAt, $1.id) }
    if runsNotKept, overlapping.isEmpty {
      return SessionCoverage(basis: .runsNotKept, runs: [], gaps: [])
    }
    func gap(from: Date, to: Date?, after: RecorderRun?) -> Gap {
      var cut = 0
      if let after, after.end == .vanished || after.endedAt == nil {
        let since = after.aliveAt.addingTimeInterval(
          -Double(ReadingLimits.connectionIdleMicroseconds) / 1_000_000)
        cut = connections.filter { $0.run == after.id && $0.lastSeen >= since }.count
      }
      return Gap(from: from, to: to, after: after, cutConnections: cut)
    }
    var gaps: [Gap] = []
    var cursor = start
    var last: RecorderRun?
    for run in overlapping {
      if run.startedAt > cursor { gaps.append(gap(from: cursor, to: run.startedAt, after: last)) }
      let until = coveredUntil(run)
      if until >= cursor {
        cursor = until
        last = run
      }
    }
    if cursor < end {
      gaps.append(gap(from: cursor, to: session.isOpen ? nil : end, after: last))
    }
    return SessionCoverage(basis: .runs, runs: overlapping, gaps: gaps)
  }
}
