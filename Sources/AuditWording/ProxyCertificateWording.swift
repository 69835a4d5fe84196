import Audit
import AuditRules

/// Why a connection's answer to the inspecting proxy's certificate was not read: the pinning
/// and certificate validation checks give the same reasons.
public enum ProxyCertificateWording {
  public static func reason(_ gap: ProxyCertificateGap) -> String {
    switch gap {
    case .inspectionOff: return "The session was recorded with HTTPS inspection off."
    case .scenarioNotStated:
      return
        "The session does not state how the proxy's certificate stood with the device (--ca: not-installed, user, system, wrong-host, expired), so an accepted or refused certificate means nothing yet."
    case .scenarioTestsValidation:
      return
        "The session's certificate scenario tests certificate validation, not pinning: the certificate validation check reads it."
    case .systemTrustTestsPinning:
      return
        "With the system trusting the proxy's certificate authority, accepting its certificate is what a validating app does: only pinning is read (the pinning check)."
    case .userCARefused:
      return
        "The connection refused a certificate from a user-installed certificate authority: that says nothing about pinning, since the app may trust only the system's."
    case .outcomeWithoutAnnouncedName:
      return
        "An inspection outcome was recorded, but the ClientHello announced no name to state it about."
    case .quicNotInspected: return "QUIC connections are not inspected."
    case .noInspectionOutcome: return "No inspection outcome was recorded for this TLS connection."
    case .inspectionLogNotFollowed:
      return
        "The recorder that recorded it followed no inspection log (--inspection-log), so no outcome could be joined."
    case .inspectionLog(let state):
      return InspectionLogWording.sentence(state, file: nil) ?? reason(.noInspectionOutcome)
    case .inspectionLinesUnreadable(let count):
      return
        "No inspection outcome was recorded for this TLS connection, and the recorder could not read \(Quantity.count(count, "line")) of its inspection log: this connection's outcome may have been in one of them."
    case .closedAfterHandshake:
      return
        "The connection completed its handshake with the proxy's certificate, then closed without sending a request: the app may check a pin in its own code after the handshake (as OkHttp's CertificatePinner does), or it had nothing to send; the traffic does not tell which."
    }
  }
}
