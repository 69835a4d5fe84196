import Audit

/// A server to scan: the name the session's connections used, the address and the port.
public struct ScanTarget: Sendable, Hashable {
  public let host: String
  public let address: String
  public let port: UInt16
  public init(host: String, address: String, port: UInt16) {
    self.host = host
    self.address = address
    self.port = port
  }
}

/// Which of a session's servers are scanned. Pure.
public enum ScanTargets {
  /// The servers of the session's named TCP connections, each (name, address, port) once, in the
  /// order first contacted: those named with --host when any are (whatever their standing),
  /// else those under an allowlisted name that no tracker list names.
  public static func of(
    _ flows: [StoredFlow], allowlist: [AllowlistEntry], named: [String], trackers: TrackerLists?
  ) -> [ScanTarget] {
    let wanted = Set(named.map { DomainPattern.normalised(host: $0) })
    var seen = Set<ScanTarget>()
    var targets: [ScanTarget] = []
    for flow in flows.inSessionOrder() where flow.ipProtocol == .tcp {
      guard let name = flow.name?.text else { continue }
      let host = DomainPattern.normalised(host: name)
      if wanted.isEmpty {
        guard isScannedUnasked(host, allowlist: allowlist, trackers: trackers) else { continue }
      } else {
        guard wanted.contains(host) else { continue }
      }
      let server = server(of: flow)
      let target = ScanTarget(host: host, address: server.address, port: server.port)
      if seen.insert(target).inserted { targets.append(target) }
    }
    return targets
  }

  /// Whether a host is scanned without being named: allowlisted, and on no tracker list.
  public static func isScannedUnasked(
    _ host: String, allowlist: [AllowlistEntry], trackers: TrackerLists?
  ) -> Bool {
    isScannedUnasked(host, hosts: HostLookups(allowlist: allowlist, trackers: trackers))
  }

  /// The same, the allowlist and the lists asked through `hosts`.
  static func isScannedUnasked(_ host: String, hosts: HostLookups) -> Bool {
    hosts.allowlistEntry(matching: host) != nil && hosts.trackerMatch(host) == nil
  }

  /// A flow's server end: the one with the lower port (a flow does not record which end the
  /// device was).
  public static func server(of flow: StoredFlow) -> FlowEndpoint {
    flow.peers.b.port <= flow.peers.a.port ? flow.peers.b : flow.peers.a
  }
}
