import Audit
import AuditRules

/// The sentences of the mutual authentication check: what the TLS handshake showed of the app's
/// own certificate, never more (authentication above TLS is not seen).
public enum MutualAuthenticationWording: CheckWording {
  public typealias Rule = MutualAuthenticationCheck
  public static let name = "Mutual authentication"

  public static func statement(_ evidence: FindingEvidence, minimum: TLSProtocolVersion) -> String {
    "The server asked for a client certificate and the app sent one: the TLS handshake authenticated both ends."
  }

  public static func shortStatement(_ evidence: FindingEvidence) -> String {
    "Client certificate sent"
  }

  public static func reason(_ gap: MutualAuthenticationGap) -> String {
    switch gap {
    case .encryptedInHandshake:
      return
        "TLS 1.3 encrypts the server's certificate request and the app's certificate: whether the app authenticated itself is not read."
    case .handshakeNotRead:
      return
        "The handshake was not read as far as the server's hello done, so whether it asked for a client certificate is not known."
    }
  }

  /// What `flow ID` says of a connection's client authentication, as read.
  public static func reading(_ value: ClientAuthentication) -> String {
    switch value {
    case .notRequested: return "the server asked for no client certificate"
    case .requestedNoneSent: return "the server asked for a client certificate; the app sent none"
    case .requestedSent: return "the server asked for a client certificate; the app sent one"
    case .requestedAnswerNotRead:
      return "the server asked for a client certificate; the app's answer was not read"
    }
  }
}
