import Foundation

/// The bytes cairo writes that stay as written: those before the first date key of the Info
/// dictionary (`PDFInfoDates.dateKeys`), from which on the file is edited once cairo is done.
/// Given each piece cairo writes, it passes on the settled ones in order, and none after the
/// first key has begun; a key's beginning at a piece's end is held until the next piece says.
struct PDFSettledBytes {
  /// Bytes not passed on yet: all of them the beginning of a date key.
  private var held: [UInt8] = []
  /// True once a date key was met: nothing more is settled.
  private(set) var ended = false
  /// How many bytes were passed on.
  private(set) var count = 0

  mutating func take(_ piece: UnsafeRawBufferPointer, _ settled: (UnsafeRawBufferPointer) -> Void) {
    guard !ended, !piece.isEmpty else { return }
    held.append(contentsOf: piece)
    var kept = 0
    held.withUnsafeBytes { raw in
      let (passed, stop) = Self.settledPrefix(of: raw)
      if passed > 0 { settled(UnsafeRawBufferPointer(rebasing: raw[..<passed])) }
      count += passed
      ended = stop
      kept = raw.count - passed
    }
    held.removeFirst(held.count - kept)
  }

  /// How many of `bytes` come before any date key, and whether a key begins right after them
  /// (else what follows may be a key's beginning, cut off by the end of `bytes`).
  static func settledPrefix(of bytes: UnsafeRawBufferPointer) -> (count: Int, atKey: Bool) {
    guard let base = bytes.baseAddress else { return (0, false) }
    var from = 0
    while from < bytes.count,
      let hit = memchr(base + from, Int32(UInt8(ascii: "/")), bytes.count - from)
    {
      let at = base.distance(to: UnsafeRawPointer(hit))
      let rest = bytes.count - at
      for key in PDFInfoDates.dateKeys {
        let compared = min(rest, key.count)
        if memcmp(base + at, key, compared) == 0 { return (at, compared == key.count) }
      }
      from = at + 1
    }
    return (bytes.count, false)
  }
}
