import Audit
import AuditRules

/// The sentences of the consent withdrawal check: what was seen after the withdrawal, never that
/// the withdrawal failed.
public enum ConsentWithdrawalWording: CheckWording {
  public typealias Rule = ConsentWithdrawalCheck
  public static let name = "Consent withdrawal"

  public static func statement(_ evidence: FindingEvidence, minimum: TLSProtocolVersion) -> String {
    if let match = evidence.tracker {
      return
        "After the Consent withdrawn marker, a connection went to a host that \(TrackerWording.citation(match)), names as a tracking or advertising service."
    }
    return
      "After the Consent withdrawn marker, a connection went to a host the project's allowlist does not cover."
  }

  public static func shortStatement(_ evidence: FindingEvidence) -> String {
    evidence.tracker == nil
      ? "Host outside the allowlist after withdrawal" : "Tracker contacted after withdrawal"
  }

  public static func reason(_ gap: ConsentWithdrawalGap) -> String {
    switch gap {
    case .noWithdrawalMarker: return "No Consent withdrawn marker was placed in the session."
    case .nothingToCompare:
      return
        "The project's allowlist is empty and no tracker list is installed or given, so no host can be told to be a third party."
    case .unnamed:
      return "The connection began after the withdrawal but has no name to judge."
    }
  }
}
