/// Flow ids as bits over the range from the lowest: a session's flows take ids close together, so
/// the coverage of a requirement's checks is counted by union and difference of words, each flow
/// once, where sets of ids hashed every id of every check again for each requirement.
struct FlowIDBits: FlowIDMembership {
  private let lowest: Int64
  private var words: [UInt64]

  /// Room for the ids from `lowest` on, at most `span` of them.
  init(lowest: Int64, span: Int) {
    self.lowest = lowest
    words = Array(repeating: 0, count: (span + 63) / 64)
  }

  /// The bits for the ids `ids` span; nil when there are none, or when they lie so far apart that
  /// a set of them is smaller (more than 64 bits for each id).
  static func spanning(_ ids: [Int64]) -> FlowIDBits? {
    guard let low = ids.min(), let high = ids.max() else { return nil }
    let (span, overflow) = high.subtractingReportingOverflow(low)
    guard !overflow, span < Int64(ids.count) * 64 + 4096 else { return nil }
    return FlowIDBits(lowest: low, span: Int(span) + 1)
  }

  func empty() -> FlowIDBits { FlowIDBits(lowest: lowest, span: words.count * 64) }

  mutating func insert(_ id: Int64) -> Bool {
    let (offset, overflow) = id.subtractingReportingOverflow(lowest)
    guard !overflow, offset >= 0, offset < Int64(words.count) * 64 else { return false }
    words[Int(offset >> 6)] |= 1 << UInt64(offset & 63)
    return true
  }

  mutating func formUnion(_ other: FlowIDBits) {
    for index in words.indices { words[index] |= other.words[index] }
  }

  mutating func subtract(_ other: FlowIDBits) {
    for index in words.indices { words[index] &= ~other.words[index] }
  }

  mutating func formIntersection(_ other: FlowIDBits) {
    for index in words.indices { words[index] &= other.words[index] }
  }

  var count: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }
}

/// What counting a coverage needs of a collection of flow ids: the bits above, or a set.
protocol FlowIDMembership {
  /// False when the id cannot be held (outside the bits' range).
  mutating func insert(_ id: Int64) -> Bool
  mutating func formUnion(_ other: Self)
  mutating func subtract(_ other: Self)
  mutating func formIntersection(_ other: Self)
  var count: Int { get }
}

extension Set<Int64>: FlowIDMembership {
  mutating func insert(_ id: Int64) -> Bool {
    _ = insert(id) as (inserted: Bool, memberAfterInsert: Int64)
    return true
  }
}
