import Audit
import Foundation

/// Opens an evidence bundle without the store and checks it: every manifest entry's size and
/// digest, no file missing or extra, the capture's packet count against capture.json, every
/// identifier cited resolving, and flows.csv against flows.json.
public enum BundleVerifier {
    public struct Check: Sendable, Hashable {
        public let statement: String
        public let problems: [String]
        public var holds: Bool { problems.isEmpty }
    }

    public static func verify(_ url: URL) -> [Check] {
        let archive: ZipArchiveReader
        do { archive = try ZipArchiveReader(url: url) } catch {
            return [Check(statement: "The file is a ZIP archive.", problems: ["\(error)"])]
        }
        var checks: [Check] = []
        // 1. Every entry reads back with its CRC; the digests are computed on the way.
        var digests: [String: (UInt64, String)] = [:]
        var documents: [String: Data] = [:]
        var capture = PcapngScan()
        // flows.json is read as it is inflated, each flow compared with its row of flows.csv, which
        // is pulled from its own entry alongside (wherever it lies in the archive).
        var flowsReading: FlowsJSONReading?
        func csvRows() -> CSVRows? {
            guard let entry = archive.entries.first(where: { $0.name == EvidenceBundle.flowsCSVName }),
                  let stream = try? archive.stream(entry) else { return nil }
            return CSVRows { (try? stream.next()) ?? nil }
        }
        // capture.json's flows are decoded one at a time as it is inflated (decoded whole,
        // JSONDecoder's map of 20 000 of them took 22 MB); of each, its id is kept.
        let captureFlows = Collected<Int64>()
        var captureReading: StreamedArrayReading<VerifiedCapture, VerifiedCapture.Flow>?
        // findings.json too, a finding at a time (as dictionaries, 2 414 findings took 10 MB).
        let findingList = Collected<VerifiedFindings.Finding>()
        var findingsReading: StreamedArrayReading<VerifiedFindings, VerifiedFindings.Finding>?
        var archiveProblems: [String] = []
        for entry in archive.entries {
            let digest = SHA256Digest()
            var count: UInt64 = 0
            do {
                try archive.read(entry) { chunk in
                    digest.update(chunk)
                    count += UInt64(chunk.count)
                    if entry.name == EvidenceCaptureDocument.fileName { capture.feed(chunk) }
                    else if entry.name == EvidenceBundle.captureJSONName {
                        if captureReading == nil {
                            captureReading = StreamedArrayReading(key: "flows", elements: \.flows) { captureFlows.items.append($0.id) }
                        }
                        captureReading!.feed(chunk)
                    }
                    else if entry.name == EvidenceBundle.findingsName {
                        if findingsReading == nil {
                            findingsReading = StreamedArrayReading(key: "findings", elements: \.findings) { findingList.items.append($0) }
                        }
                        findingsReading!.feed(chunk)
                    }
                    else if entry.name == EvidenceBundle.flowsName {
                        if flowsReading == nil { flowsReading = FlowsJSONReading(csv: csvRows()) }
                        flowsReading!.feed(chunk)
                    }
                    else if entry.name.hasSuffix(".json") {
                        // Room for the whole document at once (up to 256 MiB): growing by doubling would leave the halves behind.
                        if documents[entry.name] == nil { documents[entry.name] = Data(capacity: Int(min(entry.size, 1 << 28))) }
                        documents[entry.name]!.append(chunk)
                    }
                }
                digests[entry.name] = (count, digest.finalHex())
            } catch {
                archiveProblems.append("\(error)")
                // Read to the end but damaged: its digest still goes to the manifest's check.
                if count == entry.size { digests[entry.name] = (count, digest.finalHex()) }
            }
        }
        checks.append(Check(statement: "The archive opens and each of its \(archive.entries.count) entries reads back with its CRC-32.", problems: archiveProblems))
        let flowsRead = flowsReading?.finish()
        let captureRead = captureReading?.finish()
        let findingsRead = findingsReading?.finish()

        // 2. The manifest.
        guard let manifestData = documents[EvidenceBundle.manifestName],
              let manifest = try? JSONSerialization.jsonObject(with: manifestData) as? [String: Any],
              let files = manifest["files"] as? [[String: Any]] else {
            checks.append(Check(statement: "manifest.json is there and lists the files.", problems: ["manifest.json is missing or is not the manifest's JSON"]))
            return checks
        }
        var manifestProblems: [String] = []
        var listed = Set<String>()
        for file in files {
            guard let name = file["name"] as? String, let size = (file["byteCount"] as? NSNumber)?.uint64Value, let sha = file["sha256"] as? String else {
                manifestProblems.append("an entry of manifest.json lacks its name, byteCount or sha256"); continue
            }
            listed.insert(name)
            guard let (actualSize, actualDigest) = digests[name] else { continue }
            if actualSize != size { manifestProblems.append("\(name) has \(actualSize) bytes; the manifest says \(size)") }
            if actualDigest != sha { manifestProblems.append("\(name) has SHA-256 \(actualDigest); the manifest says \(sha)") }
        }
        checks.append(Check(statement: "manifest.json lists \(AuditPresentation.count(files.count, "file")), each with the size and SHA-256 it states.", problems: manifestProblems))
        let present = Set(archive.entries.map(\.name)).subtracting([EvidenceBundle.manifestName])
        var setProblems: [String] = []
        for name in listed.subtracting(present).sorted() { setProblems.append("\(name) is in the manifest but not in the archive") }
        for name in present.subtracting(listed).sorted() { setProblems.append("\(name) is in the archive but not in the manifest") }
        checks.append(Check(statement: "No file is missing and none is extra.", problems: setProblems))

        // Strictly: Foundation's decoders forgive a trailing comma, which other parsers refuse.
        var streamedSyntax: [String: String?] = [:]
        if let flowsRead { streamedSyntax[EvidenceBundle.flowsName] = flowsRead.syntax }
        if let captureRead { streamedSyntax[EvidenceBundle.captureJSONName] = captureRead.syntax }
        if let findingsRead { streamedSyntax[EvidenceBundle.findingsName] = findingsRead.syntax }
        let jsonNames = (documents.keys.filter { $0.hasSuffix(".json") } + streamedSyntax.keys).sorted()
        let syntaxProblems = jsonNames.compactMap { name in
            (streamedSyntax[name] ?? JSONSyntax.problem(in: documents[name]!)).map { "\(name) is not well-formed JSON: \($0)" }
        }
        checks.append(Check(statement: "Each of the \(AuditPresentation.count(jsonNames.count, "JSON document")) is well-formed JSON (RFC 8259).", problems: syntaxProblems))

        // 3. Documents.
        guard let flowsReading, flowsRead?.readable == true,
              findingsRead?.readable == true, let findingsOutline = findingsReading?.outline,
              captureRead?.readable == true, let captureDoc = captureReading?.outline else {
            checks.append(Check(statement: "flows.json, findings.json and capture.json can be read.", problems: ["one of them is missing or is not JSON"]))
            return checks
        }
        let flows = flowsReading.flows
        let flowIDs = flows.map(\.id)
        let flowSet = Set(flowIDs)
        let findings = findingList.items
        let findingIDs = Set(findings.compactMap(\.id))
        let flowFindings = Dictionary(flows.map { ($0.id, $0.findingIDs) }, uniquingKeysWith: { a, _ in a })

        // 4. The capture against capture.json.
        let written = captureDoc.packets.written
        var captureProblems = capture.problems
        if capture.uncommented > 0 {
            captureProblems.append("\(AuditPresentation.count(capture.uncommented, "packet")) of capture.pcapng \(capture.uncommented == 1 ? "carries no comment naming its flow" : "carry no comment naming their flow")")
        }
        if capture.packets != written {
            captureProblems.append("capture.pcapng holds \(capture.packets) packets; capture.json says \(written.map(String.init) ?? "nothing") were written")
        }
        checks.append(Check(statement: "capture.pcapng holds \(AuditPresentation.count(capture.packets, "packet")), as capture.json counts them.", problems: captureProblems))

        // 5. Identifiers.
        var idProblems: [String] = []
        if flowSet.count != flowIDs.count { idProblems.append("flows.json lists a flow id more than once") }
        for (flow, ids) in flowFindings.sorted(by: { $0.key < $1.key }) {
            for id in ids where !findingIDs.contains(id) { idProblems.append("flow \(flow) cites \(id), which findings.json does not hold") }
        }
        for finding in findings {
            let id = finding.id ?? "?"
            for flow in finding.flowIDs {
                if !flowSet.contains(flow) { idProblems.append("\(id) cites flow \(flow), which flows.json does not hold") }
                else if !(flowFindings[flow] ?? []).contains(id) { idProblems.append("\(id) cites flow \(flow), which does not cite \(id) back") }
            }
        }
        for requirement in findingsOutline.requirements {
            for id in requirement.contraryFindingIDs + requirement.supportingFindingIDs where !findingIDs.contains(id) {
                idProblems.append("\(requirement.id ?? "a requirement") cites \(id), which findings.json does not hold")
            }
        }
        if captureFlows.items != flowIDs { idProblems.append("capture.json does not list the flows of flows.json, in their order") }
        for (flow, findingsCited) in capture.comments.sorted(by: { $0.key < $1.key }) {
            guard let expected = flowFindings[flow] else { idProblems.append("a packet comment cites flow \(flow), which flows.json does not hold"); continue }
            if findingsCited != Set(expected) { idProblems.append("packets of flow \(flow) cite findings \(findingsCited.sorted().joined(separator: ",")); flows.json says \(expected.joined(separator: ","))") }
        }
        checks.append(Check(statement: "Every flow and finding identifier cited resolves (\(AuditPresentation.count(flowIDs.count, "flow")), \(AuditPresentation.count(findingIDs.count, "finding"))).", problems: idProblems))

        // 6. flows.csv against flows.json.
        checks.append(flowsReading.csv.check(flowCount: flows.count))
        return checks
    }

