/// The leaves of a JSON text (strings, numbers, literals) with the byte ranges they cover and
/// their paths ("$.user.email", "$.items[2]", "$['odd key']"): where in a body a value stood.
/// Lenient: what does not read as JSON ends the leaves found so far, and the rest of the body is
/// its own place.
enum JSONLeaves {
  static let depthLimit = 64

  static func spans(_ bytes: [UInt8]) -> [(range: Range<Int>, name: String)] {
    var reader = Reader(bytes: bytes)
    reader.value(path: "$", depth: 0)
    return reader.spans
  }

  struct Reader {
    let bytes: [UInt8]
    var at = 0
    var spans: [(range: Range<Int>, name: String)] = []
    var failed = false

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func blank() {
      while at < bytes.count,
        bytes[at] == 0x20 || bytes[at] == 0x0A || bytes[at] == 0x0D || bytes[at] == 0x09
      {
        at += 1
      }
    }

    mutating func value(path: String, depth: Int) {
      blank()
      guard !failed, at < bytes.count, depth < JSONLeaves.depthLimit else {
        failed = true
        return
      }
      switch bytes[at] {
      case 0x7B: object(path: path, depth: depth)
      case 0x5B: array(path: path, depth: depth)
      case 0x22:
        guard let range = string() else { return }
        spans.append((range, path))
      default:
        let start = at
        while at < bytes.count,
          !(bytes[at] == 0x2C || bytes[at] == 0x7D || bytes[at] == 0x5D
            || bytes[at] == 0x20 || bytes[at] == 0x0A || bytes[at] == 0x0D || bytes[at] == 0x09)
        {
          at += 1
        }
        if at == start { failed = true } else { spans.append((start..<at, path)) }
      }
    }

    /// A string's inside (between its quotes, escapes as written).
    mutating func string() -> Range<Int>? {
      at += 1
      let start = at
      while at < bytes.count, bytes[at] != 0x22 {
        at += bytes[at] == 0x5C ? 2 : 1
      }
      guard at < bytes.count else {
        failed = true
        return nil
      }
      defer { at += 1 }
      return start..<at
    }

    mutating func object(path: String, depth: Int) {
      at += 1
      blank()
      if at < bytes.count, bytes[at] == 0x7D {
        at += 1
        return
      }
      while !failed {
        blank()
        guard at < bytes.count, bytes[at] == 0x22, let key = string() else {
          failed = true
          return
        }
        blank()
        guard at < bytes.count, bytes[at] == 0x3A else {
          failed = true
          return
        }
        at += 1
        value(
          path: JSONLeaves.member(path, String(decoding: bytes[key], as: UTF8.self)),
          depth: depth + 1)
        guard continues(closing: 0x7D) else { return }
      }
    }

    /// After a member or an element: true at a comma (another follows), false at the closing
    /// bracket or anything else (then `failed`).
    mutating func continues(closing: UInt8) -> Bool {
      blank()
      guard at < bytes.count else {
        failed = true
        return false
      }
      if bytes[at] == 0x2C {
        at += 1
        return true
      }
      if bytes[at] != closing { failed = true }
      at += 1
      return false
    }

    mutating func array(path: String, depth: Int) {
      at += 1
      blank()
      if at < bytes.count, bytes[at] == 0x5D {
        at += 1
        return
      }
      var index = 0
      while !failed {
        value(path: "\(path)[\(index)]", depth: depth + 1)
        index += 1
        guard continues(closing: 0x5D) else { return }
      }
    }
  }

  /// A member's path: `.name` for a name of letters, digits and underscores, `['name']` else.
  static func member(_ path: String, _ key: String) -> String {
    let plain =
      !key.isEmpty
      && key.utf8.allSatisfy { ($0 | 0x20) &- 0x61 < 26 || $0 &- 0x30 < 10 || $0 == 0x5F }
      && !(key.utf8.first! &- 0x30 < 10)
    return plain ? "\(path).\(key)" : "\(path)['\(key.replacingOccurrences(of: "'", with: "\\'"))']"
  }
}
