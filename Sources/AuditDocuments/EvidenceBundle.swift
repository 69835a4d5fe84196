import Audit
import AuditRules
import AuditWording
import Foundation

/// A connection of a finding whose row continues one the bundle does not hold: what was read of
/// it before (its opening, its handshake, its name) is in the packets of the row it opened in.
public struct EarlierReading: Sendable, Hashable {
  public let flowID: Int64
  /// The row the connection opened in, and its session (nil: none).
  public let opening: ConnectionOpening

  public var sentence: String {
    ContinuationWording.earlierReading(
      flow: flowID, openedIn: opening.flowID, session: opening.session)
  }

  /// By flow id: the flows among `flows` whose connection opened in a row not among them
  /// (`openedIn` filled in by the store).
  public static func of(_ flows: [StoredFlow]) -> [Int64: EarlierReading] {
    let held = Set(flows.map(\.id))
    var continuing: [Int64: EarlierReading] = [:]
    for flow in flows {
      guard let opening = flow.openedIn, !held.contains(opening.flowID) else { continue }
      continuing[flow.id] = EarlierReading(flowID: flow.id, opening: opening)
    }
    return continuing
  }
}

public enum EvidenceBundleError: Error, Sendable, Hashable {
  case sessionOfAnotherProject(sessionProjectID: Int64, projectID: Int64)
  case sessionStillOpen
  case duplicateFlow(id: Int64)
}

/// The documents of a closed session's bundle, built from values. Pure: no history, no clock, no disk.
public struct EvidenceBundle: Sendable {
  /// 2: the baseline's hosts (session.json `baseline`, `alsoContactedInBaseline` in
  /// findings.json and flows.json), connectHost and tlsStatusBasis in flows.json. 6: flows.json's
  /// `beganBeforeCapture` (and flows.csv's column). 7: flows.json's `streamConflicts`. 8: where
  /// the peers' addresses are registered (flows.json, flows.csv; session.json's databases).
  /// 10: session.json's `testLog`, each run's filter, libpcap and proxy starts, and the public
  /// suffix list's date.
  public static let formatVersion = 10

  public let assessment: SessionAssessment
  public let project: AuditProject
  public let session: AuditSession
  public let markers: [SessionMarker]
  /// In the order they happened (firstSeen, then id); none when the bundle was made not to hold
  /// them (`holdsFlows`, a verify's re-derivation) or they were taken out (`takeFlows`, the
  /// export's writing of flows.json and flows.csv).
  public private(set) var flows: [StoredFlow]
  public private(set) var holdsFlows: Bool
  /// The flows' ids, in the same order: what the capture and the counts need of them.
  public let flowIDs: [Int64]
  /// The report's TLS readings, tallied while the flows were at hand.
  public let tlsReadings: [EvidenceTLSReading]
  /// Page 1's totals, tallied with them.
  public let totals: EvidenceTrafficTotals
  public let exportedWith: String
  public let exportedAt: Date
  /// "F1", "F2"… of the findings each flow proves.
  public let citations: FindingCitations
  /// Every host contacted, with what the bundle says of it: the report's host inventory.
  public let hostInventory: EvidenceHostInventory
  /// By finding (in `findings`' order): the names of its connections, or their two ends when
  /// unnamed, each once in the order they happened; its first connection's first packet; and
  /// the one port all its connections have, with their protocol ("443/tcp"): nil for a single
  /// connection, whose server end a flow does not record, and when they share none.
  public let findingSubjects: [(names: [String], firstSeen: Date?, service: String?)]
  /// The project's baseline, when it has one that ended; nil otherwise.
  public let baseline: EvidenceBaseline?
  /// By finding: which of its hosts the baseline also contacted (nil without a baseline).
  public let baselineHosts: [[String]?]
  /// By finding: its connections whose row continues one this bundle does not hold, so that
  /// what was read of them before (their handshake, their name) is in another session's packets.
  public let earlierReadings: [[EarlierReading]]
  /// By flow id: the row each continuing flow's connection opened in (`StoredFlow.openedIn`),
  /// given again to the flows the exporter reads a second time.
  public let openings: [Int64: ConnectionOpening]
  /// By flow id: the flows whose connection opened in a row this bundle does not hold.
  let continuing: [Int64: EarlierReading]
  /// The session's window against the recorder runs that overlap it.
  public let coverage: SessionCoverage
  /// The tracker lists the hosts were compared with (session.json `trackerLists`).
  public let trackerLists: [TrackerList.Identity]
  /// The public suffix list flows.json's registrable domains come from.
  public let publicSuffixList: PublicSuffixListIdentity?
  /// Each flow name's registrable domain, as flows.json states it: said beside a host.
  public let registrableDomains: RegistrableDomains
  /// Where the flows' addresses are registered, and the databases that say so (none given: none).
  public let addressRegistrations: AddressRegistrations
  /// The server scans kept with the session (`tunnelvision scan`), oldest first: each carried
  /// whole as `server-scan-N.json`.
  public let serverScans: [StoredServerScan]
  /// The session's exchanges and what they sent of the test account's values
  /// (exchanges.json), with the values they were judged with (session.json `testAccount`).
  public let content: SessionContent
  /// Whether the bundle holds the content itself (content.har: `export --with-content`).
  public var includesContent = false
  /// The libraries the exporter links, with their versions: the test log's last rows.
  public var exportLibraries: [EvidenceTestLog.Tool] = []
  /// An imported session's: what the inspecting proxy of the log read beside the capture said
  /// of itself when it started (session.json `session.capture.proxies`).
  public var importProxies: [RecorderRun.ProxyRun] = []

