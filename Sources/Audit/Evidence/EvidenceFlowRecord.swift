import Foundation

/// One flow as flows.json carries it: every key of the spec's table.
public enum EvidenceFlowRecord {
  public static func cipherSuiteText(_ value: UInt16) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
  }

  /// A flow of flows.json, written member by member in the UTF-8 order of the keys (no value
  /// tree: twenty thousand of them are a sixth of an export's second core).
  public static func write(_ f: StoredFlow, findingIDs: [String], to w: inout JSONWriter) {
    w.beginObject()
    w.key("bytesIn")
    w.int(f.bytesIn)
    w.key("bytesOut")
    w.int(f.bytesOut)
    w.key("clientTLS")
    if let offer = f.clientTLS {
      w.beginObject()
      w.key("alpn")
      w.strings(offer.alpn)
      w.key("droppedALPNCount")
      w.int(offer.droppedALPNCount)
      w.key("encryptedClientHello")
      w.bool(offer.encryptedClientHello)
      w.key("versions")
      w.beginArray()
      for version in offer.versions { w.string(version.name) }
      w.endArray()
      w.key("versionsForm")
      w.string(offer.versionsForm.name)
      w.endObject()
    } else {
      w.null()
    }
    w.key("dnsName")
    w.string(f.dnsName)
    w.key("dnsOtherNames")
    w.strings(f.dnsOtherNames)
    w.key("durationSeconds")
    w.double(
      Double(Instant.microseconds(f.lastSeen) - Instant.microseconds(f.firstSeen)) / 1_000_000)
    w.key("findingIDs")
    w.strings(findingIDs)
    w.key("firstSeen")
    w.string(Instant.rfc3339(f.firstSeen))
    w.key("id")
    w.int(f.id)
    w.key("lastSeen")
    w.string(Instant.rfc3339(f.lastSeen))
    w.key("name")
    if let name = f.name {
      w.beginObject()
      w.key("origin")
      w.string(name.origin.rawValue)
      w.key("text")
      w.string(name.text)
      w.endObject()
    } else {
      w.null()
    }
    w.key("packetCount")
    w.int(f.packetCount)
    func peer(_ end: FlowEndpoint) {
      w.beginObject()
      w.key("address")
      w.string(end.address)
      w.key("port")
      w.int(end.port)
      w.endObject()
    }
    w.key("peers")
    w.beginArray()
    peer(f.peers.a)
    peer(f.peers.b)
    w.endArray()
    w.key("protocol")
    w.string(f.ipProtocol.name)
    w.key("quic")
    if let quic = f.quic {
      w.beginObject()
      w.key("end")
      w.string(quic.end.name)
      w.key("version")
      w.string(quic.versionName)
      w.key("versionValue")
      w.int(quic.version)
      w.endObject()
    } else {
      w.null()
    }
    w.key("serverCertificate")
    w.beginObject()
    switch f.serverCertificate {
    case .presented(let chain, let complete):
      w.key("chain")
      w.beginArray()
      for certificate in chain { w.string(certificate.base64EncodedString()) }
      w.endArray()
      w.key("chainIsComplete")
      w.bool(complete)
    case .notSent(let absence):
      w.key("absence")
      w.string(absence.name)
    default: break
    }
    w.key("visibility")
    w.string(f.serverCertificate.name)
    w.endObject()
    w.key("serverTLS")
    switch f.serverTLS {
    case nil: w.null()
    case .negotiated(let version, let cipher, let hrr, let source)?:
      w.beginObject()
      w.key("answer")
      w.string("negotiated")
      w.key("cipherSuite")
      w.string(cipherSuiteText(cipher))
      w.key("fromHelloRetryRequest")
      w.bool(hrr)
      w.key("source")
      w.string(source.name)
      w.key("version")
      w.string(version.name)
      w.key("versionValue")
      w.int(version.rawValue)
      w.endObject()
    case .refused(let alert)?:
      w.beginObject()
      w.key("alert")
      w.int(alert)
      w.key("answer")
      w.string("refused")
      w.endObject()
    }
    w.key("sni")
    w.string(f.sni)
    w.key("streamOpening")
    w.string(f.streamOpening?.name)
    w.key("tlsStatus")
    w.string(f.tlsStatus.name)
    w.endObject()
  }
}

