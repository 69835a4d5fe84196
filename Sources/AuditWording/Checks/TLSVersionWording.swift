import Audit
import AuditRules

public enum TLSVersionWording: CheckWording {
  public typealias Rule = TLSVersionCheck
  public static let name = "TLS version"

  public static func statement(_ evidence: FindingEvidence, minimum: TLSProtocolVersion) -> String {
    let base = "A server negotiated a TLS version below the catalogue's minimum, \(minimum.name)."
    return evidence.tls?.basis == .upstreamConnection
      ? base
        + " It was negotiated with the inspecting proxy's own connection to the server, not with the app."
      : base
  }

  public static func shortStatement(_ evidence: FindingEvidence) -> String {
    evidence.tls?.basis == .upstreamConnection
      ? "TLS below the minimum, on the proxy's connection" : "TLS below the minimum"
  }

  public static func subject(_ evidence: FindingEvidence) -> String? {
    evidence.tls.map { "\($0.version.name), \(basisName($0.basis))" }
  }

  /// Where a version was read, under a column headed "Read from".
  public static func basisShortName(_ basis: TLSVersionBasis) -> String {
    switch basis {
    case .serverHello: return "the ServerHello"
    case .upstreamConnection: return "the proxy's connection"
    case .quic: return "the server's QUIC version"
    }
  }

  public static func basisName(_ basis: TLSVersionBasis) -> String {
    switch basis {
    case .serverHello: return "read from the ServerHello"
    case .upstreamConnection: return "read from the inspecting proxy's own connection"
    case .quic: return "read from the server's QUIC version"
    }
  }

  public static func reason(_ gap: TLSVersionGap) -> String {
    switch gap {
    case .appNegotiationNotObserved(let offer):
      let head =
        "The version was read only from the inspecting proxy's own connection to the server"
      switch offer {
      case .clientHelloNotRead: return head + ", and the app's ClientHello was not read."
      case .versionsNotListed:
        return head
          + ", and the app's ClientHello offered every version up to its own, so what the app would have negotiated is not known."
      case .listsVersionBelowMinimum(let v):
        return head + ", and the app's ClientHello also offered \(v.name), below the minimum."
      case .listsUnpublishedVersion(let v):
        return head
          + ", and the app's ClientHello offered \(v.hex), which is not a published version."
      }
    case .unrecognisedVersion(let v):
      return
        "The server negotiated \(v.hex), which is not one of the five published SSL/TLS versions."
    case .serverRefused(let alert):
      return "The server answered with an alert (description \(alert)) instead of a ServerHello."
    case .quicVersionOnlyProposed:
      return "Only the QUIC version the client proposed was read, not the server's answer."
    case .unrecognisedQUICVersion(let v):
      return
        "QUIC version \(QUICReading(version: v, end: .client).versionName) is not known to carry TLS 1.3."
    case .serverAnswerNotRead:
      return "The server's answer was not read."
    }
  }
}
