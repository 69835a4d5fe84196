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

  public static func reason(_ gap: PinningGap) -> String {
    switch gap {
    case .inspectionOff: return "The session was recorded with HTTPS inspection off."
    case .caNotTrusted:
      return "The device did not trust the local certificate authority while the session recorded."
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
    case .closedAfterHandshake:
      return
        "The connection completed its handshake with the proxy's certificate, then closed without sending a request: the app may check a pin in its own code after the handshake (as OkHttp's CertificatePinner does), or it had nothing to send; the traffic does not tell which."
    }
  }
}
