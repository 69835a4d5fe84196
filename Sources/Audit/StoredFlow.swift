import Foundation

/// The IP protocol of a flow, by number.
public struct IPProtocolNumber: Sendable, Hashable {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }
  public static let icmp = IPProtocolNumber(rawValue: 1)
  public static let tcp = IPProtocolNumber(rawValue: 6)
  public static let udp = IPProtocolNumber(rawValue: 17)
  public static let icmpv6 = IPProtocolNumber(rawValue: 58)

  /// The stable identifier documents carry: tcp / udp / icmp / icmpv6 / other.
  public var name: String {
    switch self {
    case .tcp: return "tcp"
    case .udp: return "udp"
    case .icmp: return "icmp"
    case .icmpv6: return "icmpv6"
    default: return "other"
    }
  }
}

/// One end of a flow: an address as text (IPv4 dotted, IPv6 RFC 5952) and a port (0 without ports).
public struct FlowEndpoint: Sendable, Hashable, Comparable {
  public let address: String
  public let port: UInt16
  public init(address: String, port: UInt16) {
    self.address = address
    self.port = port
  }
  public static func < (lhs: FlowEndpoint, rhs: FlowEndpoint) -> Bool {
    (lhs.address, lhs.port) < (rhs.address, rhs.port)
  }
  public var text: String {
    Self.isIPv6(address) ? "[\(address)]:\(port)" : "\(address):\(port)"
  }

  /// Whether an address as written is IPv6 (it has a colon): looked for as a byte, which
  /// `contains(":")` hands to Foundation's string search, a CFString for every address.
  public static func isIPv6(_ address: String) -> Bool {
    // Scanned where the bytes lie (a native string's are contiguous), not through the view's
    // iterator a byte at a time.
    address.utf8.withContiguousStorageIfAvailable { $0.contains(UInt8(ascii: ":")) }
      ?? address.utf8.contains(UInt8(ascii: ":"))
  }
}

/// The canonical endpoint pair: the lower endpoint first. It does not know which end is the device.
public struct FlowPeers: Sendable, Hashable {
  public let a: FlowEndpoint
  public let b: FlowEndpoint
  public init(_ one: FlowEndpoint, _ other: FlowEndpoint) {
    if other < one {
      a = other
      b = one
    } else {
      a = one
      b = other
    }
  }
  public func contains(port: UInt16) -> Bool { a.port == port || b.port == port }
}

public enum TLSInspectionStatus: Int, Sendable, Hashable, CaseIterable {
  case plaintext = 0
  case encrypted = 1
  case inspected = 2
  case notInspectable = 3
  /// The connection completed its handshake with the proxy's certificate, then closed without a
  /// request: pinning in the app's code after the handshake, or nothing to send.
  case closedAfterHandshake = 4
  public var name: String {
    switch self {
    case .plaintext: return "plaintext"
    case .encrypted: return "encrypted"
    case .inspected: return "inspected"
    case .notInspectable: return "notInspectable"
    case .closedAfterHandshake: return "closedAfterHandshake"
    }
  }
}

/// Two different copies of the same bytes of a TCP stream: retransmitted or overlapping segments
/// that disagree (an evasion sends one name to the reader and another to the server). The tool
/// reads the first copy; which one the receiver took cannot be told from the capture.
public struct StreamConflict: Sendable, Hashable {
  /// Whether the device sent the bytes (else the server did).
  public var fromDevice: Bool
  /// The first and the last byte that differ, counted from 1 at the first byte of the stream
  /// captured.
  public var firstByte: Int
  public var lastByte: Int

  public init(fromDevice: Bool, firstByte: Int, lastByte: Int) {
    self.fromDevice = fromDevice
    self.firstByte = firstByte
    self.lastByte = lastByte
  }

  /// The form the store keeps: "device 1-100" or "server 1-100".
  public var text: String { "\(fromDevice ? "device" : "server") \(firstByte)-\(lastByte)" }

  public init?(text: some StringProtocol) {
    let parts = text.split(separator: " ")
    guard parts.count == 2, parts[0] == "device" || parts[0] == "server" else { return nil }
    let bytes = parts[1].split(separator: "-")
    guard bytes.count == 2, let first = Int(bytes[0]), let last = Int(bytes[1]), first >= 1,
      last >= first
    else { return nil }
    self.init(fromDevice: parts[0] == "device", firstByte: first, lastByte: last)
  }
}

