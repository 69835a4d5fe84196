import Bytes
import Capture
import Foundation
import Sample

/// Capture files made byte by byte: classic pcap in either byte order and resolution, and pcapng
/// with sections, interfaces and both packet block kinds.
enum CaptureBuilder {
  struct Frame {
    var micros: Int64
    var bytes: Data
  }

  static func le<T: FixedWidthInteger>(_ v: T) -> [UInt8] { bytes(v, .little) }
  static func be<T: FixedWidthInteger>(_ v: T) -> [UInt8] { bytes(v, .big) }
  static func bytes<T: FixedWidthInteger>(_ v: T, _ endianness: Endianness) -> [UInt8] {
    var out: [UInt8] = []
    out.appendInteger(v, endianness: endianness)
    return out
  }

  static func pcap(
    _ frames: [Frame], linkType: UInt32, bigEndian: Bool = false, nanoseconds: Bool = false
  ) -> Data {
    func w32(_ v: UInt32) -> [UInt8] { bigEndian ? be(v) : le(v) }
    func w16(_ v: UInt16) -> [UInt8] { bigEndian ? be(v) : le(v) }
    var d = Data(
      w32(nanoseconds ? 0xa1b2_3c4d : 0xa1b2_c3d4) + w16(2) + w16(4) + w32(0) + w32(0)
        + w32(262_144) + w32(linkType))
    for f in frames {
      let seconds = UInt32(f.micros / 1_000_000)
      let fraction = UInt32(f.micros % 1_000_000) * (nanoseconds ? 1000 : 1)
      d.append(
        contentsOf: w32(seconds) + w32(fraction) + w32(UInt32(f.bytes.count))
          + w32(UInt32(f.bytes.count)))
      d.append(f.bytes)
    }
    return d
  }

  static func block(_ type: UInt32, _ body: [UInt8]) -> [UInt8] {
    let total = UInt32(12 + body.count)
    return le(type) + le(total) + body + le(total)
  }

  static func option(_ code: UInt16, _ value: [UInt8]) -> [UInt8] {
    le(code) + le(UInt16(value.count)) + value
      + Array(repeating: 0, count: (4 - value.count % 4) % 4)
  }

  static func sectionHeader(hardware: String? = nil, os: String? = nil, application: String? = nil)
    -> [UInt8]
  {
    var options: [UInt8] = []
    if let hardware { options += option(2, Array(hardware.utf8)) }
    if let os { options += option(3, Array(os.utf8)) }
    if let application { options += option(4, Array(application.utf8)) }
    if !options.isEmpty { options += [0, 0, 0, 0] }
    return block(
      0x0A0D_0D0A, le(UInt32(0x1A2B_3C4D)) + le(UInt16(1)) + le(UInt16(0)) + le(Int64(-1)) + options
    )
  }

  static func interface(linkType: UInt16, resolution: UInt8? = nil) -> [UInt8] {
    var options: [UInt8] = []
    if let resolution { options += option(9, [resolution]) + [0, 0, 0, 0] }
    return block(1, le(linkType) + le(UInt16(0)) + le(UInt32(262_144)) + options)
  }

  static func enhanced(_ frame: Frame, interface: UInt32 = 0, ticksPerSecond: Int64 = 1_000_000)
    -> [UInt8]
  {
    let ticks =
      ticksPerSecond >= 1_000_000
      ? UInt64(frame.micros) * UInt64(ticksPerSecond / 1_000_000)
      : UInt64(frame.micros) / UInt64(1_000_000 / ticksPerSecond)
    let data = [UInt8](frame.bytes)
    return block(
      6,
      le(interface) + le(UInt32(ticks >> 32)) + le(UInt32(ticks & 0xffff_ffff))
        + le(UInt32(data.count)) + le(UInt32(data.count))
        + data + Array(repeating: 0, count: (4 - data.count % 4) % 4))
  }

  static func simple(_ frame: Frame) -> [UInt8] {
    let data = [UInt8](frame.bytes)
    return block(
      3, le(UInt32(data.count)) + data + Array(repeating: 0, count: (4 - data.count % 4) % 4))
  }

  /// Wraps an IP datagram in a link layer.
  static func link(_ ip: Data, _ linkType: UInt32, vlan: Bool = false) -> Data {
    let v6 = (ip.first ?? 0) >> 4 == 6
    switch linkType {
    case 1:
      var d = Data([0x02, 0, 0, 0, 0, 1, 0x02, 0, 0, 0, 0, 2])
      if vlan { d.append(contentsOf: [0x81, 0x00, 0x00, 0x2a]) }
      d.append(contentsOf: v6 ? [0x86, 0xdd] : [0x08, 0x00])
      return d + ip
    case 0: return Data(le(UInt32(v6 ? 30 : 2))) + ip
    case 113:
      return Data(
        [0, 0, 0, 1, 0, 6, 2, 0, 0, 0, 0, 1, 0, 0] + (v6 ? [0x86, 0xdd] : [0x08, 0x00])) + ip
    case 276:
      return Data(
        (v6 ? [0x86, 0xdd] : [0x08, 0x00]) + [0, 0, 0, 0, 0, 2, 0, 1, 4, 6, 2, 0, 0, 0, 0, 1, 0, 0])
        + ip
    default: return ip
    }
  }

  static func write(_ data: Data, _ dir: URL, _ name: String) throws -> URL {
    let url = dir.appendingPathComponent(name)
    try data.write(to: url)
    return url
  }
}

/// A TCP conversation's datagrams, sequence numbers kept.
struct Conversation {
  let client: (String, UInt16), server: (String, UInt16)
  var clientSeq: UInt32 = 1000, serverSeq: UInt32 = 5000
  var micros: Int64
  var frames: [CaptureBuilder.Frame] = []

  init(client: (String, UInt16), server: (String, UInt16), at micros: Int64) {
    self.client = client
    self.server = server
    self.micros = micros
  }

  mutating func packet(
    fromClient: Bool, flags: UInt8, _ payload: Data = Data(), sequence: UInt32? = nil
  ) {
    micros += 1000
    let (src, dst) = fromClient ? (client, server) : (server, client)
    let seq = sequence ?? (fromClient ? clientSeq : serverSeq)
    let ack = fromClient ? serverSeq : clientSeq
    frames.append(
      .init(
        micros: micros,
        bytes: DatagramBuilder.datagram(
          from: src, to: dst, transport: .tcp(sequence: seq, acknowledgement: ack, flags: flags),
          payload: payload)))
    if sequence == nil {
      let advance = UInt32(payload.count) + (flags & 0x03 != 0 ? 1 : 0)
      if fromClient { clientSeq &+= advance } else { serverSeq &+= advance }
    }
  }

  mutating func handshake() {
    packet(fromClient: true, flags: 0x02)
    packet(fromClient: false, flags: 0x12)
    packet(fromClient: true, flags: 0x10)
  }

  mutating func close() {
    packet(fromClient: true, flags: 0x11)
    packet(fromClient: false, flags: 0x11)
  }
}
