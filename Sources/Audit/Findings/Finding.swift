/// What a finding states. The raw values are what a catalogue refers to: they are format.
public enum FindingKind: String, Sendable, Hashable, Codable, CaseIterable {
  case weakTLSVersion
  case cleartextTraffic
  case hostNotInAllowlist
  case unnamedFlow
  case pinningAbsent
  case pinningObserved
  case activityBeforeConsent

  /// The check whose rule produces this kind.
  public var check: FindingsCheck {
    switch self {
    case .weakTLSVersion: return .tlsVersion
    case .cleartextTraffic: return .encryption
    case .hostNotInAllowlist, .unnamedFlow: return .host
    case .pinningAbsent, .pinningObserved: return .pinning
    case .activityBeforeConsent: return .consent
    }
  }
}

/// The five checks the classifier runs on every flow.
public enum FindingsCheck: String, Sendable, Hashable, CaseIterable {
  case tlsVersion, encryption, host, pinning, consent
}

public enum CleartextProtocol: String, Sendable, Hashable { case http }

public enum UnnamedFlowReason: String, Sendable, Hashable, CaseIterable {
  case noClientHelloRead, serverNameNotAnnounced, encryptedClientHello
}

/// Where a TLS version was read.
public enum TLSVersionBasis: String, Sendable, Hashable, CaseIterable {
  /// The server's answer on the app's own connection.
  case serverHello
  /// The answer to the tunnel's own connection, opened to inspect the traffic.
  case upstreamConnection
  /// A QUIC version known to carry TLS 1.3, answered by the server.
  case quic
}

/// A TLS version read from a flow, and where it was read.
public struct TLSVersionObservation: Sendable, Hashable {
  public let version: TLSProtocolVersion
  public let basis: TLSVersionBasis
  public init(version: TLSProtocolVersion, basis: TLSVersionBasis) {
    self.version = version
    self.basis = basis
  }

  /// The reading `TLSVersionAssessment` judges, without a minimum: a negotiated version
  /// (published or not), or TLS 1.3 from a QUIC version the server answered with.
  public init?(of flow: StoredFlow) {
    switch flow.serverTLS {
    case .negotiated(let version, _, _, let source)?:
      self.init(
        version: version, basis: source == .serverHello ? .serverHello : .upstreamConnection)
    case .refused?:
      return nil
    case nil:
      guard let quic = flow.quic, quic.end == .server, quic.isKnownToCarryTLS13 else { return nil }
      self.init(version: .tls13, basis: .quic)
    }
  }
}

public enum FindingEvidence: Sendable, Hashable {
  case weakTLSVersion(TLSVersionObservation)
  case cleartextTraffic(CleartextProtocol)
  /// The host, normalised.
  case hostNotInAllowlist(host: String)
  case unnamedFlow(UnnamedFlowReason)
  case pinningAbsent(host: String)
  case pinningObserved(host: String)
  /// Nothing: the instant belongs to each flow.
  case activityBeforeConsent

  public var kind: FindingKind {
    switch self {
    case .weakTLSVersion: return .weakTLSVersion
    case .cleartextTraffic: return .cleartextTraffic
    case .hostNotInAllowlist: return .hostNotInAllowlist
    case .unnamedFlow: return .unnamedFlow
    case .pinningAbsent: return .pinningAbsent
    case .pinningObserved: return .pinningObserved
    case .activityBeforeConsent: return .activityBeforeConsent
    }
  }

  /// The host a finding is stated about, if it is about one.
  public var host: String? {
    switch self {
    case .hostNotInAllowlist(let host), .pinningAbsent(let host), .pinningObserved(let host):
      return host
    default: return nil
    }
  }
}

public struct Finding: Sendable, Hashable {
  /// What is stated.
  public let evidence: FindingEvidence
  /// The flows that prove it, as they happened; never empty.
  public let flowIDs: [Int64]
  public init(evidence: FindingEvidence, flowIDs: [Int64]) {
    precondition(!flowIDs.isEmpty, "a finding is proved by at least one flow")
    self.evidence = evidence
    self.flowIDs = flowIDs
  }
  public var kind: FindingKind { evidence.kind }
}

/// The flows a check could not look at, for one reason.
public struct UnassessedFlows<Gap: Sendable & Hashable>: Sendable, Hashable {
  public let gap: Gap
  public let flowIDs: [Int64]
  public init(gap: Gap, flowIDs: [Int64]) {
    self.gap = gap
    self.flowIDs = flowIDs
  }
}

/// How far one check got over a session's flows. With the flows behind the check's
/// findings, the three lists add up to the session's flows.
public struct CheckCoverage<Gap: Sendable & Hashable>: Sendable, Hashable {
  /// Looked at, nothing to report.
  public let satisfiedFlowIDs: [Int64]
  /// Applicable, could not be looked at: why. In the order the reasons first appeared.
  public let unassessed: [UnassessedFlows<Gap>]
  /// Not what this check looks at.
  public let notApplicableFlowIDs: [Int64]

  public init(
    satisfiedFlowIDs: [Int64], unassessed: [UnassessedFlows<Gap>], notApplicableFlowIDs: [Int64]
  ) {
    self.satisfiedFlowIDs = satisfiedFlowIDs
    self.unassessed = unassessed
    self.notApplicableFlowIDs = notApplicableFlowIDs
  }

  public var unassessedCount: Int { unassessed.reduce(0) { $0 + $1.flowIDs.count } }
}

/// The minimum TLS version findings are measured against.
public struct FindingsPolicy: Sendable, Hashable {
  public let minimumTLSVersion: TLSProtocolVersion
  /// nil unless a published version.
  public init?(minimumTLSVersion: TLSProtocolVersion) {
    guard minimumTLSVersion.isPublished else { return nil }
    self.minimumTLSVersion = minimumTLSVersion
  }
}
