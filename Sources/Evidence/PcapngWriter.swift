import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Bytes
import Crypto
import Foundation

/// pcapng blocks: one section, one LINKTYPE_RAW interface, an Enhanced Packet Block per packet
/// with its direction flag and a comment.
enum PcapngBlocks {
  static func padded(_ count: Int) -> Int { (count + 3) & ~3 }

  static func option(_ code: UInt16, _ value: Data) -> Data {
    var d = Data()
    d.appendInteger(code, endianness: .little)
    d.appendInteger(UInt16(value.count), endianness: .little)
    d.append(value)
    d.append(Data(count: padded(value.count) - value.count))
    return d
  }

  static let endOfOptions = Data([0, 0, 0, 0])

  static func block(_ type: UInt32, _ body: Data) -> Data {
    let total = UInt32(12 + body.count)
    var d = Data(capacity: Int(total))
    d.appendInteger(type, endianness: .little)
    d.appendInteger(total, endianness: .little)
    d.append(body)
    d.appendInteger(total, endianness: .little)
    return d
  }

  static func sectionHeader(application: String) -> Data {
    var body = Data()
    body.appendInteger(UInt32(0x1A2B_3C4D), endianness: .little)
    body.appendInteger(UInt16(1), endianness: .little)
    body.appendInteger(UInt16(0), endianness: .little)
    body.appendInteger(Int64(-1), endianness: .little)
    body.append(option(4, Data(application.utf8)))
    body.append(endOfOptions)
    return block(0x0A0D_0D0A, body)
  }

  static func interface(snaplen: UInt32) -> Data {
    var body = Data()
    body.appendInteger(UInt16(101), endianness: .little)
    body.appendInteger(UInt16(0), endianness: .little)
    body.appendInteger(snaplen, endianness: .little)
    body.append(option(2, Data("session".utf8)))
    body.append(option(9, Data([6])))  // microseconds
    body.append(endOfOptions)
    return block(0x0000_0001, body)
  }

  /// The length of an Enhanced Packet Block for a record of `count` bytes and a comment of `comment` bytes.
  static func enhancedPacketLength(count: Int, comment: Int) -> Int {
    12 + 20 + padded(count) + 4 + padded(comment) + 4 + 4 + 4
  }

  /// An Enhanced Packet Block made in `out`, which is `enhancedPacketLength` long.
  static func enhancedPacket(
    into out: UnsafeMutableRawBufferPointer, _ bytes: UnsafeRawBufferPointer,
    originalLength: UInt32,
    microseconds: UInt64, outbound: Bool, comment: UnsafeRawBufferPointer
  ) {
    var at = 0
    func le32(_ v: UInt32) {
      out.storeInteger(v, at: at, endianness: .little)
      at += 4
    }
    func le16(_ v: UInt16) {
      out.storeInteger(v, at: at, endianness: .little)
      at += 2
    }
    func copy(_ from: UnsafeRawBufferPointer) {
      if let base = from.baseAddress {
        (out.baseAddress! + at).copyMemory(from: base, byteCount: from.count)
      }
      (out.baseAddress! + at + from.count).initializeMemory(
        as: UInt8.self, repeating: 0, count: padded(from.count) - from.count)
      at += padded(from.count)
    }
    let total = UInt32(out.count)
    le32(6)
    le32(total)
    le32(0)
    le32(UInt32(truncatingIfNeeded: microseconds >> 32))
    le32(UInt32(truncatingIfNeeded: microseconds))
    le32(UInt32(bytes.count))
    le32(originalLength)
    copy(bytes)
    le16(1)
    le16(UInt16(comment.count))
    copy(comment)
    le16(2)
    le16(4)
    le32(outbound ? 0b10 : 0b01)
    le32(0)
    le32(total)
    assert(at == out.count)
  }
}
