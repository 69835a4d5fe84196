import Audit
import Foundation

/// How a `StoredFlow` is laid out in the `flows` table: the disk format of every reading.
enum FlowRow {
    /// Columns written by `upsertFlow`, in the order of `values(of:)`.
    static let writtenColumns = [
        "session", "protocol", "addr_a", "port_a", "addr_b", "port_b", "first_seen", "last_seen",
        "bytes_out", "bytes_in", "packet_count", "tls_status", "sni", "dns_name", "dns_other_names",
        "stream_opening", "client_versions_form", "client_versions", "client_alpn", "client_alpn_dropped",
        "client_ech", "server_answer", "server_version", "server_cipher", "server_from_hrr", "server_source",
        "server_alert", "quic_version", "quic_end", "cert_visibility", "cert_absence", "cert_chain_complete",
    ]

    /// Names are joined with a line feed, which no host name contains.
    static let nameSeparator = "\n"

    static func values(of flow: StoredFlow) -> [SQLiteValue] {
        var values: [SQLiteValue] = [
            .integer(flow.captureSessionID), .int(flow.ipProtocol.rawValue),
            .text(flow.peers.a.address), .int(flow.peers.a.port), .text(flow.peers.b.address), .int(flow.peers.b.port),
            .integer(Instant.nanoseconds(flow.firstSeen)), .integer(Instant.nanoseconds(flow.lastSeen)),
            .integer(Int64(clamping: flow.bytesOut)), .integer(Int64(clamping: flow.bytesIn)), .int(flow.packetCount),
            .int(flow.tlsStatus.rawValue), .string(flow.sni), .string(flow.dnsName),
            .text(flow.dnsOtherNames.joined(separator: nameSeparator)),
            .int(flow.streamOpening?.rawValue),
        ]
        if let offer = flow.clientTLS {
            values += [.int(offer.versionsForm.rawValue),
                       .text(offer.versions.map { String($0.rawValue) }.joined(separator: ",")),
                       .text(offer.alpn.joined(separator: nameSeparator)),
                       .int(offer.droppedALPNCount), .bool(offer.encryptedClientHello)]
        } else {
            values += [.null, .null, .null, .null, .null]
        }
        switch flow.serverTLS {
        case nil:
            values += [.null, .null, .null, .null, .null, .null]
        case let .negotiated(version, cipher, hrr, source)?:
            values += [.integer(1), .int(version.rawValue), .int(cipher), .bool(hrr), .int(source.rawValue), .null]
        case let .refused(alert)?:
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
    static func flow(from row: SQLiteRow) -> StoredFlow {
        func names(_ text: String?) -> [String] {
            guard let text, !text.isEmpty else { return [] }
            return text.components(separatedBy: nameSeparator)
        }
        var offer: ClientTLSOffer?
        if let form = row.optionalInt64(17).flatMap({ ClientTLSOffer.VersionsForm(rawValue: Int($0)) }) {
            let versions = row.string(18).split(separator: ",").compactMap { UInt16($0) }.map(TLSProtocolVersion.init(rawValue:))
            offer = ClientTLSOffer(versionsForm: form, versions: versions, alpn: names(row.optionalString(19)),
                                   droppedALPNCount: row.int(20), encryptedClientHello: row.bool(21))
        }
        var answer: ServerTLSAnswer?
        switch row.optionalInt64(22) {
        case 1?:
            answer = .negotiated(version: TLSProtocolVersion(rawValue: UInt16(truncatingIfNeeded: row.int64(23))),
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
        case 2: certificate = .notSent(CertificateAbsence(rawValue: row.int(31)) ?? .emptyCertificateMessage)
        case 3: certificate = .encryptedInHandshake
        case 4: certificate = .replacedByInspection
        case 5: certificate = .noNegotiation
        default: certificate = .notRead
        }
        return StoredFlow(
            id: row.int64(0), captureSessionID: row.int64(1),
            ipProtocol: IPProtocolNumber(rawValue: UInt8(truncatingIfNeeded: row.int64(2))),
            peers: FlowPeers(FlowEndpoint(address: row.string(3), port: UInt16(truncatingIfNeeded: row.int64(4))),
                             FlowEndpoint(address: row.string(5), port: UInt16(truncatingIfNeeded: row.int64(6)))),
            firstSeen: row.date(7), lastSeen: row.date(8),
            bytesOut: UInt64(max(0, row.int64(9))), bytesIn: UInt64(max(0, row.int64(10))), packetCount: row.int(11),
            tlsStatus: TLSInspectionStatus(rawValue: row.int(12)) ?? .encrypted,
            sni: row.optionalString(13), dnsName: row.optionalString(14), dnsOtherNames: names(row.optionalString(15)),
            streamOpening: row.optionalInt64(16).flatMap { StreamOpening(rawValue: Int($0)) },
            clientTLS: offer, serverTLS: answer, quic: quic, serverCertificate: certificate,
            auditSessionID: row.optionalInt64(33))
    }
}