    /// The flows of flows.json, read as verify reads them; nil if the document or a flow cannot be decoded.
    static func decodeFlows(_ data: Data) -> [VerifiedFlow]? {
        let flows = Collected<VerifiedFlow>()
        let reading = StreamedArrayReading(key: "flows", elements: \VerifiedFlows.flows) { flows.items.append($0) }
        reading.feed(data)
        return reading.finish().readable ? flows.items : nil
    }
}

/// findings.json as verify reads it: the identifiers, and what cites what. Read as leniently as
/// the identifiers check needs: a finding without a string id is "?", flow ids that are not
/// numbers are none, requirements that do not read are none.
struct VerifiedFindings: Decodable {
    struct Finding: Decodable {
        let id: String?
        let flowIDs: [Int64]
        enum CodingKeys: String, CodingKey { case id, flowIDs }
        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            id = try? c.decode(String.self, forKey: .id)
            flowIDs = (try? c.decode([Int64].self, forKey: .flowIDs)) ?? []
        }
    }
    struct Requirement: Decodable {
        let id: String?
        let contraryFindingIDs: [String], supportingFindingIDs: [String]
        enum CodingKeys: String, CodingKey { case id, contraryFindingIDs, supportingFindingIDs }
        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            id = try? c.decode(String.self, forKey: .id)
            contraryFindingIDs = (try? c.decode([String].self, forKey: .contraryFindingIDs)) ?? []
            supportingFindingIDs = (try? c.decode([String].self, forKey: .supportingFindingIDs)) ?? []
        }
    }
    let findings: [Finding]
    let requirements: [Requirement]
    enum CodingKeys: String, CodingKey { case findings, requirements }
    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        findings = try c.decode([Finding].self, forKey: .findings)
        requirements = (try? c.decode([Requirement].self, forKey: .requirements)) ?? []
    }
}