  /// The test log session.json and the report carry.
  public var testLog: EvidenceTestLog { EvidenceTestLog(self, libraries: exportLibraries) }

  /// The flows, taken out of the bundle, which then holds none: whoever writes them can let each
  /// go once it is written, while the bundle lives on.
  public mutating func takeFlows() -> [StoredFlow] {
    defer {
      flows = []
      holdsFlows = false
    }
    return flows
  }

  /// `holdingFlows: false`: the flows are assessed and let go, so that a session's size does not
  /// stay in memory while its documents are written.
  public init(
    project: AuditProject, session: AuditSession, markers: [SessionMarker], flows: [StoredFlow],
    catalogue: RequirementCatalogue, exportedWith: String, exportedAt: Date,
    baseline: EvidenceBaseline? = nil, runs: [RecorderRun] = [], runsNotKept: Bool = false,
    holdingFlows: Bool = true, trackers: TrackerLists? = nil,
    publicSuffixList: PublicSuffixListIdentity? = nil,
    registrableDomains: RegistrableDomains = RegistrableDomains(),
    addressRegistrations: AddressRegistrations = AddressRegistrations(),
    serverScans: [StoredServerScan] = [],
    content: SessionContent = SessionContent(values: [], exchanges: [])
  ) throws(EvidenceBundleError) {
    self.content = content
    self.serverScans = serverScans
    self.addressRegistrations = addressRegistrations
    self.publicSuffixList = publicSuffixList
    self.registrableDomains = registrableDomains
    guard session.projectID == project.id else {
      throw .sessionOfAnotherProject(sessionProjectID: session.projectID, projectID: project.id)
    }
    guard !session.isOpen else { throw .sessionStillOpen }
    do {
      var seen = Set<Int64>()
      for flow in flows where !seen.insert(flow.id).inserted { throw .duplicateFlow(id: flow.id) }
    }
    self.project = project
    self.session = session
    self.markers = markers
    let ordered = flows.inSessionOrder()
    self.flows = holdingFlows ? ordered : []
    holdsFlows = holdingFlows
    flowIDs = ordered.map(\.id)
    tlsReadings = EvidenceTLSReading.tally(ordered)
    totals = EvidenceTrafficTotals.tally(
      ordered, project: project, domains: registrableDomains, trackers: trackers)
    self.exportedWith = exportedWith
    self.exportedAt = exportedAt
    coverage = SessionCoverage.of(
      session, runs: runs, runningProcess: nil, now: exportedAt,
      connections: ordered.map { .init(run: $0.captureSessionID, lastSeen: $0.lastSeen) },
      runsNotKept: runsNotKept)
    assessment = SessionAssessment(
      catalogue: catalogue, flows: ordered, project: project, session: session, markers: markers,
      runs: coverage.runs, baseline: baseline?.clientBaseline, trackers: trackers,
      content: content, serverScans: ServerScanReport.runs(serverScans), recording: coverage)
    trackerLists = trackers?.lists.map(\.identity) ?? []
    let citations = FindingCitations(assessment.findings.findings)
    self.citations = citations
    hostInventory = EvidenceHostInventory.tally(
      ordered, project: project, domains: registrableDomains, trackers: trackers,
      registrations: addressRegistrations, citations: citations)
    // Where each flow is, not what a finding needs of it: a session's findings cite nearly every
    // flow, and a table of those facts is megabytes at the export's peak.
    var positions: [Int64: Int] = [:]
    positions.reserveCapacity(ordered.count)
    for (position, flow) in ordered.enumerated() { positions[flow.id] = position }
    findingSubjects = assessment.findings.findings.map { finding in
      var names: [String] = []
      var seen = Set<String>()
      var first: Date?
      var protocols = Set<IPProtocolNumber>()
      var ports: Set<UInt16>?
      for id in finding.flowIDs {
        guard let position = positions[id] else { continue }
        let flow = ordered[position]
        let peers = flow.peers
        for name in Self.subjectNames(flow) where seen.insert(name).inserted { names.append(name) }
        first = min(first ?? flow.firstSeen, flow.firstSeen)
        protocols.insert(flow.ipProtocol)
        ports = (ports ?? [peers.a.port, peers.b.port]).intersection([peers.a.port, peers.b.port])
      }
      return (names, first, Self.service(protocols, ports ?? []))
    }
    openings = Dictionary(
      uniqueKeysWithValues: ordered.compactMap { flow in flow.openedIn.map { (flow.id, $0) } })
    let continuing = EarlierReading.of(ordered)
    self.continuing = continuing
    earlierReadings = assessment.findings.findings.map { $0.flowIDs.compactMap { continuing[$0] } }
    self.baseline = baseline
    let findings = assessment.findings.findings
    baselineHosts = zip(findings, findingSubjects).map { finding, subject in
      guard let baseline else { return nil }
      var seen = Set<String>()
      return ([finding.evidence.host].compactMap { $0 } + subject.names)
        .filter { baseline.contacted($0) && seen.insert($0.lowercased()).inserted }
    }
  }

