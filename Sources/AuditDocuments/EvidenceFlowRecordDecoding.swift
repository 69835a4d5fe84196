import Audit
import AuditRules
import AuditWording
import Foundation

extension EvidenceFlowRecord {
  /// A flow of flows.json read back: the flow as the store held it (but for what the document
  /// does not carry: the audit session, a protocol number without a name) and the
  /// findings it cites. Strict: every name must be one the format defines, and what the record
  /// states twice (the name and the SNI or DNS name it comes from, the duration and the two
  /// instants, a version's name and value) must agree.
  public struct Decoded: Decodable, Sendable {
    public let flow: StoredFlow
    public let findingIDs: [String]
    public let alsoContactedInBaseline: Bool?
    /// Format version 4's; nil before, and for a flow without a name or with a public suffix.
    public let registrableDomain: String?
    /// Format version 8's: where each peer's address is registered, as the export's address
    /// databases stated it; empty without one.
    public let registrations: [String: AddressRegistration]

    /// Read from a `Decoder` by way of the tree it gives (a whole flows.json decoded at once).
    public init(from decoder: Decoder) throws {
      try self.init(JSONMembers(JSONTree(from: decoder)))
    }

    /// A flow's bytes, parsed and read (verify's way, a flow at a time).
    public static func read(_ bytes: [UInt8]) throws -> Decoded {
      try Decoded(JSONTree.parse(bytes))
    }

    /// A flow's object as parsed.
    public init(_ tree: JSONTree) throws { try self.init(JSONMembers(tree)) }

    /// Read from the flow's object as parsed.
    public init(_ c: JSONMembers<Key>) throws {
      let firstSeen = try c.instant(.firstSeen)
      let lastSeen = try c.instant(.lastSeen)
      let (peers, registrations) = try Self.peers(c)
      self.registrations = registrations
      var flow = StoredFlow(
        id: try c.decode(Int64.self, forKey: .id), ipProtocol: try c.named(.protocol),
        peers: peers, firstSeen: firstSeen, lastSeen: lastSeen,
        bytesOut: try c.decode(UInt64.self, forKey: .bytesOut),
        bytesIn: try c.decode(UInt64.self, forKey: .bytesIn),
        packetCount: try c.decode(Int.self, forKey: .packetCount),
        tlsStatus: try c.named(.tlsStatus), sni: try c.decode(String?.self, forKey: .sni),
        dnsName: try c.decode(String?.self, forKey: .dnsName),
        dnsOtherNames: try c.decode([String].self, forKey: .dnsOtherNames),
        streamOpening: try c.optionalNamed(.streamOpening),
        tlsStatusBasis: try c.optionalNamed(.tlsStatusBasis),
        connectHost: try c.decode(String?.self, forKey: .connectHost),
        // Format version 3's keys; a version 2 record has none of them.
        continuedFrom: try c.decodeIfPresent(Int64.self, forKey: .continuedFrom),
        dnsQuestions: try c.decodeIfPresent([String].self, forKey: .dnsQuestions) ?? [])
      flow.captureSessionID = try c.decodeIfPresent(Int64.self, forKey: .captureRun) ?? 0
      // Format version 5's; a record of an earlier version has none.
      flow.httpHost = try c.decodeIfPresent(String.self, forKey: .httpHost)
      // Format version 6's.
      flow.openedIn = try c.nestedContainerIfPresent(OpeningKey.self, .openedIn).map {
        ConnectionOpening(
          flowID: try $0.decode(Int64.self, forKey: .flowID),
          session: try $0.decode(Int64?.self, forKey: .session))
      }
      flow.beganBeforeCapture =
        try c.decodeIfPresent(Bool.self, forKey: .beganBeforeCapture) ?? false
      // Format version 7's.
      flow.streamConflicts = try Self.streamConflicts(c)
      // Format version 9's.
      flow.clientAuthentication =
        c.contains(.clientAuthentication) ? try c.optionalNamed(.clientAuthentication) : nil
      flow.clientTLS = try Self.clientTLS(c)
      flow.serverTLS = try Self.serverTLS(c)
      flow.quic = try Self.quic(c)
      flow.serverCertificate = try Self.certificate(c)
      flow.serverKey = try Self.serverKey(c)
      self.flow = flow
      findingIDs = try c.decode([String].self, forKey: .findingIDs)
      alsoContactedInBaseline = try c.decode(Bool?.self, forKey: .alsoContactedInBaseline)
      registrableDomain = try c.decodeIfPresent(String.self, forKey: .registrableDomain)

      let name = try c.nestedContainerIfPresent(NameKey.self, .name).map {
        FlowName(
          text: try $0.decode(String.self, forKey: .text), origin: try $0.named(.origin))
      }
      try c.require(
        name == flow.name, .name, "is not the one its sni, connectHost, dnsName and httpHost give")
      let duration = try c.decode(Double.self, forKey: .durationSeconds)
      let expected =
        Double(Instant.microseconds(lastSeen) - Instant.microseconds(firstSeen)) / 1_000_000
      try c.require(duration == expected, .durationSeconds, "is not lastSeen less firstSeen")
    }

