import Audit

extension FindingsCheck {
  public static let encryption = FindingsCheck(rawValue: "encryption")
}

extension FindingKind {
  public static let cleartextTraffic = FindingKind(
    "cleartextTraffic", of: .encryption, meaning: .plaintext)
}

public enum CleartextProtocol: String, Sendable, Hashable { case http }

extension FindingEvidence {
  /// `host`: the connection's name; `request`: the first request read ("POST /v1/diary").
  public static func cleartextTraffic(
    _ proto: CleartextProtocol, host: String? = nil, request: String? = nil
  ) -> FindingEvidence {
    FindingEvidence(kind: .cleartextTraffic, host: host, reason: proto.rawValue, request: request)
  }
}

/// Whether a flow's traffic was encrypted, from what was read of it.
public enum EncryptionCheck: FindingsCheckRule {
  public static let check = FindingsCheck.encryption
  public static let runOrder = 40
  public static let kinds: [FindingKind] = [.cleartextTraffic]
  public static let statedForms: [FindingEvidence] = [
    .cleartextTraffic(.http), .cleartextTraffic(.http, host: "api.example", request: "POST /v1"),
  ]

  public static func assess(_ flow: StoredFlow, in context: CheckContext) -> CheckOutcome<
    EncryptionGap
  > {
    switch EncryptionAssessment(of: flow) {
    case .cleartext(let proto):
      // The host and the first request read name it (where it was read: the capture's request).
      let first = context.content?.exchanges(ofFlow: flow.id).first
      let host = flow.name.map { DomainPattern.normalised(host: $0.text) } ?? first?.host
      return .finding(
        .cleartextTraffic(proto, host: host, request: first.map { "\($0.method) \($0.path)" }))
    case .encrypted: return .satisfied
    case .notAssessed(let gap): return .notAssessed(gap)
    case .notApplicable: return .notApplicable
    }
  }
}

extension SessionFindings {
  public var encryption: CheckCoverage<EncryptionGap> { EncryptionCheck.coverage(in: self) }
}

public enum EncryptionGap: Sendable, Hashable {
  case unrecognisedOpening
  case openingNotRead
  case unrecognisedQUICVersion(UInt32)
  case datagramsNotRead
}

public enum EncryptionProtocol: String, Sendable, Hashable { case tls, quic }

/// Whether a flow was encrypted. Cleartext only comes from an observation (a readable HTTP
/// request); neither the port nor the status says anything by itself.
public enum EncryptionAssessment: Sendable, Hashable {
  case cleartext(CleartextProtocol)
  case encrypted(EncryptionProtocol)
  case notAssessed(EncryptionGap)
  case notApplicable

  public init(of flow: borrowing StoredFlow) {
    if flow.streamOpening == .httpRequest {
      self = .cleartext(.http)
      return
    }
    // The network's own exchanges (DNS, DHCP, discovery) are not the app's to encrypt.
    if InfrastructureService(of: flow) != nil {
      self = .notApplicable
      return
    }
    switch flow.ipProtocol {
    case .tcp:
      if flow.streamOpening == .tlsHandshake || flow.clientTLS != nil || flow.serverTLS != nil
        || flow.inspectionOutcome != nil
      {
        self = .encrypted(.tls)
      } else if flow.streamOpening == .unrecognised {
        self = .notAssessed(.unrecognisedOpening)
      } else {
        self = .notAssessed(.openingNotRead)
      }
    case .udp:
      if let quic = flow.quic {
        self =
          quic.isKnownToCarryTLS13
          ? .encrypted(.quic) : .notAssessed(.unrecognisedQUICVersion(quic.version))
      } else {
        self = .notAssessed(.datagramsNotRead)
      }
    default:
      self = .notApplicable
    }
  }
}

extension EncryptionGap: CheckGap {
  public var key: String {
    switch self {
    case .unrecognisedOpening: return "unrecognisedOpening"
    case .openingNotRead: return "openingNotRead"
    case .unrecognisedQUICVersion: return "unrecognisedQUICVersion"
    case .datagramsNotRead: return "datagramsNotRead"
    }
  }
}
