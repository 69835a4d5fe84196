import Audit
import AuditRules

public enum EncryptionWording: CheckWording {
  public typealias Rule = EncryptionCheck
  public static let name = "Encryption"

  public static func statement(_ evidence: FindingEvidence, minimum: TLSProtocolVersion) -> String {
    "An HTTP request was observed in the clear."
  }

  public static func shortStatement(_ evidence: FindingEvidence) -> String {
    "Unencrypted traffic"
  }

  /// The host, and the request read: "api.example, POST /v1/diary".
  public static func subject(_ evidence: FindingEvidence) -> String? {
    let parts = [evidence.host, evidence.request].compactMap { $0 }
    return parts.isEmpty ? nil : parts.joined(separator: ", ")
  }

  public static func reason(_ gap: EncryptionGap) -> String {
    switch gap {
    case .unrecognisedOpening:
      return "The stream opened with bytes that are neither a TLS handshake nor an HTTP request."
    case .openingNotRead:
      return "The stream's opening was not read; the port alone says nothing about encryption."
    case .unrecognisedQUICVersion(let v):
      return
        "QUIC version \(QUICReading(version: v, end: .client).versionName) is not known to protect its packets."
    case .datagramsNotRead:
      return
        "No QUIC reading was made of the datagrams; the port alone says nothing about encryption."
    }
  }
}
