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
  /// What a host is matched against, behind one reference: a list read for each host a session
  /// names was otherwise copied array by array, each reference retained and released each time.
  let tables: TrackerListTables

  /// The numbers (from 1) of the lines that look like a hosts file's (they begin with an address)
  /// and could not be read as one: another address than a sinkhole's, a name that is not a host.
  public let linesNotRead: [Int]

  public var ruleCount: Int { tables.rules.count }

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
    (tables, linesNotRead) = text.withUTF8 { whole in
      let (rules, exceptions, linesNotRead) = Self.read(whole)
      var kept: [UInt8] = []
      let keptRules = rules.keeping(whole, in: &kept)
      let keptExceptions = exceptions.keeping(whole, in: &kept)
      // Copied once more to lose the room the array grew by.
      return (
        TrackerListTables(
          bytes: kept.withUnsafeBufferPointer { Array($0) }, rules: keptRules,
          exceptions: keptExceptions),
        linesNotRead
      )
    }
  }

  public static func == (a: TrackerList, b: TrackerList) -> Bool {
    a.identity == b.identity && a.tables.bytes == b.tables.bytes
  }

  public func hash(into hasher: inout Hasher) { hasher.combine(identity) }

  /// The host rules and exceptions of a list's bytes, line by line. Index loops over the bytes,
  /// no collection algorithms: EasyList's 2 MB read through `split` and `allSatisfy` took most of
  /// a second in a debug build, and every command that judges a session reads it.
  static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> (HostTable, HostTable, [Int]) {
    var rules = HostTable()
    var exceptions = HostTable()
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
        exceptions.insert(bytes, host: host.lowerBound, host.upperBound, line: 0..<0)
      case UInt8(ascii: "|"):
        guard last - first > 2, bytes[first + 1] == UInt8(ascii: "|"),
          let (host, plain) = hostRule(bytes, first + 2, last)
        else { continue }
        rules.insert(
          bytes, host: host.lowerBound, host.upperBound, line: plain ? 0..<0 : first..<last)
      default:
        guard let hosts = hostsFileEntries(bytes, first, last) else {
          // Other Adblock rules (element hiding, URL patterns) are not host rules; a line that
          // begins with an address meant to be a hosts file's.
          if beginsWithAddress(bytes, first, last) { notRead.append(lineNumber) }
          continue
        }
        for host in hosts {
          rules.insert(bytes, host: host.lowerBound, host.upperBound, line: first..<last)
        }
      }
    }
    return (rules, exceptions, notRead)
  }

  /// Where the host of `host^` or `host^$options` is in bytes[from..<to], the options all
  /// narrowing, and whether the rule is the plain `host^`; nil for anything else.
  static func hostRule(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> (
    Range<Int>, plain: Bool
  )? {
    var caret = from
    while caret < to, bytes[caret] != 0x5E {
      guard isHostByte(bytes[caret]) else { return nil }
      caret += 1
    }
    guard caret < to, caret > from, caret - from <= 253, bytes[from] != 0x2E,
      bytes[caret - 1] != 0x2E
    else { return nil }
    if caret + 1 < to {
      guard bytes[caret + 1] == UInt8(ascii: "$"), allNarrowing(bytes, caret + 2, to) else {
        return nil
      }
    }
    return (from..<caret, caret + 1 == to)
  }

  /// Whether each of the comma-separated options in bytes[from..<to] narrows (an empty one does
  /// not). ASCII options are compared byte by byte, case folded; others as lower-cased Strings
  /// split by Character, as Unicode has them (a Kelvin sign lowers to "k"; a comma with a mark
  /// on it separates nothing).
  static func allNarrowing(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> Bool {
    let options = UnsafeBufferPointer(rebasing: bytes[from..<to])
    guard options.allSatisfy({ $0 < 0x80 }) else {
      return String(decoding: options, as: UTF8.self)
        .split(separator: ",", omittingEmptySubsequences: false)
        .allSatisfy { narrowingOptions.contains($0.lowercased()) }
    }
    var start = from
    while true {
      var end = start
      while end < to, bytes[end] != UInt8(ascii: ",") { end += 1 }
      let option = UnsafeBufferPointer(rebasing: bytes[start..<end])
      guard narrowingOptionBytes.contains(where: { asciiEqualFolded(option, $0) }) else {
        return false
      }
      guard end < to else { return true }
      start = end + 1
    }
  }

  static let narrowingOptionBytes = narrowingOptions.map { Array($0.utf8) }

  /// Whether ASCII `bytes`, upper case letters lowered, are `lower`.
  static func asciiEqualFolded(_ bytes: UnsafeBufferPointer<UInt8>, _ lower: [UInt8]) -> Bool {
    guard bytes.count == lower.count else { return false }
    for index in 0..<bytes.count where HostTable.lower(bytes[index]) != lower[index] {
      return false
    }
    return true
  }

  static func isHexByte(_ byte: UInt8) -> Bool {
    byte &- 0x30 < 10 || (byte | 0x20) &- 0x61 < 6
  }

  /// Whether a byte may stand in a host name (letters of either case, digits, '-', '.', '_').
  /// Ranges by subtraction: the fewest operations in a build without optimisation, where each is
  /// a call.
  static func isHostByte(_ byte: UInt8) -> Bool {
    (byte | 0x20) &- 0x61 < 26 || byte &- 0x30 < 10 || byte == 0x2E || byte == 0x2D
      || byte == 0x5F
  }

  /// The names a hosts file's line leaves out of what it names.
  static let localNames: Set<String> = ["localhost", "localhost.localdomain", "local"]

  /// A hosts file's line in bytes[from..<to] (trimmed): an address then one or more hosts
  /// ("0.0.0.0 a.example b.example", hosts(5)), up to a comment; or a host alone. nil when it is
  /// not such a line; `localhost` and its like are left out of what it names.
  static func hostsFileEntries(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int)
    -> [Range<Int>]?
  {
    func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
    func isLocal(_ host: Range<Int>) -> Bool {
      host.count <= 21
        && localNames.contains(
          String(decoding: UnsafeBufferPointer(rebasing: bytes[host]), as: UTF8.self).lowercased())
    }
    var fieldEnd = from
    while fieldEnd < to, !isBlank(bytes[fieldEnd]) { fieldEnd += 1 }
    guard fieldEnd < to else {
      guard let host = hostName(bytes, from, fieldEnd) else { return nil }
      return isLocal(host) ? [] : [host]
    }
    let address = String(
      decoding: UnsafeBufferPointer(rebasing: bytes[from..<fieldEnd]), as: UTF8.self)
    guard ["0.0.0.0", "127.0.0.1", "::", "::1"].contains(address) else { return nil }
    var hosts: [Range<Int>] = []
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
    return hosts.filter { !isLocal($0) }
  }

  /// Whether the line is a hosts file's by its shape: an IPv4 or IPv6 address, then a blank.
  /// (Adblock rules may begin with digits, "0.gravatar.com^", but never with an address and a
  /// blank.)
  static func beginsWithAddress(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int)
    -> Bool
  {
    var end = from
    var addressBytes = true
    while end < to, bytes[end] != 0x20, bytes[end] != 0x09 {
      let byte = bytes[end]
      if byte < 0x80,
        !(isHexByte(byte) || byte == 0x3A || byte == 0x2E || byte == 0x2B || byte == 0x2D)
      {
        addressBytes = false
      }
      end += 1
    }
    // Neither form below takes an ASCII byte other than a hex digit, ':', '.' or a sign, with a
    // mark on it or not: most such lines (element hiding with a blank in it) end here, without a
    // String made.
    guard end < to, end > from, addressBytes else { return false }
    let field = String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<end]), as: UTF8.self)
    if field.contains(":") {
      return field.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
    }
    let parts = field.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4 && parts.allSatisfy { UInt8($0) != nil }
  }

  /// Where a host name is in bytes[from..<to]: letters, digits, '-', '_' and dots, with a dot
  /// inside it (or `localhost`); a trailing dot (the root) is the same name.
  static func hostName(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> Range<Int>? {
    let hostStart = from
    var hostEnd = to
    if hostEnd > hostStart, bytes[hostEnd - 1] == UInt8(ascii: ".") { hostEnd -= 1 }
    guard hostEnd > hostStart, hostEnd - hostStart <= 253, bytes[hostStart] != UInt8(ascii: "."),
      bytes[hostEnd - 1] != UInt8(ascii: ".")
    else { return nil }
    var dot = false
    for index in hostStart..<hostEnd {
      guard isHostByte(bytes[index]) else { return nil }
      if bytes[index] == 0x2E { dot = true }
    }
    guard
      dot
        || (hostEnd - hostStart == 9
          && String(
            decoding: UnsafeBufferPointer(rebasing: bytes[hostStart..<hostEnd]), as: UTF8.self
          )
          .lowercased() == "localhost")
    else { return nil }
    return hostStart..<hostEnd
  }

  /// The rule naming the host or a domain it is under (`||example.com^` names every host below
  /// it), unless an exception covers it.
  public func match(_ host: String) -> TrackerMatch? {
    withUnsafePointer(to: self) {
      Self.match(normalised: Array(DomainPattern.normalised(host: host).utf8), in: $0)
    }
  }

  /// `match(_:)` of a host normalised already (`DomainPattern.normalised(host:)`, as UTF-8), of
  /// the list where it lies: only its tables' reference is taken, not a copy of the list.
  static func match(normalised name: [UInt8], in list: UnsafePointer<TrackerList>) -> TrackerMatch?
  {
    guard let rule = list.pointee.tables.rule(naming: name) else { return nil }
    return TrackerMatch(
      list: list.pointee.identity.name, date: list.pointee.identity.date, rule: rule)
  }
}

