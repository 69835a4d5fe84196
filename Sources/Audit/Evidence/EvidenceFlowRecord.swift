import Foundation

/// One flow as flows.json carries it: every key of the spec's table.
public enum EvidenceFlowRecord {
    public static func cipherSuiteText(_ value: UInt16) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
    }

    /// The members are listed in the UTF-8 order of their keys, the order they are written in.
    public static func json(_ f: StoredFlow, findingIDs: [String]) -> JSONValue {
        let clientTLS: JSONValue = f.clientTLS.map { offer in
            .members([JSONMember("alpn", .strings(offer.alpn)), JSONMember("droppedALPNCount", .int(offer.droppedALPNCount)),
                      JSONMember("encryptedClientHello", .bool(offer.encryptedClientHello)),
                      JSONMember("versions", .strings(offer.versions.map(\.name))), JSONMember("versionsForm", .string(offer.versionsForm.name))])
        } ?? .null
        let serverTLS: JSONValue
        switch f.serverTLS {
        case nil: serverTLS = .null
        case let .negotiated(version, cipher, hrr, source)?:
            serverTLS = .members([JSONMember("answer", .string("negotiated")), JSONMember("cipherSuite", .string(cipherSuiteText(cipher))),
                                  JSONMember("fromHelloRetryRequest", .bool(hrr)), JSONMember("source", .string(source.name)),
                                  JSONMember("version", .string(version.name)), JSONMember("versionValue", .int(version.rawValue))])
        case let .refused(alert)?:
            serverTLS = .members([JSONMember("alert", .int(alert)), JSONMember("answer", .string("refused"))])
        }
        let quic: JSONValue = f.quic.map {
            .members([JSONMember("end", .string($0.end.name)), JSONMember("version", .string($0.versionName)), JSONMember("versionValue", .int($0.version))])
        } ?? .null
        var certificate: [JSONMember] = []
        switch f.serverCertificate {
        case let .presented(chain, complete):
            certificate = [JSONMember("chain", .strings(chain.map { $0.base64EncodedString() })), JSONMember("chainIsComplete", .bool(complete))]
        case .notSent(let absence):
            certificate = [JSONMember("absence", .string(absence.name))]
        default: break
        }
        certificate.append(JSONMember("visibility", .string(f.serverCertificate.name)))
        return .members([
            JSONMember("bytesIn", .int(f.bytesIn)), JSONMember("bytesOut", .int(f.bytesOut)), JSONMember("clientTLS", clientTLS),
            JSONMember("dnsName", .optional(f.dnsName)), JSONMember("dnsOtherNames", .strings(f.dnsOtherNames)),
            JSONMember("durationSeconds", .double(Double(Instant.microseconds(f.lastSeen) - Instant.microseconds(f.firstSeen)) / 1_000_000)),
            JSONMember("findingIDs", .strings(findingIDs)), JSONMember("firstSeen", .string(Instant.rfc3339(f.firstSeen))),
            JSONMember("id", .int(f.id)), JSONMember("lastSeen", .string(Instant.rfc3339(f.lastSeen))),
            JSONMember("name", f.name.map { .members([JSONMember("origin", .string($0.origin.rawValue)), JSONMember("text", .string($0.text))]) } ?? .null),
            JSONMember("packetCount", .int(f.packetCount)),
            JSONMember("peers", .array([f.peers.a, f.peers.b].map { .members([JSONMember("address", .string($0.address)), JSONMember("port", .int($0.port))]) })),
            JSONMember("protocol", .string(f.ipProtocol.name)), JSONMember("quic", quic), JSONMember("serverCertificate", .members(certificate)),
            JSONMember("serverTLS", serverTLS), JSONMember("sni", .optional(f.sni)), JSONMember("streamOpening", .optional(f.streamOpening?.name)),
            JSONMember("tlsStatus", .string(f.tlsStatus.name)),
        ])
    }
}

/// flows.csv: one row per flow in the order of flows.json, RFC 4180, UTF-8, CRLF. A flattened
/// view: of a chain only the server's own certificate, several values in a cell separated by a
/// space, TLS versions without one (TLS1.2, or 0x7F1C when it has no name).
public enum EvidenceFlowsCSV {
    public static let headers = [
        "id", "protocol", "firstSeen", "lastSeen", "durationSeconds", "bytesOut", "bytesIn", "packetCount",
        "peerA", "peerB", "tlsStatus", "name", "nameOrigin", "sni", "dnsName", "dnsOtherNames", "streamOpening",
        "clientVersionsForm", "clientVersions", "alpn", "droppedALPNCount", "encryptedClientHello",
        "serverAnswer", "serverVersion", "cipherSuite", "fromHelloRetryRequest", "serverSource", "alert",
        "quicVersion", "quicEnd", "certificateVisibility", "serverCertificate", "chainIsComplete", "findingIDs",
    ]

    public static var headerLine: String { line(headers) }

    public static func row(_ f: StoredFlow, findingIDs: [String]) -> String { line(cells(f, findingIDs: findingIDs)) }

    /// The row as UTF-8 bytes, appended: flows.csv is written so, 20 000 rows without a String each.
    public static func appendRow(_ f: StoredFlow, findingIDs: [String], to out: inout [UInt8]) {
        appendLine(cells(f, findingIDs: findingIDs), to: &out)
    }

    static func cells(_ f: StoredFlow, findingIDs: [String]) -> [String] {
        var cells: [String] = []
        cells.reserveCapacity(headers.count)
        cells += [
            String(f.id), f.ipProtocol.name, Instant.rfc3339(f.firstSeen), Instant.rfc3339(f.lastSeen),
            JSONText.number(Double(Instant.microseconds(f.lastSeen) - Instant.microseconds(f.firstSeen)) / 1_000_000),
            String(f.bytesOut), String(f.bytesIn), String(f.packetCount), f.peers.a.text, f.peers.b.text, f.tlsStatus.name,
            f.name?.text ?? "", f.name?.origin.rawValue ?? "", f.sni ?? "", f.dnsName ?? "", f.dnsOtherNames.joined(separator: " "),
            f.streamOpening?.name ?? "",
        ]
        if let offer = f.clientTLS {
            cells += [offer.versionsForm.name, offer.versions.map(\.compactName).joined(separator: " "), offer.alpn.joined(separator: " "),
                      String(offer.droppedALPNCount), offer.encryptedClientHello ? "true" : "false"]
        } else {
            cells += ["", "", "", "", ""]
        }
        switch f.serverTLS {
        case nil: cells += ["", "", "", "", "", ""]
        case let .negotiated(version, cipher, hrr, source)?:
            cells += ["negotiated", version.compactName, EvidenceFlowRecord.cipherSuiteText(cipher), hrr ? "true" : "false", source.name, ""]
        case let .refused(alert)?:
            cells += ["refused", "", "", "", "", String(alert)]
        }
        cells += [f.quic?.versionName ?? "", f.quic?.end.name ?? "", f.serverCertificate.name]
        if case let .presented(chain, complete) = f.serverCertificate {
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
                guard bytes.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0D || $0 == 0x0A }) else {
                    out.append(contentsOf: bytes)
                    return
                }
                out.append(UInt8(ascii: "\""))
                for byte in bytes {
                    out.append(byte)
                    if byte == UInt8(ascii: "\"") { out.append(byte) }
                }
                out.append(UInt8(ascii: "\""))
            }
        }
        out.append(contentsOf: [0x0D, 0x0A])
    }
}
