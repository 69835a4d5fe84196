import Audit
import AuditRules
import Foundation

/// How a `StoredFlow` is laid out in the `flows` table: the disk format of every reading.
enum FlowRow {
  /// Names are joined with a line feed, which no host name contains.
  static let nameSeparator = "\n"

  /// The row's values, by column: what a column does not hold for this flow stays NULL.
  static func values(of flow: StoredFlow) -> ColumnValues<FlowColumn, SQLiteValue> {
    var row = ColumnValues<FlowColumn, SQLiteValue>(filledWith: .null)
    row[.id] = .integer(flow.id)
    row[.session] = .integer(flow.captureSessionID)
    row[.protocol] = .int(flow.ipProtocol.rawValue)
    row[.addrA] = .text(flow.peers.a.address)
    row[.portA] = .int(flow.peers.a.port)
    row[.addrB] = .text(flow.peers.b.address)
    row[.portB] = .int(flow.peers.b.port)
    row[.firstSeen] = .integer(Instant.nanoseconds(flow.firstSeen))
    row[.lastSeen] = .integer(Instant.nanoseconds(flow.lastSeen))
    row[.bytesOut] = .integer(Int64(clamping: flow.bytesOut))
    row[.bytesIn] = .integer(Int64(clamping: flow.bytesIn))
    row[.packetCount] = .int(flow.packetCount)
    row[.tlsStatus] = .int(flow.tlsStatus.rawValue)
    row[.sni] = .string(flow.sni)
    row[.dnsName] = .string(flow.dnsName)
    row[.dnsOtherNames] = .text(flow.dnsOtherNames.joined(separator: nameSeparator))
    row[.streamOpening] = .int(flow.streamOpening?.rawValue)
    if let offer = flow.clientTLS {
      row[.clientVersionsForm] = .int(offer.versionsForm.rawValue)
      row[.clientVersions] = .text(
        offer.versions.map { String($0.rawValue) }.joined(separator: ","))
      row[.clientAlpn] = .text(offer.alpn.joined(separator: nameSeparator))
      row[.clientAlpnDropped] = .int(offer.droppedALPNCount)
      row[.clientEch] = .bool(offer.encryptedClientHello)
      row[.clientCipherSuites] = .text(codes(offer.cipherSuites))
      row[.clientExtensions] = .text(codes(offer.extensions))
      row[.clientJa4] = .string(offer.ja4)
    }
    switch flow.serverTLS {
    case nil: break
    case .negotiated(let handshake)?:
      row[.serverAnswer] = .integer(1)
      row[.serverVersion] = .int(handshake.version.rawValue)
      row[.serverCipher] = .int(handshake.cipherSuite)
      row[.serverFromHrr] = .bool(handshake.fromHelloRetryRequest)
      row[.serverSource] = .int(handshake.source.rawValue)
      let parameters = handshake.parameters
      row[.serverGroup] = .int(parameters.group)
      row[.serverDhBits] = .int(parameters.dhPrimeBits)
      row[.serverSignature] = .int(parameters.signatureScheme)
      row[.serverExtensions] = .string(parameters.extensions.map(codes))
      row[.serverCompression] = .int(parameters.compressionMethod)
    case .refused(let alert)?:
      row[.serverAnswer] = .integer(2)
      row[.serverAlert] = .int(alert)
    }
    row[.quicVersion] = .int(flow.quic?.version)
    row[.quicEnd] = .int(flow.quic?.end.rawValue)
    switch flow.serverCertificate {
    case .notRead: row[.certVisibility] = .integer(0)
    case .presented(let certificates):
      row[.certVisibility] = .integer(1)
      row[.certChainComplete] = .bool(certificates.chainIsComplete)
    case .notSent(let absence):
      row[.certVisibility] = .integer(2)
      row[.certAbsence] = .int(absence.rawValue)
    case .encryptedInHandshake: row[.certVisibility] = .integer(3)
    case .replacedByInspection: row[.certVisibility] = .integer(4)
    case .noNegotiation: row[.certVisibility] = .integer(5)
    }
    row[.auditSessionId] = .int(flow.auditSessionID)
    row[.tlsStatusBasis] = .int(flow.tlsStatusBasis?.rawValue)
    row[.connectHost] = .string(flow.connectHost)
    row[.httpHost] = .string(flow.httpHost)
    row[.beganBeforeCapture] = .bool(flow.beganBeforeCapture)
    row[.streamConflicts] = .text(flow.streamConflicts.map(\.text).joined(separator: nameSeparator))
    row[.clientAuthentication] = .string(flow.clientAuthentication?.rawValue)
    row[.continuedFrom] = .int(flow.continuedFrom)
    row[.dnsQuestions] = .text(flow.dnsQuestions.joined(separator: nameSeparator))
    if let key = flow.serverKey {
      row[.certKeyAlgorithm] = .text(key.algorithm)
      row[.certKeyBits] = .int(key.bits)
      row[.certKeyCurve] = .string(key.curve)
      row[.certSignature] = .text(key.signature)
      row[.certKeySource] = .int(key.source.rawValue)
    }
    return row
  }

