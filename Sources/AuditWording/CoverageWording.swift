import Audit
import AuditRules
import Foundation

/// What is said of a session's coverage: recorded throughout, or each stretch without a recorder
/// and why. `instant` writes a time: the terminal's zone on the screen, RFC 3339 in the bundle
/// (verify derives the bundle's sentences again from session.json, so they are written here once).
public enum CoverageWording {
  /// The one sentence: throughout, or how many stretches were not recorded.
  public static func headline(_ c: SessionCoverage, open: Bool) -> String {
    switch c.basis {
    case .imported:
      return "Imported from a capture file: the session holds what the file holds."
    case .runsNotKept:
      return
        "Whether a recorder ran throughout is not known: the session was recorded before this store kept its recorders' runs."
    case .runs:
      if c.gaps.isEmpty {
        return open
          ? "Recorded throughout so far: a recorder has run since the session started."
          : "Recorded throughout: a recorder ran from the session's start to its end."
      }
      let cut = c.gaps.reduce(0) { $0 + $1.cutConnections }
      var out =
        "⚠ Not recorded throughout: \(Quantity.count(c.gaps.count, "stretch", "stretches")) of the session had no recorder, and what happened then is not in its evidence."
      if cut > 0 {
        out +=
          " \(Quantity.count(cut, "connection")) open when a recorder vanished may be cut short."
      }
      return out
    }
  }

  /// The statement and a line for each stretch not recorded, as capture.json carries them.
  public static func lines(_ c: SessionCoverage, open: Bool, instant: (Date) -> String)
    -> [String]
  {
    [headline(c, open: open)] + gapLines(c, instant: instant)
  }

  /// A line for each stretch not recorded, then one for each run that could not read lines of
  /// its inspection log (recorded, but what those lines said of its connections is not known).
  public static func gapLines(_ c: SessionCoverage, instant: (Date) -> String) -> [String] {
    gaps(c, instant: instant)
      + c.runs.filter { $0.inspectionLinesUnreadable > 0 }.map(unreadableLines)
  }

  /// The lines of its inspection log a run could not read.
  static func unreadableLines(_ run: RecorderRun) -> String {
    let log = run.inspectionLog.map { " \(TerminalText.inline($0))" } ?? ""
    return
      "The recorder on \(TerminalText.inline(run.source)) (pid \(run.processID)) could not read \(Quantity.count(run.inspectionLinesUnreadable, "line")) of its inspection log\(log): the outcomes they held are in none of its connections."
  }

  static func gaps(_ c: SessionCoverage, instant: (Date) -> String) -> [String] {
    c.gaps.map { gap in
      let span =
        gap.to.map {
          "from \(instant(gap.from)) to \(instant($0)) (\(length($0.timeIntervalSince(gap.from))))"
        }
        ?? "since \(instant(gap.from))"
      var out = "Not recorded \(span): \(reason(gap.after, instant: instant))"
      if gap.cutConnections > 0 {
        out +=
          "; \(Quantity.count(gap.cutConnections, "connection")) it held then may be cut short"
      }
      return out + "."
    }
  }

  /// Why a stretch has no recorder: how the run before it ended, or that none had run.
  static func reason(_ run: RecorderRun?, instant: (Date) -> String) -> String {
    guard let run else { return "no recorder had started" }
    let who =
      "the recorder on \(TerminalText.inline(run.source)) (pid \(run.processID))"
    switch run.end {
    case .sourceEnded?: return "\(who) came to the end of what it read"
    case .interrupted?: return "\(who) was stopped (Ctrl-C or SIGTERM)"
    case .durationReached?: return "\(who) stopped when its --duration passed"
    case .failed?: return "\(who) stopped on an error"
    case .vanished?, nil:
      return
        "\(who) ended without stopping (killed, crashed or the machine stopped); its last sign of life was at \(instant(run.aliveAt))"
    }
  }

  /// How much of a session no recorder saw, inside a verdict's sentence: "not recorded for 2.7 s".
  public static func notRecorded(_ u: SessionCoverage.Unrecorded) -> String {
    guard let seconds = u.seconds else {
      return u.stretches == 1
        ? "not recorded for a stretch that still goes on"
        : "not recorded in \(Quantity.count(u.stretches, "stretch", "stretches")), one still going on"
    }
    let span = "not recorded for \(length(seconds))"
    return u.stretches == 1
      ? span : "\(span) in \(Quantity.count(u.stretches, "stretch", "stretches"))"
  }

  /// "2 min 28 s", "40 s", "0.3 s".
  public static func length(_ seconds: TimeInterval) -> String {
    if seconds < 10 { return String(format: "%.1f s", max(0, seconds)) }
    let whole = Int(seconds.rounded())
    if whole < 60 { return "\(whole) s" }
    if whole < 3600 { return "\(whole / 60) min \(whole % 60) s" }
    return "\(whole / 3600) h \(whole % 3600 / 60) min"
  }

  /// Said when `session end` ends a session with stretches not recorded.
  public static let endWarning =
    "⚠ This session was not recorded throughout; its evidence says so, stretch by stretch."
}

/// What is said of a finding's connection whose row continues one this bundle does not hold.
public enum ContinuationWording {
  /// "flow 38 continues the connection that opened in flow 32 of session 2: …".
  public static func earlierReading(flow: Int64, openedIn earlier: Int64, session: Int64?)
    -> String
  {
    guard let session else {
      return
        "flow \(flow) continues the connection that opened in flow \(earlier), recorded outside any session: what was read of it before (its opening and handshake among it) is in the history, in no session's bundle"
    }
    return
      "flow \(flow) continues the connection that opened in flow \(earlier) of session \(session): what was read of it before (its opening and handshake among it) is in that session's bundle, not in this capture"
  }
}