/// capture.json as verify reads it: what the capture is counted against, and its flows' order
/// (as dictionaries, 20 000 flows' tallies take tens of megabytes).
struct VerifiedCapture: Decodable {
    struct Packets: Decodable { let written: Int? }
    struct Flow: Decodable { let id: Int64 }
    let packets: Packets
    let flows: [Flow]
}

/// flows.json as verify reads it: every field flows.csv flattens.
struct VerifiedFlows: Decodable { let flows: [VerifiedFlow] }

struct VerifiedFlow: Decodable {
    struct Name: Decodable { let text: String; let origin: String }
    struct Peer: Decodable { let address: String; let port: UInt16 }
    struct ClientTLS: Decodable {
        let versionsForm: String, versions: [String], alpn: [String], droppedALPNCount: Int, encryptedClientHello: Bool
    }
    struct ServerTLS: Decodable {
        let answer: String, version: String?, cipherSuite: String?, fromHelloRetryRequest: Bool?, source: String?, alert: Int?
    }
    struct QUIC: Decodable { let version: String, end: String }
    struct Certificate: Decodable { let visibility: String, chain: [String]?, chainIsComplete: Bool? }
    let id: Int64
    let `protocol`: String
    let firstSeen: String
    let lastSeen: String
    let durationSeconds: Double
    let bytesOut: UInt64
    let bytesIn: UInt64
    let packetCount: Int
    let peers: [Peer]
    let tlsStatus: String
    let name: Name?
    let sni: String?
    let dnsName: String?
    let dnsOtherNames: [String]
    let streamOpening: String?
    let clientTLS: ClientTLS?
    let serverTLS: ServerTLS?
    let quic: QUIC?
    let serverCertificate: Certificate
    let findingIDs: [String]

