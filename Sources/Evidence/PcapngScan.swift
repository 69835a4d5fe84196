import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Bytes
import Crypto
import Foundation

/// Counts the Enhanced Packet Blocks of a pcapng stream fed in chunks, and reads their comments.
struct PcapngScan {
  private var buffer = Data()
  private(set) var packets = 0
  private(set) var problems: [String] = []
  /// flow id → its packets' comment as written (the first read; a second that differs is named).
  /// What it cites is read from it again when asked (`citedFindings`): a set per flow held
  /// 2.5 MB of a 20 000 flows' bundle while it was read.
  private(set) var commentTexts: [Int64: String] = [:]
  /// flow id → findings a later comment of the flow cites that its first does not.
  private var moreFindings: [Int64: Set<String>] = [:]
  private var offset: UInt64 = 0
  private var sawHeader = false
  /// A flow's first comment, found again by its bytes' hash (and then compared with
  /// `commentTexts`): the comment itself is held once, there.
  private var firstComments: [Int: Int64] = [:]
  /// Every other comment read (naming no flow, not UTF-8, a flow's second), and the flow it names.
  private var otherComments: [Data: Int64?] = [:]
  /// Packets per flow, by the flow their comment names.
  private(set) var packetsByFlow: [Int64: Int] = [:]
  private var lastFlow: Int64?
  /// Interface Description Blocks read: a packet names one of them.
  private var interfaces = 0
  /// A fault in the framing was met: what follows is not read.
  private var lost = false
  /// The last comment read: packets of a flow often come one after another.
  private var lastComment: [UInt8] = []
  /// Packets whose block names no flow at all.
  private(set) var uncommented = 0

  mutating func feed(_ chunk: Data) {
    chunk.withUnsafeBytes { feed($0) }
  }

  /// The piece read in place, but for a block begun in the piece before: that one is completed
  /// in `buffer` from this piece's first bytes and read alone. (Each piece appended to `buffer`
  /// whole was a second copy of the whole capture.)
  mutating func feed(_ piece: UnsafeRawBufferPointer) {
    // After a fault in the blocks' framing, nothing further can be told apart: the rest is not read.
    guard !lost else { return }
    var rest = piece
    if !buffer.isEmpty {
      // Its type and length first, then as many bytes as that length says (when it is one a
      // block may have: else reading the twelve says what is wrong).
      guard complete(upTo: 12, from: &rest) else { return }
      let length = buffer.withUnsafeBytes {
        Int($0.integer(at: 4, endianness: .little, as: UInt32.self)!)
      }
      if length >= 12, length % 4 == 0, length < 1 << 26 {
        guard complete(upTo: length, from: &rest) else { return }
      }
      let held = buffer
      _ = held.withUnsafeBytes { scanBlocks($0) }
      buffer = Data()
      if lost { return }
    }
    let used = scanBlocks(rest)
    if used < rest.count { buffer = Data(rest[used...]) }
  }

  /// Whether `buffer` holds `count` bytes, taken from the start of `rest` as far as needed.
  private mutating func complete(upTo count: Int, from rest: inout UnsafeRawBufferPointer) -> Bool {
    let taken = min(max(0, count - buffer.count), rest.count)
    buffer.append(contentsOf: rest[..<taken])
    rest = UnsafeRawBufferPointer(rebasing: rest[taken...])
    return buffer.count >= count
  }

  /// Reads the whole blocks at the start of `raw`: how many bytes they take (all of them once
  /// the framing is lost).
  private mutating func scanBlocks(_ raw: UnsafeRawBufferPointer) -> Int {
    // Every field is read inside the bytes held (a block's framing is checked before its fields).
    func u16(_ i: Int) -> Int { Int(raw.integer(at: i, endianness: .little, as: UInt16.self)!) }
    func u32(_ i: Int) -> UInt32 { raw.integer(at: i, endianness: .little, as: UInt32.self)! }
    var at = 0
    while raw.count - at >= 12 {
      let type = u32(at)
      let length = Int(u32(at + 4))
      if !sawHeader && type != 0x0A0D_0D0A {
        problems.append("capture.pcapng does not begin with a section header")
        lost = true
        return raw.count
      }
      sawHeader = true
      guard length >= 12, length % 4 == 0, length < 1 << 26 else {
        problems.append("capture.pcapng has a block claiming \(length) bytes at offset \(offset)")
        lost = true
        return raw.count
      }
      guard raw.count - at >= length else { break }
      // Export writes a section header, one interface and packets: nothing else, framed alike.
      guard u32(at + length - 4) == UInt32(length) else {
        problems.append(
          "capture.pcapng's block at offset \(offset) ends with a length other than the \(length) it begins with"
        )
        lost = true
        return raw.count
      }
      switch type {
      case 0x0A0D_0D0A, 6: break
      case 1: interfaces += 1
      default:
        problems.append(
          "capture.pcapng holds a block of type 0x\(String(type, radix: 16)) at offset \(offset), which export does not write"
        )
      }
      if type == 6, length < 32 {
        // Shorter than the fields every Enhanced Packet Block has.
        problems.append(
          "capture.pcapng has a packet block of \(length) bytes at offset \(offset), too short for one"
        )
        lost = true
        return raw.count
      }
      if type == 6 {
        packets += 1
        if Int(u32(at + 8)) >= interfaces {
          problems.append(
            "the packet at offset \(offset) names interface \(u32(at + 8)), which capture.pcapng does not describe"
          )
        }
        let captured = Int(u32(at + 20))
        var option = at + 28 + ((captured + 3) & ~3)
        var commented = false
        while option + 4 <= at + length - 4 {
          let code = u16(option)
          let size = u16(option + 2)
          if code == 0 || option + 4 + size > at + length - 4 { break }
          if code == 1 {
            commented = true
            count(
              comment: UnsafeRawBufferPointer(rebasing: raw[(option + 4)..<(option + 4 + size)]))
          }
          option += 4 + ((size + 3) & ~3)
        }
        if !commented { uncommented += 1 }
      }
      at += length
      offset += UInt64(length)
    }
    return at
  }

