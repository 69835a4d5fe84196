import Foundation

/// A JSON value, written deterministically: keys sorted by their UTF-8 bytes, strings escaped
/// as RFC 8259 requires, two spaces of indentation.
public enum JSONValue: Sendable, Hashable {
  case null
  case bool(Bool)
  case integer(Int64)
  case double(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])
  /// A list of integers held as integers, 8 bytes each where a list of `.integer` values takes
  /// 24: findings.json's checks list 96 005 flow ids on the bench's workload. Written as that
  /// list is, and equal to it.
  case integers([Int64])

  public static func int<I: BinaryInteger>(_ value: I) -> JSONValue { .integer(Int64(value)) }
  public static func optional(_ value: String?) -> JSONValue {
    value.map(JSONValue.string) ?? .null
  }
  public static func strings(_ values: [String]) -> JSONValue {
    .array(values.map(JSONValue.string))
  }
  public static func ints<S: Sequence>(_ values: S) -> JSONValue where S.Element: BinaryInteger {
    .integers(values.map { Int64($0) })
  }

  /// A list of integers is the same value however it is held (`integers`).
  public static func == (a: JSONValue, b: JSONValue) -> Bool {
    switch (a, b) {
    case (.null, .null): return true
    case (.bool(let x), .bool(let y)): return x == y
    case (.integer(let x), .integer(let y)): return x == y
    case (.double(let x), .double(let y)): return x == y
    case (.string(let x), .string(let y)): return x == y
    case (.array(let x), .array(let y)): return x == y
    case (.object(let x), .object(let y)): return x == y
    case (.integers(let x), .integers(let y)): return x == y
    case (.integers(let x), .array(let y)), (.array(let y), .integers(let x)):
      return x.count == y.count && zip(x, y).allSatisfy { .integer($0) == $1 }
    default: return false
    }
  }

  public func hash(into hasher: inout Hasher) {
    // A list hashes alike however it is held.
    func list<C: Collection<JSONValue>>(_ items: C) {
      hasher.combine(5 as UInt8)
      hasher.combine(items.count)
      for item in items { item.hash(into: &hasher) }
    }
    switch self {
    case .null: hasher.combine(0 as UInt8)
    case .bool(let b):
      hasher.combine(1 as UInt8)
      hasher.combine(b)
    case .integer(let i):
      hasher.combine(2 as UInt8)
      hasher.combine(i)
    case .double(let d):
      hasher.combine(3 as UInt8)
      hasher.combine(d)
    case .string(let s):
      hasher.combine(4 as UInt8)
      hasher.combine(s)
    case .array(let items): list(items)
    case .integers(let items): list(items.lazy.map(JSONValue.integer))
    case .object(let members):
      hasher.combine(6 as UInt8)
      hasher.combine(members)
    }
  }

  /// The value as text, pretty-printed, ending without a newline.
  public func serialized(indent: Int = 0) -> String {
    var out: [UInt8] = []
    JSONText.append(self, to: &out, indent: indent)
    return String(decoding: out, as: UTF8.self)
  }

  /// The value on one line (a line of JSON Lines): the pretty-printed text with each line's
  /// indentation and break removed, which no string holds raw.
  public var serializedOnOneLine: String {
    serialized().split(separator: "\n").map { $0.drop(while: { $0 == " " }) }.joined()
  }
}

/// The order an object's keys are written in, remembered for the key lists it has seen: the
/// objects of a document (a flow, a peer, a tally) come again and again with the same keys in
/// the same dictionary order, and comparing a list is cheaper than sorting it. One per writer:
/// it is not shared between threads.
public final class JSONKeyOrders {
  /// By the number of keys and the first of them in dictionary order: objects of different kinds
  /// (a peer and a name both have two keys) keep orders of their own.
  private struct Kind: Hashable {
    let count: Int
    let first: String
  }
  private var seen: [Kind: (keys: [String], order: [Int])] = [:]
  public init() {}

  /// The positions of `keys` in UTF-8 byte order of the keys.
  func order(of keys: [String]) -> [Int] {
    let kind = Kind(count: keys.count, first: keys.first ?? "")
    if let known = seen[kind], known.keys == keys { return known.order }
    let order = keys.indices.sorted { JSONText.precedes(keys[$0], keys[$1]) }
    seen[kind] = (keys, order)
    return order
  }
}

/// Where written bytes go (JSON's, flows.csv's rows): an array, or bytes gathered first
/// (`GatheredBytes`, as `JSONWriter` holds them).
public protocol JSONBytesOutput {
  mutating func put(_ byte: UInt8)
  mutating func put(_ bytes: UnsafeBufferPointer<UInt8>)
}

extension JSONBytesOutput {
  @inlinable public mutating func put(_ text: StaticString) {
    text.withUTF8Buffer { put($0) }
  }
}

extension Array: JSONBytesOutput where Element == UInt8 {
  @inlinable public mutating func put(_ byte: UInt8) { append(byte) }
  @inlinable public mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
    append(contentsOf: bytes)
  }
}

/// JSON written as UTF-8 bytes: a document of twenty thousand flows is some 27 MB of text, and
/// bytes are appended several times faster than a String grows.
public enum JSONText {
  /// `value` laid out by a `JSONWriter` starting at `indent`, appended to `out`.
  public static func append(
    _ value: JSONValue, to out: inout [UInt8], indent: Int, orders: JSONKeyOrders? = nil
  ) {
    write(to: &out, indent: indent, orders: orders) { $0.value(value) }
  }

