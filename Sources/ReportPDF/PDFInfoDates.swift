import Foundation

/// cairo 1.16 writes the dates it is given without the `D:` prefix PDF 1.7 § 7.9.4 requires
/// (`/CreationDate (20261007090000Z)`), which validators do not read as dates. This puts the
/// prefix in, moves the byte offsets the insertion shifts in the cross-reference table and
/// `startxref`, and leaves a file of any other shape as it is.
///
/// cairo writes the Info dictionary just before the cross-reference table, so only the file's tail
/// is read and rewritten: from a little before the table to the end, not the whole report.
enum PDFInfoDates {
  /// How far before the cross-reference table the Info dictionary is looked for first.
  static let infoReach = 64 * 1024
  /// The keys whose values get the prefix: the file is changed from the first of them on.
  static let dateKeys = ["/CreationDate (", "/ModDate ("].map { Array($0.utf8) }

  /// Puts the prefix into the file at `url`, in place.
  static func addPrefix(inFileAt url: URL) throws {
    let handle = try FileHandle(forUpdating: url)
    defer { try? handle.close() }
    let size = Int(try handle.seekToEnd())
    func read(from offset: Int) throws -> [UInt8] {
      try handle.seek(toOffset: UInt64(offset))
      return [UInt8](try handle.readToEnd() ?? Data())
    }
    guard let xrefOffset = crossReferenceOffset(inTail: try read(from: max(0, size - 1024))),
      xrefOffset < size
    else { return }
    let base = max(0, xrefOffset - infoReach)
    // Should the dictionary lie further back than cairo puts it, the whole file is read.
    guard
      let edit = try edit(tail: read(from: base), base: base)
        ?? (base > 0 ? edit(tail: read(from: 0), base: 0) : nil)
    else { return }
    try handle.seek(toOffset: UInt64(edit.offset))
    try handle.write(contentsOf: edit.replacement)
  }

  /// The offset `startxref` gives, read from the last bytes of a file.
  static func crossReferenceOffset(inTail bytes: [UInt8]) -> Int? {
    guard let startxrefAt = lastIndex(of: Array("startxref".utf8), in: bytes) else { return nil }
    return Int(
      String(
        decoding: bytes[(startxrefAt + 9)...].prefix(while: { $0 != UInt8(ascii: "%") }),
        as: UTF8.self
      )
      .trimmingCharacters(in: .whitespacesAndNewlines))
  }

  /// Given the bytes of a PDF from offset `base` to its end: the offset from which the file is to
  /// be rewritten and what it becomes from there (it grows by two bytes a date), or nil when
  /// nothing needs doing or the tail does not have the expected shape.
  static func edit(tail bytes: [UInt8], base: Int) -> (offset: Int, replacement: [UInt8])? {
    guard let startxrefAt = lastIndex(of: Array("startxref".utf8), in: bytes),
      let xrefOffset = crossReferenceOffset(inTail: bytes), xrefOffset >= base,
      xrefOffset - base < startxrefAt,
      bytes[(xrefOffset - base)...].starts(with: Array("xref".utf8))
    else { return nil }
    let xrefAt = xrefOffset - base
    // The places to insert "D:" (in the tail), before xref.
    var inserts: [Int] = []
    let beforeTable = Array(bytes[..<xrefAt])
    for key in dateKeys {
      if let at = lastIndex(of: key, in: beforeTable) {
        let value = at + key.count
        if !bytes[value...].starts(with: Array("D:".utf8)) { inserts.append(value) }
      }
    }
    guard !inserts.isEmpty else { return nil }
    inserts.sort()
    func shifted(_ offset: Int) -> Int {
      offset + 2 * inserts.reduce(0) { $0 + (base + $1 <= offset ? 1 : 0) }
    }
    // Rewrite the cross-reference table: "xref\n0 N\n" then N entries of 20 bytes.
    var text = Array(bytes[xrefAt..<startxrefAt])
    guard let headerEnd = index(of: UInt8(ascii: "\n"), in: text, from: 5),
      let subsection = String(bytes: text[5..<headerEnd], encoding: .ascii)?.split(separator: " "),
      subsection.count == 2,
      let count = Int(subsection[1])
    else { return nil }
    // Each entry's ten digits read and written in place: a report has tens of thousands.
    var entry = headerEnd + 1
    for _ in 0..<count {
      guard entry + 20 <= text.count, var offset = tenDigits(text, at: entry) else { return nil }
      if text[entry + 17] == UInt8(ascii: "n") {
        offset = shifted(offset)
        guard offset < 10_000_000_000 else { return nil }
        for digit in (entry..<(entry + 10)).reversed() {
          text[digit] = UInt8(ascii: "0") + UInt8(offset % 10)
          offset /= 10
        }
      }
      entry += 20
    }
    var out = [UInt8]()
    out.reserveCapacity(bytes.count - inserts[0] + 2 * inserts.count)
    var last = inserts[0]
    for at in inserts {
      out += bytes[last..<at]
      out += Array("D:".utf8)
      last = at
    }
    out += bytes[last..<xrefAt]
    out += text
    out += Array("startxref\n\(shifted(xrefOffset))\n%%EOF\n".utf8)
    return (base + inserts[0], out)
  }

  /// The number ten ASCII digits at `start` spell; nil when one is not a digit.
  static func tenDigits(_ bytes: [UInt8], at start: Int) -> Int? {
    var value = 0
    for byte in bytes[start..<(start + 10)] {
      let digit = byte &- UInt8(ascii: "0")
      guard digit <= 9 else { return nil }
      value = value * 10 + Int(digit)
    }
    return value
  }

  static func lastIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard haystack.count >= needle.count else { return nil }
    var i = haystack.count - needle.count
    while i >= 0 {
      if haystack[i] == needle[0] && Array(haystack[i..<(i + needle.count)]) == needle { return i }
      i -= 1
    }
    return nil
  }

  static func index(of byte: UInt8, in bytes: [UInt8], from start: Int) -> Int? {
    (start..<bytes.count).first { bytes[$0] == byte }
  }
}
