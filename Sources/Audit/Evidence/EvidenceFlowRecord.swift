import Foundation

/// One flow as flows.json carries it: every key of the spec's table.
public enum EvidenceFlowRecord {
    public static func cipherSuiteText(_ value: UInt16) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
    }

    public static func json(_ f: StoredFlow, findingIDs: [String]) -> JSONValue {
        var object: [String: JSONValue] = [
            "id": .int(f.id),
            "protocol": .string(f.ipProtocol.name),
            "firstSeen": .string(Instant.rfc3339(f.firstSeen)),
            "lastSeen": .string(Instant.rfc3339(f.lastSeen)),
            "durationSeconds": .double(Double(Instant.microseconds(f.lastSeen) - Instant.microseconds(f.firstSeen)) / 1_000_000),
            "bytesOut": .int(f.bytesOut), "bytesIn": .int(f.bytesIn), "packetCount": .int(f.packetCount),
            "peers": .array([f.peers.a, f.peers.b].map { .object(["address": .string($0.address), "port": .int($0.port)]) }),
            "tlsStatus": .string(f.tlsStatus.name),
            "name": f.name.map { .object(["text": .string($0.text), "origin": .string($0.origin.rawValue)]) } ?? .null,
            "sni": .optional(f.sni), "dnsName": .optional(f.dnsName), "dnsOtherNames": .strings(f.dnsOtherNames),
            "streamOpening": .optional(f.streamOpening?.name),
            "findingIDs": .strings(findingIDs),
        ]
        object["clientTLS"] = f.clientTLS.map { offer in
            .object(["versionsForm": .string(offer.versionsForm.name), "versions": .strings(offer.versions.map(\.name)),
                     "alpn": .strings(offer.alpn), "droppedALPNCount": .int(offer.droppedALPNCount),
                     "encryptedClientHello": .bool(offer.encryptedClientHello)])
        } ?? .null
        switch f.serverTLS {
        case nil: object["serverTLS"] = .null
        case let .negotiated(version, cipher, hrr, source)?:
            object["serverTLS"] = .object(["answer": .string("negotiated"), "version": .string(version.name), "versionValue": .int(version.rawValue),
                                           "cipherSuite": .string(cipherSuiteText(cipher)), "fromHelloRetryRequest": .bool(hrr),
                                           "source": .string(source.name)])
        case let .refused(alert)?:
            object["serverTLS"] = .object(["answer": .string("refused"), "alert": .int(alert)])
        }
        object["quic"] = f.quic.map { .object(["version": .string($0.versionName), "versionValue": .int($0.version), "end": .string($0.end.name)]) } ?? .null
        var certificate: [String: JSONValue] = ["visibility": .string(f.serverCertificate.name)]
        switch f.serverCertificate {
        case let .presented(chain, complete):
            certificate["chain"] = .strings(chain.map { $0.base64EncodedString() })
            certificate["chainIsComplete"] = .bool(complete)
        case .notSent(let absence):
            certificate["absence"] = .string(absence.name)
        default: break
        }
        object["serverCertificate"] = .object(certificate)
        return .object(object)
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

    public static func row(_ f: StoredFlow, findingIDs: [String]) -> String {
        var cells: [String] = [
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
        return line(cells)
    }

    /// Cells quoted when they hold a comma, a quote, CR or LF; quotes doubled; the line ends CRLF.
    public static func line(_ cells: [String]) -> String {
        var text = ""
        for (i, cell) in cells.enumerated() {
            if i > 0 { text += "," }
            // Scanned as bytes: a comma, a quote, CR or LF is never part of a longer UTF-8 sequence.
            if cell.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0D || $0 == 0x0A }) {
                text += "\""
                for character in cell.unicodeScalars {
                    if character == "\"" { text += "\"\"" } else { text.unicodeScalars.append(character) }
                }
                text += "\""
            } else {
                text += cell
            }
        }
        return text + "\r\n"
    }
}