    private static func peers(_ c: JSONMembers<Key>) throws -> (
      FlowPeers, [String: AddressRegistration]
    ) {
      var ends: [FlowEndpoint] = []
      var registrations: [String: AddressRegistration] = [:]
      for peer in try c.nestedObjects(keyedBy: PeerKey.self, forKey: .peers) {
        let end = FlowEndpoint(
          address: try peer.decode(String.self, forKey: .address),
          port: try peer.decode(UInt16.self, forKey: .port))
        ends.append(end)
        if peer.contains(.registration),
          let stated = try peer.nestedContainerIfPresent(RegistrationKey.self, .registration)
        {
          let registration = AddressRegistration(
            country: try stated.decode(String?.self, forKey: .country),
            asn: try stated.decode(UInt32?.self, forKey: .asn),
            organisation: try stated.decode(String?.self, forKey: .organisation))
          try c.require(!registration.isEmpty, .peers, "state an empty registration")
          registrations[end.address] = registration
        }
      }
      try c.require(ends.count == 2, .peers, "does not hold two peers")
      let peers = FlowPeers(ends[0], ends[1])
      try c.require(peers.a == ends[0], .peers, "are not in their canonical order")
      return (peers, registrations)
    }

    private static func clientTLS(_ c: JSONMembers<Key>) throws -> ClientTLSOffer? {
      guard let o = try c.nestedContainerIfPresent(ClientKey.self, .clientTLS) else { return nil }
      return ClientTLSOffer(
        versionsForm: try o.named(.versionsForm),
        versions: try o.decode([String].self, forKey: .versions).map {
          guard let version = TLSProtocolVersion(name: $0) else {
            throw o.corrupt(.versions, "“\($0)” is not a TLS version")
          }
          return version
        },
        alpn: try o.decode([String].self, forKey: .alpn),
        droppedALPNCount: try o.decode(Int.self, forKey: .droppedALPNCount),
        encryptedClientHello: try o.decode(Bool.self, forKey: .encryptedClientHello),
        // Format version 4's keys; an earlier record has none of them.
        cipherSuites: try (o.decodeIfPresent([String].self, forKey: .cipherSuites) ?? []).map {
          try Self.code($0, .cipherSuites, in: o)
        },
        extensions: try o.decodeIfPresent([UInt16].self, forKey: .extensions) ?? [],
        ja4: try o.decodeIfPresent(String.self, forKey: .ja4))
    }

    /// A TLS code as the record writes it ("0x002F").
    private static func code<K: CodingKey>(
      _ text: String, _ key: K, in o: JSONMembers<K>
    ) throws -> UInt16 {
      guard text.hasPrefix("0x"), text.count == 6, let value = UInt16(text.dropFirst(2), radix: 16),
        EvidenceFlowRecord.cipherSuiteText(value) == text
      else {
        throw o.corrupt(key, "“\(text)” is not a TLS code")
      }
      return value
    }

