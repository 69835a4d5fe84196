import Foundation

/// Whether bytes are one JSON text as RFC 8259 defines it, read strictly: no trailing commas, no
/// comments, no unescaped control characters, numbers as the grammar spells them, UTF-8. Verify
/// needs it because Foundation's decoders forgive some of these, and a bundle's documents promise
/// JSON that any parser reads; a catalogue file is read by it first, so that a mistake is named
/// with its line and column.
public enum JSONSyntax {
  /// The failure of an object that names a member twice.
  public static let namedTwice = "a member named twice"

  /// nil when the bytes are valid JSON; otherwise what is wrong and at which byte.
  public static func problem(in data: Data) -> String? {
    failure(in: data).map { "\($0.reason) at byte \($0.at)" }
  }

  /// What is wrong and where, or nil; `depth`: how deep the value lies in a larger document
  /// (an element of a top-level object's array: 2), for the bound on nesting.
  public static func failure(in data: Data, depth: Int = 0) -> Failure? {
    data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Failure? in
      var reader = Reader(bytes: raw.bindMemory(to: UInt8.self))
      do {
        reader.space()
        try reader.value(depth: depth)
        reader.space()
        guard reader.at == reader.bytes.count else {
          throw Failure(reason: "something follows the JSON value", at: reader.at)
        }
        if let bad = firstByteNotUTF8(data) {
          throw Failure(reason: "bytes that are not UTF-8", at: bad)
        }
        return nil
      } catch let failure as Failure {
        return failure
      } catch {
        return Failure(reason: "\(error)", at: 0)
      }
    }
  }

  public struct Failure: Error, Sendable {
    public let reason: String
    /// The byte it is at.
    public let at: Int
    public init(reason: String, at: Int) {
      self.reason = reason
      self.at = at
    }

    /// "line 3, column 7" of the byte in `data` (lines and columns from 1, columns in characters).
    public func place(in data: Data) -> String {
      let before = data.prefix(at)
      let line = before.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
      let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? data.startIndex
      let column =
        String(decoding: data[lineStart..<data.index(data.startIndex, offsetBy: at)], as: UTF8.self)
        .count + 1
      return "line \(line), column \(column)"
    }
  }

  public static func isUTF8(_ data: Data) -> Bool { firstByteNotUTF8(data) == nil }

  /// Where the first sequence that is not UTF-8 (RFC 3629: no overlong forms, no surrogates,
  /// nothing past U+10FFFF) starts, or nil.
  static func firstByteNotUTF8(_ data: Data) -> Int? {
    data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Int? in
      let bytes = raw.bindMemory(to: UInt8.self)
      var at = 0
      while at < bytes.count {
        let lead = bytes[at]
        if lead < 0x80 {
          at += 1
          continue
        }
        // The length of the sequence and the range its second byte must lie in.
        let length: Int
        let second: ClosedRange<UInt8>
        switch lead {
        case 0xC2...0xDF:
          length = 2
          second = 0x80...0xBF
        case 0xE0:
          length = 3
          second = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF:
          length = 3
          second = 0x80...0xBF
        case 0xED:
          length = 3
          second = 0x80...0x9F
        case 0xF0:
          length = 4
          second = 0x90...0xBF
        case 0xF1...0xF3:
          length = 4
          second = 0x80...0xBF
        case 0xF4:
          length = 4
          second = 0x80...0x8F
        default: return at
        }
        guard at + length <= bytes.count, second.contains(bytes[at + 1]) else { return at }
        for k in 2..<length where !(0x80...0xBF).contains(bytes[at + k]) { return at }
        at += length
      }
      return nil
    }
  }

  /// The names of one object read so far, as written, to refuse one written twice: looked
  /// through in a list while there are few (a bundle's objects have at most a few dozen), in a set
  /// beyond. A set of byte arrays for every object hashed each name byte by byte: a twentieth of
  /// verify's time.
  struct NamesSeen {
    let bytes: UnsafeBufferPointer<UInt8>
    private var list: [Range<Int>] = []
    private var set: Set<Name> = []

    struct Name: Hashable {
      let bytes: UnsafeRawBufferPointer
      func hash(into hasher: inout Hasher) { hasher.combine(bytes: bytes) }
      static func == (a: Name, b: Name) -> Bool {
        a.bytes.count == b.bytes.count
          && (a.bytes.count == 0
            || memcmp(a.bytes.baseAddress!, b.bytes.baseAddress!, a.bytes.count) == 0)
      }
    }

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    private func name(_ range: Range<Int>) -> Name {
      Name(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[range])))
    }

    /// Whether `range` names what no name before it did; it is remembered.
    mutating func insert(_ range: Range<Int>) -> Bool {
      let new = name(range)
      guard list.count >= 32 else {
        if list.contains(where: { name($0) == new }) { return false }
        list.append(range)
        return true
      }
      if set.isEmpty { set = Set(list.map(name)) }
      return set.insert(new).inserted
    }
  }

  struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    var at = 0
    static let maximumDepth = 512

    var current: UInt8? { at < bytes.count ? bytes[at] : nil }

    mutating func space() {
      while let b = current, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { at += 1 }
    }

    func fail(_ reason: String) -> Failure { Failure(reason: reason, at: at) }

    mutating func expect(_ literal: String) throws {
      for byte in literal.utf8 {
        guard current == byte else { throw fail("a misspelt \(literal)") }
        at += 1
      }
    }

    mutating func value(depth: Int) throws {
      guard depth < Self.maximumDepth else {
        throw fail("nesting deeper than \(Self.maximumDepth)")
      }
      guard let b = current else { throw fail("a value missing") }
      switch b {
      case UInt8(ascii: "{"): try object(depth: depth)
      case UInt8(ascii: "["): try array(depth: depth)
      case UInt8(ascii: "\""): try string()
      case UInt8(ascii: "t"): try expect("true")
      case UInt8(ascii: "f"): try expect("false")
      case UInt8(ascii: "n"): try expect("null")
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
      default: throw fail("an unexpected character")
      }
    }

    mutating func object(depth: Int) throws {
      at += 1
      space()
      if current == UInt8(ascii: "}") {
        at += 1
        return
      }
      // Names as written: a member named twice would be read as either, by one parser or another.
      var names = NamesSeen(bytes: bytes)
      while true {
        space()
        guard current == UInt8(ascii: "\"") else {
          throw fail("a member name missing (a trailing comma?)")
        }
        let nameStart = at
        try string()
        guard names.insert(nameStart..<at) else {
          at = nameStart
          throw fail(JSONSyntax.namedTwice)
        }
        space()
        guard current == UInt8(ascii: ":") else { throw fail("a colon missing") }
        at += 1
        space()
        try value(depth: depth + 1)
        space()
        if current == UInt8(ascii: ",") {
          at += 1
          continue
        }
        if current == UInt8(ascii: "}") {
          at += 1
          return
        }
        throw fail("a comma or a closing brace missing")
      }
    }

    mutating func array(depth: Int) throws {
      at += 1
      space()
      if current == UInt8(ascii: "]") {
        at += 1
        return
      }
      while true {
        space()
        if current == UInt8(ascii: "]") { throw fail("a trailing comma") }
        try value(depth: depth + 1)
        space()
        if current == UInt8(ascii: ",") {
          at += 1
          continue
        }
        if current == UInt8(ascii: "]") {
          at += 1
          return
        }
        throw fail("a comma or a closing bracket missing")
      }
    }

    mutating func string() throws {
      at += 1
      while let b = current {
        switch b {
        case UInt8(ascii: "\""):
          at += 1
          return
        case UInt8(ascii: "\\"):
          at += 1
          guard let e = current else { throw fail("a string cut short") }
          if e == UInt8(ascii: "u") {
            for _ in 0..<4 {
              at += 1
              guard let h = current,
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(h)
                  || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(h | 0x20)
              else {
                throw fail("a \\u escape without four hex digits")
              }
            }
          } else if ![
            UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
            UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"),
          ].contains(e) {
            throw fail("an unknown escape")
          }
          at += 1
        case 0..<0x20: throw fail("a control character in a string")
        default: at += 1
        }
      }
      throw fail("a string cut short")
    }

    mutating func number() throws {
      if current == UInt8(ascii: "-") { at += 1 }
      func digits() -> Int {
        var n = 0
        while let b = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) {
          at += 1
          n += 1
        }
        return n
      }
      if current == UInt8(ascii: "0") {
        at += 1
      } else {
        guard digits() > 0 else { throw fail("a number without digits") }
      }
      if current == UInt8(ascii: ".") {
        at += 1
        guard digits() > 0 else { throw fail("a fraction without digits") }
      }
      if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
        at += 1
        if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { at += 1 }
        guard digits() > 0 else { throw fail("an exponent without digits") }
      }
    }
  }
}