/// What a list's hosts are matched against (`TrackerList.tables`).
final class TrackerListTables: Sendable {
  /// The bytes of the list's host rules (their lines, or the host of a plain rule): the rules
  /// are places in them. The rest of the list (comments, element hiding, URL patterns, half of
  /// EasyList) is not kept.
  let bytes: [UInt8]
  /// The hosts the list names (lower-cased on comparison), each with the rule that names it:
  /// the line, or none for the plain `||host^` (written again when cited).
  let rules: HostTable
  /// Hosts a rule excepts (`@@||host^`).
  let exceptions: HostTable

  init(bytes: [UInt8], rules: HostTable, exceptions: HostTable) {
    (self.bytes, self.rules, self.exceptions) = (bytes, rules, exceptions)
  }
}

extension TrackerListTables {
  /// The rule naming the host (normalised, as UTF-8) or a domain it is under, unless an exception
  /// covers it: the rule's line, or `||host^` for a plain one.
  func rule(naming name: [UInt8]) -> String? {
    bytes.withUnsafeBufferPointer { list in
      name.withUnsafeBufferPointer { query in
        var from = 0
        var found: String?
        while true {
          let suffix = UnsafeBufferPointer(rebasing: query[from...])
          if exceptions.entry(suffix, in: list) != nil { return nil }
          if found == nil, let entry = rules.entry(suffix, in: list) {
            found =
              entry.lineStart == entry.lineEnd
              ? "||\(String(decoding: suffix, as: UTF8.self))^"
              : String(
                decoding: UnsafeBufferPointer(
                  rebasing: list[Int(entry.lineStart)..<Int(entry.lineEnd)]), as: UTF8.self)
          }
          guard let dot = suffix.firstIndex(of: 0x2E) else { break }
          from += dot + 1
        }
        return found
      }
    }
  }
}

/// The lists a session's hosts are compared with, in the order given: a host's match is the first
/// list's that names it.
public struct TrackerLists: Sendable, Hashable {
  public let lists: [TrackerList]
  public init(_ lists: [TrackerList]) { self.lists = lists }
  /// The first list's match. The host is normalised once for all, and each list is read where it
  /// is: a list copied out of the array for each host retained and released every array it holds.
  public func match(_ host: String) -> TrackerMatch? {
    let name = Array(DomainPattern.normalised(host: host).utf8)
    return lists.withUnsafeBufferPointer { lists in
      for index in lists.indices {
        if let found = TrackerList.match(normalised: name, in: lists.baseAddress! + index) {
          return found
        }
      }
      return nil
    }
  }
}