    /// The row flows.csv must have for this flow, by column, derived from flows.json alone (the
    /// flattening docs/bundle-format.md describes).
    var csvCells: [String: String] {
        func peer(_ i: Int) -> String {
            guard i < peers.count else { return "" }
            return FlowEndpoint(address: peers[i].address, port: peers[i].port).text
        }
        func flag(_ value: Bool?) -> String { value.map { $0 ? "true" : "false" } ?? "" }
        let compact = { (version: String) in version.replacingOccurrences(of: " ", with: "") }
        return [
            "id": String(id), "protocol": `protocol`, "firstSeen": firstSeen, "lastSeen": lastSeen,
            "durationSeconds": JSONText.number(durationSeconds),
            "bytesOut": String(bytesOut), "bytesIn": String(bytesIn), "packetCount": String(packetCount),
            "peerA": peer(0), "peerB": peer(1), "tlsStatus": tlsStatus,
            "name": name?.text ?? "", "nameOrigin": name?.origin ?? "", "sni": sni ?? "", "dnsName": dnsName ?? "",
            "dnsOtherNames": dnsOtherNames.joined(separator: " "), "streamOpening": streamOpening ?? "",
            "clientVersionsForm": clientTLS?.versionsForm ?? "", "clientVersions": clientTLS?.versions.map(compact).joined(separator: " ") ?? "",
            "alpn": clientTLS?.alpn.joined(separator: " ") ?? "", "droppedALPNCount": clientTLS.map { String($0.droppedALPNCount) } ?? "",
            "encryptedClientHello": flag(clientTLS?.encryptedClientHello),
            "serverAnswer": serverTLS?.answer ?? "", "serverVersion": serverTLS?.version.map(compact) ?? "",
            "cipherSuite": serverTLS?.cipherSuite ?? "", "fromHelloRetryRequest": flag(serverTLS?.fromHelloRetryRequest),
            "serverSource": serverTLS?.source ?? "", "alert": serverTLS?.alert.map(String.init) ?? "",
            "quicVersion": quic?.version ?? "", "quicEnd": quic?.end ?? "", "certificateVisibility": serverCertificate.visibility,
            "serverCertificate": serverCertificate.chain?.first ?? "", "chainIsComplete": flag(serverCertificate.chainIsComplete),
            "findingIDs": findingIDs.joined(separator: " "),
        ]
    }
}

/// What a reading hands over, gathered (a closure's place to put it).
final class Collected<Item> { var items: [Item] = [] }