/// How a flow opened, when its first bytes were read: a TCP stream's first bytes, or the first
/// datagram of a UDP flow that is DNS.
public enum StreamOpening: Int, Sendable, Hashable, CaseIterable {
  case tlsHandshake = 1
  case httpRequest = 2
  case unrecognised = 3
  /// A DNS message (on a port DNS uses): the flow is DNS, and none of its datagrams is QUIC.
  case dnsMessage = 4
  /// An HTTP CONNECT request to a proxy: what follows the proxy's 2xx answer is the tunnel's
  /// (read as a stream of its own: a TLS handshake, most often). The line discloses the host.
  case httpConnect = 5
  public var name: String {
    switch self {
    case .tlsHandshake: return "tlsHandshake"
    case .httpRequest: return "httpRequest"
    case .unrecognised: return "unrecognised"
    case .dnsMessage: return "dnsMessage"
    case .httpConnect: return "httpConnect"
    }
  }
}

/// What a flow's TLS status was decided from.
public enum TLSStatusBasis: Int, Sendable, Hashable, CaseIterable {
  /// What was read of the flow: a TLS or QUIC handshake (encrypted), an HTTP request or a DNS
  /// message in the clear (plaintext).
  case readings = 1
  /// Nothing that tells was read: the status follows the server's port.
  case port = 2
  /// The inspecting proxy's outcome: it inspected the connection, or the connection refused it.
  case inspection = 3
  /// The status the flow's readings give, nil when they do not tell: a TLS or QUIC handshake is
  /// encrypted, an HTTP request or a DNS message in the clear is plaintext.
  public static func statusRead(of flow: StoredFlow) -> TLSInspectionStatus? {
    switch flow.streamOpening {
    case .httpRequest?, .dnsMessage?: return .plaintext
    case .tlsHandshake?: return .encrypted
    case .unrecognised?, .httpConnect?, nil: break
    }
    if flow.clientTLS != nil || flow.serverTLS != nil { return .encrypted }
    if let quic = flow.quic, quic.isKnownToCarryTLS13 { return .encrypted }
    return nil
  }

  /// What a flow's status, as it is, was decided from: the proxy's outcome, the readings, or
  /// (where they do not tell) the port.
  public static func of(_ flow: StoredFlow) -> TLSStatusBasis {
    if flow.inspectionOutcome != nil { return .inspection }
    return statusRead(of: flow) == nil ? .port : .readings
  }

  public var name: String {
    switch self {
    case .readings: return "readings"
    case .port: return "port"
    case .inspection: return "inspection"
    }
  }
}

/// What the app's ClientHello offered.
public struct ClientTLSOffer: Sendable, Hashable {
  public enum VersionsForm: Int, Sendable, Hashable {
    /// supported_versions: the exact list.
    case listed = 1
    /// Only the legacy version: everything up to it. `versions` holds the ceiling.
    case upTo = 2
    public var name: String { self == .listed ? "listed" : "upTo" }
  }
  /// What the hello held, behind one reference: a session's flows share their app's few offers
  /// (`FlowPartsSharing`), a pointer each.
  private struct Fields: Sendable, Hashable {
    let versionsForm: VersionsForm
    let versions: [TLSProtocolVersion]
    let alpn: [String]
    let droppedALPNCount: Int
    let encryptedClientHello: Bool
    let cipherSuites: [UInt16]
    let extensions: [UInt16]
    let ja4: String?
  }
  private let fields: Indirect<Fields>

  public var versionsForm: VersionsForm { fields.value.versionsForm }
  public var versions: [TLSProtocolVersion] { fields.value.versions }
  public var alpn: [String] { fields.value.alpn }
  /// ALPN identifiers that could not be kept as text (or past the bound).
  public var droppedALPNCount: Int { fields.value.droppedALPNCount }
  public var encryptedClientHello: Bool { fields.value.encryptedClientHello }
  /// The cipher suites and extensions offered, in the order sent, GREASE left out; empty when
  /// not read (a store written before they were kept).
  public var cipherSuites: [UInt16] { fields.value.cipherSuites }
  public var extensions: [UInt16] { fields.value.extensions }
  /// The JA4 fingerprint of the ClientHello (FoxIO's): which TLS client made it.
  public var ja4: String? { fields.value.ja4 }

