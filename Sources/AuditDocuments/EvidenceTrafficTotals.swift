import Audit
import AuditRules
import Foundation

/// Page 1's totals of what the session's connections were: how many, to how many hosts and
/// registrable domains, of which parties, and the bytes each way. Tallied while the flows are at
/// hand, as the TLS readings are.
public struct EvidenceTrafficTotals: Sendable, Hashable {
  public var connections = 0
  public var unnamedConnections = 0
  public var hosts = 0
  public var registrableDomains = 0
  /// Hosts the project's allowlist covers, and those it does not (both 0 without an allowlist).
  public var firstPartyHosts = 0
  public var thirdPartyHosts = 0
  /// Hosts a tracker list names.
  public var trackerHosts = 0
  public var bytesOut: UInt64 = 0
  public var bytesIn: UInt64 = 0

  public static func tally(
    _ flows: [StoredFlow], project: AuditProject, domains: RegistrableDomains,
    trackers: TrackerLists?
  ) -> EvidenceTrafficTotals {
    var totals = EvidenceTrafficTotals()
    var hosts = Set<String>()
    for flow in flows {
      totals.connections += 1
      totals.bytesOut += flow.bytesOut
      totals.bytesIn += flow.bytesIn
      guard let name = flow.name else {
        totals.unnamedConnections += 1
        continue
      }
      hosts.insert(DomainPattern.normalised(host: name.text))
    }
    totals.hosts = hosts.count
    totals.registrableDomains = Set(hosts.map { domains.of($0) ?? $0 }).count
    if !project.allowlist.isEmpty {
      totals.firstPartyHosts = hosts.filter { project.allowlistEntry(matching: $0) != nil }.count
      totals.thirdPartyHosts = hosts.count - totals.firstPartyHosts
    }
    totals.trackerHosts =
      trackers.map { lists in hosts.filter { lists.match($0) != nil }.count } ?? 0
    return totals
  }
}