/// A JSON document read a chunk at a time as it is inflated, the elements of the array under
/// `key` in its top-level object each held to RFC 8259 and decoded as soon as it is complete, and
/// handed to `each`; the rest (the outline) decoded with the array emptied. Where the document is
/// not an object holding such an array, it is decoded whole and its elements handed over then.
final class StreamedArrayReading<Outline: Decodable, Element: Decodable> {
    private var stream: JSONArrayStream
    private let elements: (Outline) -> [Element]
    private let each: (Element) -> Void
    private var firstFault: JSONSyntax.Failure?
    private var undecodable = false
    private let decoder = JSONDecoder()
    /// The document without its array's elements, once `finish` decoded it.
    private(set) var outline: Outline?

    init(key: String, elements: @escaping (Outline) -> [Element], each: @escaping (Element) -> Void) {
        stream = JSONArrayStream(key: key)
        self.elements = elements
        self.each = each
    }

    func feed(_ chunk: Data) { stream.feed(chunk, element) }

    private func element(_ bytes: [UInt8], at: Int) {
        let data = Data(bytes)
        if firstFault == nil, let fault = JSONSyntax.failure(in: data, depth: 2) {
            firstFault = JSONSyntax.Failure(reason: fault.reason, at: at + fault.at)
        }
        guard !undecodable, let decoded = try? decoder.decode(Element.self, from: data) else { undecodable = true; return }
        each(decoded)
    }

    /// After the last chunk: what is wrong with the document as JSON (the first fault in it), and
    /// whether every element and the rest of it could be decoded.
    func finish() -> (syntax: String?, readable: Bool) {
        stream.finish(element)
        let skeleton = Data(stream.skeleton)
        guard stream.foundArray else {
            outline = try? decoder.decode(Outline.self, from: skeleton)
            outline.map(elements)?.forEach(each)
            return (JSONSyntax.problem(in: skeleton), outline != nil)
        }
        var faults = stream.faults + (firstFault.map { [$0] } ?? [])
        if let fault = JSONSyntax.failure(in: skeleton) {
            faults.append(JSONSyntax.Failure(reason: fault.reason, at: stream.documentOffset(ofSkeletonByte: fault.at)))
        }
        outline = try? decoder.decode(Outline.self, from: skeleton)
        let syntax = faults.min { $0.at < $1.at }.map { "\($0.reason) at byte \($0.at)" }
        return (syntax, !undecodable && outline != nil)
    }
}

/// flows.json as verify reads it: each flow, as soon as it is complete, compared with its row of
/// flows.csv; what is kept of it is its id and the findings it cites. (As dictionaries, 20 000
/// flows take half a gigabyte; the document itself is 27 MB.)
final class FlowsJSONReading {
    private(set) var csv: FlowsCSVComparison
    private(set) var flows: [(id: Int64, findingIDs: [String])] = []
    private var reading: StreamedArrayReading<VerifiedFlows, VerifiedFlow>!

    init(csv: CSVRows?) {
        self.csv = FlowsCSVComparison(csv)
        reading = StreamedArrayReading(key: "flows", elements: \.flows) { [unowned self] in self.take($0) }
    }

    func feed(_ chunk: Data) { reading.feed(chunk) }

    func finish() -> (syntax: String?, readable: Bool) { reading.finish() }

    private func take(_ flow: VerifiedFlow) {
        csv.compare(flow)
        flows.append((flow.id, flow.findingIDs))
    }
}

/// flows.csv against the flows of flows.json, a row for each flow as the flow is read.
struct FlowsCSVComparison {
    private let rows: CSVRows?
    private var headerHolds = false
    private var problems: [String] = []
    private var compared = 0

    /// nil: flows.csv is not in the archive.
    init(_ rows: CSVRows?) {
        self.rows = rows
        headerHolds = rows?.next() == EvidenceFlowsCSV.headers
    }