  public init(
    versionsForm: VersionsForm, versions: [TLSProtocolVersion], alpn: [String] = [],
    droppedALPNCount: Int = 0, encryptedClientHello: Bool = false, cipherSuites: [UInt16] = [],
    extensions: [UInt16] = [], ja4: String? = nil
  ) {
    fields = Indirect(
      Fields(
        versionsForm: versionsForm, versions: versions, alpn: alpn,
        droppedALPNCount: droppedALPNCount, encryptedClientHello: encryptedClientHello,
        cipherSuites: cipherSuites, extensions: extensions, ja4: ja4))
  }
}

/// Which connection a server answer was read from.
public enum TLSReadingSource: Int, Sendable, Hashable {
  /// The server's answer to the app, read from the app's own connection.
  case serverHello = 1
  /// The answer to the inspecting proxy's own connection to the server.
  case upstreamConnection = 2
  public var name: String { self == .serverHello ? "serverHello" : "upstreamConnection" }
}

/// What a server's hello settled. A new reading of the handshake is a field here; no `case`
/// pattern names the fields.
public struct ServerTLSHandshake: Sendable, Hashable {
  public var version: TLSProtocolVersion
  public var cipherSuite: UInt16
  /// Read from a HelloRetryRequest, the ServerHello not seen.
  public var fromHelloRetryRequest: Bool
  public var source: TLSReadingSource
  /// The group, signature and extensions the server chose, where read.
  public var parameters: ServerTLSParameters

  public init(
    version: TLSProtocolVersion, cipherSuite: UInt16, fromHelloRetryRequest: Bool,
    source: TLSReadingSource, parameters: ServerTLSParameters = ServerTLSParameters()
  ) {
    self.parameters = parameters
    self.version = version
    self.cipherSuite = cipherSuite
    self.fromHelloRetryRequest = fromHelloRetryRequest
    self.source = source
  }
}

public enum ServerTLSAnswer: Sendable, Hashable {
  /// Behind a reference, as a client's offer is (`ClientTLSOffer`).
  indirect case negotiated(ServerTLSHandshake)
  /// An alert instead of a ServerHello.
  case refused(alert: UInt8)

  public static func negotiated(
    version: TLSProtocolVersion, cipherSuite: UInt16, fromHelloRetryRequest: Bool,
    source: TLSReadingSource, parameters: ServerTLSParameters = ServerTLSParameters()
  ) -> ServerTLSAnswer {
    .negotiated(
      ServerTLSHandshake(
        version: version, cipherSuite: cipherSuite, fromHelloRetryRequest: fromHelloRetryRequest,
        source: source, parameters: parameters))
  }

  /// The handshake, when the server negotiated one.
  public var handshake: ServerTLSHandshake? {
    if case .negotiated(let handshake) = self { return handshake }
    return nil
  }
}

public struct QUICReading: Sendable, Hashable {
  public enum End: Int, Sendable, Hashable {
    /// A version the client proposed.
    case client = 1
    /// A version the server answered with.
    case server = 2
    public var name: String { self == .client ? "client" : "server" }
  }
  public let version: UInt32
  public let end: End
  public init(version: UInt32, end: End) {
    self.version = version
    self.end = end
  }

  public static let version1: UInt32 = 0x0000_0001
  public static let version2: UInt32 = 0x6b33_43cf
  /// Versions known to carry TLS 1.3 and protect their packets.
  public var isKnownToCarryTLS13: Bool { version == Self.version1 || version == Self.version2 }

  public var versionName: String {
    switch version {
    case Self.version1: return "QUICv1"
    case Self.version2: return "QUICv2"
    default:
      let digits = String(version, radix: 16)
      return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }
  }
}

/// Why a negotiated handshake carried no certificate in the clear.
public enum CertificateAbsence: Int, Sendable, Hashable, CaseIterable {
  case sessionResumed = 1
  case pskOnly = 2
  case emptyCertificateMessage = 3
  public var name: String {
    switch self {
    case .sessionResumed: return "sessionResumed"
    case .pskOnly: return "pskOnly"
    case .emptyCertificateMessage: return "emptyCertificateMessage"
    }
  }
}

/// The certificates a server sent in the clear.
public struct PresentedCertificates: Sendable, Hashable {
  /// DER, leaf first, as sent (possibly empty when only the completeness was stored).
  public var chain: [Data]
  /// Whether the chain was read whole.
  public var chainIsComplete: Bool
  public init(chain: [Data], chainIsComplete: Bool) {
    self.chain = chain
    self.chainIsComplete = chainIsComplete
  }
}

