import Audit
import Foundation

extension FindingsCheck {
  public static let personalData = FindingsCheck(rawValue: "personalData")
}

extension FindingKind {
  public static let personalDataToThirdParty = FindingKind(
    "personalDataToThirdParty", of: .personalData, meaning: .personalData)
  public static let personalDataBeforeConsent = FindingKind(
    "personalDataBeforeConsent", of: .personalData, meaning: .personalData)
  public static let personalDataAfterWithdrawal = FindingKind(
    "personalDataAfterWithdrawal", of: .personalData, meaning: .personalData)
  public static let personalDataInCleartext = FindingKind(
    "personalDataInCleartext", of: .personalData, meaning: .personalData)
}

/// What made a recipient a third party: outside the allowlist, or named by a tracker list.
public enum RecipientReason {
  public static let notInAllowlist = "notInAllowlist"
  public static let tracker = "tracker"
}

extension FindingEvidence {
  public static func personalDataToThirdParty(
    host: String, _ value: TestDataSubject, tracker: TrackerMatch?
  ) -> FindingEvidence {
    FindingEvidence(
      kind: .personalDataToThirdParty, host: host,
      reason: tracker == nil ? RecipientReason.notInAllowlist : RecipientReason.tracker,
      tracker: tracker, testData: value)
  }
  public static func personalDataBeforeConsent(host: String, _ value: TestDataSubject)
    -> FindingEvidence
  {
    FindingEvidence(kind: .personalDataBeforeConsent, host: host, testData: value)
  }
  public static func personalDataAfterWithdrawal(
    host: String, _ value: TestDataSubject, tracker: TrackerMatch?
  ) -> FindingEvidence {
    FindingEvidence(
      kind: .personalDataAfterWithdrawal, host: host,
      reason: tracker == nil ? RecipientReason.notInAllowlist : RecipientReason.tracker,
      tracker: tracker, testData: value)
  }
  public static func personalDataInCleartext(host: String, _ value: TestDataSubject)
    -> FindingEvidence
  {
    FindingEvidence(kind: .personalDataInCleartext, host: host, testData: value)
  }
}

public enum PersonalDataGap: String, CheckGap, CaseIterable {
  /// The project's test account has no values: nothing is looked for.
  case noTestAccount
  /// Nothing the connection carried was read: encrypted and not inspected, or no request came.
  case contentNotRead
  public var key: String { rawValue }
}

/// The test account's values found in what a connection sent: to a third party (a host outside
/// the allowlist, or one a tracker list names), before consent, after consent was withdrawn (to a
/// third party), in the clear. A value the app's own backend received, after consent and
/// encrypted, is where it went, not a finding. Stated as what was seen in the exchange, with the
/// form and place in exchanges.json.
public enum PersonalDataCheck: FindingsCheckRule {
  public static let check = FindingsCheck.personalData
  public static let runOrder = 130
  public static let kinds: [FindingKind] = [
    .personalDataToThirdParty, .personalDataBeforeConsent, .personalDataAfterWithdrawal,
    .personalDataInCleartext,
  ]
  public static var statedForms: [FindingEvidence] {
    let value = TestDataSubject(label: "e-mail", category: .contact)
    let match = TrackerMatch(list: "EasyPrivacy", date: "2025-10-31", rule: "||tracker.example^")
    return [
      .personalDataToThirdParty(host: "metrics.example", value, tracker: nil),
      .personalDataToThirdParty(host: "tracker.example", value, tracker: match),
      .personalDataBeforeConsent(host: "api.example", value),
      .personalDataAfterWithdrawal(host: "metrics.example", value, tracker: nil),
      .personalDataAfterWithdrawal(host: "tracker.example", value, tracker: match),
      .personalDataInCleartext(host: "api.example", value),
    ]
  }

  /// Where it cannot see what was sent, the other checks of a requirement still judge.
  public static let gapsCountBesideOtherChecks = false

  public static func assess(_ flow: StoredFlow, in context: CheckContext) -> CheckOutcome<
    PersonalDataGap
  > {
    if context.session.kind == .baseline || InfrastructureService(of: flow) != nil {
      return .notApplicable
    }
    guard let content = context.content, !content.values.isEmpty else {
      return .notAssessed(.noTestAccount)
    }
    let exchanges = content.exchanges(ofFlow: flow.id)
    guard !exchanges.isEmpty else {
      // A DNS lookup or a stream that never opened carries no request to read.
      return flow.ipProtocol == .tcp ? .notAssessed(.contentNotRead) : .notApplicable
    }
    var found: [FindingEvidence] = []
    func add(_ evidence: FindingEvidence) {
      if !found.contains(evidence) { found.append(evidence) }
    }
    for exchange in exchanges where !exchange.matches.isEmpty {
      // The recipient is the host the request named (its authority, or Host header).
      let host = exchange.host
      let recipient = Recipient(host: host, context: context)
      for label in Set(exchange.matches.map(\.label)).sorted() {
        let value = TestDataSubject(label: label, category: content.category(of: label))
        if recipient.isThirdParty {
          add(.personalDataToThirdParty(host: host, value, tracker: recipient.tracker))
        }
        if let consent = context.consent, exchange.start < consent.earliest {
          add(.personalDataBeforeConsent(host: host, value))
        }
        if let withdrawn = context.withdrawal, exchange.start >= withdrawn, recipient.isThirdParty {
          add(.personalDataAfterWithdrawal(host: host, value, tracker: recipient.tracker))
        }
        if exchange.inCleartext { add(.personalDataInCleartext(host: host, value)) }
      }
    }
    return found.isEmpty ? .satisfied : .findings(found)
  }

  /// Who received what a connection sent: a third party when a tracker list names the host or
  /// the allowlist (when there is one) does not cover it.
  struct Recipient {
    let tracker: TrackerMatch?
    let isThirdParty: Bool
    init(host: String, context: CheckContext) {
      tracker = context.hosts.trackerMatch(host)
      isThirdParty =
        tracker != nil
        || (!context.project.allowlist.isEmpty
          && context.hosts.allowlistEntry(matching: host) == nil)
    }
  }
}

extension SessionFindings {
  public var personalData: CheckCoverage<PersonalDataGap> { PersonalDataCheck.coverage(in: self) }
}