    private static func serverKey(_ c: JSONMembers<Key>) throws
      -> CertificateKeyReading?
    {
      guard c.contains(.serverKey),
        let o = try c.nestedContainerIfPresent(ServerKeyKey.self, .serverKey)
      else { return nil }
      return CertificateKeyReading(
        algorithm: try o.decode(String.self, forKey: .algorithm),
        bits: try o.decode(Int.self, forKey: .bits),
        curve: try o.decode(String?.self, forKey: .curve),
        signature: try o.decode(String.self, forKey: .signature), source: try o.named(.source))
    }

    private static func serverTLS(_ c: JSONMembers<Key>) throws -> ServerTLSAnswer? {
      guard let o = try c.nestedContainerIfPresent(ServerKey.self, .serverTLS) else { return nil }
      switch try o.decode(String.self, forKey: .answer) {
      case "negotiated":
        let value = try o.decode(UInt16.self, forKey: .versionValue)
        let version = TLSProtocolVersion(rawValue: value)
        try o.require(
          try o.decode(String.self, forKey: .version) == version.name, .version,
          "is not the name of versionValue")
        let suite = try code(try o.decode(String.self, forKey: .cipherSuite), .cipherSuite, in: o)
        let parameters = ServerTLSParameters(
          group: try o.decodeIfPresent(UInt16.self, forKey: .group),
          dhPrimeBits: try o.decodeIfPresent(Int.self, forKey: .dhPrimeBits),
          signatureScheme: try o.decodeIfPresent(String.self, forKey: .signatureScheme).map {
            try code($0, .signatureScheme, in: o)
          },
          extensions: try o.decodeIfPresent([UInt16].self, forKey: .extensions),
          compressionMethod: try o.decodeIfPresent(UInt8.self, forKey: .compressionMethod))
        return .negotiated(
          version: version, cipherSuite: suite,
          fromHelloRetryRequest: try o.decode(Bool.self, forKey: .fromHelloRetryRequest),
          source: try o.named(.source), parameters: parameters)
      case "refused":
        return .refused(alert: try o.decode(UInt8.self, forKey: .alert))
      case let other:
        throw o.corrupt(.answer, "“\(other)” is not an answer")
      }
    }

    private static func streamConflicts(_ c: JSONMembers<Key>) throws
      -> [StreamConflict]
    {
      guard c.contains(.streamConflicts) else { return [] }
      var conflicts: [StreamConflict] = []
      for o in try c.nestedObjects(keyedBy: ConflictKey.self, forKey: .streamConflicts) {
        let from = try o.decode(String.self, forKey: .from)
        try o.require(from == "device" || from == "server", .from, "is neither device nor server")
        let first = try o.decode(Int.self, forKey: .firstByte)
        let last = try o.decode(Int.self, forKey: .lastByte)
        try o.require(first >= 1 && last >= first, .lastByte, "does not follow firstByte")
        conflicts.append(
          StreamConflict(fromDevice: from == "device", firstByte: first, lastByte: last))
      }
      return conflicts
    }

    private static func quic(_ c: JSONMembers<Key>) throws -> QUICReading? {
      guard let o = try c.nestedContainerIfPresent(QUICKey.self, .quic) else { return nil }
      let reading = QUICReading(
        version: try o.decode(UInt32.self, forKey: .versionValue), end: try o.named(.end))
      try o.require(
        try o.decode(String.self, forKey: .version) == reading.versionName, .version,
        "is not the name of versionValue")
      return reading
    }

