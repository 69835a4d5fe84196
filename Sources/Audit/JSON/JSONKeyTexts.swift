/// Key enums whose keys are written often enough to be made as bytes once: the members of a flow
/// of flows.json, 68 keys a flow, twenty thousand flows.
public protocol WrittenKeys: DocumentKeys {
  /// `JSONKeyTexts(Self.self)`, kept in a `static let`.
  static var texts: JSONKeyTexts<Self> { get }
}

/// Each key of a key enum as a `JSONWriter` writes it after its line break, made once: the
/// indentation, the quoted key, `": "`. A key is then one append, not a scan for characters to
/// escape and five appends (530 instructions a key, half of what a flow's record cost).
public struct JSONKeyTexts<Key: DocumentKeys>: Sendable {
  /// The deepest indentation kept; a key deeper is written as any other key is.
  @inlinable static var deepest: Int { 64 }

  /// Per key: `deepest` spaces then `"key": `, one after another.
  @usableFromInline let bytes: [UInt8]
  /// Where each key's text starts in `bytes` and where it ends, by the case's tag.
  @usableFromInline let starts: [Int]
  @usableFromInline let ends: [Int]

  public init(_: Key.Type) {
    // A case is found by the byte an enum without payloads is stored as: the table is made by
    // reading the same byte of each case, so it holds whichever numbering the compiler chose.
    precondition(MemoryLayout<Key>.size <= 1, "\(Key.self) is not an enum without payloads")
    var bytes: [UInt8] = []
    var starts = [Int](repeating: -1, count: 256)
    var ends = [Int](repeating: -1, count: 256)
    for key in Key.allCases {
      let tag = Self.tag(of: key)
      precondition(starts[tag] < 0, "two keys of \(Key.self) are stored alike")
      starts[tag] = bytes.count
      bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: Self.deepest))
      JSONText.appendString(key.rawValue, to: &bytes)
      bytes.append(contentsOf: ": ".utf8)
      ends[tag] = bytes.count
    }
    self.bytes = bytes
    self.starts = starts
    self.ends = ends
  }

  @inlinable
  static func tag(of key: Key) -> Int {
    MemoryLayout<Key>.size == 0 ? 0 : withUnsafeBytes(of: key) { Int($0[0]) }
  }

  /// `key` indented by `indent` (at most `deepest`), quoted, and `": "`, appended to `out`.
  @inlinable
  func append(_ key: Key, indent: Int, to out: inout some JSONBytesOutput) {
    let tag = Self.tag(of: key)
    bytes.withUnsafeBufferPointer {
      out.put(UnsafeBufferPointer(rebasing: $0[(starts[tag] + Self.deepest - indent)..<ends[tag]]))
    }
  }
}
