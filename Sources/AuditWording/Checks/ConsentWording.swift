import Audit
import AuditRules

public enum ConsentWording: CheckWording {
  public typealias Rule = ConsentCheck
  public static let name = "Consent"

  public static func statement(_ evidence: FindingEvidence, minimum: TLSProtocolVersion) -> String {
    "A connection began before the earliest Consent given marker of the session."
  }

  public static func shortStatement(_ evidence: FindingEvidence) -> String {
    "Connections before consent"
  }

  public static func reason(_ gap: ConsentGap) -> String {
    switch gap {
    case .noConsentMarker: return "No Consent given marker was placed in the session."
    case .betweenConsentMarkers:
      return "The connection began between the earliest and the latest Consent given marker."
    }
  }
}
