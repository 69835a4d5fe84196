import Audit
import AuditRules
import Foundation

/// The report's host inventory: every host the session's connections went to, once, in the
/// order first contacted, with its registrable domain, its party, its connections and bytes, the
/// TLS versions its servers negotiated, where its server addresses are registered and the
/// findings that cite its connections. Tallied while the flows are at hand.
public struct EvidenceHostInventory: Sendable, Hashable {
  public enum Party: Sendable, Hashable {
    /// Under the project's allowlist.
    case firstParty
    /// Outside it.
    case thirdParty
    /// The project has no allowlist to tell.
    case unknown
  }

  public struct Host: Sendable, Hashable {
    public let name: String
    public var registrableDomain: String?
    public var party: Party
    /// The tracker list's rule that names it, if any.
    public var tracker: TrackerMatch?
    public var connections = 0
    public var bytesOut: UInt64 = 0
    public var bytesIn: UInt64 = 0
    /// Negotiated versions, oldest first.
    public var versions: [TLSProtocolVersion] = []
    /// Its server addresses' registrations, each once (none: no database, or none held them).
    public var registrations: [AddressRegistration] = []
    /// "F3", "F7"… in the findings' order.
    public var findingIDs: [String] = []
  }

  public var hosts: [Host] = []
  /// Connections without a name: not in the table, counted.
  public var unnamedConnections = 0

  public static func tally(
    _ flows: [StoredFlow], project: AuditProject, domains: RegistrableDomains,
    trackers: TrackerLists?, registrations: AddressRegistrations,
    citations: FindingCitations
  ) -> EvidenceHostInventory {
    var inventory = EvidenceHostInventory()
    var index: [String: Int] = [:]
    var versions: [Set<TLSProtocolVersion>] = []
    var registered: [Set<AddressRegistration>] = []
    var cited: [Set<Int32>] = []
    for flow in flows {
      guard let name = flow.name else {
        inventory.unnamedConnections += 1
        continue
      }
      let host = DomainPattern.normalised(host: name.text)
      let at: Int
      if let known = index[host] {
        at = known
      } else {
        at = inventory.hosts.count
        index[host] = at
        let party: Party =
          project.allowlist.isEmpty
          ? .unknown : project.allowlistEntry(matching: host) != nil ? .firstParty : .thirdParty
        inventory.hosts.append(
          Host(
            name: host, registrableDomain: domains.of(host), party: party,
            tracker: trackers?.match(host)))
        versions.append([])
        registered.append([])
        cited.append([])
      }
      inventory.hosts[at].connections += 1
      inventory.hosts[at].bytesOut += flow.bytesOut
      inventory.hosts[at].bytesIn += flow.bytesIn
      if let observation = TLSVersionObservation(of: flow) {
        versions[at].insert(observation.version)
      }
      if let registration = registrations.of(ScanTargets.server(of: flow).address) {
        registered[at].insert(registration)
      }
      cited[at].formUnion(citations.places(ofFlow: flow.id))
    }
    for at in inventory.hosts.indices {
      inventory.hosts[at].versions = versions[at].sorted()
      inventory.hosts[at].registrations = registered[at].sorted()
      inventory.hosts[at].findingIDs = cited[at].sorted().map(citations.identifier)
    }
    return inventory
  }
}
