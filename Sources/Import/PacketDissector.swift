import Audit
import AuditRules
import AuditWording
import Bytes
import Crypto
import Foundation

/// A frame taken apart: its IP datagram (what the store keeps, LINKTYPE_RAW), the endpoints, and
/// the transport's payload.
struct DissectedPacket {
  var source: FlowEndpoint
  var destination: FlowEndpoint
  var ipProtocol: IPProtocolNumber
  var tcpFlags: UInt8 = 0
  var tcpSequence: UInt32 = 0
  var payload: ArraySlice<UInt8>
  var datagram: ArraySlice<UInt8>
}

enum DissectResult {
  case packet(DissectedPacket)
  case unparseable(String)
}

/// Link layers (Ethernet with VLAN tags, RAW, NULL/loopback, Linux SLL and SLL2, IPv4, IPv6),
/// then IPv4/IPv6 (extension headers skipped, later fragments not read), then TCP/UDP/ICMP.
enum PacketDissector {
  static func dissect(_ frame: [UInt8], linkType: UInt32) -> DissectResult {
    var at = 0
    var etherType: UInt16?
    switch linkType {
    case 1:
      guard frame.count >= 14 else { return .unparseable("Ethernet header cut short") }
      var type = frame.integer(at: 12, as: UInt16.self)!
      at = 14
      while type == 0x8100 || type == 0x88a8 || type == 0x9100 {
        guard frame.count >= at + 4 else { return .unparseable("VLAN tag cut short") }
        type = frame.integer(at: at + 2, as: UInt16.self)!
        at += 4
      }
      etherType = type
    case 101, 228, 229, 12, 14:
      etherType = nil
    case 0:
      guard frame.count >= 4 else { return .unparseable("loopback header cut short") }
      let familyLE =
        frame.integer(at: 0, endianness: .little, as: UInt32.self)!
      let family = familyLE > 0xffff ? familyLE.byteSwapped : familyLE
      at = 4
      switch family {
      case 2: etherType = 0x0800
      case 10, 24, 28, 30: etherType = 0x86dd
      default: return .unparseable("loopback address family \(family) is not IP")
      }
    case 113:
      guard frame.count >= 16 else { return .unparseable("Linux cooked header cut short") }
      etherType = frame.integer(at: 14, as: UInt16.self)!
      at = 16
    case 276:
      guard frame.count >= 20 else { return .unparseable("Linux cooked v2 header cut short") }
      etherType = frame.integer(at: 0, as: UInt16.self)!
      at = 20
    default:
      return .unparseable("link type \(linkType) is not read")
    }
    if let etherType, etherType != 0x0800 && etherType != 0x86dd {
      return .unparseable(String(format: "not IP (EtherType 0x%04x)", etherType))
    }
    guard at < frame.count else { return .unparseable("no IP header") }
    return ip(frame, at)
  }

