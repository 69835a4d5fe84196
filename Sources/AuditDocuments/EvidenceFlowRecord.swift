import Audit
import AuditRules
import AuditWording
import Foundation

/// One flow as flows.json carries it: every key of the spec's table.
public enum EvidenceFlowRecord {
  public static func cipherSuiteText(_ value: UInt16) -> String { TLSRegistry.hex(value) }

  /// A flow of flows.json, written member by member in the UTF-8 order of the keys (no value
  /// tree: twenty thousand of them are a sixth of an export's second core).
  /// `alsoContactedInBaseline`: nil without a baseline to compare with, or a flow without a name.
  /// `registrableDomain`: the name's registrable domain (the public suffix list's eTLD+1).
  /// `registrations`: where the peers' addresses are registered, from the databases given.
  public static func write(
    _ f: StoredFlow, findingIDs: [String], alsoContactedInBaseline: Bool? = nil,
    registrableDomain: String? = nil, registrations: AddressRegistrations = AddressRegistrations(),
    to w: inout JSONWriter
  ) {
    w.beginObject()
    w.key(Key.alsoContactedInBaseline)
    if let alsoContactedInBaseline { w.bool(alsoContactedInBaseline) } else { w.null() }
    w.key(Key.beganBeforeCapture)
    w.bool(f.beganBeforeCapture)
    w.key(Key.bytesIn)
    w.int(f.bytesIn)
    w.key(Key.bytesOut)
    w.int(f.bytesOut)
    w.key(Key.captureRun)
    w.int(f.captureSessionID)
    w.key(Key.clientAuthentication)
    w.string(f.clientAuthentication?.rawValue)
    w.key(Key.clientTLS)
    writeClientTLS(f.clientTLS, to: &w)
    w.key(Key.connectHost)
    w.string(f.connectHost)
    w.key(Key.continuedFrom)
    if let from = f.continuedFrom { w.int(from) } else { w.null() }
    w.key(Key.dnsName)
    w.string(f.dnsName)
    w.key(Key.dnsOtherNames)
    w.strings(f.dnsOtherNames)
    w.key(Key.dnsQuestions)
    w.strings(f.dnsQuestions)
    w.key(Key.durationSeconds)
    w.double(
      Double(Instant.microseconds(f.lastSeen) - Instant.microseconds(f.firstSeen)) / 1_000_000)
    w.key(Key.findingIDs)
    w.strings(findingIDs)
    w.key(Key.firstSeen)
    w.instant(f.firstSeen)
    w.key(Key.httpHost)
    w.string(f.httpHost)
    w.key(Key.id)
    w.int(f.id)
    w.key(Key.lastSeen)
    w.instant(f.lastSeen)
    w.key(Key.name)
    writeName(f.name, to: &w)
    w.key(Key.openedIn)
    writeOpening(f.openedIn, to: &w)
    w.key(Key.packetCount)
    w.int(f.packetCount)
    w.key(Key.peers)
    w.beginArray()
    writePeer(f.peers.a, registrations, to: &w)
    writePeer(f.peers.b, registrations, to: &w)
    w.endArray()
    w.key(Key.`protocol`)
    w.string(f.ipProtocol.name)
    w.key(Key.quic)
    writeQUIC(f.quic, to: &w)
    w.key(Key.registrableDomain)
    w.string(registrableDomain)
    w.key(Key.serverCertificate)
    writeCertificate(f.serverCertificate, to: &w)
    w.key(Key.serverKey)
    writeServerKey(f.serverKey, to: &w)
    w.key(Key.serverTLS)
    writeServerTLS(f.serverTLS, to: &w)
    w.key(Key.sni)
    w.string(f.sni)
    w.key(Key.streamConflicts)
    w.beginArray()
    for conflict in f.streamConflicts {
      w.beginObject()
      w.key(ConflictKey.firstByte)
      w.int(conflict.firstByte)
      w.key(ConflictKey.from)
      w.string(conflict.fromDevice ? "device" : "server")
      w.key(ConflictKey.lastByte)
      w.int(conflict.lastByte)
      w.endObject()
    }
    w.endArray()
    w.key(Key.streamOpening)
    w.string(f.streamOpening?.name)
    w.key(Key.tlsStatus)
    w.string(f.tlsStatus.name)
    w.key(Key.tlsStatusBasis)
    w.string(f.tlsStatusBasis?.name)
    w.endObject()
  }

