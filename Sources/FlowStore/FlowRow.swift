import Audit
import Foundation

/// How a `StoredFlow` is laid out in the `flows` table: the disk format of every reading.
enum FlowRow {
  /// Columns written by `upsertFlow`, in the order of `values(of:)`.
  static let writtenColumns = [
    "session", "protocol", "addr_a", "port_a", "addr_b", "port_b", "first_seen", "last_seen",
    "bytes_out", "bytes_in", "packet_count", "tls_status", "sni", "dns_name", "dns_other_names",
    "stream_opening", "client_versions_form", "client_versions", "client_alpn",
    "client_alpn_dropped",
    "client_ech", "server_answer", "server_version", "server_cipher", "server_from_hrr",
    "server_source",
    "server_alert", "quic_version", "quic_end", "cert_visibility", "cert_absence",
    "cert_chain_complete",
  ]

  /// Names are joined with a line feed, which no host name contains.
  static let nameSeparator = "\n"

  static func values(of flow: StoredFlow) -> [SQLiteValue] {
    var values: [SQLiteValue] = [
      .integer(flow.captureSessionID), .int(flow.ipProtocol.rawValue),
      .text(flow.peers.a.address), .int(flow.peers.a.port), .text(flow.peers.b.address),
      .int(flow.peers.b.port),
      .integer(Instant.nanoseconds(flow.firstSeen)), .integer(Instant.nanoseconds(flow.lastSeen)),
      .integer(Int64(clamping: flow.bytesOut)), .integer(Int64(clamping: flow.bytesIn)),
      .int(flow.packetCount),
      .int(flow.tlsStatus.rawValue), .string(flow.sni), .string(flow.dnsName),
      .text(flow.dnsOtherNames.joined(separator: nameSeparator)),
      .int(flow.streamOpening?.rawValue),
    ]
    if let offer = flow.clientTLS {
      values += [
        .int(offer.versionsForm.rawValue),
        .text(offer.versions.map { String($0.rawValue) }.joined(separator: ",")),
        .text(offer.alpn.joined(separator: nameSeparator)),
        .int(offer.droppedALPNCount), .bool(offer.encryptedClientHello),
      ]
    } else {
      values += [.null, .null, .null, .null, .null]
    }
    switch flow.serverTLS {
    case nil:
      values += [.null, .null, .null, .null, .null, .null]
    case .negotiated(let version, let cipher, let hrr, let source)?:
      values += [
        .integer(1), .int(version.rawValue), .int(cipher), .bool(hrr), .int(source.rawValue), .null,
      ]
    case .refused(let alert)?:
      values += [.integer(2), .null, .null, .null, .null, .int(alert)]
    }
    values += [.int(flow.quic?.version), .int(flow.quic?.end.rawValue)]
    switch flow.serverCertificate {
    case .notRead: values += [.integer(0), .null, .null]
    case .presented(_, let complete): values += [.integer(1), .null, .bool(complete)]
    case .notSent(let absence): values += [.integer(2), .int(absence.rawValue), .null]
    case .encryptedInHandshake: values += [.integer(3), .null, .null]
    case .replacedByInspection: values += [.integer(4), .null, .null]
    case .noNegotiation: values += [.integer(5), .null, .null]
    }
    return values
  }

