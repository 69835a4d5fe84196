import Foundation

/// A JSON value parsed into a tree, numbers kept as their text: what a reader of a bundle's
/// largest documents decodes each element from, in place of Foundation's `JSONDecoder`, whose
/// generic `Codable` path was most of verify's time on flows.json. It reads what `JSONDecoder`
/// reads (a string must be UTF-8 without a lone surrogate; the first of two members of one name
/// counts; a comma may end a list or an object); the strict syntax check (`JSONSyntax`) is
/// separate. Parsed strictly, a value is refused where that check might refuse it.
public enum JSONTree: Sendable, Equatable {
  case null
  case bool(Bool)
  case number(String)
  case string(String)
  case array([JSONTree])
  case object([(key: String, value: JSONTree)])

  public static func == (a: JSONTree, b: JSONTree) -> Bool {
    switch (a, b) {
    case (.null, .null): true
    case (.bool(let x), .bool(let y)): x == y
    case (.number(let x), .number(let y)): x == y
    case (.string(let x), .string(let y)): x == y
    case (.array(let x), .array(let y)): x == y
    case (.object(let x), .object(let y)):
      x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    default: false
    }
  }

  /// Not JSON, or not JSON a decoder reads.
  public struct Unreadable: Error, Sendable {
    public init() {}
  }

  /// The one value `bytes` hold (white space around it allowed).
  public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(Unreadable) -> JSONTree {
    try parse(bytes, Parser.Rules())
  }

  public static func parse(_ bytes: [UInt8]) throws(Unreadable) -> JSONTree {
    try parse(bytes, Parser.Rules())
  }

  /// The value parsed only where `JSONSyntax` would find nothing wrong with it `depth` levels deep
  /// in a larger document: no comma before a closing bracket or brace, no member named twice (as
  /// read: an escape spelling a name again counts too), no lone surrogate escaped. A value refused
  /// here may still be one the syntax check and `parse` accept: ask them.
  public static func parse(_ bytes: [UInt8], strictlyAt depth: Int) throws(Unreadable) -> JSONTree {
    try parse(bytes, Parser.Rules(strict: true, depth: depth))
  }

  static func parse(_ bytes: [UInt8], _ rules: Parser.Rules) throws(Unreadable) -> JSONTree {
    let result = bytes.withUnsafeBufferPointer { buffer -> Result<JSONTree, Unreadable> in
      do throws(Unreadable) { return .success(try parse(buffer, rules)) } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  static func parse(_ bytes: UnsafeBufferPointer<UInt8>, _ rules: Parser.Rules) throws(Unreadable)
    -> JSONTree
  {
    var parser = Parser(bytes: bytes, rules: rules)
    parser.space()
    let value = try parser.value(depth: rules.depth)
    parser.space()
    guard parser.at == bytes.count else { throw Unreadable() }
    return value
  }

  /// Deeper than this, a value is refused rather than parsed on the stack.
  static let depthLimit = 512

  struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    var rules = Rules()
    var at = 0

    struct Rules {
      /// Whether what `JSONDecoder` forgives and `JSONSyntax` does not is refused.
      var strict = false
      /// How deep the value lies in a larger document, for the bound on nesting.
      var depth = 0
    }

    mutating func space() {
      while at < bytes.count {
        switch bytes[at] {
        case 0x20, 0x0A, 0x09, 0x0D: at += 1
        default: return
        }
      }
    }

    mutating func value(depth: Int) throws(Unreadable) -> JSONTree {
      guard at < bytes.count, depth < JSONTree.depthLimit else { throw Unreadable() }
      switch bytes[at] {
      case UInt8(ascii: "{"): return try object(depth: depth)
      case UInt8(ascii: "["): return try array(depth: depth)
      case UInt8(ascii: "\""): return .string(try string())
      case UInt8(ascii: "t"): return try word("true", .bool(true))
      case UInt8(ascii: "f"): return try word("false", .bool(false))
      case UInt8(ascii: "n"): return try word("null", .null)
      default: return .number(try number())
      }
    }

    mutating func word(_ text: StaticString, _ value: JSONTree) throws(Unreadable) -> JSONTree {
      let count = text.utf8CodeUnitCount
      guard at + count <= bytes.count else { throw Unreadable() }
      for i in 0..<count where bytes[at + i] != text.utf8Start[i] { throw Unreadable() }
      at += count
      return value
    }

    /// Whether `bracket` follows (white space before it skipped, and it taken): a comma before
    /// the end of a list or object, which `JSONDecoder` forgives as `JSONSyntax` does not.
    mutating func closes(_ bracket: UInt8) -> Bool {
      space()
      guard at < bytes.count, bytes[at] == bracket else { return false }
      at += 1
      return true
    }

    mutating func object(depth: Int) throws(Unreadable) -> JSONTree {
      at += 1
      var members: [(key: String, value: JSONTree)] = []
      space()
      if at < bytes.count, bytes[at] == UInt8(ascii: "}") {
        at += 1
        return .object(members)
      }
      while true {
        space()
        guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw Unreadable() }
        let key = try string()
        space()
        guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw Unreadable() }
        at += 1
        space()
        let value = try value(depth: depth + 1)
        // Lengths first, as a lookup (`JSONMembers`) tells members apart: most pairs differ in
        // length, which spares the runtime's comparison (a flow's forty members, 780 pairs).
        let length = key.utf8.count
        if !members.contains(where: { $0.key.utf8.count == length && $0.key == key }) {
          members.append((key, value))
        } else if rules.strict {
          throw Unreadable()
        }
        space()
        guard at < bytes.count else { throw Unreadable() }
        if bytes[at] == UInt8(ascii: ",") {
          at += 1
          if closes(UInt8(ascii: "}")) {
            if rules.strict { throw Unreadable() }
            return .object(members)
          }
          continue
        }
        guard bytes[at] == UInt8(ascii: "}") else { throw Unreadable() }
        at += 1
        return .object(members)
      }
    }

