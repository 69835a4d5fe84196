import Audit
import AuditRules
import AuditWording
import Foundation

/// A row of the report's TLS readings: a host, where its name comes from, a version and where it
/// was read, with how many of the session's connections showed it.
public struct EvidenceTLSReading: Sendable, Hashable {
  public let host: String
  public let origin: String
  public let version: TLSProtocolVersion
  public let basis: TLSVersionBasis
  public var connections: Int

  /// One row per distinct reading, in the order each was first seen.
  public static func tally(_ flows: [StoredFlow]) -> [EvidenceTLSReading] {
    struct Key: Hashable {
      let host: String
      let origin: String
      let version: TLSProtocolVersion
      let basis: TLSVersionBasis
    }
    var rows: [EvidenceTLSReading] = []
    var position: [Key: Int] = [:]
    for flow in flows {
      guard let observation = TLSVersionObservation(of: flow) else { continue }
      let name = flow.name
      let key = Key(
        host: name.map { DomainPattern.normalised(host: $0.text) } ?? "(no name)",
        origin: name.map { $0.origin == .sni ? "announced (SNI)" : "DNS" } ?? "—",
        version: observation.version, basis: observation.basis)
      if let at = position[key] {
        rows[at].connections += 1
        continue
      }
      position[key] = rows.count
      rows.append(
        EvidenceTLSReading(
          host: key.host, origin: key.origin, version: key.version, basis: key.basis, connections: 1
        ))
    }
    return rows
  }
}