  /// A packet's comment: the flow it names counted. A flow's packets all carry the same comment,
  /// so each is read once.
  private mutating func count(comment: UnsafeRawBufferPointer) {
    let sameAsLast =
      comment.count == lastComment.count
      && (comment.isEmpty
        || lastComment.withUnsafeBytes {
          memcmp($0.baseAddress!, comment.baseAddress!, comment.count) == 0
        })
    if !sameAsLast {
      lastComment = Array(comment)
      var hasher = Hasher()
      hasher.combine(bytes: comment)
      let hash = hasher.finalize()
      if let flow = firstComments[hash], commentTexts[flow]?.utf8.elementsEqual(comment) == true {
        lastFlow = flow
      } else if let known = otherComments[Data(comment)] {
        lastFlow = known
      } else if let text = String(validating: comment, as: UTF8.self) {
        lastFlow = note(text)
        if let flow = lastFlow, commentTexts[flow] == text, firstComments[hash] == nil {
          firstComments[hash] = flow
        } else {
          otherComments[Data(comment)] = lastFlow
        }
      } else {
        problems.append("the packet comment at offset \(offset) is not UTF-8")
        lastFlow = nil
        otherComments[Data(comment)] = .some(nil)
      }
    }
    if let lastFlow { packetsByFlow[lastFlow, default: 0] += 1 }
  }

  /// A comment read for the first time; the flow it names.
  private mutating func note(_ comment: String) -> Int64? {
    let (named, findings) = Self.read(comment)
    guard let flow = named else {
      problems.append("a packet comment does not name its flow: “\(TerminalText.inline(comment))”")
      return nil
    }
    guard commentTexts[flow] != nil else {
      commentTexts[flow] = comment
      return flow
    }
    // Every packet of a flow carries the same comment: a second one cites other findings.
    let earlier = citedFindings(ofFlow: flow)
    if earlier != findings {
      problems.append(
        "packets of flow \(flow) carry different comments (findings \(earlier.sorted().joined(separator: ",")) and \(findings.sorted().joined(separator: ",")))"
      )
      moreFindings[flow, default: []].formUnion(findings.subtracting(earlier))
    }
    return flow
  }

  /// The findings the comments of flow `id`'s packets cite, all of them together.
  func citedFindings(ofFlow id: Int64) -> Set<String> {
    guard let text = commentTexts[id] else { return [] }
    return Self.read(text).findings.union(moreFindings[id] ?? [])
  }

  /// The flow a comment names and the findings it cites (those resting on earlier packets among
  /// them): its words are those between spaces, read as bytes (split and compared as characters,
  /// a comment cost thirty times as much, and a 20 000 flows' capture has a comment per flow).
  static func read(_ comment: String) -> (flow: Int64?, findings: Set<String>) {
    var flow: Int64?
    var findings = Set<String>()
    var comment = comment
    comment.withUTF8 { bytes in
      for word in bytes.split(separator: UInt8(ascii: " ")) {
        if let number = value(of: "flow=", in: word) {
          flow = Int64(String(decoding: number, as: UTF8.self))
        }
        for key: StaticString in ["findings=", "readEarlier="] {
          guard let list = value(of: key, in: word) else { continue }
          for id in list.split(separator: UInt8(ascii: ",")) {
            findings.insert(String(decoding: id, as: UTF8.self))
          }
        }
      }
    }
    return (flow, findings)
  }

  /// What follows `key` in `word`, when the word begins with it.
  private static func value(
    of key: StaticString, in word: Slice<UnsafeBufferPointer<UInt8>>
  ) -> Slice<UnsafeBufferPointer<UInt8>>? {
    let length = key.utf8CodeUnitCount
    guard word.count >= length,
      memcmp(key.utf8Start, word.base.baseAddress! + word.startIndex, length) == 0
    else { return nil }
    return word.dropFirst(length)
  }
}