  /// What a finding says a flow was about: the names a DNS exchange asked for, else its host's
  /// name; an unnamed flow's host is its pair of addresses, not of endpoints (connections from
  /// several ports to one server are one host).
  static func subjectNames(_ flow: StoredFlow) -> [String] {
    if !flow.dnsQuestions.isEmpty, InfrastructureService(of: flow) == .dns {
      return flow.dnsQuestions
    }
    return [flow.name?.text ?? "\(flow.peers.a.address) ↔ \(flow.peers.b.address)"]
  }

  /// Whether the baseline also contacted the flow's host: nil without a baseline, or for a flow
  /// without a name.
  public func alsoContactedInBaseline(_ flow: StoredFlow) -> Bool? {
    EvidenceBaseline.claim(baseline, for: flow)
  }

  /// "443/tcp", as services are written; nil without one protocol that has ports and one port
  /// in common.
  static func service(_ protocols: Set<IPProtocolNumber>, _ ports: Set<UInt16>) -> String? {
    guard protocols.count == 1, let p = protocols.first, p == .tcp || p == .udp, ports.count == 1
    else { return nil }
    return "\(ports.first!)/\(p.name)"
  }

  public var flowCount: Int { flowIDs.count }
  public var findings: [Finding] { assessment.findings.findings }
  public var catalogue: RequirementCatalogue { assessment.catalogue }
  public var minimum: TLSProtocolVersion { catalogue.policy.minimumTLSVersion }

  public func findingIDs(ofFlow id: Int64) -> [String] { citations.identifiers(ofFlow: id) }

  /// The comment on the packets of flow `id` in capture.pcapng.
  public func packetComment(ofFlow id: Int64) -> String {
    EvidenceCaptureDocument.packetComment(
      flowID: id, findingIDs: findingIDs(ofFlow: id), openedOutside: continuing[id]?.opening)
  }

  /// The same comment appended as UTF-8 bytes.
  public func appendPacketComment(ofFlow id: Int64, to bytes: inout [UInt8]) {
    EvidenceCaptureDocument.appendPacketComment(
      flowID: id, findingIDs: findingIDs(ofFlow: id), openedOutside: continuing[id]?.opening,
      to: &bytes)
  }

  /// "Example Health – 2.4.0 (187) – session 3": the bundle's name, safe as a file name.
  public var fileStem: String { Self.fileStem(projectName: project.name, session: session) }

  /// The same for a session of a project of this name, without a bundle made.
  public static func fileStem(projectName: String, session: AuditSession) -> String {
    let release = session.kind.release.map { "\($0.version)-\($0.build)" } ?? "baseline"
    return fileStem(project: projectName, release: release, sessionID: session.id)
  }

  /// The name's parts kept to ASCII letters, digits, "-", "." and "_", each part without a
  /// leading or trailing dot or dash (a name that starts with "." is hidden, one that starts with
  /// "-" reads as an option) and cut short (a file name has 255 bytes at most, and the bundle's
  /// temporary files add to it).
  public static func fileStem(project: String, release: String, sessionID: Int64) -> String {
    func part(_ text: String, limit: Int) -> String {
      var kept = String(
        text.unicodeScalars.map { scalar -> Character in
          CharacterSet.alphanumerics.contains(scalar) && scalar.isASCII
            || "-._".unicodeScalars.contains(scalar) ? Character(scalar) : "-"
        })
      while kept.contains("--") { kept = kept.replacingOccurrences(of: "--", with: "-") }
      let edges: Set<Character> = ["-", "."]
      return String(
        String(kept.drop { edges.contains($0) }.prefix(limit)).reversed().drop {
          edges.contains($0)
        }.reversed())
    }
    return [part(project, limit: 100), part(release, limit: 60), "session-\(sessionID)-evidence"]
      .filter { !$0.isEmpty }.joined(separator: "-")
  }