/// Whether the server certificate could be seen, and if not why.
public enum CertificateVisibility: Sendable, Hashable {
  case presented(PresentedCertificates)
  case notSent(CertificateAbsence)
  /// TLS 1.3 encrypts it.
  case encryptedInHandshake
  /// The inspecting proxy showed the app its own certificate.
  case replacedByInspection
  /// No handshake completed.
  case noNegotiation
  case notRead

  public static func presented(chain: [Data], chainIsComplete: Bool) -> CertificateVisibility {
    .presented(PresentedCertificates(chain: chain, chainIsComplete: chainIsComplete))
  }

  /// The certificates, when the server sent them in the clear.
  public var presented: PresentedCertificates? {
    if case .presented(let certificates) = self { return certificates }
    return nil
  }

  public var name: String {
    switch self {
    case .presented: return "presented"
    case .notSent: return "notSent"
    case .encryptedInHandshake: return "encryptedInHandshake"
    case .replacedByInspection: return "replacedByInspection"
    case .noNegotiation: return "noNegotiation"
    case .notRead: return "notRead"
    }
  }
}

/// The name a flow is judged by, and where it comes from.
public struct FlowName: Sendable, Hashable {
  /// sni: the ClientHello's server_name; connect: the authority of an HTTP CONNECT to a proxy;
  /// dns: the name DNS gave the address; host: the Host header of a request in the clear.
  public enum Origin: String, Sendable, Hashable, CaseIterable { case sni, connect, dns, host }
  public let text: String
  public let origin: Origin
  public init(text: String, origin: Origin) {
    self.text = text
    self.origin = origin
  }
}

/// What an inspection attempt came to: read from the status, which records it.
public enum InspectionOutcome: Sendable, Hashable {
  /// The connection accepted the local CA's certificate and sent requests through it.
  case inspected
  /// It refused the certificate: its handshake with the proxy failed.
  case notInspectable
  /// It accepted it in the handshake, then closed without a request.
  case closedAfterHandshake
}

/// The row a connection's opening is in, and its audit session (nil: none).
public struct ConnectionOpening: Sendable, Hashable {
  public let flowID: Int64
  public let session: Int64?
  public init(flowID: Int64, session: Int64?) {
    self.flowID = flowID
    self.session = session
  }
}

/// What a TLS handshake below 1.3 showed of the client's authentication: whether the server asked
/// for a certificate (CertificateRequest) and whether the client sent one in its Certificate
/// message. TLS 1.3 encrypts both: there it is not read. The raw values are the store's and
/// flows.json's.
public enum ClientAuthentication: String, Sendable, Hashable, CaseIterable {
  /// The server's flight was read to its ServerHelloDone without a CertificateRequest.
  case notRequested
  /// Asked for; the client's Certificate message held none.
  case requestedNoneSent
  /// Asked for, and the client sent a certificate (mutual authentication in TLS).
  case requestedSent
  /// Asked for; the client's answer was not read.
  case requestedAnswerNotRead
}

/// A flow of the history, with every reading the store keeps.
public struct StoredFlow: Sendable, Hashable, Identifiable {
  // Declared widest first and the one-byte readings after the nine-byte ones, so that a flow
  // wastes little in padding: a session's flows are held together while they are classified.
  // What few flows read (`Seldom`) is behind one reference, nil for most.
  public var id: Int64
  /// The capture session (the store opening) the flow was recorded in.
  public var captureSessionID: Int64
  public var firstSeen: Date
  public var lastSeen: Date
  /// Relative to the device.
  public var bytesOut: UInt64
  public var bytesIn: UInt64
  public var packetCount: Int
  /// The name the ClientHello announced (server_name), as read.
  public var sni: String?
  /// The name DNS gave the address (its other names: `dnsOtherNames`).
  public var dnsName: String?
  public var clientTLS: ClientTLSOffer?
  /// The key and signature of the server's own certificate, where read.
  public var serverKey: CertificateKeyReading?
  public var peers: FlowPeers
  public var quic: QUICReading?
  public var serverTLS: ServerTLSAnswer?
  public var ipProtocol: IPProtocolNumber
  public var tlsStatus: TLSInspectionStatus
  /// What the status was decided from; nil in a store written before it was kept.
  public var tlsStatusBasis: TLSStatusBasis?
  public var streamOpening: StreamOpening?
  /// A TCP connection whose first packet captured was neither a SYN nor a SYN-ACK: it began
  /// before the capture or the recording did, and what its opening said (its name among it) is
  /// not in this row, unless the row continues one that holds it (`continuedFrom`).
  public var beganBeforeCapture: Bool
  public var serverCertificate: CertificateVisibility
  public var auditSessionID: Int64?

