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

  public init(of flow: StoredFlow) {
    if flow.streamOpening == .httpRequest {
      self = .cleartext(.http)
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
