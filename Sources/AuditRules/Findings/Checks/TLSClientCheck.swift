import Audit

extension FindingsCheck {
  public static let tlsClient = FindingsCheck(rawValue: "tlsClient")
}

extension FindingKind {
  public static let tlsClientNotInBaseline = FindingKind(
    "tlsClientNotInBaseline", of: .tlsClient, meaning: .tls)
}

extension FindingEvidence {
  public static func tlsClientNotInBaseline(fingerprint: String, host: String?) -> FindingEvidence {
    FindingEvidence(kind: .tlsClientNotInBaseline, host: host, fingerprint: fingerprint)
  }
}

/// The TLS clients (their JA4 fingerprints) the project's baseline showed: the device without
/// the audited app.
public struct TLSClientBaseline: Sendable, Hashable {
  public let sessionID: Int64
  public let fingerprints: Set<String>
  public init(sessionID: Int64, fingerprints: some Sequence<String>) {
    self.sessionID = sessionID
    self.fingerprints = Set(fingerprints)
  }
}

public enum TLSClientGap: String, CheckGap, CaseIterable {
  /// The project has no ended baseline session to compare with.
  case noBaseline
  /// The session is the baseline itself.
  case sessionIsBaseline
  /// A TLS connection whose ClientHello was not read.
  case clientHelloNotRead
  public var key: String { rawValue }
}

/// Which TLS stack made each connection, by its ClientHello's JA4 fingerprint: one the baseline
/// never showed was made by a TLS client the device did not use without the app — most often one
/// the app brought along rather than the system's.
public enum TLSClientCheck: FindingsCheckRule {
  public static let check = FindingsCheck.tlsClient
  public static let runOrder = 100
  public static let kinds: [FindingKind] = [.tlsClientNotInBaseline]
  public static var statedForms: [FindingEvidence] {
    [
      .tlsClientNotInBaseline(
        fingerprint: "t13d1516h2_8daaf6152771_e5627efa2ab1", host: "api.example")
    ]
  }

  public static func assess(_ flow: StoredFlow, in context: CheckContext) -> CheckOutcome<
    TLSClientGap
  > {
    guard let fingerprint = flow.clientTLS?.ja4 else {
      let tls =
        flow.streamOpening == .tlsHandshake || flow.serverTLS != nil || flow.quic != nil
        || flow.inspectionOutcome != nil
      return tls ? .notAssessed(.clientHelloNotRead) : .notApplicable
    }
    if context.session.kind == .baseline { return .notAssessed(.sessionIsBaseline) }
    guard let baseline = context.baseline else { return .notAssessed(.noBaseline) }
    if baseline.fingerprints.contains(fingerprint) { return .satisfied }
    return .finding(
      .tlsClientNotInBaseline(
        fingerprint: fingerprint, host: flow.name.map { DomainPattern.normalised(host: $0.text) }))
  }
}

extension SessionFindings {
  public var tlsClient: CheckCoverage<TLSClientGap> { TLSClientCheck.coverage(in: self) }
}
