import Foundation

/// Which TCP connections a pcap file holds the opening and the end of: what a test waits for
/// before it stops a capture, so that nothing it sent is still on its way. Reads tcpdump's pcap
/// files and the store's own (raw IP), a last record still being written left for later.
public enum CaptureClosings {
  public struct Summary: Sendable, Hashable {
    /// Connections whose SYN is in the files.
    public var opened = 0
    /// Of those, the ones without a FIN each way or a RST yet.
    public var open = 0
    /// UDP datagrams.
    public var datagrams = 0
    /// The open ones: their client's end and what was seen of their end, for what is said when
    /// a wait fails.
    public var openConnections: [String] = []
    public init() {}
  }

  private struct Connection {
    var client: [UInt8]
    var finFromClient = false
    var finFromServer = false
    var reset = false
    var isOver: Bool { reset || (finFromClient && finFromServer) }
  }

  public static func read(_ paths: [String]) -> Summary {
    var connections: [[UInt8]: Connection] = [:]
    var summary = Summary()
    for path in paths {
      guard let data = FileManager.default.contents(atPath: path) else { continue }
      forEachSegment(in: [UInt8](data)) { source, destination, flags in
        guard let flags else {
          summary.datagrams += 1
          return
        }
        let key =
          source.lexicographicallyPrecedes(destination)
          ? source + destination : destination + source
        let syn = flags & 0x02 != 0
        let ack = flags & 0x10 != 0
        if syn && !ack {
          if connections[key].map({ !$0.isOver }) != true {
            connections[key] = Connection(client: source)
            summary.opened += 1
          }
          return
        }
        guard var connection = connections[key] else { return }
        if flags & 0x04 != 0 { connection.reset = true }
        if flags & 0x01 != 0 {
          if source == connection.client {
            connection.finFromClient = true
          } else {
            connection.finFromServer = true
          }
        }
        connections[key] = connection
      }
    }
    let open = connections.values.filter { !$0.isOver }
    summary.open = open.count
    summary.openConnections = open.map {
      "\($0.client.map(String.init).joined(separator: ".")) FIN from client \($0.finFromClient), from server \($0.finFromServer)"
    }
    return summary
  }

  /// Each TCP segment's ends (address bytes then port) and flags; a UDP datagram's ends, its
  /// flags nil.
  static func forEachSegment(in bytes: [UInt8], _ body: ([UInt8], [UInt8], UInt8?) -> Void) {
    guard bytes.count >= 24 else { return }
    let magic =
      UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16
      | UInt32(bytes[3]) << 24
    let little: Bool
    switch magic {
    case 0xa1b2_c3d4, 0xa1b2_3c4d: little = true
    case 0xd4c3_b2a1, 0x4d3c_b2a1: little = false
    default: return
    }
    func u32(_ at: Int) -> Int {
      let b = bytes[at..<at + 4].map(Int.init)
      return little
        ? b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24 : b[3] | b[2] << 8 | b[1] << 16 | b[0] << 24
    }
    let linkType = u32(20) & 0xffff
    var at = 24
    while at + 16 <= bytes.count {
      let length = u32(at + 8)
      let start = at + 16
      guard start + length <= bytes.count else { return }
      let frame = Array(bytes[start..<start + length])
      at = start + length
      guard let ip = ipOffset(frame, linkType: linkType) else { continue }
      segment(frame, at: ip, body)
    }
  }

  static func ipOffset(_ frame: [UInt8], linkType: Int) -> Int? {
    switch linkType {
    case 0: return 4
    case 1:
      var at = 12
      while at + 2 <= frame.count, frame[at] == 0x81, frame[at + 1] == 0x00 { at += 4 }
      return at + 2
    case 12, 101, 228, 229: return 0
    case 113: return 16
    case 276: return 20
    default: return nil
    }
  }

  static func segment(_ f: [UInt8], at ip: Int, _ body: ([UInt8], [UInt8], UInt8?) -> Void) {
    guard ip < f.count else { return }
    let version = f[ip] >> 4
    var tcp: Int
    var source: [UInt8]
    var destination: [UInt8]
    var udp = false
    if version == 4 {
      guard ip + 20 <= f.count, f[ip + 9] == 6 || f[ip + 9] == 17 else { return }
      udp = f[ip + 9] == 17
      tcp = ip + Int(f[ip] & 0x0f) * 4
      source = Array(f[ip + 12..<ip + 16])
      destination = Array(f[ip + 16..<ip + 20])
    } else if version == 6 {
      guard ip + 40 <= f.count, f[ip + 6] == 6 || f[ip + 6] == 17 else { return }
      udp = f[ip + 6] == 17
      tcp = ip + 40
      source = Array(f[ip + 8..<ip + 24])
      destination = Array(f[ip + 24..<ip + 40])
    } else {
      return
    }
    guard tcp + (udp ? 8 : 14) <= f.count else { return }
    source += f[tcp..<tcp + 2]
    destination += f[tcp + 2..<tcp + 4]
    body(source, destination, udp ? nil : f[tcp + 13])
  }
}
