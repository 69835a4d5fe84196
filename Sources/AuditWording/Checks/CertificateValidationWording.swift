import Audit
import AuditRules

public enum CertificateValidationWording: CheckWording {
  public typealias Rule = CertificateValidationCheck
  public static let name = "Certificate validation"

  public static func statement(_ evidence: FindingEvidence, minimum: TLSProtocolVersion) -> String {
    switch evidence.kind {
    case .certificateNotValidated:
      return
        "A connection to this host completed its handshake with a certificate from the inspecting proxy's certificate authority, which the device did not trust, and sent requests over it: the app accepted a certificate no trusted authority issued."
    case .hostNameNotVerified:
      return
        "A connection to this host accepted a certificate issued for another host name by an authority the device trusts, and sent requests over it: the app did not verify the host name."
    case .expiryNotChecked:
      return
        "A connection to this host accepted an expired certificate from an authority the device trusts, and sent requests over it: the app did not check the certificate's validity period."
    case .userCATrusted:
      return
        "A connection to this host accepted a certificate from an authority installed in the device's user store, and sent requests over it: the app trusts user-installed authorities for this host, and pins nothing."
    case .userCARefused:
      return
        "A connection to this host refused a certificate from an authority installed in the device's user store."
    default:
      return
        "A connection to this host refused the certificate the session's scenario served. The refusal may predate the session (an earlier refusal can stop the inspection of later connections)."
    }
  }

  public static func shortStatement(_ evidence: FindingEvidence) -> String {
    switch evidence.kind {
    case .certificateNotValidated: return "A certificate from an untrusted authority accepted"
    case .hostNameNotVerified: return "A certificate for another host name accepted"
    case .expiryNotChecked: return "An expired certificate accepted"
    case .userCATrusted: return "A user-installed authority trusted"
    case .userCARefused: return "A user-installed authority refused"
    default: return "The served certificate refused"
    }
  }

  public static func reason(_ gap: ProxyCertificateGap) -> String {
    ProxyCertificateWording.reason(gap)
  }
}