  /// A list of TLS codes as the row holds it: decimal, comma-separated.
  static func codes(_ values: [UInt16]) -> String {
    values.map { String($0) }.joined(separator: ",")
  }

  static func codes(from text: String?) -> [UInt16] {
    guard let text, !text.isEmpty else { return [] }
    var codes: [UInt16] = []
    var value: UInt32 = 0
    var digits = 0
    // The text `codes(_:)` writes, read a byte at a time (splitting it into Substrings was a
    // tenth of an export's reading): a piece that is not a decimal number up to 65535 is left out.
    func end() {
      if digits > 0 && value <= UInt32(UInt16.max) { codes.append(UInt16(value)) }
      value = 0
      digits = 0
    }
    var valid = true
    for byte in text.utf8 {
      if byte == UInt8(ascii: ",") {
        if valid { end() }
        value = 0
        digits = 0
        valid = true
      } else if valid, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
        value = min(value * 10 + UInt32(byte - UInt8(ascii: "0")), 1 << 20)
        digits += 1
      } else {
        valid = false
      }
    }
    if valid { end() }
    return codes
  }

  /// Reads a row selected with `FlowColumn.selectList` (the chain is filled in afterwards).
  /// Text a session repeats (addresses, names, version lists) is kept once in `shared`.
  static func flow(from row: SQLiteRow, sharing shared: SharedValues = SharedValues()) -> StoredFlow
  {
    func string(_ c: FlowColumn) -> String { shared.string(row.string(c)) }
    func optionalString(_ c: FlowColumn) -> String? { row.isNull(c) ? nil : string(c) }
    func names(_ c: FlowColumn) -> [String] {
      guard let text = row.optionalString(c), !text.isEmpty else { return [] }
      return shared.list(text) { $0.components(separatedBy: nameSeparator).map(shared.string) }
    }
    var offer: ClientTLSOffer?
    if let form = row.optionalInt64(.clientVersionsForm).flatMap({
      ClientTLSOffer.VersionsForm(rawValue: Int($0))
    }) {
      let versions = shared.versions(row.string(.clientVersions)) {
        $0.split(separator: ",").compactMap { UInt16($0) }.map(TLSProtocolVersion.init(rawValue:))
      }
      offer = shared.parts.offer(
        ClientTLSOffer(
          versionsForm: form, versions: versions, alpn: names(.clientAlpn),
          droppedALPNCount: row.int(.clientAlpnDropped), encryptedClientHello: row.bool(.clientEch),
          cipherSuites: shared.codes(row.optionalString(.clientCipherSuites)),
          extensions: shared.codes(row.optionalString(.clientExtensions)),
          ja4: row.optionalString(.clientJa4).map(shared.string)))
    }
    var answer: ServerTLSAnswer?
    switch row.optionalInt64(.serverAnswer) {
    case 1?:
      answer = .negotiated(
        version: TLSProtocolVersion(
          rawValue: UInt16(truncatingIfNeeded: row.int64(.serverVersion))),
        cipherSuite: UInt16(truncatingIfNeeded: row.int64(.serverCipher)),
        fromHelloRetryRequest: row.bool(.serverFromHrr),
        source: TLSReadingSource(rawValue: row.int(.serverSource)) ?? .serverHello,
        parameters: ServerTLSParameters(
          group: row.optionalInt64(.serverGroup).map { UInt16(truncatingIfNeeded: $0) },
          dhPrimeBits: row.optionalInt64(.serverDhBits).map { Int($0) },
          signatureScheme: row.optionalInt64(.serverSignature).map {
            UInt16(truncatingIfNeeded: $0)
          },
          extensions: row.optionalString(.serverExtensions).map { shared.codes($0) },
          compressionMethod: row.optionalInt64(.serverCompression).map {
            UInt8(truncatingIfNeeded: $0)
          }))
    case 2?:
      answer = .refused(alert: UInt8(truncatingIfNeeded: row.int64(.serverAlert)))
    default:
      answer = nil
    }
    answer = answer.map(shared.parts.answer)
    var quic: QUICReading?
    if let version = row.optionalInt64(.quicVersion),
      let end = QUICReading.End(rawValue: row.int(.quicEnd))
    {
      quic = QUICReading(version: UInt32(truncatingIfNeeded: version), end: end)
    }
    let certificate: CertificateVisibility
    switch row.int(.certVisibility) {
    case 1: certificate = .presented(chain: [], chainIsComplete: row.bool(.certChainComplete))
    case 2:
      certificate = .notSent(
        CertificateAbsence(rawValue: row.int(.certAbsence)) ?? .emptyCertificateMessage)
    case 3: certificate = .encryptedInHandshake
    case 4: certificate = .replacedByInspection
    case 5: certificate = .noNegotiation
    default: certificate = .notRead
    }
    var flow = StoredFlow(
      id: row.int64(.id), captureSessionID: row.int64(.session),
      ipProtocol: IPProtocolNumber(rawValue: UInt8(truncatingIfNeeded: row.int64(.protocol))),
      peers: FlowPeers(
        FlowEndpoint(
          address: string(.addrA), port: UInt16(truncatingIfNeeded: row.int64(.portA))),
        FlowEndpoint(
          address: string(.addrB), port: UInt16(truncatingIfNeeded: row.int64(.portB)))),
      firstSeen: row.date(.firstSeen), lastSeen: row.date(.lastSeen),
      bytesOut: UInt64(max(0, row.int64(.bytesOut))), bytesIn: UInt64(max(0, row.int64(.bytesIn))),
      packetCount: row.int(.packetCount),
      tlsStatus: TLSInspectionStatus(rawValue: row.int(.tlsStatus)) ?? .encrypted,
      sni: optionalString(.sni), dnsName: optionalString(.dnsName),
      dnsOtherNames: names(.dnsOtherNames),
      streamOpening: row.optionalInt64(.streamOpening).flatMap { StreamOpening(rawValue: Int($0)) },
      clientTLS: offer, serverTLS: answer, quic: quic, serverCertificate: certificate,
      auditSessionID: row.optionalInt64(.auditSessionId),
      tlsStatusBasis: row.optionalInt64(.tlsStatusBasis).flatMap {
        TLSStatusBasis(rawValue: Int($0))
      }, connectHost: optionalString(.connectHost),
      continuedFrom: row.optionalInt64(.continuedFrom), dnsQuestions: names(.dnsQuestions),
      serverKey: row.optionalString(.certKeyAlgorithm).map {
        shared.parts.key(
          CertificateKeyReading(
            algorithm: shared.string($0), bits: row.int(.certKeyBits),
            curve: row.optionalString(.certKeyCurve).map(shared.string),
            signature: shared.string(row.string(.certSignature)),
            source: TLSReadingSource(rawValue: row.int(.certKeySource)) ?? .serverHello))
      }, httpHost: optionalString(.httpHost), beganBeforeCapture: row.bool(.beganBeforeCapture))
    flow.streamConflicts = names(.streamConflicts).compactMap(StreamConflict.init(text:))
    flow.clientAuthentication = row.optionalString(.clientAuthentication).flatMap(
      ClientAuthentication.init(rawValue:))
    return flow
  }
}