  static func writeClientTLS(_ offer: ClientTLSOffer?, to w: inout JSONWriter) {
    if let offer {
      w.beginObject()
      w.key(ClientKey.alpn)
      w.strings(offer.alpn)
      w.key(ClientKey.cipherSuites)
      w.beginArray()
      for suite in offer.cipherSuites { w.string(cipherSuiteText(suite)) }
      w.endArray()
      w.key(ClientKey.droppedALPNCount)
      w.int(offer.droppedALPNCount)
      w.key(ClientKey.encryptedClientHello)
      w.bool(offer.encryptedClientHello)
      w.key(ClientKey.extensions)
      w.ints(offer.extensions)
      w.key(ClientKey.ja4)
      w.string(offer.ja4)
      w.key(ClientKey.versions)
      w.beginArray()
      for version in offer.versions { w.string(version.name) }
      w.endArray()
      w.key(ClientKey.versionsForm)
      w.string(offer.versionsForm.name)
      w.endObject()
    } else {
      w.null()
    }
  }

  static func writeName(_ name: FlowName?, to w: inout JSONWriter) {
    if let name {
      w.beginObject()
      w.key(NameKey.origin)
      w.string(name.origin.rawValue)
      w.key(NameKey.text)
      w.string(name.text)
      w.endObject()
    } else {
      w.null()
    }
  }

  static func writeOpening(_ opening: ConnectionOpening?, to w: inout JSONWriter) {
    if let opening {
      w.beginObject()
      w.key(OpeningKey.flowID)
      w.int(opening.flowID)
      w.key(OpeningKey.session)
      if let session = opening.session { w.int(session) } else { w.null() }
      w.endObject()
    } else {
      w.null()
    }
  }

  static func writePeer(
    _ end: FlowEndpoint, _ registrations: AddressRegistrations, to w: inout JSONWriter
  ) {
    w.beginObject()
    w.key(PeerKey.address)
    w.string(end.address)
    w.key(PeerKey.port)
    w.int(end.port)
    w.key(PeerKey.registration)
    if !registrations.isEmpty, let registration = registrations.of(end.address) {
      w.beginObject()
      w.key(RegistrationKey.asn)
      if let asn = registration.asn { w.int(asn) } else { w.null() }
      w.key(RegistrationKey.country)
      w.string(registration.country)
      w.key(RegistrationKey.organisation)
      w.string(registration.organisation)
      w.endObject()
    } else {
      w.null()
    }
    w.endObject()
  }

  static func writeQUIC(_ quic: QUICReading?, to w: inout JSONWriter) {
    if let quic {
      w.beginObject()
      w.key(QUICKey.end)
      w.string(quic.end.name)
      w.key(QUICKey.version)
      w.string(quic.versionName)
      w.key(QUICKey.versionValue)
      w.int(quic.version)
      w.endObject()
    } else {
      w.null()
    }
  }

  static func writeCertificate(_ certificate: CertificateVisibility, to w: inout JSONWriter) {
    w.beginObject()
    switch certificate {
    case .presented(let certificates):
      w.key(CertificateKey.chain)
      w.beginArray()
      for certificate in certificates.chain { w.string(certificate.base64EncodedString()) }
      w.endArray()
      w.key(CertificateKey.chainIsComplete)
      w.bool(certificates.chainIsComplete)
    case .notSent(let absence):
      w.key(CertificateKey.absence)
      w.string(absence.name)
    default: break
    }
    w.key(CertificateKey.visibility)
    w.string(certificate.name)
    w.endObject()
  }

  static func writeServerKey(_ key: CertificateKeyReading?, to w: inout JSONWriter) {
    if let key {
      w.beginObject()
      w.key(ServerKeyKey.algorithm)
      w.string(key.algorithm)
      w.key(ServerKeyKey.bits)
      w.int(key.bits)
      w.key(ServerKeyKey.curve)
      w.string(key.curve)
      w.key(ServerKeyKey.signature)
      w.string(key.signature)
      w.key(ServerKeyKey.source)
      w.string(key.source.name)
      w.endObject()
    } else {
      w.null()
    }
  }

