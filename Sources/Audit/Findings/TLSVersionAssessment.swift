/// Why the app's ClientHello does not settle what the app would have negotiated.
public enum AppOfferGap: Sendable, Hashable {
  case clientHelloNotRead
  /// Only a legacy version: everything up to it could be negotiated.
  case versionsNotListed
  case listsVersionBelowMinimum(TLSProtocolVersion)
  case listsUnpublishedVersion(TLSProtocolVersion)
}

public enum TLSVersionGap: Sendable, Hashable {
  /// Read from the tunnel's own connection, and the app's offer does not settle it.
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

  public init(of flow: StoredFlow, minimum: TLSProtocolVersion) {
    switch flow.serverTLS {
    case .refused(let alert)?:
      self = .notAssessed(.serverRefused(alert: alert))
      return
    case .negotiated(let version, _, _, let source)?:
      guard version.isPublished else {
        self = .notAssessed(.unrecognisedVersion(version))
        return
      }
      if source == .serverHello {
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
