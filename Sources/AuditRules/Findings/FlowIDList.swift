/// Flow ids in the order they were added, each held as its difference from the one before
/// (a zigzag varint): a session's flows come in nearly the order of their ids, so most take a
/// byte. Each check's lists of the flows it looked at and of those it does not apply to took
/// 2.8 MB as `[Int64]` over 20 000 flows.
public struct FlowIDList: Sendable, Hashable, Collection, ExpressibleByArrayLiteral,
  CustomStringConvertible
{
  private var bytes: [UInt8] = []
  private var last: Int64 = 0
  public private(set) var count = 0

  public init() {}

  public var description: String { Array(self).description }

  /// The bytes the ids take.
  var byteCount: Int { bytes.count }

  public init<S: Sequence<Int64>>(_ ids: S) {
    for id in ids { append(id) }
  }

  public init(arrayLiteral ids: Int64...) { self.init(ids) }

  public mutating func append(_ id: Int64) {
    let delta = id &- last
    var zigzag = UInt64(bitPattern: (delta << 1) ^ (delta >> 63))
    while zigzag >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: zigzag) | 0x80)
      zigzag >>= 7
    }
    bytes.append(UInt8(zigzag))
    last = id
    count += 1
  }

  public mutating func append(contentsOf other: FlowIDList) {
    for id in other { append(id) }
  }

  /// A position: where its id's bytes start, and the id before it (the one they add to).
  public struct Index: Comparable, Sendable {
    fileprivate let offset: Int
    fileprivate let previous: Int64
    public static func < (a: Index, b: Index) -> Bool { a.offset < b.offset }
    public static func == (a: Index, b: Index) -> Bool { a.offset == b.offset }
  }

  public var startIndex: Index { Index(offset: 0, previous: 0) }
  public var endIndex: Index { Index(offset: bytes.count, previous: last) }
  public subscript(position: Index) -> Int64 { decoded(at: position).id }
  public func index(after position: Index) -> Index {
    let (id, next) = decoded(at: position)
    return Index(offset: next, previous: id)
  }

  private func decoded(at position: Index) -> (id: Int64, next: Int) {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    var at = position.offset
    while true {
      let byte = bytes[at]
      at += 1
      value |= UInt64(byte & 0x7F) << shift
      if byte < 0x80 { break }
      shift += 7
    }
    let delta = Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    return (position.previous &+ delta, at)
  }
}