    /// The flow against the next row.
    mutating func compare(_ flow: VerifiedFlow) {
        guard headerHolds, let row = rows?.next() else { return }
        defer { compared += 1 }
        let header = EvidenceFlowsCSV.headers
        guard row.count == header.count else { problems.append("row \(compared + 2) of flows.csv has \(row.count) cells, not \(header.count)"); return }
        let expected = flow.csvCells
        for (column, key) in header.enumerated() where row[column] != expected[key] {
            // The duration is a number, which the two files may spell differently.
            if key == "durationSeconds", let value = Double(row[column]), value == flow.durationSeconds { continue }
            problems.append("row \(compared + 2) of flows.csv (flow \(flow.id)) has \(key) “\(row[column])”; flows.json says “\(expected[key] ?? "")”")
        }
    }

    /// The check, once every flow was compared: rows left over or missing are counted.
    func check(flowCount: Int) -> BundleVerifier.Check {
        let statement = "flows.csv has a row for each of the \(AuditPresentation.count(flowCount, "flow")), matching flows.json."
        guard let rows else { return .init(statement: statement, problems: ["flows.csv is missing or is not UTF-8"]) }
        var count = compared
        // Every row is read, to the end: bytes that are not UTF-8 may come last.
        while rows.next() != nil { count += 1 }
        guard !rows.sawBytesThatAreNotUTF8 else { return .init(statement: statement, problems: ["flows.csv is missing or is not UTF-8"]) }
        guard headerHolds else { return .init(statement: statement, problems: ["flows.csv's header row is not the one the format defines"]) }
        var problems = self.problems
        if count != flowCount { problems.insert("flows.csv has \(count) rows; flows.json has \(flowCount) flows", at: 0) }
        return .init(statement: statement, problems: problems)
    }
}

/// RFC 4180 rows read one at a time from UTF-8 bytes pulled a piece at a time from `source` (an
/// entry of the archive as it is inflated): a comma, a quote, CR and LF are never part of a longer
/// UTF-8 sequence, so cells are cut on bytes, and each cell is checked to be UTF-8 on its own.
final class CSVRows {
    private var buffer: [UInt8] = []
    private var position = 0
    private let source: () -> Data?
    private var exhausted = false
    /// Whether a cell read so far held bytes that are not UTF-8.
    private(set) var sawBytesThatAreNotUTF8 = false

    init(pulling source: @escaping () -> Data?) { self.source = source }

    /// All of `data`, given at once.
    convenience init(_ data: Data) {
        var given = false
        self.init { defer { given = true }; return given ? nil : data }
    }

    /// The byte at the position, pulling more once the buffer is used up; nil at the end.
    private func peek() -> UInt8? {
        if position == buffer.count, !exhausted {
            buffer.removeAll(keepingCapacity: true)
            position = 0
            while buffer.isEmpty {
                guard let more = source() else { exhausted = true; break }
                buffer.append(contentsOf: more)
            }
        }
        return position < buffer.count ? buffer[position] : nil
    }

    func next() -> [String]? {
        var row: [String] = [], cell: [UInt8] = []
        var quoted = false, afterQuote = false
        func endCell() {
            if !sawBytesThatAreNotUTF8, String(validating: cell, as: UTF8.self) == nil { sawBytesThatAreNotUTF8 = true }
            row.append(String(decoding: cell, as: UTF8.self)); cell.removeAll(keepingCapacity: true); afterQuote = false
        }
        while let byte = peek() {
            position += 1
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if peek() == UInt8(ascii: "\"") { cell.append(byte); position += 1 } else { quoted = false; afterQuote = true }
                } else { cell.append(byte) }
                continue
            }
            switch byte {
            case UInt8(ascii: "\"") where cell.isEmpty && !afterQuote: quoted = true
            case UInt8(ascii: ","): endCell()
            case 0x0D: continue
            case 0x0A: endCell(); return row
            default: cell.append(byte)
            }
        }
        // The last record, without a line feed after it (nothing but CR at the end is no record).
        if !cell.isEmpty || !row.isEmpty { endCell(); return row }
        return nil
    }
}

/// RFC 4180 reading: quoted cells, doubled quotes, CRLF between records.
enum CSVText {
    static func parse(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        forEachRow(Data(text.utf8)) { rows.append($0) }
        return rows
    }

