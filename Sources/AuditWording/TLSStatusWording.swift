import Audit

/// The one word for each connection status, wherever a person reads one (`flows`, `flow`, the
/// `--status` help); flows.json and flows.csv keep the status's key (`TLSInspectionStatus.name`).
public enum TLSStatusWording {
  public static func word(_ status: TLSInspectionStatus) -> String {
    switch status {
    case .plaintext: return "Not encrypted"
    case .encrypted: return "Encrypted"
    case .inspected: return "Inspected"
    case .notInspectable: return "Refused the proxy"
    case .closedAfterHandshake: return "Closed after handshake"
    }
  }

  /// "plaintext (Not encrypted), encrypted (Encrypted), …": each key with its word, for the help
  /// of an option that takes the key.
  public static var keysWithWords: String {
    TLSInspectionStatus.allCases.map { "\($0.name) (\(word($0)))" }.joined(separator: ", ")
  }

  /// The words in order, for a help text: "Not encrypted, Encrypted, …".
  public static var words: String {
    TLSInspectionStatus.allCases.map(word).joined(separator: ", ")
  }
}
