import Audit
import AuditRules

/// The sentences of the TLS parameter check: what a parameter is, and how the TLS document
/// stands on it. "Not listed", never "weak": the document says what it does not list is not
/// necessarily insecure.
public enum TLSParameterWording: CheckWording {
  public typealias Rule = TLSParameterCheck
  public static let name = "TLS parameters"
  public static let noun = "TLS parameter"

  public static func statement(_ evidence: FindingEvidence, minimum: TLSProtocolVersion) -> String {
    guard let o = evidence.parameter else { return "" }
    let version = o.version.name
    let sentence: String
    switch (o.item, o.standing) {
    case (.certificateKey(let algorithm, let bits), .belowMinimum(let least)):
      sentence =
        "The server certificate's \(algorithm) key of \(bits) bits is shorter than the \(least) bits \(o.document) recommends (Table \(o.reference))."
    case (.dhPrime(let bits), .belowMinimum(let least)):
      sentence =
        "The server's Diffie-Hellman prime of \(bits) bits is shorter than the \(least) bits \(o.document) recommends (Table \(o.reference))."
    case (.certificateKey(let algorithm, _), .notListed):
      sentence =
        "The server certificate's key is of type \(algorithm), for which \(o.document) gives no recommended length (Table \(o.reference))."
    case (_, .notListed):
      sentence =
        "\(capitalised(itemText(o.item))) is not among the \(plural(o.item)) \(o.document) recommends for \(version) (\(tables(o.reference)))."
    case (_, .recommendedUntil(let year)):
      sentence =
        "\(capitalised(itemText(o.item))) is recommended by \(o.document) for \(version) only until \(year) (\(tables(o.reference))); the session began after \(year)."
    case (.extensionMissing(let value), _):
      sentence =
        "The server's hello did not carry \(TLSRegistry.extensionText(value)), which \(o.document) recommends for \(version) (\(o.reference))."
    case (.extensionUsed(let value), _):
      sentence =
        "The server's hello carried \(TLSRegistry.extensionText(value)), which \(o.document) advises against (\(o.reference))."
    case (.compression(let method), _):
      sentence =
        "The server chose TLS compression (method \(method)), which \(o.document) advises against (\(o.reference))."
    case (.earlyData, _):
      sentence =
        "The app's ClientHello offered 0-RTT early data, which \(o.document) advises against (\(o.reference))."
    default:
      sentence = "\(capitalised(itemText(o.item))): \(o.document), \(o.reference)."
    }
    return sentence + legSentence(o.leg)
  }

  public static func shortStatement(_ evidence: FindingEvidence) -> String {
    guard let o = evidence.parameter else { return name }
    let head: String
    switch (o.item, o.standing) {
    case (.certificateKey, .belowMinimum), (.dhPrime, .belowMinimum):
      head = "\(capitalised(singular(o.item))) below the recommended length"
    case (.certificateKey, .notListed): head = "Certificate key type without a recommended length"
    case (_, .notListed): head = "\(capitalised(singular(o.item))) not recommended"
    case (_, .recommendedUntil):
      head = "\(capitalised(singular(o.item))) past its recommended years"
    case (.extensionMissing, _): head = "Recommended extension not used"
    case (.compression, _): head = "TLS compression used"
    case (.earlyData, _): head = "0-RTT early data offered"
    default: head = "Extension advised against"
    }
    return o.leg == .proxyConnection ? head + ", on the proxy's connection" : head
  }

  public static func subject(_ evidence: FindingEvidence) -> String? {
    guard let o = evidence.parameter else { return evidence.host }
    return [itemText(o.item), o.version.name, evidence.host].compactMap { $0 }.joined(
      separator: ", ")
  }

  public static func reason(_ gap: TLSParameterGap) -> String {
    switch gap {
    case .noRecommendations:
      return "The catalogue carries no TLS recommendations to judge the parameters by."
    case .serverAnswerNotRead:
      return "The server's answer was not read, so what it chose is not known."
    case .versionWithoutTables:
      return
        "The negotiated version is one the TLS document has no tables for (the TLS version check speaks of it)."
    }
  }

  /// The parameter as a person reads it: its IANA name beside its code.
  public static func itemText(_ item: TLSParameterObservation.Item) -> String {
    switch item {
    case .cipherSuite(let value): return TLSRegistry.cipherSuiteText(value)
    case .group(let value): return TLSRegistry.groupText(value)
    case .signatureScheme(let value): return TLSRegistry.signatureSchemeText(value)
    case .certificateSignature(let name, let scheme):
      return "certificate signature \(name)"
        + (scheme.map { " (as \(TLSRegistry.signatureSchemeText($0)))" } ?? "")
    case .certificateKey(let algorithm, let bits): return "\(algorithm) key of \(bits) bits"
    case .dhPrime(let bits): return "Diffie-Hellman prime of \(bits) bits"
    case .extensionMissing(let value), .extensionUsed(let value):
      return TLSRegistry.extensionText(value)
    case .compression(let method): return "compression method \(method)"
    case .earlyData: return "0-RTT early data"
    }
  }

  static func singular(_ item: TLSParameterObservation.Item) -> String {
    switch item {
    case .cipherSuite: return "cipher suite"
    case .group: return "key exchange group"
    case .signatureScheme: return "signature scheme"
    case .certificateSignature: return "certificate signature"
    case .certificateKey: return "certificate key"
    case .dhPrime: return "DH prime"
    case .extensionMissing, .extensionUsed: return "extension"
    case .compression: return "compression"
    case .earlyData: return "early data"
    }
  }

  static func plural(_ item: TLSParameterObservation.Item) -> String {
    switch item {
    case .certificateSignature: return "certificate signature schemes"
    case .compression, .earlyData: return singular(item)
    default: return singular(item) + "s"
    }
  }

  static func capitalised(_ text: String) -> String {
    text.prefix(1).uppercased() + text.dropFirst()
  }

  /// "Table 2" or "Tables 2, 3, 4".
  static func tables(_ reference: String) -> String {
    if reference.hasPrefix("§") { return reference }
    return (reference.contains(",") ? "Tables " : "Table ") + reference
  }

  static func legSentence(_ leg: TLSParameterLeg) -> String {
    switch leg {
    case .appConnection, .appOffer: return ""
    case .proxyConnection:
      return
        " It was read from the inspecting proxy's own connection to the server: the server's answer to the proxy's offer, not to the app's."
    }
  }
}