  static func address(_ bytes: ArraySlice<UInt8>) -> String {
    // IPv4 written digit by digit: inet_ntop formats it with sprintf, twice for every packet.
    if bytes.count == 4 {
      return String(unsafeUninitializedCapacity: 15) { out in
        var at = 0
        for (n, byte) in bytes.enumerated() {
          if n > 0 {
            out[at] = UInt8(ascii: ".")
            at += 1
          }
          if byte >= 100 {
            out[at] = UInt8(ascii: "0") + byte / 100
            at += 1
          }
          if byte >= 10 {
            out[at] = UInt8(ascii: "0") + byte / 10 % 10
            at += 1
          }
          out[at] = UInt8(ascii: "0") + byte % 10
          at += 1
        }
        return at
      }
    }
    var storage = [CChar](repeating: 0, count: 64)
    let family = bytes.count == 4 ? AF_INET : AF_INET6
    let ok = Array(bytes).withUnsafeBytes { inet_ntop(family, $0.baseAddress, &storage, 64) != nil }
    return ok
      ? String(decoding: storage.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      : "?"
  }

  static func ip(_ frame: [UInt8], _ start: Int) -> DissectResult {
    let version = frame[start] >> 4
    var proto: UInt8
    var payloadStart: Int
    var end: Int
    let src: String
    let dst: String
    if version == 4 {
      guard frame.count >= start + 20 else { return .unparseable("IPv4 header cut short") }
      let ihl = Int(frame[start] & 0x0f) * 4
      let total = Int(frame.integer(at: start + 2, as: UInt16.self)!)
      guard ihl >= 20, frame.count >= start + ihl else {
        return .unparseable("IPv4 header length lies")
      }
      end = min(frame.count, start + max(total, ihl))
      let fragmentOffset = (Int(frame.integer(at: start + 6, as: UInt16.self)!)) & 0x1fff
      if fragmentOffset != 0 { return .unparseable("a later IP fragment") }
      proto = frame[start + 9]
      src = address(frame[(start + 12)..<(start + 16)])
      dst = address(frame[(start + 16)..<(start + 20)])
      payloadStart = start + ihl
    } else if version == 6 {
      guard frame.count >= start + 40 else { return .unparseable("IPv6 header cut short") }
      let payloadLength = Int(frame.integer(at: start + 4, as: UInt16.self)!)
      end = min(frame.count, start + 40 + payloadLength)
      proto = frame[start + 6]
      src = address(frame[(start + 8)..<(start + 24)])
      dst = address(frame[(start + 24)..<(start + 40)])
      payloadStart = start + 40
      var hops = 0
      while [0, 43, 60, 44].contains(proto), hops < 8 {
        guard end >= payloadStart + 8 else {
          return .unparseable("IPv6 extension header cut short")
        }
        if proto == 44 {
          let offset = (Int(frame.integer(at: payloadStart + 2, as: UInt16.self)!)) >> 3
          if offset != 0 { return .unparseable("a later IP fragment") }
          proto = frame[payloadStart]
          payloadStart += 8
        } else {
          let length = (Int(frame[payloadStart + 1]) + 1) * 8
          proto = frame[payloadStart]
          payloadStart += length
        }
        hops += 1
      }
    } else {
      return .unparseable("IP version \(version)")
    }
    guard payloadStart <= end else { return .unparseable("IP header longer than the packet") }
    let datagram = frame[start..<end]
    switch proto {
    case 6:
      guard end - payloadStart >= 20 else { return .unparseable("TCP header cut short") }
      let sp = frame.integer(at: payloadStart, as: UInt16.self)!
      let dp = frame.integer(at: payloadStart + 2, as: UInt16.self)!
      let seq =
        frame.integer(at: payloadStart + 4, as: UInt32.self)!
      let dataOffset = Int(frame[payloadStart + 12] >> 4) * 4
      guard dataOffset >= 20, payloadStart + dataOffset <= end else {
        return .unparseable("TCP header length lies")
      }
      return .packet(
        DissectedPacket(
          source: FlowEndpoint(address: src, port: sp),
          destination: FlowEndpoint(address: dst, port: dp),
          ipProtocol: .tcp, tcpFlags: frame[payloadStart + 13], tcpSequence: seq,
          payload: frame[(payloadStart + dataOffset)..<end], datagram: datagram))
    case 17:
      guard end - payloadStart >= 8 else { return .unparseable("UDP header cut short") }
      let sp = frame.integer(at: payloadStart, as: UInt16.self)!
      let dp = frame.integer(at: payloadStart + 2, as: UInt16.self)!
      return .packet(
        DissectedPacket(
          source: FlowEndpoint(address: src, port: sp),
          destination: FlowEndpoint(address: dst, port: dp),
          ipProtocol: .udp, payload: frame[(payloadStart + 8)..<end], datagram: datagram))
    default:
      return .packet(
        DissectedPacket(
          source: FlowEndpoint(address: src, port: 0),
          destination: FlowEndpoint(address: dst, port: 0),
          ipProtocol: IPProtocolNumber(rawValue: proto), payload: frame[payloadStart..<end],
          datagram: datagram))
    }
  }
}
