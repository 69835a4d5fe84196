import Audit

extension FindingsCheck {
  public static let mutualAuthentication = FindingsCheck(rawValue: "mutualAuthentication")
}

extension FindingKind {
  public static let clientCertificateSent = FindingKind(
    "clientCertificateSent", of: .mutualAuthentication, meaning: .support)
}

extension FindingEvidence {
  public static func clientCertificateSent(host: String?) -> FindingEvidence {
    FindingEvidence(kind: .clientCertificateSent, host: host)
  }
}

public enum MutualAuthenticationGap: String, CheckGap, CaseIterable {
  /// TLS 1.3 (or QUIC) encrypts the server's request and the client's certificate.
  case encryptedInHandshake
  /// The handshake was not read to the server's hello done.
  case handshakeNotRead
  public var key: String { rawValue }
}

/// Whether the TLS handshake authenticated the app too (O.Ntwk_1's "gegenseitige
/// Authentisierung", for example mTLS): below TLS 1.3 the server's CertificateRequest and the
/// app's Certificate message are read; a certificate sent is a finding in support. A server that
/// asks for none, or an app that sends none, is not held against the requirement: an app may
/// authenticate itself above TLS, which a capture does not show.
public enum MutualAuthenticationCheck: FindingsCheckRule {
  public static let check = FindingsCheck.mutualAuthentication
  public static let runOrder = 50
  public static let kinds: [FindingKind] = [.clientCertificateSent]
  /// What it cannot read leaves the encryption check's judgement standing.
  public static var gapsCountBesideOtherChecks: Bool { false }
  public static var statedForms: [FindingEvidence] { [.clientCertificateSent(host: "api.example")] }

  public static func assess(_ flow: StoredFlow, in context: CheckContext) -> CheckOutcome<
    MutualAuthenticationGap
  > {
    guard flow.ipProtocol == .tcp || flow.quic != nil, flow.tlsStatus != .plaintext else {
      return .notApplicable
    }
    switch flow.clientAuthentication {
    case .requestedSent?:
      return .finding(
        .clientCertificateSent(host: flow.name.map { DomainPattern.normalised(host: $0.text) }))
    case .notRequested?, .requestedNoneSent?: return .satisfied
    case .requestedAnswerNotRead?: return .notAssessed(.handshakeNotRead)
    case nil:
      guard flow.clientTLS != nil || flow.serverTLS != nil || flow.quic != nil else {
        return .notApplicable
      }
      if flow.quic != nil { return .notAssessed(.encryptedInHandshake) }
      if case .negotiated(let handshake)? = flow.serverTLS, handshake.version >= .tls13 {
        return .notAssessed(.encryptedInHandshake)
      }
      return .notAssessed(.handshakeNotRead)
    }
  }
}

extension SessionFindings {
  public var mutualAuthentication: CheckCoverage<MutualAuthenticationGap> {
    MutualAuthenticationCheck.coverage(in: self)
  }
}
