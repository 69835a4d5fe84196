import Audit

extension FindingsCheck {
  public static let tlsVersion = FindingsCheck(rawValue: "tlsVersion")
}

extension FindingKind {
  public static let weakTLSVersion = FindingKind("weakTLSVersion", of: .tlsVersion, meaning: .tls)
}

extension FindingEvidence {
  public static func weakTLSVersion(_ observation: TLSVersionObservation) -> FindingEvidence {
    FindingEvidence(kind: .weakTLSVersion, tls: observation)
  }
}

/// The TLS version a server negotiated, against the catalogue's minimum.
public enum TLSVersionCheck: FindingsCheckRule {
  public static let check = FindingsCheck.tlsVersion
  public static let runOrder = 10
  public static let kinds: [FindingKind] = [.weakTLSVersion]
  public static var statedForms: [FindingEvidence] {
    TLSVersionBasis.allCases.map {
      .weakTLSVersion(TLSVersionObservation(version: .tls10, basis: $0))
    }
  }

  public static func assess(_ flow: StoredFlow, in context: CheckContext) -> CheckOutcome<
    TLSVersionGap
  > {
    switch TLSVersionAssessment(of: flow, minimum: context.policy.minimumTLSVersion) {
    case .weak(let observation): return .finding(.weakTLSVersion(observation))
    case .acceptable: return .satisfied
    case .notAssessed(let gap): return .notAssessed(gap)
    case .notApplicable: return .notApplicable
    }
  }
}

extension SessionFindings {
  public var tlsVersion: CheckCoverage<TLSVersionGap> { TLSVersionCheck.coverage(in: self) }
}

/// Where a TLS version was read.
public enum TLSVersionBasis: String, Sendable, Hashable, CaseIterable {
  /// The server's answer on the app's own connection.
  case serverHello
  /// The answer to the proxy's own connection to the server, opened to inspect the traffic.
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
  public init?(of flow: borrowing StoredFlow) {
    switch flow.serverTLS {
    case .negotiated(let handshake)?:
      self.init(
        version: handshake.version,
        basis: handshake.source == .serverHello ? .serverHello : .upstreamConnection)
    case .refused?:
      return nil
    case nil:
      guard let quic = flow.quic, quic.end == .server, quic.isKnownToCarryTLS13 else { return nil }
      self.init(version: .tls13, basis: .quic)
    }
  }
}

/// Why the app's ClientHello does not settle what the app would have negotiated.
public enum AppOfferGap: Sendable, Hashable {
  case clientHelloNotRead
  /// Only a legacy version: everything up to it could be negotiated.
  case versionsNotListed
  case listsVersionBelowMinimum(TLSProtocolVersion)
  case listsUnpublishedVersion(TLSProtocolVersion)
}

public enum TLSVersionGap: Sendable, Hashable {
  /// Read from the proxy's own connection, and the app's offer does not settle it.
  case appNegotiationNotObserved(AppOfferGap)
  case unrecognisedVersion(TLSProtocolVersion)
  case serverRefused(alert: UInt8)
  case quicVersionOnlyProposed
  case unrecognisedQUICVersion(UInt32)
  case serverAnswerNotRead
}

/// TLS version of a flow against a minimum.
public enum TLSVersionAssessment: Sendable, Hashable {
  case weak(TLSVersionObservation)
  case acceptable(TLSVersionObservation)
  case notAssessed(TLSVersionGap)
  case notApplicable

  public init(of flow: borrowing StoredFlow, minimum: TLSProtocolVersion) {
    switch flow.serverTLS {
    case .refused(let alert)?:
      self = .notAssessed(.serverRefused(alert: alert))
      return
    case .negotiated(let handshake)?:
      let version = handshake.version
      guard version.isPublished else {
        self = .notAssessed(.unrecognisedVersion(version))
        return
      }
      if handshake.source == .serverHello {
        let observation = TLSVersionObservation(version: version, basis: .serverHello)
        self = version < minimum ? .weak(observation) : .acceptable(observation)
        return
      }
      let observation = TLSVersionObservation(version: version, basis: .upstreamConnection)
      if version < minimum {
        self = .weak(observation)
        return
      }
      if let gap = Self.offerGap(flow.clientTLS, minimum: minimum) {
        self = .notAssessed(.appNegotiationNotObserved(gap))
      } else {
        self = .acceptable(observation)
      }
      return
    case nil:
      break
    }
    if let quic = flow.quic {
      if !quic.isKnownToCarryTLS13 {
        self = .notAssessed(.unrecognisedQUICVersion(quic.version))
        return
      }
      if quic.end == .client {
        self = .notAssessed(.quicVersionOnlyProposed)
        return
      }
      let observation = TLSVersionObservation(version: .tls13, basis: .quic)
      self = .tls13 < minimum ? .weak(observation) : .acceptable(observation)
      return
    }
    if flow.tlsStatus != .plaintext || flow.clientTLS != nil {
      self = .notAssessed(.serverAnswerNotRead)
    } else {
      self = .notApplicable
    }
  }

  /// nil when the ClientHello listed its versions, all published and none below the minimum.
  static func offerGap(_ offer: ClientTLSOffer?, minimum: TLSProtocolVersion) -> AppOfferGap? {
    guard let offer else { return .clientHelloNotRead }
    guard offer.versionsForm == .listed else { return .versionsNotListed }
    if let unpublished = offer.versions.first(where: { !$0.isPublished }) {
      return .listsUnpublishedVersion(unpublished)
    }
    if let below = offer.versions.filter({ $0 < minimum }).min() {
      return .listsVersionBelowMinimum(below)
    }
    return nil
  }
}

extension AppOfferGap {
  var key: String {
    switch self {
    case .clientHelloNotRead: return "clientHelloNotRead"
    case .versionsNotListed: return "versionsNotListed"
    case .listsVersionBelowMinimum: return "listsVersionBelowMinimum"
    case .listsUnpublishedVersion: return "listsUnpublishedVersion"
    }
  }
}

extension TLSVersionGap: CheckGap {
  public var key: String {
    switch self {
    case .appNegotiationNotObserved(let offer): return "appNegotiationNotObserved." + offer.key
    case .unrecognisedVersion: return "unrecognisedVersion"
    case .serverRefused: return "serverRefused"
    case .quicVersionOnlyProposed: return "quicVersionOnlyProposed"
    case .unrecognisedQUICVersion: return "unrecognisedQUICVersion"
    case .serverAnswerNotRead: return "serverAnswerNotRead"
    }
  }
}