/// flows.csv: one row per flow in the order of flows.json, RFC 4180, UTF-8, CRLF. A flattened
/// view: of a chain only the server's own certificate, several values in a cell separated by a
/// space, TLS versions without one (TLS1.2, or 0x7F1C when it has no name).
public enum EvidenceFlowsCSV {
  public static let headers = [
    "id", "protocol", "firstSeen", "lastSeen", "durationSeconds", "bytesOut", "bytesIn",
    "packetCount",
    "peerA", "peerB", "tlsStatus", "name", "nameOrigin", "sni", "dnsName", "dnsOtherNames",
    "streamOpening",
    "clientVersionsForm", "clientVersions", "alpn", "droppedALPNCount", "encryptedClientHello",
    "serverAnswer", "serverVersion", "cipherSuite", "fromHelloRetryRequest", "serverSource",
    "alert",
    "quicVersion", "quicEnd", "certificateVisibility", "serverCertificate", "chainIsComplete",
    "findingIDs",
  ]

  public static var headerLine: String { line(headers) }

  public static func row(_ f: StoredFlow, findingIDs: [String]) -> String {
    line(cells(f, findingIDs: findingIDs))
  }

  /// The row as UTF-8 bytes, appended: flows.csv is written so, 20 000 rows without a String each.
  public static func appendRow(_ f: StoredFlow, findingIDs: [String], to out: inout [UInt8]) {
    appendLine(cells(f, findingIDs: findingIDs), to: &out)
  }

  static func cells(_ f: StoredFlow, findingIDs: [String]) -> [String] {
    var cells: [String] = []
    cells.reserveCapacity(headers.count)
    cells += [
      String(f.id), f.ipProtocol.name, Instant.rfc3339(f.firstSeen), Instant.rfc3339(f.lastSeen),
      JSONText.number(
        Double(Instant.microseconds(f.lastSeen) - Instant.microseconds(f.firstSeen)) / 1_000_000),
      String(f.bytesOut), String(f.bytesIn), String(f.packetCount), f.peers.a.text, f.peers.b.text,
      f.tlsStatus.name,
      f.name?.text ?? "", f.name?.origin.rawValue ?? "", f.sni ?? "", f.dnsName ?? "",
      f.dnsOtherNames.joined(separator: " "),
      f.streamOpening?.name ?? "",
    ]
    if let offer = f.clientTLS {
      cells += [
        offer.versionsForm.name, offer.versions.map(\.compactName).joined(separator: " "),
        offer.alpn.joined(separator: " "),
        String(offer.droppedALPNCount), offer.encryptedClientHello ? "true" : "false",
      ]
    } else {
      cells += ["", "", "", "", ""]
    }
    switch f.serverTLS {
    case nil: cells += ["", "", "", "", "", ""]
    case .negotiated(let version, let cipher, let hrr, let source)?:
      cells += [
        "negotiated", version.compactName, EvidenceFlowRecord.cipherSuiteText(cipher),
        hrr ? "true" : "false", source.name, "",
      ]
    case .refused(let alert)?:
      cells += ["refused", "", "", "", "", String(alert)]
    }
    cells += [f.quic?.versionName ?? "", f.quic?.end.name ?? "", f.serverCertificate.name]
    if case .presented(let chain, let complete) = f.serverCertificate {
      cells += [chain.first?.base64EncodedString() ?? "", complete ? "true" : "false"]
    } else {
      cells += ["", ""]
    }
    cells.append(findingIDs.joined(separator: " "))
    return cells
  }

  /// Cells quoted when they hold a comma, a quote, CR or LF; quotes doubled; the line ends CRLF.
  public static func line(_ cells: [String]) -> String {
    var bytes: [UInt8] = []
    appendLine(cells, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The line as UTF-8 bytes, cut and quoted on bytes: a comma, a quote, CR or LF is never part
  /// of a longer UTF-8 sequence.
  public static func appendLine(_ cells: [String], to out: inout [UInt8]) {
    for (i, cell) in cells.enumerated() {
      if i > 0 { out.append(UInt8(ascii: ",")) }
      // Scanned and appended in place (`withUTF8`); a cell that needs quotes is copied byte by byte.
      var text = cell
      text.withUTF8 { bytes in
        let formula = bytes.first.map(startsFormula) ?? false
        guard
          bytes.contains(where: {
            $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0D || $0 == 0x0A
          })
        else {
          if formula { out.append(UInt8(ascii: "'")) }
          out.append(contentsOf: bytes)
          return
        }
        out.append(UInt8(ascii: "\""))
        if formula { out.append(UInt8(ascii: "'")) }
        for byte in bytes {
          out.append(byte)
          if byte == UInt8(ascii: "\"") { out.append(byte) }
        }
        out.append(UInt8(ascii: "\""))
      }
    }
    out.append(contentsOf: [0x0D, 0x0A])
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