    /// RFC 4180 rows handed over one at a time, read from UTF-8 bytes.
    static func forEachRow(_ data: Data, _ body: ([String]) -> Void) {
        let rows = CSVRows(data)
        while let row = rows.next() { body(row) }
    }
}

/// Counts the Enhanced Packet Blocks of a pcapng stream fed in chunks, and reads their comments.
struct PcapngScan {
    private var buffer = Data()
    private(set) var packets = 0
    private(set) var problems: [String] = []
    /// flow id → the findings its packets' comments cite.
    private(set) var comments: [Int64: Set<String>] = [:]
    private var offset: UInt64 = 0
    private var sawHeader = false
    private var seenComments: Set<Data> = []
    /// A fault in the framing was met: what follows is not read.
    private var lost = false
    /// The last comment read: packets of a flow often come one after another.
    private var lastComment: [UInt8] = []
    /// Packets whose block names no flow at all.
    private(set) var uncommented = 0

    mutating func feed(_ chunk: Data) {
        // After a fault in the blocks' framing, nothing further can be told apart: the rest is not read.
        guard !lost else { return }
        buffer.append(chunk)
        // Read in place: a Data subscript per byte cost verify a tenth of its time.
        let bytes = buffer
        let used = bytes.withUnsafeBytes { raw -> Int in
            func u16(_ i: Int) -> Int { Int(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt16.self))) }
            func u32(_ i: Int) -> UInt32 { UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt32.self)) }
            var at = 0
            while raw.count - at >= 12 {
                let type = u32(at), length = Int(u32(at + 4))
                if !sawHeader && type != 0x0A0D_0D0A {
                    problems.append("capture.pcapng does not begin with a section header")
                    lost = true
                    return raw.count
                }
                sawHeader = true
                guard length >= 12, length % 4 == 0, length < 1 << 26 else {
                    problems.append("capture.pcapng has a block claiming \(length) bytes at offset \(offset)")
                    lost = true
                    return raw.count
                }
                guard raw.count - at >= length else { break }
                if type == 6, length < 32 {
                    // Shorter than the fields every Enhanced Packet Block has.
                    problems.append("capture.pcapng has a packet block of \(length) bytes at offset \(offset), too short for one")
                    lost = true
                    return raw.count
                }
                if type == 6 {
                    packets += 1
                    let captured = Int(u32(at + 20))
                    var option = at + 28 + ((captured + 3) & ~3)
                    var commented = false
                    while option + 4 <= at + length - 4 {
                        let code = u16(option), size = u16(option + 2)
                        if code == 0 || option + 4 + size > at + length - 4 { break }
                        if code == 1 {
                            commented = true
                            // A flow's packets all carry the same comment: each one is read once.
                            let comment = UnsafeRawBufferPointer(rebasing: raw[(option + 4)..<(option + 4 + size)])
                            let sameAsLast = comment.count == lastComment.count
                                && (comment.isEmpty || lastComment.withUnsafeBytes { memcmp($0.baseAddress!, comment.baseAddress!, comment.count) == 0 })
                            if !sameAsLast {
                                lastComment = Array(comment)
                                if seenComments.insert(Data(comment)).inserted {
                                    if let text = String(validating: comment, as: UTF8.self) { note(text) }
                                    else { problems.append("the packet comment at offset \(offset) is not UTF-8") }
                                }
                            }
                        }
                        option += 4 + ((size + 3) & ~3)
                    }
                    if !commented { uncommented += 1 }
                }
                at += length
                offset += UInt64(length)
            }
            return at
        }
        buffer = used == buffer.count ? Data() : Data(buffer[(buffer.startIndex + used)...])
    }

    private mutating func note(_ comment: String) {
        var flow: Int64?
        var findings = Set<String>()
        for part in comment.split(separator: " ") {
            if part.hasPrefix("flow=") { flow = Int64(part.dropFirst(5)) }
            if part.hasPrefix("findings=") { findings = Set(part.dropFirst(9).split(separator: ",").map(String.init)) }
        }
        if let flow { comments[flow, default: []].formUnion(findings) }
        else { problems.append("a packet comment does not name its flow: “\(comment)”") }
    }

}
