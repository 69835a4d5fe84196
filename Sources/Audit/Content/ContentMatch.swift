import Foundation

/// The form a value was found in: as planted, or as an SDK sends it (encoded, escaped, hashed).
/// The raw values are format (exchanges.json).
public enum ValueForm: String, Sendable, Hashable, CaseIterable, Comparable {
  case asIs
  /// In another case (an e-mail address: its case does not matter).
  case caseFolded
  /// Normalised: trimmed, an e-mail lower-cased, a phone number's digits alone.
  case normalised
  case percentEncoded
  /// application/x-www-form-urlencoded: percent-encoded, a space as '+'.
  case formEncoded
  /// Escaped as a JSON string writes it (\/, \u00e9…).
  case jsonEscaped
  case base64
  case base64URL
  case hex
  case md5
  case sha1
  case sha256
  case md5OfNormalised
  case sha1OfNormalised
  case sha256OfNormalised
  /// A location: a latitude and a longitude within the stated tolerance.
  case coordinates

  public static func < (a: ValueForm, b: ValueForm) -> Bool {
    allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
  }
}

/// Where in a request a value stood.
public struct MatchPlace: Sendable, Hashable, Comparable {
  public enum Part: String, Sendable, Hashable, CaseIterable {
    case path, query, header, cookie, body
    /// A WebSocket message the app sent.
    case message
  }
  public let part: Part
  /// The query parameter's, the header's or the cookie's name; a JSON body's path ("$.user.email"),
  /// a form field's or a multipart part's name. Nil where the part has none.
  public let name: String?

  public init(_ part: Part, _ name: String? = nil) {
    self.part = part
    self.name = name
  }

  /// "query uid", "header X-Adid", "cookie _ga", "body $.user.email", "path".
  public var text: String { name.map { "\(part.rawValue) \($0)" } ?? part.rawValue }

  public static func < (a: MatchPlace, b: MatchPlace) -> Bool {
    (Part.allCases.firstIndex(of: a.part)!, a.name ?? "")
      < (Part.allCases.firstIndex(of: b.part)!, b.name ?? "")
  }
}

/// One of the test account's values found in what an exchange sent: which value (by label), in
/// what form, where.
public struct ContentMatch: Sendable, Hashable, Comparable {
  public let label: String
  public let form: ValueForm
  public let place: MatchPlace

  public init(label: String, form: ValueForm, place: MatchPlace) {
    self.label = label
    self.form = form
    self.place = place
  }

  public static func < (a: ContentMatch, b: ContentMatch) -> Bool {
    (a.label, a.place, a.form) < (b.label, b.place, b.form)
  }
}
