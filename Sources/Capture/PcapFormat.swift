import AuditRules
import Bytes
import Crypto
import Foundation

/// Facts of classic pcap: what the store's captures are.
public enum PcapFormat {
  public static let globalHeaderLength = 24
  public static let recordHeaderLength = 16
  public static let magicMicroseconds: UInt32 = 0xa1b2_c3d4
  public static let magicNanoseconds: UInt32 = 0xa1b2_3c4d
  public static let linkTypeRaw: UInt32 = 101
  public static let defaultSnaplen: UInt32 = 65_535
  /// The largest snaplen a reader accepts before allocating anything.
  public static let maximumSnaplen: UInt32 = 262_144

  /// A global header: little-endian, microseconds, LINKTYPE_RAW.
  public static func globalHeader(snaplen: UInt32) -> Data {
    var data = Data(capacity: globalHeaderLength)
    data.appendInteger(magicMicroseconds, endianness: .little)
    data.appendInteger(UInt16(2), endianness: .little)
    data.appendInteger(UInt16(4), endianness: .little)
    data.appendInteger(Int32(0), endianness: .little)
    data.appendInteger(UInt32(0), endianness: .little)
    data.appendInteger(snaplen, endianness: .little)
    data.appendInteger(linkTypeRaw, endianness: .little)
    return data
  }
}
