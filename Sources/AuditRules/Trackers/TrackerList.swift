import Audit
import Foundation

/// Which list named a host, and by which rule: what a tracker finding cites.
public struct TrackerMatch: Sendable, Hashable {
  /// The list's title ("EasyPrivacy") and its date (yyyy-MM-dd).
  public let list: String
  public let date: String
  /// The rule as the list writes it ("||google-analytics.com^", "0.0.0.0 tracker.example").
  public let rule: String
  public init(list: String, date: String, rule: String) {
    self.list = list
    self.date = date
    self.rule = rule
  }
}

/// A list of tracking and advertising hosts: an Adblock-style filter list (EasyPrivacy, EasyList)
/// of which it keeps the rules that name a whole host (`||host^`, with options that only narrow
/// the kind of request), or a hosts file. Pure: the bytes are read by the shell, which says where
/// they came from.
public struct TrackerList: Sendable, Hashable {
  public struct Identity: Sendable, Hashable {
    /// The title the list gives itself ("! Title:"), else its file's name.
    public let name: String
    /// Where it was read.
    public let path: String
    /// SHA-256 of its bytes, 64 lower-case hex digits.
    public let sha256: String
    /// Its date, yyyy-MM-dd: its "Last modified" header when it states one, else its file's.
    public let date: String
    public init(name: String, path: String, sha256: String, date: String) {
      self.name = name
      self.path = path
      self.sha256 = sha256
      self.date = date
    }
  }
  public let identity: Identity
  /// Hosts the list names, lowercased, with the rule that names each.
  private let rules: [String: String]
  /// Hosts a rule excepts (`@@||host^`).
  private let exceptions: Set<String>

  public var ruleCount: Int { rules.count }

  /// Options of a host rule that narrow which requests it blocks, not which hosts: the host is
  /// still one the list names as tracking. Any other option (`domain=`, `denyallow=`, `csp`,
  /// `redirect`, `badfilter`…) makes the rule conditional, and it is left out.
  static let narrowingOptions: Set<String> = [
    "third-party", "3p", "script", "image", "xmlhttprequest", "xhr", "ping", "beacon",
    "subdocument", "frame", "stylesheet", "css", "object", "media", "font", "websocket", "other",
    "popup", "all", "important", "document", "doc",
  ]

  public init(identity: Identity, text: String) {
    self.identity = identity
    var rules: [String: String] = [:]
    var exceptions = Set<String>()
    for raw in text.split(whereSeparator: \.isNewline) {
      let line = raw.trimmingCharacters(in: .whitespaces)
      if line.isEmpty || line.hasPrefix("!") || line.hasPrefix("#") || line.hasPrefix("[") {
        continue
      }
      if line.hasPrefix("@@||") {
        if let host = Self.hostRule(line.dropFirst(4)) { exceptions.insert(host) }
      } else if line.hasPrefix("||") {
        if let host = Self.hostRule(line.dropFirst(2)), rules[host] == nil { rules[host] = line }
      } else if let host = Self.hostsFileEntry(line), rules[host] == nil {
        rules[host] = line
      }
    }
    self.rules = rules
    self.exceptions = exceptions
  }

  /// The host of `host^` or `host^$options`, the options all narrowing; nil for anything else.
  static func hostRule(_ rule: Substring) -> String? {
    guard let caret = rule.firstIndex(of: "^") else { return nil }
    let host = rule[..<caret]
    let rest = rule[rule.index(after: caret)...]
    if !rest.isEmpty {
      guard rest.hasPrefix("$") else { return nil }
      let options = rest.dropFirst().split(separator: ",").map { $0.lowercased() }
      guard options.allSatisfy(narrowingOptions.contains) else { return nil }
    }
    return isHost(host) ? host.lowercased() : nil
  }

  /// A hosts file's line: an address then a host ("0.0.0.0 tracker.example"), or a host alone.
  static func hostsFileEntry(_ line: String) -> String? {
    let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
    let host: Substring
    switch fields.count {
    case 1: host = fields[0]
    case 2... where ["0.0.0.0", "127.0.0.1", "::", "::1"].contains(String(fields[0])):
      guard fields.count == 2 || fields[2].hasPrefix("#") else { return nil }
      host = fields[1]
    default: return nil
    }
    guard isHost(host), host.contains("."), host != "localhost" else { return nil }
    return host.lowercased()
  }

  static func isHost<S: StringProtocol>(_ text: S) -> Bool {
    !text.isEmpty && text.count <= 253 && !text.hasPrefix(".") && !text.hasSuffix(".")
      && text.utf8.allSatisfy {
        (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) || (0x41...0x5A).contains($0)
          || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_")
      }
  }

  /// The rule naming the host or a domain it is under (`||example.com^` names every host below
  /// it), unless an exception covers it.
  public func match(_ host: String) -> TrackerMatch? {
    var name = DomainPattern.normalised(host: host)
    var found: String?
    while true {
      if exceptions.contains(name) { return nil }
      if found == nil, let rule = rules[name] { found = rule }
      guard let dot = name.firstIndex(of: ".") else { break }
      name = String(name[name.index(after: dot)...])
    }
    return found.map { TrackerMatch(list: identity.name, date: identity.date, rule: $0) }
  }
}

/// The lists a session's hosts are compared with, in the order given: a host's match is the first
/// list's that names it.
public struct TrackerLists: Sendable, Hashable {
  public let lists: [TrackerList]
  public init(_ lists: [TrackerList]) { self.lists = lists }
  public func match(_ host: String) -> TrackerMatch? {
    for list in lists { if let found = list.match(host) { return found } }
    return nil
  }
}