  /// Reads a row selected with `FlowStore.flowColumns` (the chain is filled in afterwards).
  /// Text a session repeats (addresses, names, version lists) is kept once in `shared`.
  static func flow(from row: SQLiteRow, sharing shared: SharedValues = SharedValues()) -> StoredFlow
  {
    func string(_ i: Int32) -> String { shared.string(row.string(i)) }
    func optionalString(_ i: Int32) -> String? { row.isNull(i) ? nil : string(i) }
    func names(_ i: Int32) -> [String] {
      guard let text = row.optionalString(i), !text.isEmpty else { return [] }
      return shared.list(text) { $0.components(separatedBy: nameSeparator).map(shared.string) }
    }
    var offer: ClientTLSOffer?
    if let form = row.optionalInt64(17).flatMap({ ClientTLSOffer.VersionsForm(rawValue: Int($0)) })
    {
      let versions = shared.versions(row.string(18)) {
        $0.split(separator: ",").compactMap { UInt16($0) }.map(TLSProtocolVersion.init(rawValue:))
      }
      offer = ClientTLSOffer(
        versionsForm: form, versions: versions, alpn: names(19),
        droppedALPNCount: row.int(20), encryptedClientHello: row.bool(21))
    }
    var answer: ServerTLSAnswer?
    switch row.optionalInt64(22) {
    case 1?:
      answer = .negotiated(
        version: TLSProtocolVersion(rawValue: UInt16(truncatingIfNeeded: row.int64(23))),
        cipherSuite: UInt16(truncatingIfNeeded: row.int64(24)), fromHelloRetryRequest: row.bool(25),
        source: TLSReadingSource(rawValue: row.int(26)) ?? .serverHello)
    case 2?:
      answer = .refused(alert: UInt8(truncatingIfNeeded: row.int64(27)))
    default:
      answer = nil
    }
    var quic: QUICReading?
    if let version = row.optionalInt64(28), let end = QUICReading.End(rawValue: row.int(29)) {
      quic = QUICReading(version: UInt32(truncatingIfNeeded: version), end: end)
    }
    let certificate: CertificateVisibility
    switch row.int(30) {
    case 1: certificate = .presented(chain: [], chainIsComplete: row.bool(32))
    case 2:
      certificate = .notSent(CertificateAbsence(rawValue: row.int(31)) ?? .emptyCertificateMessage)
    case 3: certificate = .encryptedInHandshake
    case 4: certificate = .replacedByInspection
    case 5: certificate = .noNegotiation
    default: certificate = .notRead
    }
    return StoredFlow(
      id: row.int64(0), captureSessionID: row.int64(1),
      ipProtocol: IPProtocolNumber(rawValue: UInt8(truncatingIfNeeded: row.int64(2))),
      peers: FlowPeers(
        FlowEndpoint(address: string(3), port: UInt16(truncatingIfNeeded: row.int64(4))),
        FlowEndpoint(address: string(5), port: UInt16(truncatingIfNeeded: row.int64(6)))),
      firstSeen: row.date(7), lastSeen: row.date(8),
      bytesOut: UInt64(max(0, row.int64(9))), bytesIn: UInt64(max(0, row.int64(10))),
      packetCount: row.int(11),
      tlsStatus: TLSInspectionStatus(rawValue: row.int(12)) ?? .encrypted,
      sni: optionalString(13), dnsName: optionalString(14), dnsOtherNames: names(15),
      streamOpening: row.optionalInt64(16).flatMap { StreamOpening(rawValue: Int($0)) },
      clientTLS: offer, serverTLS: answer, quic: quic, serverCertificate: certificate,
      auditSessionID: row.optionalInt64(33))
  }
}

/// One copy of each value that flows of a session repeat: the device's address, a server's
/// names, a version list. A session of 20 000 flows talks to a few hundred hosts, so its flows
/// share their text instead of each holding its own (1.5 MB of 20 000 small strings and lists
/// otherwise). Bounded: past `limit` distinct values, new ones are no longer kept.
final class SharedValues {
  private var strings: [String: String] = [:]
  private var lists: [String: [String]] = [:]
  private var versionLists: [String: [TLSProtocolVersion]] = [:]
  let limit: Int

  init(limit: Int = 4096) { self.limit = limit }

  func string(_ text: String) -> String {
    // Up to 15 UTF-8 bytes a String holds its text inline: nothing to share.
    guard text.utf8.count > 15 else { return text }
    if let kept = strings[text] { return kept }
    if strings.count < limit { strings[text] = text }
    return text
  }

  func list(_ text: String, _ make: (String) -> [String]) -> [String] {
    Self.shared(text, in: &lists, limit: limit, make)
  }

  func versions(_ text: String, _ make: (String) -> [TLSProtocolVersion]) -> [TLSProtocolVersion] {
    Self.shared(text, in: &versionLists, limit: limit, make)
  }

  private static func shared<T>(
    _ key: String, in table: inout [String: T], limit: Int, _ make: (String) -> T
  ) -> T {
    if let kept = table[key] { return kept }
    let value = make(key)
    if table.count < limit { table[key] = value }
    return value
  }
}
