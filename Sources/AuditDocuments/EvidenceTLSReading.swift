import Audit
import AuditRules
import AuditWording
import Foundation

/// A row of the report's TLS readings: a host, where its name comes from, a version and where it
/// was read, the cipher suite and group the server chose and the client's fingerprint (JA4), with
/// how many of the session's connections showed it.
public struct EvidenceTLSReading: Sendable, Hashable {
  public let host: String
  public let origin: String
  public let version: TLSProtocolVersion
  public let basis: TLSVersionBasis
  public let cipherSuite: UInt16?
  public let group: UInt16?
  public let ja4: String?
  public var connections: Int

  /// One row per distinct reading, in the order each was first seen.
  public static func tally(_ flows: [StoredFlow]) -> [EvidenceTLSReading] {
    struct Key: Hashable {
      let host: String
      let origin: String
      let version: TLSProtocolVersion
      let basis: TLSVersionBasis
      let cipherSuite: UInt16?
      let group: UInt16?
      let ja4: String?
    }
    var rows: [EvidenceTLSReading] = []
    var position: [Key: Int] = [:]
    for flow in flows {
      guard let observation = TLSVersionObservation(of: flow) else { continue }
      let name = flow.name
      let key = Key(
        host: name.map { DomainPattern.normalised(host: $0.text) } ?? "(no name)",
        origin: name.map { EvidenceTLSReading.originText($0.origin) } ?? "—",
        version: observation.version, basis: observation.basis,
        cipherSuite: flow.serverTLS?.handshake?.cipherSuite,
        group: flow.serverTLS?.handshake?.parameters.group, ja4: flow.clientTLS?.ja4)
      if let at = position[key] {
        rows[at].connections += 1
        continue
      }
      position[key] = rows.count
      rows.append(
        EvidenceTLSReading(
          host: key.host, origin: key.origin, version: key.version, basis: key.basis,
          cipherSuite: key.cipherSuite, group: key.group, ja4: key.ja4, connections: 1))
    }
    return rows
  }
}

extension EvidenceTLSReading {
  /// Where a connection's name came from, as the TLS table says it.
  static func originText(_ origin: FlowName.Origin) -> String {
    switch origin {
    case .sni: return "announced (SNI)"
    case .connect: return "CONNECT"
    case .dns: return "DNS"
    case .host: return "Host header"
    }
  }
}
