import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Foundation

/// What `flow ID` says: the Flow Inspector. Who the connection was and how that is known, what
/// was read of it, and its packets titled by what each meant for it.
public enum FlowInspectorPresentation {
  public static let packetsShown = 500

  /// What a packet meant for its connection. RST outranks the rest: it comes with ACK set
  /// almost always, and reading it as a confirmation would hide the only thing worth telling.
  public static func meaning(_ p: StoredPacket, ipProtocol: IPProtocolNumber) -> String {
    guard ipProtocol == .tcp else { return ipProtocol == .udp ? "Datagram" : "Message" }
    let f = p.tcpFlags
    if f & 0x04 != 0 { return "Cut off" }
    if f & 0x02 != 0 { return f & 0x10 != 0 ? "Accepted" : "Opened" }
    if f & 0x01 != 0 { return "Finished sending" }
    // Longer than the largest IP and TCP headers (60 + 20, or 60 + 40 for IPv6): data.
    if f & 0x08 != 0 || p.length > 100 { return "Data" }
    return f & 0x10 != 0 ? "Delivery confirmed" : "Data"
  }

  public static func outcome(_ status: TLSInspectionStatus) -> String {
    switch status {
    case .inspected: return "accepted the proxy's certificate and sent requests through it"
    case .notInspectable: return "refused the proxy's certificate"
    case .closedAfterHandshake:
      return "accepted the proxy's certificate in the handshake, then closed without a request"
    case .plaintext, .encrypted: return "none recorded"
    }
  }

  static func basis(_ b: TLSStatusBasis) -> String {
    switch b {
    case .readings: return "decided from what was read of it"
    case .port: return "from the server's port alone: nothing that tells was read"
    case .inspection: return "the inspecting proxy's outcome"
    }
  }

  static func offer(_ o: ClientTLSOffer) -> String {
    var parts = [
      (o.versionsForm == .upTo ? "up to " : "") + o.versions.map(\.name).joined(separator: ", ")
    ]
    if !o.alpn.isEmpty {
      parts.append("ALPN " + o.alpn.map(TerminalText.inline).joined(separator: ", "))
    }
    if o.encryptedClientHello { parts.append("Encrypted ClientHello") }
    if o.extensions.contains(42) { parts.append("0-RTT early data offered") }
    return parts.joined(separator: " · ")
  }

  /// What else the server chose, with IANA names: group or DH prime, signature, extensions.
  static func parameters(_ p: ServerTLSParameters) -> String? {
    var parts: [String] = []
    if let group = p.group { parts.append("group " + TLSRegistry.groupText(group)) }
    if let bits = p.dhPrimeBits { parts.append("DH prime of \(bits) bits") }
    if let scheme = p.signatureScheme {
      parts.append("signed with " + TLSRegistry.signatureSchemeText(scheme))
    }
    if let method = p.compressionMethod, method != 0 {
      parts.append("compression method \(method)")
    }
    if let extensions = p.extensions {
      parts.append(
        extensions.isEmpty
          ? "no extensions"
          : "extensions " + extensions.map(TLSRegistry.extensionText).joined(separator: ", "))
    }
    return parts.isEmpty ? nil : parts.joined(separator: " · ")
  }

  static func answer(_ a: ServerTLSAnswer) -> String {
    switch a {
    case .negotiated(let h):
      return
        "\(h.version.name) · \(TLSRegistry.cipherSuiteText(h.cipherSuite))\(h.fromHelloRetryRequest ? " · after a HelloRetryRequest" : "") · \(h.source == .serverHello ? "read from the ServerHello" : "from the proxy's own connection to the server")"
    case .refused(let alert): return "refused with alert \(alert)"
    }
  }

  static func certificate(_ c: CertificateVisibility, subjects: [String]) -> String {
    switch c {
    case .presented(let certificates):
      let list =
        subjects.isEmpty ? "" : ": " + subjects.map(TerminalText.inline).joined(separator: " ← ")
      return
        "presented, \(Quantity.count(certificates.chain.count, "certificate"))\(certificates.chainIsComplete ? ", reaching a self-signed root" : ", not reaching a root")\(list)"
    case .notSent(let why): return "not sent (\(why))"
    case .encryptedInHandshake: return "encrypted in the handshake (TLS 1.3, QUIC): not read"
    case .replacedByInspection: return "the proxy's, shown in place of the server's"
    case .noNegotiation: return "none: no handshake completed"
    case .notRead: return "not read"
    }
  }

