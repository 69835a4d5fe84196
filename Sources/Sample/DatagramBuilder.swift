import Bytes
import Foundation

/// Builds IP datagrams (LINKTYPE_RAW records) with real IPv4/IPv6 and TCP/UDP headers and
/// checksums: what the sample writes and what the importer's tests read back.
public enum DatagramBuilder {
  public enum Transport: Sendable, Hashable {
    case tcp(sequence: UInt32, acknowledgement: UInt32, flags: UInt8)
    case udp
    case icmpEcho(identifier: UInt16, sequence: UInt16, reply: Bool)
  }

  public struct TCPFlags {
    public static let fin: UInt8 = 0x01, syn: UInt8 = 0x02, rst: UInt8 = 0x04, psh: UInt8 = 0x08,
      ack: UInt8 = 0x10
  }

  /// Parses "10.0.0.2" or "fd00::2" into its bytes.
  public static func addressBytes(_ text: String) -> [UInt8]? {
    if text.contains(":") {
      var storage = in6_addr()
      guard inet_pton(AF_INET6, text, &storage) == 1 else { return nil }
      return withUnsafeBytes(of: &storage) { Array($0) }
    }
    var storage = in_addr()
    guard inet_pton(AF_INET, text, &storage) == 1 else { return nil }
    return withUnsafeBytes(of: &storage) { Array($0) }
  }

  /// One datagram from `source` to `destination`.
  public static func datagram(
    from source: (String, UInt16), to destination: (String, UInt16),
    transport: Transport, payload: Data, identification: UInt16 = 0, hopLimit: UInt8 = 64
  ) -> Data {
    guard let src = addressBytes(source.0), let dst = addressBytes(destination.0),
      src.count == dst.count
    else { return Data() }
    let v6 = src.count == 16
    var segment = Data()
    let protocolNumber: UInt8
    switch transport {
    case .tcp(let seq, let ack, let flags):
      protocolNumber = 6
      segment.appendInteger(source.1)
      segment.appendInteger(destination.1)
      segment.appendInteger(seq)
      segment.appendInteger(ack)
      segment.append(0x50)
      segment.append(flags)
      segment.appendInteger(UInt16(65_535))
      segment.appendInteger(UInt16(0))
      segment.appendInteger(UInt16(0))
    case .udp:
      protocolNumber = 17
      segment.appendInteger(source.1)
      segment.appendInteger(destination.1)
      segment.appendInteger(UInt16(8 + payload.count))
      segment.appendInteger(UInt16(0))
    case .icmpEcho(let identifier, let sequence, let reply):
      protocolNumber = v6 ? 58 : 1
      segment.append(v6 ? (reply ? 129 : 128) : (reply ? 0 : 8))
      segment.append(0)
      segment.appendInteger(UInt16(0))
      segment.appendInteger(identifier)
      segment.appendInteger(sequence)
    }
    segment.append(payload)
    // Transport checksum over the pseudo-header (ICMPv4 has none).
    let checksumOffset: Int
    switch transport {
    case .tcp: checksumOffset = 16
    case .udp: checksumOffset = 6
    case .icmpEcho: checksumOffset = 2
    }
    var pseudo = Data()
    if !(protocolNumber == 1) {
      pseudo.append(contentsOf: src)
      pseudo.append(contentsOf: dst)
      if v6 {
        pseudo.appendInteger(UInt32(segment.count))
        pseudo.append(contentsOf: [0, 0, 0, protocolNumber])
      } else {
        pseudo.append(0)
        pseudo.append(protocolNumber)
        pseudo.appendInteger(UInt16(segment.count))
      }
    }
    var sum = checksum(pseudo + segment)
    if sum == 0 && protocolNumber == 17 { sum = 0xffff }
    segment[checksumOffset] = UInt8(sum >> 8)
    segment[checksumOffset + 1] = UInt8(sum & 0xff)

    var packet = Data(capacity: segment.count + 40)
    if v6 {
      packet.append(contentsOf: [0x60, 0, 0, 0])
      packet.appendInteger(UInt16(segment.count))
      packet.append(protocolNumber)
      packet.append(hopLimit)
      packet.append(contentsOf: src)
      packet.append(contentsOf: dst)
    } else {
      packet.append(0x45)
      packet.append(0)
      packet.appendInteger(UInt16(20 + segment.count))
      packet.appendInteger(identification)
      packet.appendInteger(UInt16(0x4000))
      packet.append(hopLimit)
      packet.append(protocolNumber)
      packet.appendInteger(UInt16(0))
      packet.append(contentsOf: src)
      packet.append(contentsOf: dst)
      let headerSum = checksum(packet)
      packet[10] = UInt8(headerSum >> 8)
      packet[11] = UInt8(headerSum & 0xff)
    }
    packet.append(segment)
    return packet
  }

  /// The Internet checksum (RFC 1071).
  public static func checksum(_ data: Data) -> UInt16 {
    var sum: UInt32 = 0
    data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
      let bytes = raw.bindMemory(to: UInt8.self)
      var i = 0
      while i + 1 < bytes.count {
        sum &+= UInt32(bytes.integer(at: i, as: UInt16.self)!)
        i += 2
      }
      if i < bytes.count { sum &+= UInt32(bytes[i]) << 8 }
    }
    while sum >> 16 != 0 { sum = (sum & 0xffff) + (sum >> 16) }
    return ~UInt16(sum)
  }
}
