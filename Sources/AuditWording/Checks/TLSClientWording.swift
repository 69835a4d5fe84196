import Audit
import AuditRules

/// The sentences of the TLS client check: a fingerprint the baseline did not show is a TLS client
/// the device did not use without the app; which library it is, the fingerprint alone does not say.
public enum TLSClientWording: CheckWording {
  public typealias Rule = TLSClientCheck
  public static let name = "TLS client"

  public static func statement(_ evidence: FindingEvidence, minimum: TLSProtocolVersion) -> String {
    "A connection was made by a TLS client the device did not use in the project's baseline, recorded without the app: its ClientHello's JA4 fingerprint does not occur there. It may be a TLS library the app brings along instead of the system's; the fingerprint does not name it."
  }

  public static func shortStatement(_ evidence: FindingEvidence) -> String {
    "TLS client not seen in the baseline"
  }

  public static func subject(_ evidence: FindingEvidence) -> String? {
    [evidence.fingerprint.map { "JA4 " + $0 }, evidence.host].compactMap { $0 }.joined(
      separator: ", ")
  }

  public static func reason(_ gap: TLSClientGap) -> String {
    switch gap {
    case .noBaseline:
      return
        "The project has no ended baseline session (the device without the app) to compare the TLS clients with."
    case .sessionIsBaseline:
      return "The session is the project's baseline: it is what other sessions are compared with."
    case .clientHelloNotRead:
      return "The connection's ClientHello was not read, so its TLS client is not known."
    }
  }
}
