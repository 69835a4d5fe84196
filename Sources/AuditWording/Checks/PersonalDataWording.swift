import Audit
import AuditRules

/// The sentences of the personal data check: which of the test account's values a request sent,
/// and to whom, as seen; never that a person's data was disclosed, nor that a recipient may not
/// receive it.
public enum PersonalDataWording: CheckWording {
  public typealias Rule = PersonalDataCheck
  public static let name = "Personal data"

  public static func statement(_ evidence: FindingEvidence, minimum: TLSProtocolVersion) -> String {
    let recipient: String
    if let match = evidence.tracker {
      recipient =
        "a host that \(TrackerWording.citation(match)), names as a tracking or advertising service"
    } else {
      recipient = "a host the project's allowlist does not cover"
    }
    switch evidence.kind {
    case .personalDataBeforeConsent:
      return
        "Before the Consent given marker, a request sent one of the test account's values."
    case .personalDataAfterWithdrawal:
      return
        "After the Consent withdrawn marker, a request sent one of the test account's values to \(recipient)."
    case .personalDataInCleartext:
      return
        "A request sent one of the test account's values in the clear, readable in the capture."
    default:
      return "A request sent one of the test account's values to \(recipient)."
    }
  }

  public static func shortStatement(_ evidence: FindingEvidence) -> String {
    switch evidence.kind {
    case .personalDataBeforeConsent: return "Test account's data sent before consent"
    case .personalDataAfterWithdrawal:
      return evidence.tracker == nil
        ? "Test account's data sent to a third party after withdrawal"
        : "Test account's data sent to a tracker after withdrawal"
    case .personalDataInCleartext: return "Test account's data sent in the clear"
    default:
      return evidence.tracker == nil
        ? "Test account's data sent to a third party" : "Test account's data sent to a tracker"
    }
  }

  /// "the test account's e-mail, to api.mixpanel.com".
  public static func subject(_ evidence: FindingEvidence) -> String? {
    let value = evidence.testData.map { valuePhrase($0.label) }
    return [value, evidence.host.map { "to " + $0 }].compactMap { $0 }.joined(separator: ", ")
  }

  /// How a planted value is named: "the test account's e-mail".
  public static func valuePhrase(_ label: String) -> String { "the test account's \(label)" }

  public static func reason(_ gap: PersonalDataGap) -> String {
    switch gap {
    case .noTestAccount:
      return
        "The project's test account has no values: plant them with 'tunnelvision project data PROJECT add LABEL VALUE' and each request is searched for them."
    case .contentNotRead:
      return
        "What the connection carried was not read: it was encrypted and not opened by the inspecting proxy, or no request of it was in the capture, the proxy's log or a HAR file."
    }
  }
}
