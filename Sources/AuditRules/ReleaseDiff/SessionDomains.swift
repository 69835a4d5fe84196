import Audit

/// Who negotiated a TLS version: the app on its own connection, or the inspecting proxy on the
/// connection it opened to the server.
public enum TLSNegotiator: String, Sendable, Hashable, CaseIterable {
  case app, proxy

  public init(_ basis: TLSVersionBasis) { self = basis == .upstreamConnection ? .proxy : .app }
}

/// A TLS version read in a domain's flows, with where it was read and in which flows.
public struct TLSVersionSighting: Sendable, Hashable {
  public let version: TLSProtocolVersion
  public let basis: TLSVersionBasis
  public let flowIDs: [Int64]
  public var negotiator: TLSNegotiator { TLSNegotiator(basis) }
}

/// One domain in one session.
public struct DomainObservation: Sendable, Hashable {
  /// Normalised, as a finding cites it.
  public let host: String
  /// Flows that went to it.
  public let flowIDs: [Int64]
  /// Flows that went to it or to another name of the same address.
  public let candidateFlowIDs: [Int64]
  /// Versions read in `flowIDs`, with their source.
  public let tlsSightings: [TLSVersionSighting]
  public let flowIDsWithoutTLSReading: [Int64]
  public var isSeen: Bool { !flowIDs.isEmpty }

  /// The versions one negotiator was seen with, oldest first.
  public func versions(negotiatedBy negotiator: TLSNegotiator) -> [TLSProtocolVersion] {
    Array(Set(tlsSightings.filter { $0.negotiator == negotiator }.map(\.version))).sorted()
  }
}

/// The inventory of one session's domains. It compares nothing.
public struct SessionDomains: Sendable, Hashable {
  /// In the order of first appearance.
  public let domains: [DomainObservation]
  public let unnamedFlowIDs: [Int64]

  public init(flows: [StoredFlow]) {
    var order: [String] = []
    var seen: [String: [Int64]] = [:]
    var candidates: [String: [Int64]] = [:]
    var sightings: [String: [(TLSVersionObservation, Int64)]] = [:]
    var withoutReading: [String: [Int64]] = [:]
    var unnamed: [Int64] = []
    func note(_ host: String) {
      if seen[host] == nil && candidates[host] == nil { order.append(host) }
    }
    for flow in flows.inSessionOrder() {
      guard let name = flow.name else {
        // A DNS lookup is not a connection without a name: what it asked for is its subject.
        if !(InfrastructureService(of: flow) == .dns && !flow.dnsQuestions.isEmpty) {
          unnamed.append(flow.id)
        }
        continue
      }
      let host = DomainPattern.normalised(host: name.text)
      let others = flow.dnsOtherNames.map(DomainPattern.normalised(host:)).filter { $0 != host }
      if name.origin == .dns && !others.isEmpty {
        for candidate in [host] + others {
          note(candidate)
          if candidates[candidate]?.last != flow.id {
            candidates[candidate, default: []].append(flow.id)
          }
        }
        continue
      }
      note(host)
      seen[host, default: []].append(flow.id)
      if let observation = TLSVersionObservation(of: flow) {
        sightings[host, default: []].append((observation, flow.id))
      } else {
        withoutReading[host, default: []].append(flow.id)
      }
    }
    domains = order.map { host in
      var grouped: [TLSVersionObservation: [Int64]] = [:]
      var groupOrder: [TLSVersionObservation] = []
      for (observation, id) in sightings[host] ?? [] {
        if grouped[observation] == nil { groupOrder.append(observation) }
        grouped[observation, default: []].append(id)
      }
      return DomainObservation(
        host: host, flowIDs: seen[host] ?? [],
        candidateFlowIDs: candidates[host] ?? [],
        tlsSightings: groupOrder.map {
          TLSVersionSighting(version: $0.version, basis: $0.basis, flowIDs: grouped[$0]!)
        },
        flowIDsWithoutTLSReading: withoutReading[host] ?? [])
    }
    unnamedFlowIDs = unnamed
  }

  public func observation(of host: String) -> DomainObservation? {
    domains.first { $0.host == host }
  }
}
