import Foundation

/// cairo's structure elements (`N 0 obj\n<< /Type /StructElem\n   /S /H2\n…\nendobj`) in a PDF
/// read a piece at a time, and those of them to write again with their /Lang: the marked ones'
/// dictionaries with /Lang added after /S. An element is marked by its type ("H2") and its
/// ordinal among the elements of that type, found in the order of their numbers (cairo writes
/// them in the order they were opened). A piece may end anywhere: what may still begin an element
/// is kept for the next.
struct PDFStructureElements {
  private let languages: [String: [Int: String]]
  private var ordinals: [String: Int] = [:]
  /// The marked elements' numbers and dictionaries, in the file's order.
  private(set) var marked: [(number: Int, body: String)] = []
  /// The bytes not decided yet, and where among them the next element is looked for.
  private var pending: [UInt8] = []
  private var next = 0

  static let head = Array("<< /Type /StructElem\n".utf8)
  static let object = Array(" 0 obj\n".utf8)
  static let tail = Array("\nendobj".utf8)
  static let type = Array("/S /".utf8)
  /// Bytes kept before where an element may begin, for the "N 0 obj" line in front of it.
  static let numberReach = 32

  init(marking languages: [String: [Int: String]]) { self.languages = languages }

  /// The elements wholly read by the end of `piece`.
  mutating func add(_ piece: UnsafeRawBufferPointer) {
    // A report none of whose elements is in another language has none to look for.
    guard !languages.isEmpty else { return }
    pending.append(contentsOf: piece)
    var decided = next
    pending.withUnsafeBytes { raw in
      guard let base = raw.baseAddress else { return }
      // Byte by byte, jumping with memchr to each candidate first byte: most of a PDF is
      // deflated streams, no text to search as such.
      func find(_ needle: [UInt8], from start: Int) -> Int? {
        var from = start
        while from + needle.count <= raw.count,
          let hit = memchr(base + from, Int32(needle[0]), raw.count - from)
        {
          let index = base.distance(to: UnsafeRawPointer(hit))
          if index + needle.count <= raw.count, memcmp(base + index, needle, needle.count) == 0 {
            return index
          }
          from = index + 1
        }
        return nil
      }
      while true {
        guard let start = find(Self.head, from: next) else {
          // A head may have begun in the last bytes.
          decided = max(next, raw.count - (Self.head.count - 1))
          return
        }
        guard let end = find(Self.tail, from: start + Self.head.count) else {
          decided = start
          return
        }
        next = end + Self.tail.count
        examine(raw, start: start, end: end, find: find)
      }
    }
    let dropped = max(0, decided - Self.numberReach)
    pending.removeFirst(dropped)
    next = max(next, decided) - dropped
  }

  /// One element, its head at `start` and its tail at `end`: kept when marked.
  private mutating func examine(
    _ raw: UnsafeRawBufferPointer, start: Int, end: Int, find: ([UInt8], Int) -> Int?
  ) {
    let object = Self.object
    // "N 0 obj" before it: the object's number.
    guard start > object.count,
      memcmp(raw.baseAddress! + (start - object.count), object, object.count) == 0
    else { return }
    let numberEnd = start - object.count
    var digits = numberEnd
    while digits > 0, (0x30...0x39).contains(raw[digits - 1]) { digits -= 1 }
    // The line after the head names the type: "   /S /H2". Only a marked element's dictionary
    // is made a string (a table's elements are most of them, none marked).
    let line = start + Self.head.count
    guard let number = Int(String(decoding: raw[digits..<numberEnd], as: UTF8.self)),
      let lineEnd = find([0x0A], line), lineEnd < end
    else { return }
    var typeAt = line
    while typeAt < lineEnd, raw[typeAt] == 0x20 { typeAt += 1 }
    guard lineEnd - typeAt >= Self.type.count,
      memcmp(raw.baseAddress! + typeAt, Self.type, Self.type.count) == 0
    else { return }
    let name = String(decoding: raw[(typeAt + Self.type.count)..<lineEnd], as: UTF8.self)
    let ordinal = ordinals[name, default: 0]
    ordinals[name] = ordinal + 1
    guard let language = languages[name]?[ordinal] else { return }
    let body =
      String(decoding: raw[start...lineEnd], as: UTF8.self) + "   /Lang (\(language))\n"
      + String(decoding: raw[(lineEnd + 1)..<end], as: UTF8.self)
    marked.append((number, body))
  }
}
