import Audit
import AuditRules

/// The sentences of the tracker check: what a list names, cited with its date and rule; never a
/// judgement of what was sent.
public enum TrackerWording: CheckWording {
  public typealias Rule = TrackerCheck
  public static let name = "Trackers"
  public static let noun = "tracker"

  public static func statement(_ evidence: FindingEvidence, minimum: TLSProtocolVersion) -> String {
    let what =
      evidence.reason == TrackerReason.lookup
      ? "a DNS lookup asked for a host" : "a connection went to a host"
    let cited = evidence.tracker.map { citation($0) + "," } ?? "a tracker list"
    switch evidence.kind {
    case .trackerBeforeConsent:
      return
        "Before the user consented, \(what) that \(cited) names as a tracking or advertising service."
    default:
      return
        "\(what.prefix(1).uppercased() + what.dropFirst()) that \(cited) names as a tracking or advertising service."
    }
  }

  public static func shortStatement(_ evidence: FindingEvidence) -> String {
    let lookup = evidence.reason == TrackerReason.lookup
    switch evidence.kind {
    case .trackerBeforeConsent:
      return lookup ? "Tracker looked up before consent" : "Tracker contacted before consent"
    default: return lookup ? "Tracker looked up" : "Tracker contacted"
    }
  }

  public static func subject(_ evidence: FindingEvidence) -> String? {
    [evidence.host, evidence.tracker.map { "rule \($0.rule)" }].compactMap { $0 }.joined(
      separator: ", ")
  }

  /// "EasyPrivacy (2025-10-31), rule ||tracker.example^".
  public static func citation(_ match: TrackerMatch) -> String {
    "\(match.list) (\(match.date)), rule \(match.rule)"
  }

  public static func reason(_ gap: TrackerGap) -> String {
    switch gap {
    case .noTrackerList:
      return
        "No tracker list is installed or given: install webext-ublock-origin-firefox (EasyPrivacy, EasyList) or give one with --tracker-list FILE."
    }
  }
}

extension TrackerWording {
  /// Said when a list is read: its lines that begin with an address and were not read as a hosts
  /// file's (the first ten named by number).
  public static func linesNotRead(_ list: TrackerList) -> String? {
    let lines = list.linesNotRead
    guard !lines.isEmpty else { return nil }
    let named = lines.prefix(10).map(String.init).joined(separator: ", ")
    return
      "⚠ The tracker list \(list.identity.path): \(Quantity.count(lines.count, "line")) that \(lines.count == 1 ? "begins" : "begin") with an address \(lines.count == 1 ? "was" : "were") not read as a hosts file's (line\(lines.count == 1 ? "" : "s") \(named)\(lines.count > 10 ? ", …" : "")): another address than 0.0.0.0, 127.0.0.1, :: or ::1, or a name that is not a host. The hosts on them are not compared."
  }
}