  public static func text(
    _ f: StoredFlow, packets: [StoredPacket], packetTotal: Int, session: String?,
    findingIDs: [String], subjects: [String], zone: TimeZone, exchanges: [ExchangeRecord] = [],
    registrations: AddressRegistrations = AddressRegistrations()
  ) -> String {
    let rows =
      nameRows(f, registrations: registrations) + trafficRows(f, zone: zone)
      + tlsRows(f, subjects: subjects)
      + historyRows(f, session: session, findingIDs: findingIDs)
    var out = "Connection \(f.id)\n"
    out += TextColumns().lines(rows.map { ["  " + $0[0], $0[1]] }).map { $0 + "\n" }.joined()
    out += packetLines(f, packets: packets, packetTotal: packetTotal)
    out += exchangeLines(exchanges, zone: zone)
    return out
  }

  /// Who the connection was, and how that is known.
  static func nameRows(_ f: StoredFlow, registrations: AddressRegistrations) -> [[String]] {
    var rows: [[String]] = [
      [
        "Name",
        f.name == nil
          ? "none: no ClientHello, CONNECT, DNS answer or request in the clear named it"
          : TimelinePresentation.who(f),
      ],
      ["Ends", "\(f.peers.a.text) ↔ \(f.peers.b.text), \(f.ipProtocol.name)"],
    ]
    if !registrations.databases.isEmpty {
      rows.append([
        "Registered",
        [f.peers.a.address, f.peers.b.address].map { address in
          registrations.of(address).map { AddressRegistrationWording.line(address, $0) }
            ?? AddressRegistrationWording.notFound(address)
        }.joined(separator: "; "),
      ])
    }
    if let sni = f.sni { rows.append(["SNI", TerminalText.inline(sni)]) }
    if let host = f.connectHost { rows.append(["CONNECT", TerminalText.inline(host)]) }
    if let dns = f.dnsName { rows.append(["DNS name", TerminalText.inline(dns)]) }
    if let host = f.httpHost { rows.append(["Host header", TerminalText.inline(host)]) }
    if !f.dnsOtherNames.isEmpty {
      rows.append([
        "Other names",
        f.dnsOtherNames.map(TerminalText.inline).joined(separator: ", ")
          + ": DNS gave the address these names too; the connection could have been to any of them",
      ])
    }
    return rows
  }

  /// When, how much, and what its stream was.
  static func trafficRows(_ f: StoredFlow, zone: TimeZone) -> [[String]] {
    var rows: [[String]] = [
      [
        "First → last",
        "\(AuditPresentation.dateTime(f.firstSeen, in: zone)) → \(AuditPresentation.dateTime(f.lastSeen, in: zone)) (\(TimelinePresentation.duration(f.durationSeconds)))",
      ],
      [
        "Traffic",
        "\(Quantity.count(f.packetCount, "packet")) · ↑ \(Quantity.byteCount(f.bytesOut)) sent · ↓ \(Quantity.byteCount(f.bytesIn)) received",
      ],
      [
        "Status",
        "\(TLSStatusWording.word(f.tlsStatus))\(f.tlsStatusBasis.map { ", " + basis($0) } ?? "")",
      ],
      [
        "Opening",
        f.streamOpening?.name
          ?? (f.beganBeforeCapture
            ? "not captured: the connection began before the capture or the recording"
            : "not read"),
      ],
    ]
    for conflict in f.streamConflicts {
      rows.append([
        "Two copies",
        "bytes \(conflict.firstByte)–\(conflict.lastByte) of what the \(conflict.fromDevice ? "device" : "server") sent came twice, different: the first copy was read",
      ])
    }
    return rows
  }

  /// What was read of its TLS (or QUIC): the offer, the answer, the certificate and key.
  static func tlsRows(_ f: StoredFlow, subjects: [String]) -> [[String]] {
    var rows: [[String]] = [
      ["Client offer", f.clientTLS.map(offer) ?? "no ClientHello read"],
      ["Server answer", f.serverTLS.map(answer) ?? "none read"],
    ]
    if let handshake = f.serverTLS?.handshake, let text = parameters(handshake.parameters) {
      rows.append(["Server chose", text])
    }
    if let ja4 = f.clientTLS?.ja4 { rows.append(["JA4", ja4 + " (the TLS client's fingerprint)"]) }
    rows.append(["Certificate", certificate(f.serverCertificate, subjects: subjects)])
    if let authentication = f.clientAuthentication {
      rows.append(["Client certificate", MutualAuthenticationWording.reading(authentication)])
    }
    rows.append(["Inspection", outcome(f.tlsStatus)])
    if let key = f.serverKey {
      rows.append([
        "Server key",
        "\(TLSRegistry.keyText(key)), signed \(key.signature)\(key.source == .upstreamConnection ? ", from the proxy's log of the server's certificate" : "")",
      ])
    }
    if let q = f.quic {
      rows.append([
        "QUIC",
        "version 0x\(String(q.version, radix: 16)), \(q.end == .client ? "proposed by the client" : "answered by the server")",
      ])
    }
    return rows
  }

