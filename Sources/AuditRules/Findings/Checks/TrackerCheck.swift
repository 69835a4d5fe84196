import Audit

extension FindingsCheck {
  public static let trackers = FindingsCheck(rawValue: "trackers")
}

extension FindingKind {
  public static let trackerHost = FindingKind("trackerHost", of: .trackers, meaning: .thirdParties)
  public static let trackerBeforeConsent = FindingKind(
    "trackerBeforeConsent", of: .trackers, meaning: .consent)
}

extension FindingEvidence {
  /// `lookup`: a DNS exchange asked for the host (no connection to it is implied).
  public static func trackerHost(_ host: String, _ match: TrackerMatch, lookup: Bool)
    -> FindingEvidence
  {
    FindingEvidence(
      kind: .trackerHost, host: host, reason: lookup ? TrackerReason.lookup : nil, tracker: match)
  }
  public static func trackerBeforeConsent(_ host: String, _ match: TrackerMatch, lookup: Bool)
    -> FindingEvidence
  {
    FindingEvidence(
      kind: .trackerBeforeConsent, host: host, reason: lookup ? TrackerReason.lookup : nil,
      tracker: match)
  }
}

/// A tracker finding's variant: made by a DNS lookup, not a connection.
public enum TrackerReason {
  public static let lookup = "lookup"
}

public enum TrackerGap: String, CheckGap, CaseIterable {
  /// No tracker list is installed or given.
  case noTrackerList
  public var key: String { rawValue }
}

/// The hosts a session's connections went to, and the names its DNS lookups asked for, against
/// maintained lists of tracking and advertising services (EasyPrivacy, EasyList, an assessor's
/// hosts file): a host a list names is a finding that cites the list, its date and the rule.
public enum TrackerCheck: FindingsCheckRule {
  public static let check = FindingsCheck.trackers
  public static let runOrder = 110
  public static let kinds: [FindingKind] = [.trackerHost, .trackerBeforeConsent]
  public static var statedForms: [FindingEvidence] {
    let match = TrackerMatch(list: "EasyPrivacy", date: "2025-10-31", rule: "||tracker.example^")
    return [false, true].flatMap { lookup in
      [
        .trackerHost("tracker.example", match, lookup: lookup),
        .trackerBeforeConsent("tracker.example", match, lookup: lookup),
      ]
    }
  }

  public static func assess(_ flow: StoredFlow, in context: CheckContext) -> CheckOutcome<
    TrackerGap
  > {
    let lookup = flow.streamOpening == .dnsMessage
    let hosts = lookup ? flow.dnsQuestions : flow.name.map { [$0.text] } ?? []
    guard !hosts.isEmpty else { return .notApplicable }
    guard context.trackers != nil else { return .notAssessed(.noTrackerList) }
    let before =
      ConsentAssessment(of: flow, sessionKind: context.session.kind, consent: context.consent)
      == .beforeConsent
    var found: [FindingEvidence] = []
    for host in hosts {
      guard let match = context.hosts.trackerMatch(host) else { continue }
      let name = DomainPattern.normalised(host: host)
      found.append(.trackerHost(name, match, lookup: lookup))
      if before { found.append(.trackerBeforeConsent(name, match, lookup: lookup)) }
    }
    return found.isEmpty ? .satisfied : .findings(found)
  }
}

extension SessionFindings {
  public var trackers: CheckCoverage<TrackerGap> { TrackerCheck.coverage(in: self) }
}
