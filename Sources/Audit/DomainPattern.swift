/// An allowlist pattern: an exact name or `*.suffix`. Normalised and validated on construction.
public struct DomainPattern: Sendable, Hashable {
  public enum Scope: Sendable, Hashable { case exact, subdomains }

  public enum ParseError: Error, Sendable, Equatable {
    case empty, misplacedWildcard, nonASCII, emptyLabel
    case labelTooLong(String)
    case nameTooLong
    case invalidCharacter(Character)
    /// A label begins or ends with "-" (RFC 1123): "-x.com" is no host name.
    case hyphenAtLabelEdge(String)
    /// "*.com": a wildcard must keep at least two labels after it.
    case wildcardOverTopLevel(String)
  }

  public let scope: Scope
  /// Normalised (lower case, no trailing dot), without the `*.` prefix.
  public let name: String

  public init(parsing text: String) throws(ParseError) {
    var body = DomainPattern.normalised(host: text.trimmingWhitespace())
    guard !body.isEmpty else { throw .empty }
    var scope = Scope.exact
    if body.hasPrefix("*.") {
      scope = .subdomains
      body.removeFirst(2)
    }
    if body.contains("*") || body == "*" { throw .misplacedWildcard }
    guard body.unicodeScalars.allSatisfy(\.isASCII) else { throw .nonASCII }
    for character in body where !DomainPattern.isAllowed(character) {
      throw .invalidCharacter(character)
    }
    guard !body.isEmpty else { throw .emptyLabel }
    let labels = body.split(separator: ".", omittingEmptySubsequences: false)
    for label in labels {
      if label.isEmpty { throw .emptyLabel }
      if label.count > 63 { throw .labelTooLong(String(label)) }
      if label.hasPrefix("-") || label.hasSuffix("-") { throw .hyphenAtLabelEdge(String(label)) }
    }
    if scope == .subdomains, labels.count < 2 { throw .wildcardOverTopLevel(body) }
    guard body.count <= 253 else { throw .nameTooLong }
    self.scope = scope
    self.name = body
  }

  /// The canonical form: what is stored and shown.
  public var text: String { scope == .subdomains ? "*." + name : name }

  /// A wildcard covers names below the suffix, never the suffix itself.
  public func matches(_ host: String) -> Bool {
    matches(normalised: DomainPattern.normalised(host: host))
  }

  /// `matches(_:)` of a name already `normalised`: a list of patterns normalises a host once.
  func matches(normalised candidate: String) -> Bool {
    switch scope {
    case .exact: return candidate == name
    case .subdomains: return candidate.hasSuffix("." + name)
    }
  }

  /// Lower case, without a trailing dot: the text a finding cites and a domain is keyed by.
  public static func normalised(host: String) -> String {
    // Most names are so already: given back as they are, their storage shared. A session's
    // tallies (hosts, TLS readings, domains, certificates) each keep every host's name.
    func isNormal<Bytes: BidirectionalCollection<UInt8>>(_ bytes: Bytes) -> Bool {
      bytes.last != UInt8(ascii: ".")
        && !bytes.contains { $0 >= 0x80 || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
    }
    // Scanned in place where the bytes are contiguous (a native string's are): stepping through
    // `utf8` an index at a time cost more than the rest of matching a host against a pattern.
    if host.utf8.withContiguousStorageIfAvailable(isNormal) ?? isNormal(host.utf8) { return host }
    var text = host.lowercased()
    while text.hasSuffix(".") && text.count > 1 { text.removeLast() }
    return text
  }

  private static func isAllowed(_ character: Character) -> Bool {
    guard let ascii = character.asciiValue else { return false }
    switch ascii {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
      UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
      return true
    default: return false
    }
  }
}

extension String {
  func trimmingWhitespace() -> String {
    var scalars = Substring(self)
    while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
    while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
    return String(scalars)
  }
}
