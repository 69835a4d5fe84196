import Foundation

/// JSON written as it is decided, into UTF-8 bytes: how a value is laid out (two spaces a level, an
/// item a line, `": "` after a key, `{}` and `[]` when empty) is decided here alone — only the few
/// bytes around a document's streamed array are `StreamedJSONObject`'s. A `JSONValue` is written
/// through it (`value(_:)`); a record written twenty thousand times (a flow of flows.json) calls it
/// member by member, with no value tree built and let go for each.
public struct JSONWriter: JSONBytesOutput {
  /// The bytes written so far, gathered (`GatheredBytes`) rather than appended to an array for
  /// every key, bracket and value.
  public var bytes: [UInt8] {
    mutating get { out.bytes }
    set { out.bytes = newValue }
    _modify { yield &out.bytes }
  }
  @usableFromInline var out: GatheredBytes
  /// The open arrays and objects, innermost last.
  @usableFromInline var open: [Container] = []
  private let baseIndent: Int
  private let orders: JSONKeyOrders

  @usableFromInline struct Container {
    @usableFromInline let isArray: Bool
    @usableFromInline let indent: Int
    @usableFromInline var items = 0
    #if DEBUG
      @usableFromInline var lastKey: String?
    #endif

    init(isArray: Bool, indent: Int) {
      self.isArray = isArray
      self.indent = indent
    }
  }

  /// `indent`: the indentation of the line the first value starts on (its closing bracket's).
  public init(bytes: [UInt8] = [], indent: Int = 0, orders: JSONKeyOrders? = nil) {
    out = GatheredBytes(bytes)
    baseIndent = indent
    self.orders = orders ?? JSONKeyOrders()
  }

  // MARK: Containers

  public mutating func beginObject() { begin(isArray: false, "{") }
  public mutating func endObject() { end("}") }
  public mutating func beginArray() { begin(isArray: true, "[") }
  public mutating func endArray() { end("]") }

  /// A member's key, in an object. The keys of an object must come in the UTF-8 order of their
  /// bytes, the order every object is written in (checked in debug builds).
  public mutating func key(_ key: String) {
    _ = enterKey(key)
    newItem()
    JSONText.appendString(key, to: &self)
    put(UInt8(ascii: ":"))
    put(UInt8(ascii: " "))
  }

  /// A member's key given by one of the record's key enums: made once (`JSONKeyTexts`), its
  /// indentation with it. Inlinable, to be made for each enum where it is called.
  @inlinable
  public mutating func key<K: WrittenKeys>(_ key: K) {
    guard let innermost = open.last, innermost.indent + 2 <= JSONKeyTexts<K>.deepest else {
      self.key(key.rawValue)
      return
    }
    let index = enterKey(key.rawValue)
    let indent = innermost.indent + 2
    if open[index].items > 0 { put(UInt8(ascii: ",")) }
    put(UInt8(ascii: "\n"))
    open[index].items += 1
    K.texts.append(key, indent: indent, to: &self)
  }

  /// The innermost container, which must be an object, with `key` as its next key: in the UTF-8
  /// order of the keys before it (checked in debug builds, where alone the key is made).
  @inlinable
  mutating func enterKey(_ key: @autoclosure () -> String) -> Int {
    precondition(open.last.map { !$0.isArray } ?? false, "a key outside an object")
    let index = open.count - 1
    #if DEBUG
      let key = key()
      if let last = open[index].lastKey {
        assert(
          JSONText.precedes(last, key), "\(key) is written after \(last), out of the keys' order")
      }
      open[index].lastKey = key
    #endif
    return index
  }

  // MARK: Values

