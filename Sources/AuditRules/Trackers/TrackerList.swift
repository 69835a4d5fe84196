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
  /// Hosts the list names, lowercased, with the rule that names each: nil for the plain
  /// `||host^` (written again when cited), so that EasyList's forty thousand rules are not kept
  /// twice.
  private let rules: [String: String?]
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
    var rules: [String: String?] = [:]
    var exceptions = Set<String>()
    // Read as bytes, line by line: EasyList's 2 MB as Characters took most of a second.
    var text = text
    text.withUTF8 { bytes in
      var start = 0
      while start < bytes.count {
        var end = start
        while end < bytes.count, bytes[end] != 0x0A { end += 1 }
        var first = start
        var last = end
        while first < last, bytes[first] == 0x20 || bytes[first] == 0x09 { first += 1 }
        while last > first, [0x20, 0x09, 0x0D].contains(bytes[last - 1]) { last -= 1 }
        start = end + 1
        guard first < last else { continue }
        let line = UnsafeBufferPointer(rebasing: bytes[first..<last])
        switch line[0] {
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "["): continue
        case UInt8(ascii: "@"):
          guard line.count > 4, line[1] == UInt8(ascii: "@"), line[2] == UInt8(ascii: "|"),
            line[3] == UInt8(ascii: "|"),
            let host = Self.hostRule(UnsafeBufferPointer(rebasing: line[4...]))
          else { continue }
          exceptions.insert(host)
        case UInt8(ascii: "|"):
          guard line.count > 2, line[1] == UInt8(ascii: "|"),
            let host = Self.hostRule(UnsafeBufferPointer(rebasing: line[2...])),
            rules[host] == nil
          else { continue }
          let plain = line.count == host.utf8.count + 3 && line[line.count - 1] == UInt8(ascii: "^")
          rules[host] = .some(plain ? nil : String(decoding: line, as: UTF8.self))
        default:
          let entry = String(decoding: line, as: UTF8.self)
          if let host = Self.hostsFileEntry(entry), rules[host] == nil {
            rules[host] = .some(entry)
          }
        }
      }
    }
    self.rules = rules
    self.exceptions = exceptions
  }

  /// The host of `host^` or `host^$options`, the options all narrowing; nil for anything else.
  static func hostRule(_ rule: UnsafeBufferPointer<UInt8>) -> String? {
    guard let caret = rule.firstIndex(of: UInt8(ascii: "^")), caret > 0 else { return nil }
    let host = UnsafeBufferPointer(rebasing: rule[..<caret])
    guard host.count <= 253, host.allSatisfy(isHostByte), host.first != UInt8(ascii: "."),
      host.last != UInt8(ascii: ".")
    else { return nil }
    if caret + 1 < rule.count {
      guard rule[caret + 1] == UInt8(ascii: "$") else { return nil }
      let options = String(decoding: rule[(caret + 2)...], as: UTF8.self)
      guard
        options.split(separator: ",", omittingEmptySubsequences: false).allSatisfy({
          narrowingOptions.contains($0.lowercased())
        })
      else { return nil }
    }
    return String(decoding: host, as: UTF8.self).lowercased()
  }

  static func isHostByte(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte) || (0x41...0x5A).contains(byte)
      || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
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
    !text.isEmpty && text.utf8.count <= 253 && !text.hasPrefix(".") && !text.hasSuffix(".")
      && text.utf8.allSatisfy(isHostByte)
  }

  /// The rule naming the host or a domain it is under (`||example.com^` names every host below
  /// it), unless an exception covers it.
  public func match(_ host: String) -> TrackerMatch? {
    var name = DomainPattern.normalised(host: host)
    var found: String?
    while true {
      if exceptions.contains(name) { return nil }
      if found == nil, let rule = rules[name] { found = rule ?? "||\(name)^" }
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
