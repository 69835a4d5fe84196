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
    w.string(Instant.rfc3339(f.firstSeen))
    w.key(Key.httpHost)
    w.string(f.httpHost)
    w.key(Key.id)
    w.int(f.id)
    w.key(Key.lastSeen)
    w.string(Instant.rfc3339(f.lastSeen))
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

  /// The row as UTF-8 bytes, appended: flows.csv is written so, 20 000 rows without a String each.
  public static func appendRow(
    _ f: StoredFlow, findingIDs: [String], registrableDomain: String? = nil,
    registrations: AddressRegistrations = AddressRegistrations(), to out: inout some JSONBytesOutput
  ) {
    appendLine(
      cells(
        f, findingIDs: findingIDs, registrableDomain: registrableDomain,
        registrations: registrations), to: &out)
  }

  /// The flow's cells in the columns' order: what a column does not hold for it stays empty.
  public static func cells(
    _ f: StoredFlow, findingIDs: [String], registrableDomain: String? = nil,
    registrations: AddressRegistrations = AddressRegistrations()
  ) -> [String] {
    var row = ColumnValues<Column, String>(filledWith: "")
    row[.id] = String(f.id)
    row[.protocol] = f.ipProtocol.name
    row[.firstSeen] = Instant.rfc3339(f.firstSeen)
    row[.lastSeen] = Instant.rfc3339(f.lastSeen)
    row[.durationSeconds] = JSONText.number(
      Double(Instant.microseconds(f.lastSeen) - Instant.microseconds(f.firstSeen)) / 1_000_000)
    row[.bytesOut] = String(f.bytesOut)
    row[.bytesIn] = String(f.bytesIn)
    row[.packetCount] = String(f.packetCount)
    row[.peerA] = f.peers.a.text
    row[.peerB] = f.peers.b.text
    for (end, columns) in registrations.isEmpty
      ? []
      : [
        (f.peers.a, (Column.peerACountry, Column.peerAASN, Column.peerAOrganisation)),
        (f.peers.b, (Column.peerBCountry, Column.peerBASN, Column.peerBOrganisation)),
      ]
    {
      guard let registration = registrations.of(end.address) else { continue }
      row[columns.0] = registration.country ?? ""
      row[columns.1] = registration.asn.map { String($0) } ?? ""
      row[columns.2] = registration.organisation ?? ""
    }
    row[.tlsStatus] = f.tlsStatus.name
    row[.tlsStatusBasis] = f.tlsStatusBasis?.name ?? ""
    if let name = f.name {
      row[.name] = name.text
      row[.nameOrigin] = name.origin.rawValue
    }
    row[.registrableDomain] = registrableDomain ?? ""
    row[.sni] = f.sni ?? ""
    row[.connectHost] = f.connectHost ?? ""
    row[.httpHost] = f.httpHost ?? ""
    row[.dnsName] = f.dnsName ?? ""
    row[.dnsOtherNames] = spaced(f.dnsOtherNames)
    row[.streamOpening] = f.streamOpening?.name ?? ""
    row[.beganBeforeCapture] = f.beganBeforeCapture ? "true" : "false"
    if let offer = f.clientTLS {
      row[.clientVersionsForm] = offer.versionsForm.name
      row[.clientVersions] = spaced(offer.versions.map(\.compactName))
      row[.alpn] = spaced(offer.alpn)
      row[.droppedALPNCount] = String(offer.droppedALPNCount)
      row[.encryptedClientHello] = offer.encryptedClientHello ? "true" : "false"
      row[.ja4] = offer.ja4 ?? ""
    }
    switch f.serverTLS {
    case nil: break
    case .negotiated(let handshake)?:
      row[.serverAnswer] = "negotiated"
      row[.serverVersion] = handshake.version.compactName
      row[.cipherSuite] = EvidenceFlowRecord.cipherSuiteText(handshake.cipherSuite)
      row[.cipherSuiteName] = TLSRegistry.cipherSuiteNames[handshake.cipherSuite] ?? ""
      let parameters = handshake.parameters
      row[.group] = parameters.group.map(TLSRegistry.groupText) ?? ""
      row[.dhPrimeBits] = parameters.dhPrimeBits.map { String($0) } ?? ""
      row[.signatureScheme] = parameters.signatureScheme.map(TLSRegistry.signatureSchemeText) ?? ""
      row[.serverExtensions] =
        parameters.extensions?.map { TLSRegistry.extensionNames[$0] ?? String($0) }
        .joined(separator: " ") ?? ""
      row[.compressionMethod] = parameters.compressionMethod.map { String($0) } ?? ""
      row[.fromHelloRetryRequest] = handshake.fromHelloRetryRequest ? "true" : "false"
      row[.serverSource] = handshake.source.name
    case .refused(let alert)?:
      row[.serverAnswer] = "refused"
      row[.alert] = String(alert)
    }
    row[.quicVersion] = f.quic?.versionName ?? ""
    row[.quicEnd] = f.quic?.end.name ?? ""
    row[.certificateVisibility] = f.serverCertificate.name
    if let certificates = f.serverCertificate.presented {
      row[.serverCertificate] = certificates.chain.first?.base64EncodedString() ?? ""
      row[.chainIsComplete] = certificates.chainIsComplete ? "true" : "false"
    }
    if let key = f.serverKey {
      row[.certificateKey] = TLSRegistry.keyText(key)
      row[.certificateSignature] = key.signature
    }
    row[.findingIDs] = spaced(findingIDs)
    return row.values
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
      // Scanned and appended in place; a cell that needs quotes is copied byte by byte.
      func append(_ bytes: UnsafeBufferPointer<UInt8>) {
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
      // A native string's bytes are contiguous; another's are made so in a copy.
      if cell.utf8.withContiguousStorageIfAvailable(append) == nil {
        var text = cell
        text.withUTF8(append)
      }
    }
    out.put(0x0D)
    out.put(0x0A)
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
