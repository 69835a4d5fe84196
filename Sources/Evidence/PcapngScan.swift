import Audit
import Bytes
import Foundation

/// Counts the Enhanced Packet Blocks of a pcapng stream fed in chunks, and reads their comments.
struct PcapngScan {
  private var buffer = Data()
  private(set) var packets = 0
  private(set) var problems: [String] = []
  /// flow id → the findings its packets' comments cite.
  private(set) var comments: [Int64: Set<String>] = [:]
  private var offset: UInt64 = 0
  private var sawHeader = false
  private var seenComments: Set<Data> = []
  /// A fault in the framing was met: what follows is not read.
  private var lost = false
  /// The last comment read: packets of a flow often come one after another.
  private var lastComment: [UInt8] = []
  /// Packets whose block names no flow at all.
  private(set) var uncommented = 0

  mutating func feed(_ chunk: Data) {
    // After a fault in the blocks' framing, nothing further can be told apart: the rest is not read.
    guard !lost else { return }
    buffer.append(chunk)
    // Read in place: a Data subscript per byte cost verify a tenth of its time.
    let bytes = buffer
    let used = bytes.withUnsafeBytes { raw -> Int in
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
          let captured = Int(u32(at + 20))
          var option = at + 28 + ((captured + 3) & ~3)
          var commented = false
          while option + 4 <= at + length - 4 {
            let code = u16(option)
            let size = u16(option + 2)
            if code == 0 || option + 4 + size > at + length - 4 { break }
            if code == 1 {
              commented = true
              // A flow's packets all carry the same comment: each one is read once.
              let comment = UnsafeRawBufferPointer(
                rebasing: raw[(option + 4)..<(option + 4 + size)])
              let sameAsLast =
                comment.count == lastComment.count
                && (comment.isEmpty
                  || lastComment.withUnsafeBytes {
                    memcmp($0.baseAddress!, comment.baseAddress!, comment.count) == 0
                  })
              if !sameAsLast {
                lastComment = Array(comment)
                if seenComments.insert(Data(comment)).inserted {
                  if let text = String(validating: comment, as: UTF8.self) {
                    note(text)
                  } else {
                    problems.append("the packet comment at offset \(offset) is not UTF-8")
                  }
                }
              }
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
    buffer = used == buffer.count ? Data() : Data(buffer[(buffer.startIndex + used)...])
  }

  private mutating func note(_ comment: String) {
    var flow: Int64?
    var findings = Set<String>()
    for part in comment.split(separator: " ") {
      if part.hasPrefix("flow=") { flow = Int64(part.dropFirst(5)) }
      if part.hasPrefix("findings=") {
        findings = Set(part.dropFirst(9).split(separator: ",").map(String.init))
      }
    }
    if let flow {
      comments[flow, default: []].formUnion(findings)
    } else {
      problems.append("a packet comment does not name its flow: “\(comment)”")
    }
  }

}
