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

extension ContentWording {
  /// Page 1's line: how many planted values were seen, how many went to third parties.
  public static let summaryLabel = "Personal data"
  public static func summaryLine(planted: Int, seen: Int, toThirdParties: Int) -> String {
    guard planted > 0 else {
      return "No value of the test account was planted: what was sent was not searched."
    }
    return
      "Of the \(Quantity.count(planted, "value")) of the test account planted, \(Quantity.grouped(seen)) \(seen == 1 ? "was" : "were") seen in what was sent, \(Quantity.grouped(toThirdParties)) of them to a third party."
  }

  public static func sectionIntro(values: [TestDataValue]) -> String {
    values.isEmpty
      ? "No value of the test account was planted for the project: what the connections sent was not searched. Plant them with 'tunnelvision project data PROJECT add LABEL VALUE'."
      : "What the connections sent was searched for the test account's values — \(values.map { "\($0.label) (\($0.category.rawValue))" }.joined(separator: ", ")) — in the forms apps and SDKs send them. A row is one value found in one exchange: where it went, in what form and where in the request, and when against the consent markers."
  }

  public static let noExchanges =
    "No exchange was read: nothing the connections carried came from an inspecting proxy's log, HTTP in the clear in the capture, or a HAR file."
  public static let sentColumns = [
    "Value", "Recipient", "Party", "Form and place", "When", "Exchange",
  ]

  public static func partyText(_ party: SentValue.Party) -> String {
    switch party {
    case .firstParty: return "first party"
    case .thirdParty(nil): return "third party (outside the allowlist)"
    case .thirdParty(let match?): return "tracker: \(match.list), \(match.rule)"
    }
  }

  public static func phaseText(_ phase: SentValue.Phase) -> String {
    switch phase {
    case .beforeConsent: return "before consent"
    case .afterConsent: return "after consent"
    case .betweenConsentMarkers: return "between the consent markers"
    case .afterWithdrawal: return "after withdrawal"
    case .noConsentMarker: return "no consent marker"
    }
  }

  public static func notSeen(_ labels: [String]) -> String {
    "Planted and not seen in any exchange read: the test account's \(labels.joined(separator: ", ")). That a value was not seen does not show it was not sent: content that was not read (encrypted and not inspected) was not searched."
  }

  public static let noneSent =
    "None of the test account's values was seen in any exchange read."

  /// compare's line: a recipient that newly received a value.
  /// Without exchanges read in the earlier session, what the later sent is not said to be new.
  public static func newlySent(_ label: String, host: String, earlierRead: Bool) -> String {
    earlierRead
      ? "The test account's \(label) now sent to \(host)."
      : "The test account's \(label) sent to \(host)."
  }
  public static func newlySentHeading(earlierRead: Bool) -> String {
    earlierRead
      ? "Personal data sent to a new recipient" : "Personal data sent in the later session"
  }
  public static let earlierReadNoContent =
    "The earlier session read no exchange: whether it sent these too is not known."
}