  /// Whatever `body` writes, appended to `out` (its bytes lent to the writer, not copied).
  public static func write(
    to out: inout [UInt8], indent: Int, orders: JSONKeyOrders? = nil,
    _ body: (inout JSONWriter) -> Void
  ) {
    var writer = JSONWriter(indent: indent, orders: orders)
    swap(&writer.bytes, &out)
    body(&writer)
    swap(&writer.bytes, &out)
  }

  /// Keys in the order of their UTF-8 bytes (which is Unicode code point order).
  public static func sortedKeys<S: Sequence>(_ keys: S) -> [String] where S.Element == String {
    keys.sorted(by: precedes)
  }

  /// UTF-8 byte order, compared a buffer at a time.
  @usableFromInline static func precedes(_ a: String, _ b: String) -> Bool {
    var a = a
    var b = b
    return a.withUTF8 { x in
      b.withUTF8 { y in
        let common = min(x.count, y.count)
        if common > 0, let p = x.baseAddress, let q = y.baseAddress {
          let order = memcmp(p, q, common)
          if order != 0 { return order < 0 }
        }
        return x.count < y.count
      }
    }
  }

  static func appendSpaces(_ count: Int, to out: inout some JSONBytesOutput) {
    var left = count
    while left > 0 {
      let piece = min(left, spaces.count)
      spaces.withUnsafeBufferPointer { out.put(UnsafeBufferPointer(rebasing: $0[..<piece])) }
      left -= piece
    }
  }
  private static let spaces = [UInt8](repeating: UInt8(ascii: " "), count: 64)

  /// A comma if asked, a new line and `indent` spaces: one append for the three where the
  /// indentation is of the usual depth (a flow's members are three levels down, one line each).
  static func appendLineBreak(comma: Bool, indent: Int, to out: inout some JSONBytesOutput) {
    guard indent <= lineBreaks.count - 2 else {
      if comma { out.put(UInt8(ascii: ",")) }
      out.put(UInt8(ascii: "\n"))
      appendSpaces(indent, to: &out)
      return
    }
    lineBreaks.withUnsafeBufferPointer {
      out.put(UnsafeBufferPointer(rebasing: $0[(comma ? 0 : 1)..<(2 + indent)]))
    }
  }
  private static let lineBreaks = Array(",\n".utf8) + spaces

  /// The decimal digits, least significant first into a buffer of 20 and then appended: no
  /// string is made for each of the millions of numbers a bundle's documents hold.
  static func appendInteger(_ value: Int64, to out: inout some JSONBytesOutput) {
    if value >= 0 && value < 10 {
      out.put(UInt8(ascii: "0") + UInt8(value))
      return
    }
    withDigits(negative: value < 0, magnitude: value.magnitude) { out.put($0) }
  }

  /// The decimal digits of an integer, a minus first when it is negative, without a String.
  /// Inlinable: another module's caller gets it specialized, not a generic call per number.
  @inlinable
  public static func withDigits<R>(
    negative: Bool, magnitude: UInt64, _ body: (UnsafeBufferPointer<UInt8>) -> R
  ) -> R {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: digitsCapacity) { digits in
      let start = writeDigits(negative: negative, magnitude: magnitude, endingAt: digits)
      return body(UnsafeBufferPointer(rebasing: digits[start...]))
    }
  }

  /// The most bytes `writeDigits` writes.
  public static let digitsCapacity = 21

  /// Writes the digits (and a minus) to the end of `digits` (at least `digitsCapacity` bytes),
  /// and says where they begin: not generic, so that another module calls it as it is.
  public static func writeDigits(
    negative: Bool, magnitude: UInt64, endingAt digits: UnsafeMutableBufferPointer<UInt8>
  ) -> Int {
    var magnitude = magnitude
    var at = digits.count
    repeat {
      at -= 1
      digits[at] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
      magnitude /= 10
    } while magnitude > 0
    if negative {
      at -= 1
      digits[at] = UInt8(ascii: "-")
    }
    return at
  }

  /// A finite double in the shortest form that reads back as the same value.
  public static func number(_ d: Double) -> String {
    guard d.isFinite else { return "null" }
    if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
    return "\(d)"
  }

  public static func appendString(_ s: String, to out: inout some JSONBytesOutput) {
    out.put(UInt8(ascii: "\""))
    // Most strings need no escape: appended whole, scanned in place where their bytes are
    // contiguous (a native string's are), without a copy of the string to make them so.
    let plain = s.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
      for byte in bytes
      where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return false }
      out.put(bytes)
      return true
    }
    if plain == true {
      out.put(UInt8(ascii: "\""))
      return
    }
    for byte in s.utf8 {
      switch byte {
      case UInt8(ascii: "\""): out.put("\\\"")
      case UInt8(ascii: "\\"): out.put("\\\\")
      case 0x0A: out.put("\\n")
      case 0x0D: out.put("\\r")
      case 0x09: out.put("\\t")
      case 0x08: out.put("\\b")
      case 0x0C: out.put("\\f")
      case ..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        out.put("\\u00")
        out.put(hex[Int(byte >> 4)])
        out.put(hex[Int(byte & 0x0f)])
      default:
        // Bytes of a multi-byte sequence are never below 0x80, so they pass whole.
        out.put(byte)
      }
    }
    out.put(UInt8(ascii: "\""))
  }
}
