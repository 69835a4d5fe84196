import Audit
import AuditRules
import AuditWording

/// The keys of a flow of flows.json, one enum an object, declared once with each value's form:
/// the record is written (`EvidenceFlowRecord.write`) and read back
/// (`EvidenceFlowRecord.Decoded`) through them, and docs/bundle-format.md lists them.
extension EvidenceFlowRecord {
  public enum Key: String, CodingKey, WrittenKeys {
    case alsoContactedInBaseline, beganBeforeCapture, bytesIn, bytesOut, captureRun,
      clientAuthentication, clientTLS,
      connectHost,
      continuedFrom, dnsName, dnsOtherNames, dnsQuestions, durationSeconds, findingIDs
    case firstSeen, httpHost, id, lastSeen, name, openedIn, packetCount, peers, `protocol`, quic,
      registrableDomain,
      serverCertificate
    case serverKey, serverTLS, sni, streamConflicts, streamOpening, tlsStatus, tlsStatusBasis
    public static let prefix = "flows[]."
    public static let texts = JSONKeyTexts(Self.self)
    public var form: DocumentForm {
      switch self {
      case .alsoContactedInBaseline: DocumentForm.boolean.orNull
      case .beganBeforeCapture: .boolean
      case .bytesIn, .bytesOut, .captureRun, .id, .packetCount: .integer
      case .clientAuthentication, .connectHost, .dnsName, .httpHost, .registrableDomain, .sni,
        .streamOpening, .tlsStatusBasis:
        DocumentForm.string.orNull
      case .clientTLS: DocumentForm.object(ClientKey.self).orNull
      case .continuedFrom: DocumentForm.integer.orNull
      case .dnsOtherNames, .dnsQuestions, .findingIDs: .array(.string)
      case .durationSeconds: .number
      case .firstSeen, .lastSeen: .instant
      case .name: DocumentForm.object(NameKey.self).orNull
      case .openedIn: DocumentForm.object(OpeningKey.self).orNull
      case .peers: .array(.object(PeerKey.self))
      case .protocol, .tlsStatus: .string
      case .quic: DocumentForm.object(QUICKey.self).orNull
      case .serverCertificate: .object(CertificateKey.self)
      case .serverKey: DocumentForm.object(ServerKeyKey.self).orNull
      case .serverTLS: DocumentForm.object(ServerKey.self).orNull
      case .streamConflicts: .array(.object(ConflictKey.self))
      }
    }
  }
  public enum ConflictKey: String, CodingKey, WrittenKeys {
    case firstByte, from, lastByte
    public static let prefix = "flows[].streamConflicts[]."
    public static let texts = JSONKeyTexts(Self.self)
    public var form: DocumentForm { self == .from ? .string : .integer }
  }
  public enum ClientKey: String, CodingKey, WrittenKeys {
    case alpn, cipherSuites, droppedALPNCount, encryptedClientHello, extensions, ja4, versions,
      versionsForm
    public static let prefix = "flows[].clientTLS."
    public static let texts = JSONKeyTexts(Self.self)
    public var form: DocumentForm {
      switch self {
      case .alpn, .cipherSuites, .versions: .array(.string)
      case .droppedALPNCount: .integer
      case .encryptedClientHello: .boolean
      case .extensions: .array(.integer)
      case .ja4: DocumentForm.string.orNull
      case .versionsForm: .string
      }
    }
  }
  public enum NameKey: String, CodingKey, WrittenKeys {
    case origin, text
    public static let prefix = "flows[].name."
    public static let texts = JSONKeyTexts(Self.self)
    public var form: DocumentForm { .string }
  }
  public enum OpeningKey: String, CodingKey, WrittenKeys {
    case flowID, session
    public static let prefix = "flows[].openedIn."
    public static let texts = JSONKeyTexts(Self.self)
    public var form: DocumentForm { self == .flowID ? .integer : DocumentForm.integer.orNull }
  }
  public enum PeerKey: String, CodingKey, WrittenKeys {
    case address, port, registration
    public static let prefix = "flows[].peers[]."
    public static let texts = JSONKeyTexts(Self.self)
    public var form: DocumentForm {
      switch self {
      case .address: .string
      case .port: .integer
      case .registration: DocumentForm.object(RegistrationKey.self).orNull
      }
    }
  }
  public enum RegistrationKey: String, CodingKey, WrittenKeys {
    case asn, country, organisation
    public static let prefix = "flows[].peers[].registration."
    public static let texts = JSONKeyTexts(Self.self)
    public var form: DocumentForm {
      self == .asn ? DocumentForm.integer.orNull : DocumentForm.string.orNull
    }
  }
  public enum QUICKey: String, CodingKey, WrittenKeys {
    case end, version, versionValue
    public static let prefix = "flows[].quic."
    public static let texts = JSONKeyTexts(Self.self)
    public var form: DocumentForm { self == .versionValue ? .integer : .string }
  }
  /// `visibility` always; the chain only for a presented one, the absence for one not sent.
  public enum CertificateKey: String, CodingKey, WrittenKeys {
    case absence, chain, chainIsComplete, visibility
    public static let prefix = "flows[].serverCertificate."
    public static let texts = JSONKeyTexts(Self.self)
    public var form: DocumentForm {
      switch self {
      case .absence: DocumentForm.string.leftOut
      case .chain: DocumentForm.array(.string).leftOut
      case .chainIsComplete: DocumentForm.boolean.leftOut
      case .visibility: .string
      }
    }
  }
  /// `answer` always; a negotiated answer's readings, or a refusal's alert.
  public enum ServerKey: String, CodingKey, WrittenKeys {
    case alert, answer, cipherSuite, compressionMethod, dhPrimeBits, extensions,
      fromHelloRetryRequest, group, signatureScheme, source, version, versionValue
    public static let prefix = "flows[].serverTLS."
    public static let texts = JSONKeyTexts(Self.self)
    public var form: DocumentForm {
      switch self {
      case .answer: .string
      case .alert, .versionValue: DocumentForm.integer.leftOut
      case .cipherSuite, .source, .version: DocumentForm.string.leftOut
      case .compressionMethod, .dhPrimeBits, .group: DocumentForm.integer.orNull.leftOut
      case .extensions: DocumentForm.array(.integer).orNull.leftOut
      case .fromHelloRetryRequest: DocumentForm.boolean.leftOut
      case .signatureScheme: DocumentForm.string.orNull.leftOut
      }
    }
  }
  public enum ServerKeyKey: String, CodingKey, WrittenKeys {
    case algorithm, bits, curve, signature, source
    public static let prefix = "flows[].serverKey."
    public static let texts = JSONKeyTexts(Self.self)
    public var form: DocumentForm {
      switch self {
      case .bits: .integer
      case .curve: DocumentForm.string.orNull
      case .algorithm, .signature, .source: .string
      }
    }
  }
}

/// flows.json around its flows.
public enum FlowsDocument {
  public enum Key: String, CodingKey, DocumentKeys {
    case formatVersion, sessionID, flowCount, flows
    public static let prefix = ""
    public var form: DocumentForm {
      self == .flows ? .array(.object(EvidenceFlowRecord.Key.self)) : .integer
    }
  }
}
