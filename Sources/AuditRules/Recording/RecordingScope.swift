import Audit

/// Which flows a recorder tags to the session open while they run. Given the device's addresses
/// (`--device`), only a flow with an end at one of them: another host's traffic on the same link
/// (a gateway's router solicitation, a neighbour's lookups) is history, not the session's.
/// Without them every flow is tagged, its device end inferred.
public struct RecordingScope: Sendable, Hashable {
  public let devices: Set<String>
  public init(devices: [String]) { self.devices = Set(devices) }

  public func tags(_ flow: StoredFlow) -> Bool {
    devices.isEmpty || devices.contains(flow.peers.a.address)
      || devices.contains(flow.peers.b.address)
  }
}
