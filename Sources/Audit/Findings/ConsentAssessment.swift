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

  public init(of flow: StoredFlow, sessionKind: AuditSessionKind, consent: ConsentInterval?) {
    if sessionKind == .baseline {
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