  /// The readings most flows do not have: a DNS exchange's questions and other names, a CONNECT's
  /// or a request's host, a continued row's origin, conflicts, client authentication.
  private struct Seldom: Sendable, Hashable {
    var connectHost: String? = nil
    var httpHost: String? = nil
    var dnsOtherNames: [String] = []
    var dnsQuestions: [String] = []
    var streamConflicts: [StreamConflict] = []
    var clientAuthentication: ClientAuthentication? = nil
    var continuedFrom: Int64? = nil
    var openedIn: ConnectionOpening? = nil
  }
  private var seldom: Indirect<Seldom>?

  private static func held(_ readings: Seldom) -> Indirect<Seldom>? {
    readings == Seldom() ? nil : Indirect(readings)
  }

  private mutating func change(_ body: (inout Seldom) -> Void) {
    var readings = seldom?.value ?? Seldom()
    body(&readings)
    seldom = Self.held(readings)
  }

  /// The host of the HTTP CONNECT the flow opened with (to an explicit proxy), as read.
  public var connectHost: String? {
    get { seldom?.value.connectHost }
    set { change { $0.connectHost = newValue } }
  }
  /// The Host header of the first request read in the clear (its name, normalised, no port).
  public var httpHost: String? {
    get { seldom?.value.httpHost }
    set { change { $0.httpHost = newValue } }
  }
  /// The address's other names from DNS.
  public var dnsOtherNames: [String] {
    get { seldom?.value.dnsOtherNames ?? [] }
    set { change { $0.dnsOtherNames = newValue } }
  }
  /// The names a DNS exchange asked for, in the order first asked (lowercased); empty for
  /// every other flow.
  public var dnsQuestions: [String] {
    get { seldom?.value.dnsQuestions ?? [] }
    set { change { $0.dnsQuestions = newValue } }
  }
  /// Where the stream carried two different copies of the same bytes (at most one per
  /// direction): what was read of it is the first copy's.
  public var streamConflicts: [StreamConflict] {
    get { seldom?.value.streamConflicts ?? [] }
    set { change { $0.streamConflicts = newValue } }
  }
  /// Whether the server asked for a client certificate and the client sent one; nil where not
  /// read (TLS 1.3, a resumed session, a handshake not read to the server's hello done).
  public var clientAuthentication: ClientAuthentication? {
    get { seldom?.value.clientAuthentication }
    set { change { $0.clientAuthentication = newValue } }
  }
  /// The row this one continues: the same connection, its packets before a session's edge.
  public var continuedFrom: Int64? {
    get { seldom?.value.continuedFrom }
    set { change { $0.continuedFrom = newValue } }
  }
  /// For a row that continues another: the first row of the connection (the one its opening
  /// is in), reached through `continuedFrom`, and that row's session. Not a column: the exporter
  /// reads it with the flows, and flows.json states it, so that a finding resting on what was
  /// read before says where.
  public var openedIn: ConnectionOpening? {
    get { seldom?.value.openedIn }
    set { change { $0.openedIn = newValue } }
  }