  static func writeServerTLS(_ tls: ServerTLSAnswer?, to w: inout JSONWriter) {
    switch tls {
    case nil: w.null()
    case .negotiated(let handshake)?:
      let parameters = handshake.parameters
      func optional<T: BinaryInteger>(_ value: T?) {
        if let value { w.int(value) } else { w.null() }
      }
      w.beginObject()
      w.key(ServerKey.answer)
      w.string("negotiated")
      w.key(ServerKey.cipherSuite)
      w.string(cipherSuiteText(handshake.cipherSuite))
      w.key(ServerKey.compressionMethod)
      optional(parameters.compressionMethod)
      w.key(ServerKey.dhPrimeBits)
      optional(parameters.dhPrimeBits)
      w.key(ServerKey.extensions)
      if let extensions = parameters.extensions { w.ints(extensions) } else { w.null() }
      w.key(ServerKey.fromHelloRetryRequest)
      w.bool(handshake.fromHelloRetryRequest)
      w.key(ServerKey.group)
      optional(parameters.group)
      w.key(ServerKey.signatureScheme)
      if let scheme = parameters.signatureScheme {
        w.string(cipherSuiteText(scheme))
      } else {
        w.null()
      }
      w.key(ServerKey.source)
      w.string(handshake.source.name)
      w.key(ServerKey.version)
      w.string(handshake.version.name)
      w.key(ServerKey.versionValue)
      w.int(handshake.version.rawValue)
      w.endObject()
    case .refused(let alert)?:
      w.beginObject()
      w.key(ServerKey.alert)
      w.int(alert)
      w.key(ServerKey.answer)
      w.string("refused")
      w.endObject()
    }
  }
}

/// flows.csv: one row per flow in the order of flows.json, RFC 4180, UTF-8, CRLF. A flattened
/// view: of a chain only the server's own certificate, several values in a cell separated by a
/// space, TLS versions without one (TLS1.2, or 0x7F1C when it has no name).
public enum EvidenceFlowsCSV {
  /// The columns in the file's order; a column's header is its case's name.
  public enum Column: Int, TableColumns {
    case id, `protocol`, firstSeen, lastSeen, durationSeconds, bytesOut, bytesIn, packetCount
    case peerA, peerB, peerACountry, peerAASN, peerAOrganisation, peerBCountry, peerBASN,
      peerBOrganisation, tlsStatus, tlsStatusBasis, name, nameOrigin, registrableDomain, sni,
      connectHost, httpHost, dnsName,
      dnsOtherNames, streamOpening, beganBeforeCapture
    case clientVersionsForm, clientVersions, alpn, droppedALPNCount, encryptedClientHello, ja4
    case serverAnswer, serverVersion, cipherSuite, cipherSuiteName, fromHelloRetryRequest,
      serverSource, alert
    case group, dhPrimeBits, signatureScheme, serverExtensions, compressionMethod
    case quicVersion, quicEnd, certificateVisibility, serverCertificate, chainIsComplete
    case certificateKey, certificateSignature
    case findingIDs
  }

  public static let headers = Column.allCases.map(\.identifier)

  public static var headerLine: String { line(headers) }

  public static func row(
    _ f: StoredFlow, findingIDs: [String], registrableDomain: String? = nil,
    registrations: AddressRegistrations = AddressRegistrations()
  ) -> String {
    line(
      cells(
        f, findingIDs: findingIDs, registrableDomain: registrableDomain,
        registrations: registrations))
  }

  /// The row as UTF-8 bytes, appended: flows.csv is written so, 20 000 rows without a String for
  /// each row or cell (numbers and instants are written as digits, texts as their bytes).
  public static func appendRow(
    _ f: StoredFlow, findingIDs: [String], registrableDomain: String? = nil,
    registrations: AddressRegistrations = AddressRegistrations(), to out: inout some JSONBytesOutput
  ) {
    var next = 0
    forEachCell(
      f, findingIDs: findingIDs, registrableDomain: registrableDomain,
      registrations: registrations
    ) { column, cell in
      // The columns not given are empty: only their commas are written.
      precondition(column.rawValue >= next, "flows.csv's cells are given in the columns' order")
      for index in next...column.rawValue where index > 0 { out.put(UInt8(ascii: ",")) }
      next = column.rawValue + 1
      cell.withBytes { appendCell($0, to: &out) }
    }
    for index in next..<Column.allCases.count where index > 0 { out.put(UInt8(ascii: ",")) }
    out.put(0x0D)
    out.put(0x0A)
  }

  /// The flow's cells in the columns' order: what a column does not hold for it stays empty.
  public static func cells(
    _ f: StoredFlow, findingIDs: [String], registrableDomain: String? = nil,
    registrations: AddressRegistrations = AddressRegistrations()
  ) -> [String] {
    var row = ColumnValues<Column, String>(filledWith: "")
    forEachCell(
      f, findingIDs: findingIDs, registrableDomain: registrableDomain,
      registrations: registrations
    ) { row[$0] = $1.text }
    return row.values
  }