  /// Its session, the rows it continues, the findings that cite it.
  static func historyRows(_ f: StoredFlow, session: String?, findingIDs: [String]) -> [[String]] {
    var rows = [["Session", session ?? "none: recorded outside any audit session (history)"]]
    if let from = f.continuedFrom {
      rows.append([
        "Continues",
        "connection \(from): the same connection, its packets before a session's edge or this recorder run ('tunnelvision flow \(from)')",
      ])
    }
    if let opening = f.openedIn, opening.flowID != f.continuedFrom {
      rows.append([
        "Opened in",
        "connection \(opening.flowID)\(opening.session.map { ", session \($0)" } ?? ", outside any session"): what was read of it before is in that row's packets",
      ])
    }
    rows.append([
      "Findings", findingIDs.isEmpty ? "none cite it" : findingIDs.joined(separator: ", "),
    ])
    return rows
  }

  static func packetLines(_ f: StoredFlow, packets: [StoredPacket], packetTotal: Int) -> String {
    var out = "\nPackets\n"
    if packets.isEmpty { out += "  none in the history\n" }
    let start = packets.first?.date ?? f.firstSeen
    out += TextColumns(rightAligned: [0, 2]).lines(
      packets.map { p in
        [
          "  " + String(format: "%.3f s", p.date.timeIntervalSince(start)),
          p.direction == .outbound ? "↑" : "↓", Quantity.byteCount(UInt64(p.length)),
          meaning(p, ipProtocol: f.ipProtocol), PacketWording.flags(p.tcpFlags),
        ]
      }
    ).map { $0 + "\n" }.joined()
    if packetTotal > packets.count {
      out +=
        "  The first \(packets.count) of \(Quantity.count(packetTotal, "packet")) are shown.\n"
    }
    return out
  }

  static func exchangeLines(_ exchanges: [ExchangeRecord], zone: TimeZone) -> String {
    guard !exchanges.isEmpty else { return "" }
    var out = "\nExchanges (\(Quantity.count(exchanges.count, "exchange")))\n"
    for r in exchanges {
      out +=
        "  \(r.exchangeID)  \(AuditPresentation.clock(r.start, in: zone))  \(TerminalText.inline("\(r.method) \(r.scheme)://\(r.host)\(r.path)"))  \(r.status.map(String.init) ?? "no answer")  read \(ExchangesPresentation.sourceWord(r.source))\n"
      for match in r.matches {
        out += "      sent: \(TerminalText.inline(ExchangesPresentation.matchLine(match)))\n"
      }
    }
    return out
  }
}

/// What `packet FLOW N` says: Packet detail.
public enum PacketDetailPresentation {
  /// Why a packet's bytes cannot be shown.
  public enum Unreadable: Sendable, Hashable {
    case neverCaptured
    case fileDeleted(UInt32)
    case recordUnreadable(String)
  }

  public static func unreadable(_ u: Unreadable) -> String {
    switch u {
    case .neverCaptured: return "Its bytes were never captured: the history keeps only its row."
    case .fileDeleted(let sequence):
      return
        "Its bytes were in capture file \(sequence), which was deleted (retention, or by hand): only its row is left."
    case .recordUnreadable(let why): return "Its bytes cannot be read back: \(why)."
    }
  }

  /// Sixteen bytes a line: offset, hex, and the printable ASCII.
  public static func hexDump(_ bytes: [UInt8]) -> String {
    stride(from: 0, to: bytes.count, by: 16).map { start in
      let row = bytes[start..<min(start + 16, bytes.count)]
      let hex = row.map { String(format: "%02x", $0) }.joined(separator: " ")
      let ascii = String(
        row.map { (0x20..<0x7f).contains($0) ? Character(UnicodeScalar($0)) : "." })
      return String(format: "%04x  ", start)
        + hex.padding(toLength: 48, withPad: " ", startingAt: 0)
        + " " + ascii
    }.joined(separator: "\n")
  }

  public static func text(
    flowID: Int64, number: Int, of total: Int, packet: StoredPacket, ipProtocol: IPProtocolNumber,
    since first: Date, headers: [(String, String)], bytes: [UInt8]?, unreadable: Unreadable?
  ) -> String {
    var out =
      "Packet \(number) of \(total) · connection \(flowID) · \(FlowInspectorPresentation.meaning(packet, ipProtocol: ipProtocol))\n"
    out +=
      "  \(String(format: "%.3f s", packet.date.timeIntervalSince(first))) after the first packet · \(packet.direction == .outbound ? "sent by the device" : "received by the device") · \(Quantity.byteCount(UInt64(packet.length))) · \(PacketWording.flags(packet.tcpFlags))\n"
    if let unreadable { return out + "  " + Self.unreadable(unreadable) + "\n" }
    out += TextColumns().lines(headers.map { ["  " + $0.0, $0.1] }).map { $0 + "\n" }.joined()
    if let bytes { out += "\n" + hexDump(bytes) + "\n" }
    return out
  }
}