  public init(
    id: Int64 = 0, captureSessionID: Int64 = 0, ipProtocol: IPProtocolNumber, peers: FlowPeers,
    firstSeen: Date, lastSeen: Date, bytesOut: UInt64 = 0, bytesIn: UInt64 = 0,
    packetCount: Int = 0,
    tlsStatus: TLSInspectionStatus, sni: String? = nil, dnsName: String? = nil,
    dnsOtherNames: [String] = [], streamOpening: StreamOpening? = nil,
    clientTLS: ClientTLSOffer? = nil, serverTLS: ServerTLSAnswer? = nil, quic: QUICReading? = nil,
    serverCertificate: CertificateVisibility = .notRead, auditSessionID: Int64? = nil,
    tlsStatusBasis: TLSStatusBasis? = nil, connectHost: String? = nil,
    continuedFrom: Int64? = nil, dnsQuestions: [String] = [],
    serverKey: CertificateKeyReading? = nil, httpHost: String? = nil,
    beganBeforeCapture: Bool = false
  ) {
    self.beganBeforeCapture = beganBeforeCapture
    self.serverKey = serverKey
    self.id = id
    self.captureSessionID = captureSessionID
    self.ipProtocol = ipProtocol
    self.peers = peers
    self.firstSeen = firstSeen
    self.lastSeen = lastSeen
    self.bytesOut = bytesOut
    self.bytesIn = bytesIn
    self.packetCount = packetCount
    self.tlsStatus = tlsStatus
    self.sni = sni
    self.dnsName = dnsName
    self.streamOpening = streamOpening
    self.clientTLS = clientTLS
    self.serverTLS = serverTLS
    self.quic = quic
    self.serverCertificate = serverCertificate
    self.auditSessionID = auditSessionID
    self.tlsStatusBasis = tlsStatusBasis
    seldom = Self.held(
      Seldom(
        connectHost: connectHost, httpHost: httpHost, dnsOtherNames: dnsOtherNames,
        dnsQuestions: dnsQuestions, continuedFrom: continuedFrom))
  }

  /// The announced name if there is one (an empty SNI is none), then a CONNECT's host, otherwise
  /// the name from DNS.
  public var name: FlowName? {
    if let sni, !sni.isEmpty { return FlowName(text: sni, origin: .sni) }
    if let connectHost, !connectHost.isEmpty {
      return FlowName(text: connectHost, origin: .connect)
    }
    if let dnsName, !dnsName.isEmpty { return FlowName(text: dnsName, origin: .dns) }
    if let httpHost, !httpHost.isEmpty { return FlowName(text: httpHost, origin: .host) }
    return nil
  }

  public var announcedName: String? {
    guard let sni, !sni.isEmpty else { return nil }
    return sni
  }

  public var inspectionOutcome: InspectionOutcome? {
    switch tlsStatus {
    case .inspected: return .inspected
    case .notInspectable: return .notInspectable
    case .closedAfterHandshake: return .closedAfterHandshake
    case .plaintext, .encrypted: return nil
    }
  }

  public var durationSeconds: Double { lastSeen.timeIntervalSince(firstSeen) }
}

public enum PacketDirection: Int, Sendable, Hashable {
  /// From the device.
  case outbound = 1
  /// To the device.
  case inbound = 2
  public var name: String { self == .outbound ? "out" : "in" }
}

/// Where a packet's bytes are: capture file sequence and byte offset of its record.
/// File 0 / offset 0 means never captured.
public struct CaptureLocation: Sendable, Hashable {
  public let fileSequence: UInt32
  public let offset: UInt64
  public init(fileSequence: UInt32, offset: UInt64) {
    self.fileSequence = fileSequence
    self.offset = offset
  }
  public static let notCaptured = CaptureLocation(fileSequence: 0, offset: 0)
  public var isCaptured: Bool { !(fileSequence == 0 && offset == 0) }
}

public struct StoredPacket: Sendable, Hashable {
  public var flowID: Int64
  public var date: Date
  public var direction: PacketDirection
  public var length: Int
  public var tcpFlags: UInt8
  public var location: CaptureLocation
  public init(
    flowID: Int64, date: Date, direction: PacketDirection, length: Int, tcpFlags: UInt8 = 0,
    location: CaptureLocation = .notCaptured
  ) {
    self.flowID = flowID
    self.date = date
    self.direction = direction
    self.length = length
    self.tcpFlags = tcpFlags
    self.location = location
  }
}

extension Array where Element == StoredFlow {
  /// The session's order: by first packet, then by id. The history hands flows over in it
  /// already, and then they are returned as they are, not copied.
  public func inSessionOrder() -> [StoredFlow] {
    let precedes = { (a: StoredFlow, b: StoredFlow) in (a.firstSeen, a.id) < (b.firstSeen, b.id) }
    // Compared by their keys in place: walking pairs of flows copied each flow twice.
    let inOrder = indices.dropFirst().allSatisfy {
      (self[$0 - 1].firstSeen, self[$0 - 1].id) <= (self[$0].firstSeen, self[$0].id)
    }
    return inOrder ? self : sorted(by: precedes)
  }
}