  /// A cell's value as the row holds it, before it is spelled: the row written as bytes spells
  /// numbers and instants without making a String of them.
  public enum Cell {
    case text(String)
    case integer(Int64)
    case count(UInt64)
    case instant(Date)
    case flag(Bool)
    case spaced([String])
    case base64(Data)

    /// The cell's text.
    public var text: String {
      switch self {
      case .text(let text): text
      case .integer(let value): String(value)
      case .count(let value): String(value)
      case .instant(let date): Instant.rfc3339(date)
      case .flag(let value): value ? "true" : "false"
      case .spaced(let values): EvidenceFlowsCSV.spaced(values)
      case .base64(let data): data.base64EncodedString()
      }
    }

    /// The cell's text as UTF-8 bytes, as `text` spells it.
    func withBytes(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
      switch self {
      case .text(var text): text.withUTF8(body)
      case .integer(let value):
        JSONText.withDigits(negative: value < 0, magnitude: value.magnitude, body)
      case .count(let value): JSONText.withDigits(negative: false, magnitude: value, body)
      case .instant(let date):
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Instant.rfc3339Capacity) {
          guard
            let length = Instant.writeRFC3339(microseconds: Instant.microseconds(date), into: $0)
          else { return Cell.text(text).withBytes(body) }
          body(UnsafeBufferPointer(rebasing: $0[..<length]))
        }
      case .flag(let value):
        var text = value ? "true" : "false"
        text.withUTF8(body)
      case .spaced(let values) where values.count < 2: Cell.text(values.first ?? "").withBytes(body)
      case .spaced, .base64: Cell.text(text).withBytes(body)
      }
    }
  }

  /// Gives the flow's cells that are not empty, in the columns' order.
  static func forEachCell(
    _ f: StoredFlow, findingIDs: [String], registrableDomain: String?,
    registrations: AddressRegistrations, _ cell: (Column, Cell) -> Void
  ) {
    func text(_ column: Column, _ value: String?) {
      if let value, !value.isEmpty { cell(column, .text(value)) }
    }
    cell(.id, .integer(f.id))
    cell(.protocol, .text(f.ipProtocol.name))
    cell(.firstSeen, .instant(f.firstSeen))
    cell(.lastSeen, .instant(f.lastSeen))
    cell(
      .durationSeconds,
      .text(
        JSONText.number(
          Double(Instant.microseconds(f.lastSeen) - Instant.microseconds(f.firstSeen)) / 1_000_000
        )))
    cell(.bytesOut, .count(f.bytesOut))
    cell(.bytesIn, .count(f.bytesIn))
    cell(.packetCount, .integer(Int64(f.packetCount)))
    cell(.peerA, .text(f.peers.a.text))
    cell(.peerB, .text(f.peers.b.text))
    if !registrations.isEmpty {
      for (end, columns) in [
        (f.peers.a, (Column.peerACountry, Column.peerAASN, Column.peerAOrganisation)),
        (f.peers.b, (Column.peerBCountry, Column.peerBASN, Column.peerBOrganisation)),
      ] {
        guard let registration = registrations.of(end.address) else { continue }
        text(columns.0, registration.country)
        if let asn = registration.asn { cell(columns.1, .count(UInt64(asn))) }
        text(columns.2, registration.organisation)
      }
    }
    cell(.tlsStatus, .text(f.tlsStatus.name))
    text(.tlsStatusBasis, f.tlsStatusBasis?.name)
    if let name = f.name {
      text(.name, name.text)
      text(.nameOrigin, name.origin.rawValue)
    }
    text(.registrableDomain, registrableDomain)
    text(.sni, f.sni)
    text(.connectHost, f.connectHost)
    text(.httpHost, f.httpHost)
    text(.dnsName, f.dnsName)
    if !f.dnsOtherNames.isEmpty { cell(.dnsOtherNames, .spaced(f.dnsOtherNames)) }
    text(.streamOpening, f.streamOpening?.name)
    cell(.beganBeforeCapture, .flag(f.beganBeforeCapture))
    if let offer = f.clientTLS {
      cell(.clientVersionsForm, .text(offer.versionsForm.name))
      if !offer.versions.isEmpty {
        cell(.clientVersions, .spaced(offer.versions.map(\.compactName)))
      }
      if !offer.alpn.isEmpty { cell(.alpn, .spaced(offer.alpn)) }
      cell(.droppedALPNCount, .integer(Int64(offer.droppedALPNCount)))
      cell(.encryptedClientHello, .flag(offer.encryptedClientHello))
      text(.ja4, offer.ja4)
    }
    switch f.serverTLS {
    case nil: break
    case .negotiated(let handshake)?:
      cell(.serverAnswer, .text("negotiated"))
      cell(.serverVersion, .text(handshake.version.compactName))
      cell(.cipherSuite, .text(EvidenceFlowRecord.cipherSuiteText(handshake.cipherSuite)))
      text(.cipherSuiteName, TLSRegistry.cipherSuiteNames[handshake.cipherSuite])
      cell(.fromHelloRetryRequest, .flag(handshake.fromHelloRetryRequest))
      cell(.serverSource, .text(handshake.source.name))
      let parameters = handshake.parameters
      text(.group, parameters.group.map(TLSRegistry.groupText))
      if let bits = parameters.dhPrimeBits { cell(.dhPrimeBits, .integer(Int64(bits))) }
      text(.signatureScheme, parameters.signatureScheme.map(TLSRegistry.signatureSchemeText))
      if let extensions = parameters.extensions, !extensions.isEmpty {
        cell(
          .serverExtensions,
          .spaced(extensions.map { TLSRegistry.extensionNames[$0] ?? String($0) }))
      }
      if let method = parameters.compressionMethod {
        cell(.compressionMethod, .integer(Int64(method)))
      }
    case .refused(let alert)?:
      cell(.serverAnswer, .text("refused"))
      cell(.alert, .integer(Int64(alert)))
    }
    text(.quicVersion, f.quic?.versionName)
    text(.quicEnd, f.quic?.end.name)
    cell(.certificateVisibility, .text(f.serverCertificate.name))
    if let certificates = f.serverCertificate.presented {
      if let first = certificates.chain.first { cell(.serverCertificate, .base64(first)) }
      cell(.chainIsComplete, .flag(certificates.chainIsComplete))
    }
    if let key = f.serverKey {
      text(.certificateKey, TLSRegistry.keyText(key))
      text(.certificateSignature, key.signature)
    }
    if !findingIDs.isEmpty { cell(.findingIDs, .spaced(findingIDs)) }
  }

  /// Values in one cell, a space between: most lists of a flow are empty or of one value, which
  /// `joined` made a new string of all the same.
  static func spaced(_ values: [String]) -> String {
    switch values.count {
    case 0: ""
    case 1: values[0]
    default: values.joined(separator: " ")
    }
  }

  /// Cells quoted when they hold a comma, a quote, CR or LF; quotes doubled; the line ends CRLF.
  public static func line(_ cells: [String]) -> String {
    var bytes: [UInt8] = []
    appendLine(cells, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The line as UTF-8 bytes, cut and quoted on bytes: a comma, a quote, CR or LF is never part
  /// of a longer UTF-8 sequence.
  public static func appendLine(_ cells: [String], to out: inout some JSONBytesOutput) {
    for (i, cell) in cells.enumerated() {
      if i > 0 { out.put(UInt8(ascii: ",")) }
      var cell = cell
      cell.withUTF8 { appendCell($0, to: &out) }
    }
    out.put(0x0D)
    out.put(0x0A)
  }

  /// One cell's bytes, scanned and appended in place; a cell that needs quotes is copied byte by
  /// byte.
  static func appendCell(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout some JSONBytesOutput) {
    let formula = bytes.first.map(startsFormula) ?? false
    guard
      bytes.contains(where: {
        $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0D || $0 == 0x0A
      })
    else {
      if formula { out.put(UInt8(ascii: "'")) }
      out.put(bytes)
      return
    }
    out.put(UInt8(ascii: "\""))
    if formula { out.put(UInt8(ascii: "'")) }
    for byte in bytes {
      out.put(byte)
      if byte == UInt8(ascii: "\"") { out.put(byte) }
    }
    out.put(UInt8(ascii: "\""))
  }

  /// A cell's text as flows.csv holds it: one that begins as a spreadsheet formula would (=, +,
  /// -, @, a tab or a carriage return) is written after an apostrophe, so that opening the file
  /// runs nothing a name read off the wire spelled out (flows.json keeps the name as it was).
  public static func spreadsheetCell(_ text: String) -> String {
    text.utf8.first.map(startsFormula) == true ? "'" + text : text
  }

  static func startsFormula(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "=") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
      || byte == UInt8(ascii: "@") || byte == 0x09 || byte == 0x0D
  }
}
