/// An object written in pieces: the fixed keys whole, and one key's array element by element,
/// so that a document of twenty thousand flows never has to be held as one value. The bytes
/// are those `JSONValue.serialized()` would write for the whole object (a test holds that).
public struct StreamedJSONObject: Sendable {
  public let fields: [String: JSONValue]
  public let streamedKey: String

  public init(fields: [String: JSONValue], streamedKey: String) {
    precondition(fields[streamedKey] == nil)
    self.fields = fields
    self.streamedKey = streamedKey
  }

  private var keys: [String] { JSONText.sortedKeys(Array(fields.keys) + [streamedKey]) }

  /// Everything up to the opening bracket of the streamed array.
  public var prefix: [UInt8] {
    var out: [UInt8] = []
    writePrefix { out += $0 }
    return out
  }

  /// The prefix handed to `sink` in pieces of about `pieceBytes`: findings.json's checks list
  /// 96 005 flow ids on the bench's workload, 3 MB of text held whole before.
  public func writePrefix(to sink: ([UInt8]) throws -> Void) rethrows {
    var writer = JSONWriter(bytes: Array("{\n".utf8), indent: 2)
    for key in keys {
      writer.bytes.append(contentsOf: "  ".utf8)
      JSONText.appendString(key, to: &writer.bytes)
      writer.bytes.append(contentsOf: ": ".utf8)
      if key == streamedKey {
        writer.bytes.append(UInt8(ascii: "["))
        break
      }
      try writer.value(fields[key]!, drainingAt: Self.pieceBytes, into: sink)
      writer.bytes.append(contentsOf: ",\n".utf8)
    }
    try sink(writer.bytes)
  }

  /// The size of the pieces a document is handed over in.
  static let pieceBytes = 256 << 10

  /// One element appended to `out`; `first` tells whether a separating comma is due before it.
  public func append(
    _ value: JSONValue, first: Bool, to out: inout [UInt8], orders: JSONKeyOrders? = nil
  ) {
    append(first: first, to: &out, orders: orders) { $0.value(value) }
  }

  /// One element, written by `body`.
  public func append(
    first: Bool, to out: inout [UInt8], orders: JSONKeyOrders? = nil,
    _ body: (inout JSONWriter) -> Void
  ) {
    out.append(contentsOf: (first ? "\n    " : ",\n    ").utf8)
    JSONText.write(to: &out, indent: 4, orders: orders, body)
  }

  /// From the closing bracket to the end; `empty` when no element was written.
  public func suffix(empty: Bool) -> [UInt8] {
    var out = Array((empty ? "]" : "\n  ]").utf8)
    let rest = keys.drop { $0 != streamedKey }.dropFirst()
    for key in rest {
      out.append(contentsOf: ",\n  ".utf8)
      JSONText.appendString(key, to: &out)
      out.append(contentsOf: ": ".utf8)
      JSONText.append(fields[key]!, to: &out, indent: 2)
    }
    out.append(contentsOf: "\n}\n".utf8)
    return out
  }

  /// The whole document, `count` elements written by `element`, handed to `sink` in pieces of
  /// about 256 KiB: the bytes the export's writer writes, for verify to hash without holding them.
  public func write(
    count: Int, element: (Int, inout JSONWriter) -> Void, to sink: ([UInt8]) -> Void
  ) {
    writePrefix(to: sink)
    var out: [UInt8] = []
    let orders = JSONKeyOrders()
    for index in 0..<count {
      append(first: index == 0, to: &out, orders: orders) { element(index, &$0) }
      if out.count >= Self.pieceBytes {
        sink(out)
        out.removeAll(keepingCapacity: true)
      }
    }
    out += suffix(empty: count == 0)
    sink(out)
  }
}
