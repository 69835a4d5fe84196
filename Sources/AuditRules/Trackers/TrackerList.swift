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
  /// The numbers (from 1) of the lines that look like a hosts file's (they begin with an address)
  /// and could not be read as one: another address than a sinkhole's, a name that is not a host.
  public let linesNotRead: [Int]

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
    var text = text
    (rules, exceptions, linesNotRead) = text.withUTF8 { Self.read($0) }
  }

  /// The host rules and exceptions of a list's bytes, line by line. Index loops over the bytes,
  /// no collection algorithms: EasyList's 2 MB read through `split` and `allSatisfy` took most of
  /// a second in a debug build, and every command that judges a session reads it.
  static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> (
    [String: String?], Set<String>, [Int]
  ) {
    var rules: [String: String?] = [:]
    var exceptions = Set<String>()
    var notRead: [Int] = []
    guard let base = bytes.baseAddress else { return (rules, exceptions, notRead) }
    var start = 0
    var lineNumber = 0
    while start < bytes.count {
      lineNumber += 1
      var end = bytes.count
      if let found = memchr(base + start, 0x0A, bytes.count - start) {
        end = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
      }
      var first = start
      var last = end
      start = end + 1
      while first < last, bytes[first] == 0x20 || bytes[first] == 0x09 { first += 1 }
      while last > first,
        bytes[last - 1] == 0x20 || bytes[last - 1] == 0x09 || bytes[last - 1] == 0x0D
      {
        last -= 1
      }
      guard first < last else { continue }
      switch bytes[first] {
      case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "["): continue
      case UInt8(ascii: "@"):
        guard last - first > 4, bytes[first + 1] == UInt8(ascii: "@"),
          bytes[first + 2] == UInt8(ascii: "|"), bytes[first + 3] == UInt8(ascii: "|"),
          let (host, _) = hostRule(bytes, first + 4, last)
        else { continue }
        exceptions.insert(host)
      case UInt8(ascii: "|"):
        guard last - first > 2, bytes[first + 1] == UInt8(ascii: "|"),
          let (host, plain) = hostRule(bytes, first + 2, last), rules.index(forKey: host) == nil
        else { continue }
        rules[host] = .some(
          plain
            ? nil
            : String(decoding: UnsafeBufferPointer(rebasing: bytes[first..<last]), as: UTF8.self))
      default:
        guard let hosts = hostsFileEntries(bytes, first, last) else {
          // Other Adblock rules (element hiding, URL patterns) are not host rules; a line that
          // begins with an address meant to be a hosts file's.
          if beginsWithAddress(bytes, first, last) { notRead.append(lineNumber) }
          continue
        }
        let line = String(
          decoding: UnsafeBufferPointer(rebasing: bytes[first..<last]), as: UTF8.self)
        for host in hosts where rules.index(forKey: host) == nil { rules[host] = .some(line) }
      }
    }
    return (rules, exceptions, notRead)
  }

  /// The host of `host^` or `host^$options` in bytes[from..<to], the options all narrowing, and
  /// whether the rule is the plain `host^`; nil for anything else.
  static func hostRule(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> (
    String, plain: Bool
  )? {
    var caret = from
    var upper = false
    while caret < to, bytes[caret] != 0x5E {
      switch hostByte(bytes[caret]) {
      case .no: return nil
      case .upper: upper = true
      case .yes: break
      }
      caret += 1
    }
    guard caret < to, caret > from, caret - from <= 253, bytes[from] != 0x2E,
      bytes[caret - 1] != 0x2E
    else { return nil }
    if caret + 1 < to {
      guard bytes[caret + 1] == UInt8(ascii: "$") else { return nil }
      let options = String(
        decoding: UnsafeBufferPointer(rebasing: bytes[(caret + 2)..<to]), as: UTF8.self)
      for option in options.split(separator: ",", omittingEmptySubsequences: false)
      where !narrowingOptions.contains(option.lowercased()) {
        return nil
      }
    }
    let host = String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<caret]), as: UTF8.self)
    return (upper ? host.lowercased() : host, caret + 1 == to)
  }

  enum HostByte { case no, yes, upper }

  /// Whether a byte may stand in a host name (letters, digits, '-', '.', '_'), and whether it is
  /// an upper-case letter. Ranges by subtraction: the fewest operations in a build without
  /// optimisation, where each is a call.
  static func hostByte(_ byte: UInt8) -> HostByte {
    if byte &- 0x61 < 26 || byte &- 0x30 < 10 || byte == 0x2E || byte == 0x2D || byte == 0x5F {
      return .yes
    }
    return byte &- 0x41 < 26 ? .upper : .no
  }

  /// A hosts file's line in bytes[from..<to] (trimmed): an address then one or more hosts
  /// ("0.0.0.0 a.example b.example", hosts(5)), up to a comment; or a host alone. nil when it is
  /// not such a line; `localhost` and its like are left out of what it names.
  static func hostsFileEntries(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int)
    -> [String]?
  {
    func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
    var fieldEnd = from
    while fieldEnd < to, !isBlank(bytes[fieldEnd]) { fieldEnd += 1 }
    guard fieldEnd < to else {
      return hostName(bytes, from, fieldEnd).map { [$0].filter { $0 != "localhost" } }
    }
    let address = String(
      decoding: UnsafeBufferPointer(rebasing: bytes[from..<fieldEnd]), as: UTF8.self)
    guard ["0.0.0.0", "127.0.0.1", "::", "::1"].contains(address) else { return nil }
    var hosts: [String] = []
    var at = fieldEnd
    while true {
      while at < to, isBlank(bytes[at]) { at += 1 }
      guard at < to, bytes[at] != UInt8(ascii: "#") else { break }
      var end = at
      while end < to, !isBlank(bytes[end]) { end += 1 }
      guard let host = hostName(bytes, at, end) else { return nil }
      hosts.append(host)
      at = end
    }
    guard !hosts.isEmpty else { return nil }
    return hosts.filter { !["localhost", "localhost.localdomain", "local"].contains($0) }
  }

  /// Whether the line is a hosts file's by its shape: an IPv4 or IPv6 address, then a blank.
  /// (Adblock rules may begin with digits, "0.gravatar.com^", but never with an address and a
  /// blank.)
  static func beginsWithAddress(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int)
    -> Bool
  {
    var end = from
    while end < to, bytes[end] != 0x20, bytes[end] != 0x09 { end += 1 }
    guard end < to, end > from else { return false }
    let field = String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<end]), as: UTF8.self)
    if field.contains(":") {
      return field.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
    }
    let parts = field.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4 && parts.allSatisfy { UInt8($0) != nil }
  }

  /// A host name in bytes[from..<to]: letters, digits, '-', '_' and dots, with a dot inside it;
  /// a trailing dot (the root) is the same name. Lowercased.
  static func hostName(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> String? {
    let hostStart = from
    var hostEnd = to
    if hostEnd > hostStart, bytes[hostEnd - 1] == UInt8(ascii: ".") { hostEnd -= 1 }
    guard hostEnd > hostStart, hostEnd - hostStart <= 253, bytes[hostStart] != UInt8(ascii: "."),
      bytes[hostEnd - 1] != UInt8(ascii: ".")
    else { return nil }
    var dot = false
    var upper = false
    for index in hostStart..<hostEnd {
      switch hostByte(bytes[index]) {
      case .no: return nil
      case .upper: upper = true
      case .yes: if bytes[index] == 0x2E { dot = true }
      }
    }
    let text = String(
      decoding: UnsafeBufferPointer(rebasing: bytes[hostStart..<hostEnd]), as: UTF8.self)
    let host = upper ? text.lowercased() : text
    guard dot || host == "localhost" else { return nil }
    return host
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