  public mutating func null() {
    startValue()
    put("null")
  }
  public mutating func bool(_ value: Bool) {
    startValue()
    put(value ? "true" : "false")
  }
  public mutating func int<I: BinaryInteger>(_ value: I) {
    startValue()
    JSONText.appendInteger(Int64(value), to: &self)
  }
  public mutating func double(_ value: Double) {
    startValue()
    var text = JSONText.number(value)
    text.withUTF8 { put($0) }
  }
  public mutating func string(_ value: String) {
    startValue()
    JSONText.appendString(value, to: &self)
  }
  public mutating func string(_ value: String?) { if let value { string(value) } else { null() } }
  /// An instant as `Instant.rfc3339` spells it (nothing in it to escape), without a String: two
  /// for each of a session's flows.
  public mutating func instant(_ date: Date) {
    startValue()
    put(UInt8(ascii: "\""))
    Instant.withRFC3339(microseconds: Instant.microseconds(date)) { put($0) }
    put(UInt8(ascii: "\""))
  }

  public mutating func ints<I: BinaryInteger>(_ values: [I]) {
    beginArray()
    for value in values { int(value) }
    endArray()
  }

  public mutating func strings(_ values: [String]) {
    beginArray()
    for value in values { string(value) }
    endArray()
  }

  /// A whole value: arrays in order, a dictionary's members in the UTF-8 order of their keys.
  public mutating func value(_ value: JSONValue) { write(value, drainingAt: .max) { _ in } }

  /// A whole value, its bytes so far handed to `sink` after an item or a member once they reach
  /// `limit`: a value of megabytes (findings.json's checks) is not held as text whole.
  public mutating func value(
    _ value: JSONValue, drainingAt limit: Int, into sink: ([UInt8]) throws -> Void
  ) rethrows {
    try write(value, drainingAt: limit, sink)
  }

  private mutating func write(
    _ value: JSONValue, drainingAt limit: Int, _ sink: ([UInt8]) throws -> Void
  ) rethrows {
    switch value {
    case .null: null()
    case .bool(let b): bool(b)
    case .integer(let i): int(i)
    case .double(let d): double(d)
    case .string(let s): string(s)
    case .array(let items):
      beginArray()
      for item in items {
        try write(item, drainingAt: limit, sink)
        try drain(at: limit, sink)
      }
      endArray()
    case .integers(let items):
      beginArray()
      for item in items {
        int(item)
        try drain(at: limit, sink)
      }
      endArray()
    case .object(let members):
      // Keys and values of one dictionary come in the same order: sort positions, not pairs.
      let keys = Array(members.keys)
      let values = Array(members.values)
      beginObject()
      for n in orders.order(of: keys) {
        key(keys[n])
        try write(values[n], drainingAt: limit, sink)
        try drain(at: limit, sink)
      }
      endObject()
    }
  }

  private mutating func drain(at limit: Int, _ sink: ([UInt8]) throws -> Void) rethrows {
    guard out.count >= limit else { return }
    try sink(out.bytes)
    out.bytes.removeAll(keepingCapacity: true)
  }

  @inlinable public mutating func put(_ byte: UInt8) { out.put(byte) }
  @inlinable public mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) { out.put(bytes) }

  // MARK: Layout

  private var indent: Int { open.last.map { $0.indent + 2 } ?? baseIndent }

  /// A value starts: in an array, as its next item; after a key or at the top, where it is.
  private mutating func startValue() {
    if open.last?.isArray == true { newItem() }
  }

  /// The next item of the innermost container: a comma after the one before, a new line, indented.
  private mutating func newItem() {
    let index = open.count - 1
    JSONText.appendLineBreak(
      comma: open[index].items > 0, indent: open[index].indent + 2, to: &self)
    open[index].items += 1
  }

  private mutating func begin(isArray: Bool, _ bracket: Unicode.Scalar) {
    startValue()
    let indent = self.indent
    put(UInt8(ascii: bracket))
    open.append(Container(isArray: isArray, indent: indent))
  }

  private mutating func end(_ bracket: Unicode.Scalar) {
    let container = open.removeLast()
    if container.items > 0 {
      put(UInt8(ascii: "\n"))
      JSONText.appendSpaces(container.indent, to: &self)
    }
    put(UInt8(ascii: bracket))
  }
}