    private static func certificate(_ c: JSONMembers<Key>) throws
      -> CertificateVisibility
    {
      let o = try c.nestedContainer(keyedBy: CertificateKey.self, forKey: .serverCertificate)
      let visibility: CertificateVisibility
      switch try o.decode(String.self, forKey: .visibility) {
      case CertificateVisibility.notRead.name: visibility = .notRead
      case CertificateVisibility.encryptedInHandshake.name: visibility = .encryptedInHandshake
      case CertificateVisibility.replacedByInspection.name: visibility = .replacedByInspection
      case CertificateVisibility.noNegotiation.name: visibility = .noNegotiation
      case "notSent": visibility = .notSent(try o.named(.absence))
      case "presented":
        let chain = try o.decode([String].self, forKey: .chain).map {
          guard let der = Data(base64Encoded: $0) else {
            throw o.corrupt(.chain, "a certificate is not Base64")
          }
          return der
        }
        visibility = .presented(
          chain: chain, chainIsComplete: try o.decode(Bool.self, forKey: .chainIsComplete))
      case let other:
        throw o.corrupt(.visibility, "“\(other)” is not a visibility")
      }
      return visibility
    }
  }
}

/// A value a document names by a stable identifier (`name`), read back from it.
protocol NamedInDocuments {
  static var namedValues: [Self] { get }
  var name: String { get }
}

extension NamedInDocuments {
  init?(documentName: String) {
    guard let value = Self.namedValues.first(where: { $0.name == documentName }) else {
      return nil
    }
    self = value
  }
}

extension IPProtocolNumber: NamedInDocuments {
  /// "other" reads as no particular protocol (the number is not in the documents).
  static let namedValues: [IPProtocolNumber] = [
    .tcp, .udp, .icmp, .icmpv6, IPProtocolNumber(rawValue: 0),
  ]
}
extension TLSInspectionStatus: NamedInDocuments { static var namedValues: [Self] { allCases } }
extension StreamOpening: NamedInDocuments { static var namedValues: [Self] { allCases } }
extension TLSStatusBasis: NamedInDocuments { static var namedValues: [Self] { allCases } }
extension CertificateAbsence: NamedInDocuments { static var namedValues: [Self] { allCases } }
extension ClientTLSOffer.VersionsForm: NamedInDocuments {
  static let namedValues: [Self] = [.listed, .upTo]
}
extension TLSReadingSource: NamedInDocuments {
  static let namedValues: [Self] = [.serverHello, .upstreamConnection]
}
extension QUICReading.End: NamedInDocuments { static let namedValues: [Self] = [.client, .server] }
extension ClientAuthentication: NamedInDocuments {
  static var namedValues: [Self] { allCases }
  var name: String { rawValue }
}
extension FlowName.Origin: NamedInDocuments {
  static var namedValues: [Self] { allCases }
  var name: String { rawValue }
}

extension JSONMembers {
  fileprivate func named<T: NamedInDocuments>(_ key: K) throws -> T {
    let text = try decode(String.self, forKey: key)
    guard let value = T(documentName: text) else {
      throw corrupt(key, "“\(text)” is not a name the format defines")
    }
    return value
  }

  fileprivate func optionalNamed<T: NamedInDocuments>(_ key: K) throws -> T? {
    try decode(String?.self, forKey: key) == nil ? nil : try named(key)
  }

  /// An instant as the documents write it, to the microsecond, in UTC.
  fileprivate func instant(_ key: K) throws -> Date {
    let text = try decode(String.self, forKey: key)
    guard let date = Instant.parseWritten(text) else {
      throw corrupt(key, "“\(text)” is not an instant as written")
    }
    return date
  }

  /// The nested object, or nil where the member is null (it must be there).
  fileprivate func nestedContainerIfPresent<N: CodingKey>(_ type: N.Type, _ key: K) throws
    -> JSONMembers<N>?
  {
    try decodeNil(forKey: key) ? nil : try nestedContainer(keyedBy: type, forKey: key)
  }

  fileprivate func require(_ holds: Bool, _ key: K, _ otherwise: String) throws {
    guard holds else { throw corrupt(key, otherwise) }
  }

  /// What a member holds that the format does not allow.
  fileprivate func corrupt(_ key: K, _ why: String) -> DecodingError {
    DecodingError.dataCorrupted(
      DecodingError.Context(codingPath: [key], debugDescription: "\(key.stringValue): \(why)"))
  }
}
