import Audit
import Foundation

/// One of the test account's values as it went out: to which host, a first or a third party,
/// in what form and where, when against the consent markers, in which exchange. What the report's
/// and compare's "where it went" is read from.
public struct SentValue: Sendable, Hashable {
  public enum Party: Sendable, Hashable {
    case firstParty
    /// A tracker list names the host (its match), or the allowlist does not cover it (nil).
    case thirdParty(TrackerMatch?)
  }
  public enum Phase: String, Sendable, Hashable {
    case beforeConsent, afterConsent, betweenConsentMarkers, afterWithdrawal, noConsentMarker
  }
  public let label: String
  public let host: String
  public let party: Party
  public let form: ValueForm
  public let place: MatchPlace
  public let phase: Phase
  public let exchangeID: Int64
  public let inCleartext: Bool

  public var isThirdParty: Bool {
    if case .thirdParty = party { return true }
    return false
  }
}

public enum SentValues {
  /// Every match of every exchange, its party read from the session's findings (a personal data
  /// finding against a third party names the host and the value), its phase from the markers.
  public static func of(
    _ content: SessionContent, findings: [Finding], markers: [SessionMarker]
  ) -> [SentValue] {
    var third: [String: TrackerMatch?] = [:]
    for finding in findings where finding.kind == .personalDataToThirdParty {
      if let host = finding.evidence.host, let label = finding.evidence.testData?.label {
        third[host + "\u{0}" + label] = finding.evidence.tracker
      }
    }
    let consent = ConsentInterval(markers: markers)
    let withdrawal = markers.filter { $0.kind == .consentWithdrawn }.map(\.date).min()
    var sent: [SentValue] = []
    for exchange in content.exchanges {
      let phase: SentValue.Phase
      if let withdrawal, exchange.start >= withdrawal {
        phase = .afterWithdrawal
      } else if let consent {
        phase =
          exchange.start < consent.earliest
          ? .beforeConsent
          : exchange.start >= consent.latest ? .afterConsent : .betweenConsentMarkers
      } else {
        phase = .noConsentMarker
      }
      for match in exchange.matches {
        let party =
          third[exchange.host + "\u{0}" + match.label].map { SentValue.Party.thirdParty($0) }
          ?? .firstParty
        sent.append(
          SentValue(
            label: match.label, host: exchange.host, party: party, form: match.form,
            place: match.place, phase: phase, exchangeID: exchange.exchangeID,
            inCleartext: exchange.inCleartext))
      }
    }
    return sent
  }

  /// The labels of the values planted that no exchange read sent.
  public static func notSeen(_ content: SessionContent) -> [String] {
    let seen = Set(content.exchanges.flatMap { $0.matches.map(\.label) })
    return content.values.map(\.label).filter { !seen.contains($0) }
  }
}
