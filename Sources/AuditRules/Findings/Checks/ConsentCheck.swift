import Audit
import Foundation

/// The earliest and the latest consentGiven marker of a session (the same instant when there is one).
public struct ConsentInterval: Sendable, Hashable {
  public let earliest: Date
  public let latest: Date

  public init?(markers: [SessionMarker]) {
    let dates = markers.filter { $0.kind == .consentGiven }.map(\.date)
    guard let first = dates.min(), let last = dates.max() else { return nil }
    earliest = first
    latest = last
  }
}

public enum ConsentGap: Sendable, Hashable { case noConsentMarker, betweenConsentMarkers }

/// Whether a flow's first packet came before the user consented.
public enum ConsentAssessment: Sendable, Hashable {
  case beforeConsent, afterConsent
  case notAssessed(ConsentGap)
  case notApplicable

  public init(
    of flow: borrowing StoredFlow, sessionKind: AuditSessionKind, consent: ConsentInterval?
  ) {
    // A name looked up is the device's activity; an address configured or a neighbour found is
    // the network's, consent or not.
    if sessionKind == .baseline
      || InfrastructureService(of: flow).map({ $0 != .dns }) == true
    {
      self = .notApplicable
      return
    }
    guard let consent else {
      self = .notAssessed(.noConsentMarker)
      return
    }
    if flow.firstSeen < consent.earliest {
      self = .beforeConsent
    } else if flow.firstSeen >= consent.latest {
      self = .afterConsent
    } else {
      self = .notAssessed(.betweenConsentMarkers)
    }
  }
}

extension FindingsCheck {
  public static let consent = FindingsCheck(rawValue: "consent")
}

extension FindingKind {
  public static let activityBeforeConsent = FindingKind(
    "activityBeforeConsent", of: .consent, meaning: .consent)
}

extension FindingEvidence {
  /// Nothing but the kind: the instant belongs to each flow.
  public static let activityBeforeConsent = FindingEvidence(kind: .activityBeforeConsent)
}

/// Whether a connection began before the user consented.
public enum ConsentCheck: FindingsCheckRule {
  public static let check = FindingsCheck.consent
  public static let runOrder = 90
  public static let kinds: [FindingKind] = [.activityBeforeConsent]
  public static let statedForms: [FindingEvidence] = [.activityBeforeConsent]

  public static func assess(_ flow: StoredFlow, in context: CheckContext) -> CheckOutcome<
    ConsentGap
  > {
    switch ConsentAssessment(of: flow, sessionKind: context.session.kind, consent: context.consent)
    {
    case .beforeConsent:
      // What it carried was read and none of the test account's values was in it, to the app's
      // own backend: where it went is listed with the content, not held against the consent.
      if let content = context.content, !content.values.isEmpty,
        case let exchanges = content.exchanges(ofFlow: flow.id), !exchanges.isEmpty,
        exchanges.allSatisfy({ $0.matches.isEmpty }), let name = flow.name,
        !PersonalDataCheck.Recipient(
          host: DomainPattern.normalised(host: name.text), context: context
        ).isThirdParty, !context.project.allowlist.isEmpty
      {
        return .satisfied
      }
      return .finding(.activityBeforeConsent)
    case .afterConsent: return .satisfied
    case .notAssessed(let gap): return .notAssessed(gap)
    case .notApplicable: return .notApplicable
    }
  }
}

extension SessionFindings {
  public var consent: CheckCoverage<ConsentGap> { ConsentCheck.coverage(in: self) }
}

extension ConsentGap: CheckGap {
  public var key: String {
    switch self {
    case .noConsentMarker: return "noConsentMarker"
    case .betweenConsentMarkers: return "betweenConsentMarkers"
    }
  }
}
