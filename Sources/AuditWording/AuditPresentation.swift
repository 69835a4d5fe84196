import Audit
import AuditRules
import Foundation

/// What the audit commands say: every sentence decided here, pure, tested; commands only print.
public enum AuditPresentation {
  /// "Version 2.4.0 (187)" or "Baseline": version and build exactly as typed.
  public static func sessionName(_ kind: AuditSessionKind) -> String {
    switch kind {
    case .baseline: return "Baseline"
    case .audit(let release): return "Version \(release.version) (\(release.build))"
    }
  }

  public static func markerName(_ kind: SessionMarkerKind) -> String {
    switch kind {
    case .consentGiven: return "Consent given"
    case .loggedIn: return "Logged in"
    case .loggedOut: return "Logged out"
    case .consentWithdrawn: return "Consent withdrawn"
    case .custom(let label): return label
    }
  }

  /// "21:58:34+02:00" in the given zone, with its offset.
  public static func clock(_ date: Date, in zone: TimeZone) -> String {
    civil(date, zone).isoTime + offset(date, zone)
  }

  /// "2026-10-09 21:58:34+02:00" in the given zone, with its offset as RFC 3339 writes it ("Z" in
  /// UTC): an instant retyped from the screen (`--marker`) is the instant shown.
  public static func dateTime(_ date: Date, in zone: TimeZone) -> String {
    let c = civil(date, zone)
    return c.isoDate + " " + c.isoTime + offset(date, zone)
  }

  /// "+02:00", "-05:30", or "Z".
  static func offset(_ date: Date, _ zone: TimeZone) -> String {
    let seconds = zone.secondsFromGMT(for: date)
    guard seconds != 0 else { return "Z" }
    let minutes = abs(seconds) / 60
    let digits = { (n: Int) in n < 10 ? "0\(n)" : "\(n)" }
    return (seconds < 0 ? "-" : "+") + digits(minutes / 60) + ":" + digits(minutes % 60)
  }

  static func civil(_ date: Date, _ zone: TimeZone) -> CivilTime {
    let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
    return CivilTime(secondsSinceEpoch: seconds + Int64(zone.secondsFromGMT(for: date)))
  }

  /// What a fact nobody stated reads as ("Device model  not stated").
  public static let notStated = "not stated"

  // MARK: Refusals of the store

  /// The sentence for a rule the store refused. `projectName` names the project of a session in the way.
  public static func sentence(
    for error: AuditStoreError, projectName: (Int64) -> String? = { _ in nil }
  ) -> String {
    switch error {
    case .emptyProjectName:
      return "A project needs a name."
    case .duplicateAllowlistPattern(let pattern):
      return "The allowlist has \(pattern) twice; write each pattern once."
    case .projectNotFound(let id):
      return "There is no project \(id). 'tunnelvision project list' shows the projects there are."
    case .sessionNotFound(let id):
      return
        "There is no session \(id). 'tunnelvision session list PROJECT' shows a project's sessions."
    case .sessionAlreadyOpen(let id):
      let owner = projectName(id).map { " of \($0)" } ?? ""
      return
        "Session \(id)\(owner) is open, and only one session can be open at a time. End it first with 'tunnelvision session end \(id)'."
    case .sessionAlreadyEnded(let id):
      return
        "Session \(id) has ended and takes no more changes: a marker placed after looking at the traffic is no longer an observation."
    case .dateBeforeSessionStart:
      return
        "That instant is before the session started; a session cannot end, or be marked, before it began."
    case .emptyMarkerLabel:
      return "A custom marker needs a label, as in other:\"Opened settings\"."
    case .consentMarkerInBaseline:
      return
        "A baseline records the device without the audited app, so no consent is given in it; place the consent marker in an audit session."
    case .testDataLabelTaken(let label):
      return
        "The project has a value labelled “\(label)” already; remove it first, or choose another label."
    case .testDataLabelNotFound(let label):
      return
        "The project has no value labelled “\(label)”; 'tunnelvision project data PROJECT list' shows its values."
    }
  }

  // MARK: Markers placed from the command line

  /// “Consent given” marked at 21:58:34 in Example Health.
  public static func markerPlaced(
    _ marker: SessionMarker, in recording: AuditRecording, zone: TimeZone
  ) -> String {
    "“\(TerminalText.inline(markerName(marker.kind)))” marked at \(clock(marker.date, in: zone)) in \(TerminalText.inline(recording.projectName))."
  }

  public enum MarkerRefusal: Sendable, Hashable {
    case noSessionRecording
    case historyNotWritten(String)
    case rule(AuditStoreError)
  }

  /// Always begins "No marker was placed", then why.
  public static func markerNotPlaced(_ refusal: MarkerRefusal) -> String {
    switch refusal {
    case .noSessionRecording:
      return
        "No marker was placed: no session is open. Start one with 'tunnelvision session start PROJECT'."
    case .historyNotWritten(let reason):
      return "No marker was placed: the history could not be written (\(reason))."
    case .rule(.sessionAlreadyEnded):
      return "No marker was placed: the session has ended and takes no more markers."
    case .rule(.dateBeforeSessionStart):
      return "No marker was placed: that instant is before the session started."
    case .rule(.emptyMarkerLabel):
      return "No marker was placed: a custom marker needs a label, as in other:\"Opened settings\"."
    case .rule(let error):
      return "No marker was placed. " + sentence(for: error)
    }
  }

  public static let deletionDeclined = "Nothing was deleted."

  /// Asked with no terminal to answer: the question, and how to answer it on the command line.
  public static func deletionNeedsYes(_ question: String) -> String {
    "“\(question)” needs an answer and there is no terminal to ask it on, so nothing was deleted. Add --yes to delete."
  }

  public static func flowList(_ ids: [Int64]) -> String {
    ids.map(String.init).joined(separator: ", ")
  }

}
