/// The hosts of a tracker list as places in its bytes, found by hash: no string is made for a
/// rule until one is cited. A list of forty thousand rules is read by every command that judges a
/// session; a dictionary of strings took most of that time (allocation and hashing of each).
struct HostTable: Sendable, Hashable {
  /// A host in the list's bytes (lower-cased on comparison), and the rule that names it.
  struct Entry: Sendable, Hashable {
    let hostStart: Int32
    let hostEnd: Int32
    /// The rule's line; an empty range for the plain `||host^`, written again when cited.
    let lineStart: Int32
    let lineEnd: Int32
    let hash: UInt64
  }

  private(set) var entries: [Entry] = []
  /// Open addressing, linear probing: 0 is empty, else an entry's index + 1. A power of two.
  private var slots: [Int32] = Array(repeating: 0, count: 1024)

  var count: Int { entries.count }

  /// FNV-1a over the bytes, lower-cased.
  static func hash(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    var at = from
    while at < to {
      h = (h ^ UInt64(lower(bytes[at]))) &* 0x100_0000_01b3
      at += 1
    }
    return h
  }

  static func lower(_ byte: UInt8) -> UInt8 { byte &- 0x41 < 26 ? byte | 0x20 : byte }

  /// Adds the host at bytes[from..<to] unless the table holds it: the first rule naming a host
  /// stands for it.
  mutating func insert(
    _ bytes: UnsafeBufferPointer<UInt8>, host from: Int, _ to: Int, line: Range<Int>
  ) {
    let hash = Self.hash(bytes, from, to)
    if find(hash: hash, equal: { Self.same(bytes, $0, bytes, from, to) }) != nil { return }
    if (entries.count + 1) * 2 > slots.count { grow() }
    entries.append(
      Entry(
        hostStart: Int32(from), hostEnd: Int32(to), lineStart: Int32(line.lowerBound),
        lineEnd: Int32(line.upperBound), hash: hash))
    place(entries.count - 1)
  }

  /// The same table over bytes of its own: each entry's rule line, or its host alone for a plain
  /// rule, appended to `kept` (once for entries of one line), the places in it rewritten. The
  /// slots hold the entries' indices, which stay, so they are kept as they are.
  func keeping(_ bytes: UnsafeBufferPointer<UInt8>, in kept: inout [UInt8]) -> HostTable {
    var table = self
    table.entries = []
    table.entries.reserveCapacity(entries.count)
    var lastLine: (start: Int32, end: Int32, at: Int)?
    for entry in entries {
      let host = Int(entry.hostStart)..<Int(entry.hostEnd)
      let line = Int(entry.lineStart)..<Int(entry.lineEnd)
      guard !line.isEmpty, line.contains(host.lowerBound), host.upperBound <= line.upperBound
      else {
        let at = kept.count
        kept.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[host]))
        // A line outside the host (none is made so) is kept after it.
        let lineAt = kept.count
        kept.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[line]))
        table.entries.append(
          Entry(
            hostStart: Int32(at), hostEnd: Int32(at + host.count),
            lineStart: line.isEmpty ? 0 : Int32(lineAt),
            lineEnd: line.isEmpty ? 0 : Int32(lineAt + line.count), hash: entry.hash))
        continue
      }
      if lastLine?.start != entry.lineStart || lastLine?.end != entry.lineEnd {
        lastLine = (entry.lineStart, entry.lineEnd, kept.count)
        kept.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[line]))
      }
      let at = lastLine!.at
      table.entries.append(
        Entry(
          hostStart: Int32(at + host.lowerBound - line.lowerBound),
          hostEnd: Int32(at + host.upperBound - line.lowerBound), lineStart: Int32(at),
          lineEnd: Int32(at + line.count), hash: entry.hash))
    }
    return table
  }

  /// The entry for the host `query` (lower case), in a list of `bytes`.
  func entry(_ query: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>) -> Entry? {
    let hash = Self.hash(query, 0, query.count)
    return find(hash: hash, equal: { Self.same(bytes, $0, query, 0, query.count) })
  }

  private func find(hash: UInt64, equal: (Entry) -> Bool) -> Entry? {
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    while slots[slot] != 0 {
      let entry = entries[Int(slots[slot]) - 1]
      if entry.hash == hash, equal(entry) { return entry }
      slot = (slot + 1) & mask
    }
    return nil
  }

  private mutating func place(_ index: Int) {
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: entries[index].hash) & mask
    while slots[slot] != 0 { slot = (slot + 1) & mask }
    slots[slot] = Int32(index + 1)
  }

  private mutating func grow() {
    slots = Array(repeating: 0, count: slots.count * 2)
    for index in entries.indices { place(index) }
  }

  /// Whether the entry's host equals bytes[from..<to] of `other`, both lower-cased.
  static func same(
    _ list: UnsafeBufferPointer<UInt8>, _ entry: Entry, _ other: UnsafeBufferPointer<UInt8>,
    _ from: Int, _ to: Int
  ) -> Bool {
    let start = Int(entry.hostStart)
    guard Int(entry.hostEnd) - start == to - from else { return false }
    var offset = 0
    while from + offset < to {
      if lower(list[start + offset]) != lower(other[from + offset]) { return false }
      offset += 1
    }
    return true
  }
}