/// `FlowColumn`'s cases by their leading dot (`.sni`), which the generic readers cannot infer.
extension SQLiteRow {
  fileprivate func isNull(_ c: FlowColumn) -> Bool { isNull(column: c) }
  fileprivate func int64(_ c: FlowColumn) -> Int64 { int64(column: c) }
  fileprivate func int(_ c: FlowColumn) -> Int { int(column: c) }
  fileprivate func optionalInt64(_ c: FlowColumn) -> Int64? { optionalInt64(column: c) }
  fileprivate func bool(_ c: FlowColumn) -> Bool { bool(column: c) }
  fileprivate func string(_ c: FlowColumn) -> String { string(column: c) }
  fileprivate func optionalString(_ c: FlowColumn) -> String? { optionalString(column: c) }
  fileprivate func date(_ c: FlowColumn) -> Date { date(column: c) }
}

/// One copy of each value that flows of a session repeat: the device's address, a server's
/// names, a version list. A session of 20 000 flows talks to a few hundred hosts, so its flows
/// share their text instead of each holding its own (1.5 MB of 20 000 small strings and lists
/// otherwise). Bounded: past `limit` distinct values, new ones are no longer kept.
final class SharedValues {
  private var lists: [String: [String]] = [:]
  private var versionLists: [String: [TLSProtocolVersion]] = [:]
  private var codeLists: [String: [UInt16]] = [:]
  /// The texts themselves and the TLS readings, held once as verify holds a flow's parts.
  let parts: FlowPartsSharing
  let limit: Int

  init(limit: Int = 4096) {
    self.limit = limit
    parts = FlowPartsSharing(limit: limit)
  }

  func string(_ text: String) -> String { parts.name(text) }

  func list(_ text: String, _ make: (String) -> [String]) -> [String] {
    Self.shared(text, in: &lists, limit: limit, make)
  }

  func versions(_ text: String, _ make: (String) -> [TLSProtocolVersion]) -> [TLSProtocolVersion] {
    Self.shared(text, in: &versionLists, limit: limit, make)
  }

  /// A list of code points (cipher suites, extensions), read once per distinct text.
  func codes(_ text: String?) -> [UInt16] {
    guard let text, !text.isEmpty else { return [] }
    return Self.shared(text, in: &codeLists, limit: limit) { FlowRow.codes(from: $0) }
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
