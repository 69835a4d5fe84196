import Bytes
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

  /// `NNNNNNNN.pcap`: the file name of a capture sequence.
  public static func fileName(sequence: UInt32) -> String {
    let digits = String(sequence)
    return String(repeating: "0", count: max(0, 8 - digits.count)) + digits + ".pcap"
  }

  /// The sequence a file name stands for, or nil for any other file.
  public static func sequence(fileName: String) -> UInt32? {
    guard fileName.count == 13, fileName.hasSuffix(".pcap") else { return nil }
    let digits = fileName.prefix(8)
    guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = UInt32(digits), value > 0
    else { return nil }
    return value
  }

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
