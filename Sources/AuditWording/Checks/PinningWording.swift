import Audit
import AuditRules

public enum PinningWording: CheckWording {
  public typealias Rule = PinningCheck
  public static let name = "Certificate pinning"

  public static func statement(_ evidence: FindingEvidence, minimum: TLSProtocolVersion) -> String {
    evidence.kind == .pinningAbsent
      ? "A connection to this host accepted a certificate issued by the local CA: for this host, a user-installed root is trusted."
      : "A connection to this host refused the local CA's certificate. The refusal may predate the session (an earlier refusal can stop the inspection of later connections)."
  }

  public static func shortStatement(_ evidence: FindingEvidence) -> String {
    evidence.kind == .pinningAbsent
      ? "The local CA's certificate accepted" : "The local CA's certificate refused"
  }

  public static func reason(_ gap: ProxyCertificateGap) -> String {
    ProxyCertificateWording.reason(gap)
  }
}