    mutating func array(depth: Int) throws(Unreadable) -> JSONTree {
      at += 1
      var elements: [JSONTree] = []
      space()
      if at < bytes.count, bytes[at] == UInt8(ascii: "]") {
        at += 1
        return .array(elements)
      }
      while true {
        space()
        elements.append(try value(depth: depth + 1))
        space()
        guard at < bytes.count else { throw Unreadable() }
        if bytes[at] == UInt8(ascii: ",") {
          at += 1
          if closes(UInt8(ascii: "]")) {
            if rules.strict { throw Unreadable() }
            return .array(elements)
          }
          continue
        }
        guard bytes[at] == UInt8(ascii: "]") else { throw Unreadable() }
        at += 1
        return .array(elements)
      }
    }

    /// The number's text as the grammar spells it.
    mutating func number() throws(Unreadable) -> String {
      let start = at
      func digits() -> Int {
        let from = at
        while at < bytes.count, bytes[at] >= UInt8(ascii: "0"), bytes[at] <= UInt8(ascii: "9") {
          at += 1
        }
        return at - from
      }
      if at < bytes.count, bytes[at] == UInt8(ascii: "-") { at += 1 }
      let integral = at
      guard digits() > 0 else { throw Unreadable() }
      if bytes[integral] == UInt8(ascii: "0"), at - integral > 1 { throw Unreadable() }
      if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
        at += 1
        guard digits() > 0 else { throw Unreadable() }
      }
      if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
        at += 1
        if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") {
          at += 1
        }
        guard digits() > 0 else { throw Unreadable() }
      }
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
    }

    /// A string, its escapes read; the bytes between them must be UTF-8.
    mutating func string() throws(Unreadable) -> String {
      at += 1
      var start = at
      var text: [UInt8] = []
      var escaped = false
      var ascii = true
      while true {
        guard at < bytes.count else { throw Unreadable() }
        let byte = bytes[at]
        if byte == UInt8(ascii: "\"") { break }
        guard byte >= 0x20 else { throw Unreadable() }
        guard byte == UInt8(ascii: "\\") else {
          if byte >= 0x80 { ascii = false }
          at += 1
          continue
        }
        escaped = true
        text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<at]))
        at += 1
        guard at < bytes.count else { throw Unreadable() }
        let kind = bytes[at]
        at += 1
        switch kind {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(kind)
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "u"): text.append(contentsOf: try unicodeEscape())
        default: throw Unreadable()
        }
        start = at
      }
      let end = at
      at += 1
      if !escaped {
        let piece = UnsafeBufferPointer(rebasing: bytes[start..<end])
        // ASCII needs no validating (most of a flow's strings are).
        if ascii { return String(decoding: piece, as: UTF8.self) }
        guard let string = String(validating: piece, as: UTF8.self) else { throw Unreadable() }
        return string
      }
      text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
      guard let string = String(validating: text, as: UTF8.self) else { throw Unreadable() }
      return string
    }

    mutating func hex4() throws(Unreadable) -> UInt32 {
      guard at + 4 <= bytes.count else { throw Unreadable() }
      var value: UInt32 = 0
      for _ in 0..<4 {
        let byte = bytes[at]
        let digit: UInt8
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
        default: throw Unreadable()
        }
        value = value << 4 | UInt32(digit)
        at += 1
      }
      return value
    }

    /// The UTF-8 of a `\u` escape (after its `\u`), a surrogate pair's two escapes as one.
    mutating func unicodeEscape() throws(Unreadable) -> [UInt8] {
      var scalar = try hex4()
      if (0xD800...0xDBFF).contains(scalar) {
        guard at + 2 <= bytes.count, bytes[at] == UInt8(ascii: "\\"),
          bytes[at + 1] == UInt8(ascii: "u")
        else { throw Unreadable() }
        at += 2
        let low = try hex4()
        guard (0xDC00...0xDFFF).contains(low) else { throw Unreadable() }
        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
      } else if (0xDC00...0xDFFF).contains(scalar) {
        throw Unreadable()
      }
      guard let unicode = Unicode.Scalar(scalar) else { throw Unreadable() }
      return Array(String(Character(unicode)).utf8)
    }
  }
}