  /// The file names of the bundle, as the manifest lists them (the manifest not among them).
  public static let sessionName = "session.json", flowsName = "flows.json",
    flowsCSVName = "flows.csv"
  public static let findingsName = "findings.json", captureJSONName = "capture.json"
  public static let exchangesName = EvidenceExchangesDocument.fileName
  public static let documentNames = [
    sessionName, flowsName, flowsCSVName, findingsName, exchangesName,
  ]
  public static let captureNames = [EvidenceCaptureDocument.fileName, captureJSONName]
  public static let reportName = "report.pdf"
  /// The file a server scan is carried in: "server-scan-1.json", in the session's order.
  public static func serverScanName(_ index: Int) -> String { "server-scan-\(index + 1).json" }
  public static func isServerScanName(_ name: String) -> Bool {
    guard name.hasPrefix("server-scan-"), name.hasSuffix(".json") else { return false }
    let number = name.dropFirst("server-scan-".count).dropLast(".json".count)
    return !number.isEmpty && number.first != "0" && number.allSatisfy(\.isASCII)
      && number.allSatisfy(\.isNumber)
  }
  /// The files whose SHA-256 report.pdf cites on its first page, in the archive's order: every
  /// other file but the manifest, which is written after the report and lists it.
  public static var reportCitedNames: [String] {
    (documentNames + captureNames).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
  }
  public static let manifestName = "manifest.json"
  /// Each JSON document's table of keys, by its file name.
  public static let documentKeys: [String: any DocumentKeys.Type] = [
    sessionName: SessionDocument.Key.self, flowsName: FlowsDocument.Key.self,
    findingsName: FindingsDocument.Key.self, captureJSONName: CaptureDocument.Key.self,
    exchangesName: EvidenceExchangesDocument.DocumentKey.self,
    manifestName: ManifestDocument.Key.self,
  ]
  /// An Ed25519 signature of manifest.json, after it, when the bundle was signed.
  public static let signatureName = "signature.json"

  /// signature.json: what signs, with which key, the signature itself.
  public static func signatureDocument(publicKey: Data, signature: Data) -> JSONValue {
    .object([
      "algorithm": .string("Ed25519"), "signs": .string(manifestName),
      "publicKey": .string(publicKey.base64EncodedString()),
      "signature": .string(signature.base64EncodedString()),
    ])
  }
}

/// The notes a bundle carries about itself, quoted by the screen and the report as written.
public enum EvidenceNotes {
  public static let attribution =
    "The recorder sees packets, not apps. While this session recorded, every connection the device made was tagged with it, whichever app made it. What separates the audited app's traffic from the rest is the baseline: a session recorded on the same device without the app, whose hosts the app's session can be compared with. A connection listed here is one the device made during the session, not necessarily one the app made."

  /// How the session's connections are attributed: a recorded session's as the recorder tags
  /// them, an imported one's as the capture saw them (of any device on its interface).
  public static func attribution(for session: AuditSession) -> String {
    guard let source = session.source else { return attribution }
    return
      "This session was imported from a capture file (\(source.fileName)). A capture sees packets, not apps: the session holds every connection the capture saw on the interface it was taken on, whichever device on it and whichever app made it; which end of each is the device was inferred or given at the import, not observed. What separates the audited app's traffic from the rest is the baseline: a session recorded on the same device without the app, whose hosts the app's session can be compared with. A connection listed here is one the capture saw during the session, not necessarily one the app made."
  }

  /// What recorded the session's traffic: tunnelvision, or the application that wrote the
  /// capture it was imported from (as the file names it), which tunnelvision then read.
  public static func recordedWith(_ session: AuditSession) -> String {
    guard let source = session.source else {
      return "tunnelvision \(session.environment.toolVersion)"
    }
    return
      "\(source.application ?? "an application the capture does not name"); imported from \(source.fileName) with tunnelvision \(session.environment.toolVersion)"
  }
  public static let captureContents =
    "The packets of the session's connections, sliced from the device's capture files: every packet the history holds whose bytes could be read back. capture.json counts the packets that are not in it, and why."
  public static let packetComments =
    "Each packet carries a comment naming its connection (flow=ID, as in flows.json) and the findings that connection proves (findings=F1,F2, as in findings.json). A connection that opened in a row this bundle does not hold names its findings as resting on packets read earlier instead (findings= readEarlier=F1,F2 openedIn=ID session=N): these packets hold none of what was read of it before."
  /// Nothing in the history says what the pinning of the app is: the session says whether it can be read.
  public static func pinning(_ conditions: InspectionConditions) -> String {
    PinningEvidence(conditions).sentence
  }
}
