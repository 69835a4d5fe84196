import Audit
import Foundation

extension FindingsCheck {
  public static let consentWithdrawal = FindingsCheck(rawValue: "consentWithdrawal")
}

extension FindingKind {
  public static let thirdPartyAfterWithdrawal = FindingKind(
    "thirdPartyAfterWithdrawal", of: .consentWithdrawal, meaning: .consent)
}

/// What made the host a third party: outside the allowlist, or named by a tracker list.
public enum WithdrawalReason {
  public static let notInAllowlist = "notInAllowlist"
  public static let tracker = "tracker"
}

extension FindingEvidence {
  public static func thirdPartyAfterWithdrawal(host: String, tracker: TrackerMatch?)
    -> FindingEvidence
  {
    FindingEvidence(
      kind: .thirdPartyAfterWithdrawal, host: host,
      reason: tracker == nil ? WithdrawalReason.notInAllowlist : WithdrawalReason.tracker,
      tracker: tracker)
  }
}

public enum ConsentWithdrawalGap: String, CheckGap, CaseIterable {
  /// No Consent withdrawn marker was placed in the session.
  case noWithdrawalMarker
  /// Neither an allowlist nor a tracker list to tell a third party by.
  case nothingToCompare
  /// After the withdrawal, but without a name to judge.
  case unnamed
  public var key: String { rawValue }
}

/// Connections opened after the user withdrew consent (the earliest Consent withdrawn marker) to
/// third parties: hosts outside the project's allowlist, or hosts a tracker list names. Stated as
/// what was seen; whether the withdrawal took effect is the assessor's to judge.
public enum ConsentWithdrawalCheck: FindingsCheckRule {
  public static let check = FindingsCheck.consentWithdrawal
  public static let runOrder = 120
  public static let kinds: [FindingKind] = [.thirdPartyAfterWithdrawal]
  public static var statedForms: [FindingEvidence] {
    [
      .thirdPartyAfterWithdrawal(host: "metrics.example", tracker: nil),
      .thirdPartyAfterWithdrawal(
        host: "tracker.example",
        tracker: TrackerMatch(list: "EasyPrivacy", date: "2025-10-31", rule: "||tracker.example^")),
    ]
  }

  public static func assess(_ flow: StoredFlow, in context: CheckContext) -> CheckOutcome<
    ConsentWithdrawalGap
  > {
    if context.session.kind == .baseline || InfrastructureService(of: flow) != nil {
      return .notApplicable
    }
    guard let withdrawn = context.withdrawal else { return .notAssessed(.noWithdrawalMarker) }
    guard flow.firstSeen >= withdrawn else { return .notApplicable }
    guard let name = flow.name else { return .notAssessed(.unnamed) }
    let host = DomainPattern.normalised(host: name.text)
    if let match = context.hosts.trackerMatch(host) {
      return .finding(.thirdPartyAfterWithdrawal(host: host, tracker: match))
    }
    guard !context.project.allowlist.isEmpty else {
      return context.trackers == nil ? .notAssessed(.nothingToCompare) : .satisfied
    }
    return context.hosts.allowlistEntry(matching: host) == nil
      ? .finding(.thirdPartyAfterWithdrawal(host: host, tracker: nil)) : .satisfied
  }
}

extension SessionFindings {
  public var consentWithdrawal: CheckCoverage<ConsentWithdrawalGap> {
    ConsentWithdrawalCheck.coverage(in: self)
  }
}
