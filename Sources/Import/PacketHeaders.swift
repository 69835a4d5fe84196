import Audit
import AuditRules
import AuditWording
import Bytes
import Crypto
import Foundation

/// A packet's headers as Packet detail shows them: label and value, in the order they nest
/// (IP, then TCP or UDP, then DNS or TLS). Read by the importer's own readers.
public enum PacketHeaders {
  public static func decode(_ datagram: [UInt8]) -> [(String, String)] {
    guard case .packet(let p) = PacketDissector.dissect(datagram, linkType: 101) else {
      return [("IP", "not readable as an IP datagram")]
    }
    var lines: [(String, String)] = []
    let version = datagram.first.map { $0 >> 4 } ?? 0
    lines.append(
      (
        "IP",
        "version \(version), \(datagram.count) bytes, \(p.source.address) → \(p.destination.address)"
      ))
    let payload = Array(p.payload)
    switch p.ipProtocol {
    case .tcp:
      lines.append(
        (
          "TCP",
          "\(p.source.port) → \(p.destination.port), flags \(PacketWording.flags(p.tcpFlags)), sequence \(p.tcpSequence), \(Quantity.count(payload.count, "byte")) of payload"
        ))
      if let tls = tlsRecord(payload) { lines.append(("TLS", tls)) }
    case .udp:
      lines.append(
        (
          "UDP",
          "\(p.source.port) → \(p.destination.port), \(Quantity.count(payload.count, "byte")) of payload"
        ))
      if DatagramPorts.isDNS(p.source.port) || DatagramPorts.isDNS(p.destination.port),
        DNSReader.isMessage(p.payload)
      {
        lines.append(("DNS", dns(payload)))
      }
    default:
      lines.append(
        (p.ipProtocol.name.uppercased(), "\(Quantity.count(payload.count, "byte"))"))
    }
    return lines
  }

  static func dns(_ m: [UInt8]) -> String {
    let isResponse = (m.count > 2 ? m[2] : 0) & 0x80 != 0
    var out = isResponse ? "response" : "query"
    if let (name, _) = DNSReader.name(m, 12) {
      out += " for \(TerminalText.inline(name))"
    }
    if isResponse, let answer = DNSReader.response(m[...]) {
      out += ": " + answer.addresses.joined(separator: ", ")
    }
    return out
  }

  static let contentTypes: [UInt8: String] = [
    20: "change_cipher_spec", 21: "alert", 22: "handshake", 23: "application_data",
  ]
  static let handshakeTypes: [UInt8: String] = [
    1: "ClientHello", 2: "ServerHello", 4: "NewSessionTicket", 8: "EncryptedExtensions",
    11: "Certificate", 12: "ServerKeyExchange", 13: "CertificateRequest", 14: "ServerHelloDone",
    15: "CertificateVerify", 16: "ClientKeyExchange", 20: "Finished",
  ]

  /// The TLS record the payload begins with, if it begins with one.
  static func tlsRecord(_ b: [UInt8]) -> String? {
    guard b.count >= 5, let type = contentTypes[b[0]], b[1] == 3,
      let length = b.integer(at: 3, endianness: .big, as: UInt16.self)
    else { return nil }
    var out = "record \(type), version 0x03\(String(format: "%02X", b[2])), \(length) bytes"
    if b[0] == 22, b.count > 5 {
      out += ", " + (handshakeTypes[b[5]].map { "handshake \($0)" } ?? "handshake type \(b[5])")
    }
    return out
  }
}
