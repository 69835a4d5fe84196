import Audit
import AuditRules

/// What the documents and screens say of the content: what exchanges.json is, whose the values
/// are, where a value went.
public enum ContentWording {

  public static let exchangesNote =
    "Each exchange the session's connections carried, as read from the inspecting proxy's log, from HTTP in the clear in the capture, or from a HAR file: where it went and when, its bodies' sizes and SHA-256, the names of what it sent (never their values), and which of the test account's values it sent, in what form and where. The values are the test account's, planted by the assessor; a value not planted is not looked for."

  public static let testAccountNote =
    "The test account's values the session was judged with, chosen by the assessor for the test: they are the test account's, not a person's."

  /// session.json's contents sentence, said for a bundle with or without the content itself.
  public static func contents(withContent: Bool) -> String {
    withContent
      ? "This bundle holds connection metadata, what it shows against a requirement catalogue, a capture of the session's packets as they travelled, what each exchange sent of the test account's values (exchanges.json), and the decrypted content of the exchanges itself (content.har), as the export was asked for it: treat it as the content it is."
      : "This bundle holds connection metadata, what it shows against a requirement catalogue, a capture of the session's packets as they travelled, and what each exchange sent of the test account's values (exchanges.json). Decrypted content is not part of it: what was encrypted stays encrypted in the capture."
  }

  /// How a form is said: "as planted", "as its SHA-256".
  public static func formPhrase(_ form: ValueForm) -> String {
    switch form {
    case .asIs: return "as planted"
    case .caseFolded: return "in another case"
    case .normalised: return "normalised"
    case .percentEncoded: return "percent-encoded"
    case .formEncoded: return "form-encoded"
    case .jsonEscaped: return "JSON-escaped"
    case .base64: return "in Base64"
    case .base64URL: return "in URL-safe Base64"
    case .hex: return "in hex"
    case .md5: return "as its MD5"
    case .sha1: return "as its SHA-1"
    case .sha256: return "as its SHA-256"
    case .md5OfNormalised: return "as the MD5 of its normalised form"
    case .sha1OfNormalised: return "as the SHA-1 of its normalised form"
    case .sha256OfNormalised: return "as the SHA-256 of its normalised form"
    case .coordinates: return "as coordinates within \(TestDataValue.coordinateTolerance)°"
    }
  }
}
