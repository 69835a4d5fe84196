import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Foundation

/// The report's own sentences: what it says where the documents do not.
public enum EvidenceReportWording {
  public static let intro =
    "This report sets out what the documents of the evidence bundle say. Where it quotes another document of the bundle, the text is set apart and reproduced verbatim. The JSON documents are the ones that count: the report is composed from them."
  public static let noMarkers =
    "No markers were placed in this session, so no connection can be placed before or after a moment of the app's use; consent was not assessed."
  public static let emptyAllowlist =
    "The project's allowlist is empty: no connection can be found to go outside it, and the host check could not be assessed."
  public static let methodIntro =
    "The four notes of the bundle, quoted from the documents that carry them; how traffic is attributed comes first."
  public static let requirementsIntro =
    "Every requirement of the catalogue with what the session's traffic shows against it. A verdict is not a test result."
  public static let findingsIntro =
    "The findings, grouped by what they state: each sentence once, the requirements it bears on, and a row per finding with its identifier, what it is about, when it was first seen and the connections that show it. A finding of more than four connections has their flow ids in the appendix."
  public static let appendixIntro =
    "The flow ids of each finding that cites more connections than its row in Findings lists; flows.json holds every connection by its flow id."
  public static let hostsIntro =
    "Every host the session's connections went to, once, in the order first contacted: its party by the project's allowlist (or the tracker list that names it), its connections, the bytes it was sent and sent back, the TLS versions its servers negotiated, where its server addresses are registered (with an address database given) and the findings that cite its connections."
  public static let testLogIntro =
    "The record of the test (TR-03161-1 §4.2): the steps the history kept, in the order they happened, then every tool in the chain with the version it stated, so that a third party can repeat the test with the same tools. session.json's testLog holds the same; what was done on the device between the steps is the assessor's to record."
  public static let testLogStepColumns = ["Time", "Step"]
  public static let testLogToolColumns = ["Tool", "Version", "What it did"]
  public static let testLogToolsTitle = "Tools and versions"
  /// A tool's use, with the options it ran with (an inspecting proxy's).
  public static func toolUse(_ tool: EvidenceTestLog.Tool) -> String {
    guard let options = tool.options, !options.isEmpty else { return tool.use }
    return "\(tool.use); its options: \(TestLogWording.options(options))"
  }
  /// The inventory's columns; "Registered" only when an address database was given.
  public static func hostColumns(registered: Bool) -> [String] {
    ["Host", "Party", "Connections", "Sent", "Received", "TLS"] + (registered ? ["Registered"] : [])
      + ["Findings"]
  }
  public static func unnamedHosts(_ count: Int) -> String {
    "\(Quantity.count(count, "connection")) without a name \(count == 1 ? "is" : "are") not listed here; the host check states \(count == 1 ? "it" : "them")."
  }
  public static func party(_ host: EvidenceHostInventory.Host) -> String {
    if let tracker = host.tracker { return "tracker (\(TrackerWording.citation(tracker)))" }
    switch host.party {
    case .firstParty: return "first party"
    case .thirdParty: return "third party"
    case .unknown: return "no allowlist"
    }
  }
  public static func registered(_ host: EvidenceHostInventory.Host) -> String {
    guard !host.registrations.isEmpty else { return "not in the databases" }
    return host.registrations.map(AddressRegistrationWording.registration).joined(
      separator: "; ")
  }
  /// Flow ids a finding's row lists; more go to the appendix.
  public static let flowIDsInRow = 4
  public static func flowIDsInAppendix(_ count: Int) -> String {
    "\(Quantity.grouped(count)) in the appendix"
  }
  public static func appendixAnchor(_ findingID: String) -> String { "\(findingID)-flows" }
  /// The columns of a table of findings; a baseline session adds what it also contacted.
  public static func findingRowColumns(baseline: Int64?) -> [String] {
    ["Finding", "Stated about", "First seen (UTC)", "Flow ids"]
      + (baseline == nil ? [] : ["Baseline"])
  }

  /// What the Baseline column is, said once above the findings.
  public static func baselineColumn(_ sessionID: Int64) -> String {
    "The Baseline column says whether the baseline, session \(sessionID), also contacted a finding's host (of several, how many of them); it changes no verdict."
  }

  /// Which of a finding's hosts the baseline also contacted.
  public static func alsoContacted(_ count: Int, of total: Int) -> String {
    switch count {
    case 0: return "—"
    case total where total == 1: return "also contacted"
    default: return "\(count) of \(total) hosts"
    }
  }

  /// The summary's line on the baseline the findings are compared with.
  public static func baseline(_ baseline: EvidenceBaseline?, session: AuditSession, hosts: Int)
    -> String
  {
    guard let baseline else {
      return session.kind == .baseline
        ? "This session is a baseline: it is not compared with another."
        : "The project has no ended baseline to compare the hosts with."
    }
    return
      "Session \(baseline.sessionID): the baseline, recorded without the audited app, contacted \(Quantity.count(hosts, "host")) of those the findings name. This changes no verdict."
  }

  /// A group of findings' heading: what they are, and how many.
  public static func groupHeading(_ evidence: FindingEvidence, count: Int) -> String {
    "\(EvidenceWording.shortStatement(evidence)) · \(Quantity.count(count, "finding"))"
  }

  public static let bearingLabel = "The findings stand"
  /// "against O.Purp_3 and O.Purp_4; in support of O.Ntwk_4".
  public static func bearing(against: [String], support: [String]) -> String {
    [("against", against), ("in support of", support)].filter { !$0.1.isEmpty }.map {
      "\($0.0) \(Quantity.list($0.1))"
    }.joined(separator: "; ")
  }
  public static let citedByNone = "No requirement of the catalogue cites these findings."
  public static let noFindings = "The session holds no findings."
  public static let checksIntro =
    "For \(EvidenceWording.eachCheck), how many connections stand behind a finding, were looked at with nothing to report, could not be assessed, or were not what the check looks at. The four add up to the session's connections."
  public static let checkColumns = [
    "Check", "Behind a finding", "Looked at, nothing to report", "Not assessed", "Not applicable",
  ]
  public static let checkReasonsTitle = "Why a check could not look"
  public static let checkReasonColumns = ["Check", "Connections", "Why it could not look"]
  public static let tlsIntro =
    "One row per host and reading: where the host's name comes from, the version and where it was read, the cipher suite and group the server chose, the TLS client that connected (its JA4 fingerprint, given once in the table after it), and how many connections."
  public static let tlsColumns = [
    "Host", "Name from", "Version", "Read from", "Cipher suite · group", "Client", "Connections",
  ]
  public static let tlsClientsTitle = "TLS clients"
  public static let tlsClientColumns = ["Client", "JA4 fingerprint", "Hosts", "Connections"]
  /// A TLS client's label in the table of readings: "C1", "C2"… in the order first shown.
  public static func clientLabel(_ index: Int) -> String { "C\(index + 1)" }
  public static let noTLSReadings = "No TLS version was read in this session."
  public static func withoutBytes(_ reason: EvidenceMissingReason) -> String {
    switch reason {
    case .notCaptured: return "Without bytes: never written to a capture file"
    case .captureFileMissing: return "Without bytes: their capture file is gone"
    case .recordUnreadable: return "Without bytes: their record could not be read"
    }
  }
  public static func belowMinimum(_ version: TLSProtocolVersion, _ minimum: TLSProtocolVersion)
    -> String
  { "▼ \(version.name), below \(minimum.catalogueText ?? minimum.name)" }
  public static func continued(_ title: String) -> String { "\(title) (continued)" }
  public static let noneAgainst = "No finding runs against it."
  public static let against = "Findings against it:"
  public static let inSupport = "Findings in its support:"
  public static func againstTitle(_ requirement: String) -> String {
    "\(requirement) · findings against it"
  }
  public static func supportTitle(_ requirement: String) -> String {
    "\(requirement) · findings in its support"
  }
  public static let summaryIntro =
    "Each requirement's verdict, and the findings, connections and hosts behind it. A verdict is not a test result."
  /// Page 1's totals: connections, hosts and registrable domains, the parties, the bytes.
  public static let trafficLabel = "Traffic"
  public static func traffic(
    _ t: EvidenceTrafficTotals, allowlist: Bool, domains: Bool, trackerLists: Bool
  ) -> String {
    let unnamed =
      t.unnamedConnections > 0 ? " (\(Quantity.grouped(t.unnamedConnections)) without a name)" : ""
    let parties =
      allowlist
      ? "\(Quantity.grouped(t.firstPartyHosts)) first party (the allowlist covers them), \(Quantity.grouped(t.thirdPartyHosts)) third party"
      : "no allowlist to tell first from third parties"
    let trackers =
      trackerLists
      ? ", \(Quantity.grouped(t.trackerHosts)) named by a tracker list" : ", no tracker list read"
    return
      "\(Quantity.count(t.connections, "connection"))\(unnamed) to \(Quantity.count(t.hosts, "host"))\(domains ? " in \(Quantity.count(t.registrableDomains, "registrable domain"))" : ""): \(parties)\(trackers); \(Quantity.byteCount(t.bytesOut)) sent, \(Quantity.byteCount(t.bytesIn)) received."
  }

  /// Above the key findings: how many of them page 1 lists.
  public static func keyFindings(shown: Int, of total: Int) -> String {
    shown == total
      ? "The findings against the requirements, a line each (each is stated in full under Findings):"
      : "The first \(shown) of the \(Quantity.grouped(total)) findings against the requirements, a line each (the Findings section states every one):"
  }
  public static let noFindingAgainst = "No finding runs against any requirement of the catalogue."
  public static let keyFindingsShown = 2
  public static let digestColumns = [
    "File", "SHA-256, as manifest.json lists it ('tunnelvision verify' checks each)",
  ]
  /// A line to write on, for the assessor's block.
  public static let blank = "________________________"
  public static let assessorColumns = ["Assessed by", "Date", "Signature"]
  /// Findings a requirement tables, a line each; more are cited by their identifiers.
  public static let findingsTabledUnderRequirement = 4
  public static func cited(_ lead: String, count: Int, groups: [String], ranges: [String])
    -> String
  {
    var parts: [String] = []
    if !groups.isEmpty {
      parts.append(
        (groups.count == 1 ? "the group " : "the groups ")
          + groups.map { "“\($0)”" }.joined(separator: ", "))
    }
    parts += ranges
    return
      "\(lead) \(Quantity.grouped(count)) findings: \(parts.joined(separator: ", ")); each is stated, with what it is about, under Findings."
  }
  /// Hosts listed for a finding about several; the rest are counted.
  public static let subjectsShown = 4
  /// The columns every table of findings under a requirement has: they take one shape.
  public static let findingColumns = ["Finding", "Stated about", "Connections"]

  /// After the flow ids shown of a finding citing more: short, for a narrow column.
  public static func flowIDsCut(shown: Int, of total: Int) -> String {
    "\(Quantity.grouped(total - shown)) more in flows.json"
  }

  public static func tlsRowsCut(shown: Int, of total: Int) -> String {
    "The table below stops at \(Quantity.grouped(shown)) of \(Quantity.grouped(total)) rows, those below the minimum first; flows.json holds every reading."
  }

  public static func coverage(_ c: CheckCoverageSummary) -> String {
    "The \(EvidenceWording.checksNoun(c.checks)) looked at \(Quantity.count(c.lookedAt, "connection")), could not assess \(Quantity.grouped(c.unassessed)) and does not apply to \(Quantity.grouped(c.notApplicable))."
  }
}

/// Builds the blocks of each section from the bundle's documents.
struct EvidenceReportContent {
  let bundle: EvidenceBundle
  let capture: EvidenceCaptureSummary
  let limits: EvidenceReportLimits
  let digests: [EvidenceReportDigest]
  /// Each finding's index in `bundle.findings` (its identifier is F and one more).
  let findingIndex: [Finding: Int]
  /// The findings' indices by statement, in the order each statement first comes.
  let findingGroups: [[Int]]

  init(
    bundle: EvidenceBundle, capture: EvidenceCaptureSummary, limits: EvidenceReportLimits,
    digests: [EvidenceReportDigest]
  ) {
    self.bundle = bundle
    self.capture = capture
    self.limits = limits
    self.digests = digests
    findingIndex = Dictionary(
      uniqueKeysWithValues: bundle.findings.enumerated().map { ($1, $0) })
    var order: [String] = []
    var grouped: [String: [Int]] = [:]
    for (index, finding) in bundle.findings.enumerated() {
      let sentence = EvidenceWording.statement(of: finding.evidence, minimum: bundle.minimum)
      if grouped[sentence] == nil { order.append(sentence) }
      grouped[sentence, default: []].append(index)
    }
    findingGroups = order.map { grouped[$0]! }
  }

  func blocks(of kind: EvidenceReportSectionKind) -> [EvidenceReportBlock] {
    switch kind {
    case .summary: return summary
    case .session: return session
    case .hosts: return hosts
    case .personalData: return personalData
    case .method: return method
    case .testLog: return testLog
    case .catalogue: return catalogue
    case .requirements: return requirements
    case .findings: return findings
    case .checks: return checks
    case .tlsReadings: return tlsReadings
    case .capture: return captureBlocks
    case .appendix: return appendix
    }
  }

  /// Every time the report prints: to the second, with the zone (flows.json keeps microseconds).
  static func time(_ date: Date) -> String { Instant.rfc3339ToTheSecond(date) }

  /// The first page, which stands alone: what was recorded, each requirement's verdict with
  /// what stands behind it, the findings against the requirements in a line each, and a block
  /// for the assessor.
  var summary: [EvidenceReportBlock] {
    let s = bundle.session
    var blocks: [EvidenceReportBlock] = [
      .facts([
        EvidenceReportFact(
          "Session",
          "\(s.id): \(s.kind.release.map { "release \($0.version) (build \($0.build))" } ?? "baseline, recorded without the audited app")",
          staysWithNext: true),
        EvidenceReportFact(
          "Recorded",
          "\(Self.time(s.startedAt)) to \(s.endedAt.map(Self.time) ?? "—"), \(EvidenceNotes.recordedWith(s)); certificates: \(s.inspection.inspectionEnabled ? PinningEvidence.scenarioPhrase(s.inspection.scenario) : "HTTPS inspection off")",
          staysWithNext: true),
        EvidenceReportFact(
          "Coverage",
          ([CoverageWording.headline(bundle.coverage, open: s.isOpen)]
            + CoverageWording.gapLines(bundle.coverage, instant: Self.time)).joined(separator: " "),
          staysWithNext: true),
        EvidenceReportFact(
          EvidenceReportWording.trafficLabel,
          EvidenceReportWording.traffic(
            bundle.totals, allowlist: !bundle.project.allowlist.isEmpty,
            domains: bundle.publicSuffixList != nil, trackerLists: !bundle.trackerLists.isEmpty),
          staysWithNext: true),
        EvidenceReportFact(
          ContentWording.summaryLabel, personalDataLine, staysWithNext: true),
        EvidenceReportFact(
          "Baseline",
          EvidenceReportWording.baseline(
            bundle.baseline, session: s,
            hosts: Set(bundle.baselineHosts.compactMap { $0 }.joined().map { $0.lowercased() })
              .count)),
      ]),
      .paragraph(EvidenceReportWording.summaryIntro),
    ]
    blocks.append(
      .table(
        EvidenceReportTable(
          columns: ["Requirement", "Verdict", "Findings", "Connections", "Hosts"],
          rows: bundle.assessment.requirements.map { r in
            let cited = r.contraryFindings + r.supportingFindings
            let indices = cited.compactMap { findingIndex[$0] }
            let flows = Set(cited.flatMap(\.flowIDs))
            let hosts = Set(indices.flatMap { bundle.findingSubjects[$0].names })
            let counted = r.requirement.rule.readsFindings
            return [
              EvidenceReportCell(
                r.requirement.id, style: .literal,
                link: EvidenceReportLine.requirementAnchor(r.requirement.id)),
              EvidenceReportCell(EvidenceWording.verdictMark(r)),
              EvidenceReportCell(counted ? Quantity.grouped(cited.count) : "—"),
              EvidenceReportCell(counted ? Quantity.grouped(flows.count) : "—"),
              EvidenceReportCell(counted ? Quantity.grouped(hosts.count) : "—"),
            ]
          })))
    // Most serious first (what they mean for the requirement), then as they happened.
    let against = bundle.assessment.requirements.flatMap(\.contraryFindings)
    let key = Set(against.compactMap { findingIndex[$0] }).sorted {
      (bundle.findings[$0].kind.meaning, $0) < (bundle.findings[$1].kind.meaning, $1)
    }
    if key.isEmpty {
      blocks.append(.paragraph(EvidenceReportWording.noFindingAgainst))
    } else {
      blocks.append(
        .paragraph(
          EvidenceReportWording.keyFindings(
            shown: min(key.count, EvidenceReportWording.keyFindingsShown), of: key.count)))
      blocks.append(
        .table(
          EvidenceReportTable(
            columns: ["Finding", "What", "About"],
            rows: key.prefix(EvidenceReportWording.keyFindingsShown).map { index in
              let id = FindingsDocument.identifier(index)
              return [
                EvidenceReportCell(id, style: .literal, link: id),
                EvidenceReportCell(
                  EvidenceWording.shortStatement(bundle.findings[index].evidence)),
                subject(index, compact: true),
              ]
            })))
    }
    blocks.append(.table(Self.digestTable(digests)))
    blocks.append(
      .table(
        EvidenceReportTable(
          columns: EvidenceReportWording.assessorColumns,
          rows: [
            EvidenceReportWording.assessorColumns.map { _ in
              EvidenceReportCell(EvidenceReportWording.blank)
            }
          ])))
    return blocks
  }

  /// Page 1's line on the test account's values: how many were seen, how many by third parties.
  var personalDataLine: String {
    let sent = SentValues.of(bundle.content, findings: bundle.findings, markers: bundle.markers)
    return ContentWording.summaryLine(
      planted: bundle.content.values.count, seen: Set(sent.map(\.label)).count,
      toThirdParties: Set(sent.filter(\.isThirdParty).map(\.label)).count)
  }

  static func digestTable(_ digests: [EvidenceReportDigest]) -> EvidenceReportTable {
    EvidenceReportTable(
      columns: EvidenceReportWording.digestColumns,
      rows: digests.map {
        [
          EvidenceReportCell($0.name, style: .literal),
          EvidenceReportCell($0.sha256, style: .literal),
        ]
      })
  }

  var session: [EvidenceReportBlock] {
    let s = bundle.session
    var facts = [
      EvidenceReportFact("Project", bundle.project.name),
      EvidenceReportFact(
        "Release",
        s.kind.release.map { "\($0.version) (build \($0.build))" }
          ?? "Baseline: recorded without the audited app"),
      EvidenceReportFact("Session", "\(s.id)", literal: true),
      EvidenceReportFact("Started", Self.time(s.startedAt), literal: true),
      EvidenceReportFact("Ended", s.endedAt.map(Self.time) ?? "", literal: true),
      EvidenceReportFact("Device", "\(s.environment.deviceModel), \(s.environment.osVersion)"),
      EvidenceReportFact("Recorded with", EvidenceNotes.recordedWith(s)),
      EvidenceReportFact("Exported with", bundle.exportedWith),
      EvidenceReportFact("Exported at", Self.time(bundle.exportedAt), literal: true),
      EvidenceReportFact(
        "HTTPS inspection", s.inspection.inspectionEnabled ? "on" : "off", staysWithNext: true),
      EvidenceReportFact(
        "Certificate scenario", PinningEvidence.scenarioPhrase(s.inspection.scenario)),
    ]
    if let bundleID = bundle.project.bundleIdentifier {
      facts.insert(EvidenceReportFact("Bundle identifier", bundleID, literal: true), at: 1)
    }
    if !s.notes.isEmpty { facts.append(EvidenceReportFact("Notes", s.notes)) }
    var blocks: [EvidenceReportBlock] = [
      .paragraph(EvidenceReportWording.intro), .facts(facts),
      .heading("Certificate checks"), .note(EvidenceNotes.pinning(s.inspection)),
    ]
    blocks.append(.heading("Markers"))
    if bundle.markers.isEmpty {
      blocks.append(.paragraph(EvidenceReportWording.noMarkers))
    } else {
      blocks.append(
        .table(
          EvidenceReportTable(
            columns: ["Time", "Marker"],
            rows: bundle.markers.map {
              [
                EvidenceReportCell(Self.time($0.date), style: .literal),
                EvidenceReportCell(AuditPresentation.markerName($0.kind)),
              ]
            })))
    }
    blocks.append(.heading("Allowlist"))
    if bundle.project.allowlist.isEmpty {
      blocks.append(.paragraph(EvidenceReportWording.emptyAllowlist))
    } else {
      blocks.append(.paragraph(AllowlistPresentation.formsRule))
      blocks.append(
        .table(
          EvidenceReportTable(
            columns: ["Pattern", "Note"],
            rows: bundle.project.allowlist.map {
              [
                EvidenceReportCell($0.pattern.text, style: .literal),
                EvidenceReportCell($0.note ?? ""),
              ]
            })))
    }
    blocks += registrations
    blocks += serverConfiguration
    return blocks
  }

  /// The host inventory: a row per host.
  var hosts: [EvidenceReportBlock] {
    let inventory = bundle.hostInventory
    var blocks: [EvidenceReportBlock] = [.paragraph(EvidenceReportWording.hostsIntro)]
    if inventory.unnamedConnections > 0 {
      blocks.append(
        .paragraph(EvidenceReportWording.unnamedHosts(inventory.unnamedConnections)))
    }
    guard !inventory.hosts.isEmpty else { return blocks }
    let looked = !bundle.addressRegistrations.databases.isEmpty
    blocks.append(
      .table(
        EvidenceReportTable(
          columns: EvidenceReportWording.hostColumns(registered: looked),
          rows: inventory.hosts.map { host in
            var row = [
              EvidenceReportCell(host.name, style: .literal),
              EvidenceReportCell(EvidenceReportWording.party(host)),
              EvidenceReportCell("\(host.connections)", style: .literal),
              EvidenceReportCell(Quantity.byteCount(host.bytesOut), style: .literal),
              EvidenceReportCell(Quantity.byteCount(host.bytesIn), style: .literal),
              EvidenceReportCell(
                host.versions.isEmpty ? "—" : host.versions.map(\.name).joined(separator: ", ")),
            ]
            if looked { row.append(EvidenceReportCell(EvidenceReportWording.registered(host))) }
            // One finding links to where it is stated, as every lone identifier in a table does.
            row.append(
              EvidenceReportCell(
                host.findingIDs.joined(separator: ", "), style: .literal,
                link: host.findingIDs.count == 1 ? host.findingIDs[0] : nil))
            return row
          }, title: EvidenceReportSectionKind.hosts.title)))
    return blocks
  }

  /// TR-03161-1 §4.2's record: the steps in order with their times, then the tools in the chain
  /// with their versions (an unknown one said so), as session.json's `testLog` states them.
  var testLog: [EvidenceReportBlock] {
    let log = bundle.testLog
    return [
      .paragraph(EvidenceReportWording.testLogIntro),
      .table(
        EvidenceReportTable(
          columns: EvidenceReportWording.testLogStepColumns,
          rows: log.steps.map { step in
            [
              EvidenceReportCell(step.at.map(Self.time) ?? "—", style: .literal),
              EvidenceReportCell(step.statement),
            ]
          }, title: EvidenceReportSectionKind.testLog.title)),
      .heading(EvidenceReportWording.testLogToolsTitle),
      .table(
        EvidenceReportTable(
          columns: EvidenceReportWording.testLogToolColumns,
          rows: log.tools.map { tool in
            [
              EvidenceReportCell(tool.name, style: .literal),
              EvidenceReportCell(tool.version ?? TestLogWording.unknownVersion, style: .literal),
              EvidenceReportCell(EvidenceReportWording.toolUse(tool)),
            ]
          }, title: EvidenceReportWording.testLogToolsTitle)),
    ]
  }

  /// What the session's server scans found each server to offer, judged as `scan` judges it:
  /// each scan evidence of its own instant, said first.
  var serverConfiguration: [EvidenceReportBlock] {
    var blocks: [EvidenceReportBlock] = [.heading("Server configuration")]
    guard !bundle.serverScans.isEmpty else {
      return blocks + [.paragraph(ScanWording.noneInBundle(bundle.session.id))]
    }
    let policy = bundle.catalogue.policy
    let judge = ServerConfigurationJudge(policy: policy, year: bundle.session.startYear)
    for (index, stored) in bundle.serverScans.enumerated() {
      blocks.append(
        .paragraph(ScanWording.inBundle(stored, file: EvidenceBundle.serverScanName(index))))
      guard let run = try? ServerScanReport.read(stored.output) else {
        blocks.append(.paragraph(ScanWording.unreadableInBundle))
        continue
      }
      blocks.append(.note(ServerConfigurationWording.provenance(run)))
      for scan in run.scans {
        let lines = ServerConfigurationWording.lines(
          scan, observations: judge.judge(scan), minimum: policy.minimumTLSVersion,
          document: policy.tlsDocument)
        blocks.append(.paragraph(lines[0]))
        blocks += lines.dropFirst().map {
          .paragraph($0.trimmingCharacters(in: .whitespaces))
        }
      }
    }
    return blocks
  }

  /// Where the addresses are registered: what the address databases state, or that none was
  /// given (said here once).
  var registrations: [EvidenceReportBlock] {
    let stated = bundle.addressRegistrations
    var blocks: [EvidenceReportBlock] = [.heading("Where the addresses are registered")]
    let lines = AddressRegistrationWording.summary(stated)
    guard !stated.databases.isEmpty else { return blocks + lines.map { .paragraph($0) } }
    blocks.append(.paragraph(lines[0]))
    let found = stated.addresses.compactMap { a in stated.of(a).map { (a, $0) } }
    if !found.isEmpty {
      blocks.append(
        .table(
          EvidenceReportTable(
            columns: ["Address", "Registration", "EU/EEA"],
            rows: found.map { address, registration in
              [
                EvidenceReportCell(address, style: .literal),
                EvidenceReportCell(AddressRegistrationWording.phrase(registration)),
                EvidenceReportCell(AddressRegistrationWording.area(registration)),
              ]
            })))
    }
    blocks.append(.note(AddressRegistrationWording.notProcessing))
    return blocks
  }

  var method: [EvidenceReportBlock] {
    [
      .paragraph(EvidenceReportWording.methodIntro),
      .heading("How traffic is attributed (session.json, attribution)"),
      .note(EvidenceNotes.attribution(for: bundle.session)),
      .heading("What the bundle holds (session.json, contents)"),
      .note(ContentWording.contents(withContent: bundle.includesContent)),
      .heading("What a verdict is (findings.json, verdictsNote)"),
      .note(EvidenceWording.verdictsNote),
      .heading("What the capture holds (capture.json, contents)"),
      .note(EvidenceNotes.captureContents),
    ]
  }

  var catalogue: [EvidenceReportBlock] {
    let c = bundle.catalogue
    func source(_ s: CatalogueSource) -> [EvidenceReportFact] {
      [
        EvidenceReportFact("Document", s.document, staysWithNext: true),
        EvidenceReportFact("Title", s.title, staysWithNext: true),
        EvidenceReportFact("Version", s.version, staysWithNext: true),
        EvidenceReportFact("Date", s.date, literal: true, staysWithNext: true),
        s.sha256.map { EvidenceReportFact("SHA-256 of the PDF", $0, literal: true) }
          ?? EvidenceReportFact("Published at", s.url ?? "—", literal: true),
      ]
    }
    return [
      .facts([
        EvidenceReportFact("Catalogue", c.identifier, literal: true),
        EvidenceReportFact("TLS minimum", bundle.minimum.name),
      ]),
      .heading("Requirements document"), .facts(source(c.source)),
      .heading("Where the TLS minimum comes from"), .facts(source(c.tlsSource)),
    ]
  }

  /// What a finding is about: its host, else the names of its connections (their two ends
  /// when unnamed), so that no finding stands without a subject. `compact`: several are counted,
  /// not listed (the Findings section lists them), so that a table under a requirement keeps a
  /// line a finding.
  func subject(_ index: Int, compact: Bool = false) -> EvidenceReportCell {
    let finding = bundle.findings[index]
    let stated = EvidenceWording.subject(of: finding.evidence)
    let names = bundle.findingSubjects[index].names
    // The protocol and port its connections share, beside a host name (an unnamed connection's
    // two ends carry their ports already).
    let service =
      compact || names.allSatisfy({ $0.contains(" ↔ ") })
      ? nil : bundle.findingSubjects[index].service
    if let stated, let host = finding.evidence.host {
      return EvidenceReportCell(
        stated + (service.map { " (\($0))" } ?? "")
          + (compact ? "" : bundle.registrableDomains.beside(host)), style: .literal)
    }
    var hosts: String
    switch names.count {
    case 0: hosts = ""
    case 1: hosts = names[0]
    case _ where compact: hosts = "\(names.count) hosts"
    default:
      let shown = names.prefix(EvidenceReportWording.subjectsShown).joined(separator: ", ")
      hosts =
        "\(names.count) hosts: \(shown)\(names.count > EvidenceReportWording.subjectsShown ? ", …" : "")"
    }
    // A reading stated without a host (a TLS version) is said with the hosts it was read from.
    let text =
      [stated, hosts.isEmpty ? nil : hosts].compactMap { $0 }.joined(separator: " · ")
      + (service.map { " (\($0))" } ?? "")
    return EvidenceReportCell(text.isEmpty ? "—" : text, style: stated == nil ? .literal : .text)
  }

  /// A finding's first connection's first packet, in UTC.
  func firstSeen(_ index: Int) -> EvidenceReportCell {
    EvidenceReportCell(
      bundle.findingSubjects[index].firstSeen.map(Self.time) ?? "—", style: .literal)
  }

  /// The findings a requirement cites: a table of a line each while they are few; past that,
  /// their identifiers in ranges (each finding is stated once, under Findings).
  func citations(_ lead: String, _ list: [Finding], title: String) -> [EvidenceReportBlock] {
    guard list.count > EvidenceReportWording.findingsTabledUnderRequirement else {
      return [
        .paragraph(lead),
        .table(
          EvidenceReportTable(
            columns: EvidenceReportWording.findingColumns, rows: findingRows(list), title: title)),
      ]
    }
    // Whole groups of Findings are cited by their headings; the rest by identifier ranges.
    var rest = Set(list.compactMap { findingIndex[$0] })
    var groups: [String] = []
    for group in findingGroups where Set(group).isSubset(of: rest) {
      groups.append(
        EvidenceReportWording.groupHeading(bundle.findings[group[0]].evidence, count: group.count))
      rest.subtract(group)
    }
    let indices = rest.sorted()
    var ranges: [String] = []
    var start = indices.first ?? 0
    var previous = start
    for n in indices.isEmpty ? [] : indices.dropFirst() + [Int.min] {
      if n == previous + 1 {
        previous = n
        continue
      }
      let (first, last) = (
        FindingsDocument.identifier(start), FindingsDocument.identifier(previous)
      )
      ranges.append(start == previous ? first : "\(first)–\(last)")
      start = n
      previous = n
    }
    return [
      .paragraph(
        EvidenceReportWording.cited(lead, count: list.count, groups: groups, ranges: ranges))
    ]
  }

  func findingRows(_ list: [Finding]) -> [[EvidenceReportCell]] {
    list.map { finding in
      let index = findingIndex[finding]!
      let id = FindingsDocument.identifier(index)
      return [
        EvidenceReportCell(id, style: .literal, link: id), subject(index, compact: true),
        EvidenceReportCell(Quantity.grouped(finding.flowIDs.count)),
      ]
    }
  }

  var requirements: [EvidenceReportBlock] {
    var blocks: [EvidenceReportBlock] = [
      .paragraph(EvidenceReportWording.requirementsIntro),
      .table(
        EvidenceReportTable(
          columns: ["Requirement", "Title", "Verdict"],
          rows: bundle.assessment.requirements.map {
            [
              EvidenceReportCell(
                $0.requirement.id, style: .literal,
                link: EvidenceReportLine.requirementAnchor($0.requirement.id)),
              EvidenceReportCell(
                $0.requirement.title, language: bundle.catalogue.source.language),
              EvidenceReportCell(EvidenceWording.verdictMark($0)),
            ]
          })),
    ]
    for r in bundle.assessment.requirements {
      blocks.append(
        .heading(
          "\(r.requirement.id) · \(r.requirement.title)",
          anchor: EvidenceReportLine.requirementAnchor(r.requirement.id),
          language: bundle.catalogue.source.language))
      var facts = [
        EvidenceReportFact(
          "Aspect", "(\(r.requirement.aspect.number)) \(r.requirement.aspect.name)",
          staysWithNext: true)
      ]
      if let depth = r.requirement.testDepth {
        facts.append(EvidenceReportFact("Test depth", depth.rawValue, staysWithNext: true))
      }
      facts += [
        EvidenceReportFact(
          "Verdict", EvidenceWording.verdict(r),
          staysWithNext: r.requirement.toolCoverage != nil)
      ]
      if let coverage = r.requirement.toolCoverage {
        facts.append(EvidenceReportFact("What the tool looks at", coverage))
      }
      if let c = r.coverage {
        facts.append(EvidenceReportFact("Connections", EvidenceReportWording.coverage(c)))
      }
      blocks.append(.facts(facts))
      guard r.requirement.rule.readsFindings else { continue }
      if r.contraryFindings.isEmpty {
        blocks.append(.paragraph(EvidenceReportWording.noneAgainst))
      } else {
        blocks += citations(
          EvidenceReportWording.against, r.contraryFindings,
          title: EvidenceReportWording.againstTitle(r.requirement.id))
      }
      if !r.supportingFindings.isEmpty {
        blocks += citations(
          EvidenceReportWording.inSupport, r.supportingFindings,
          title: EvidenceReportWording.supportTitle(r.requirement.id))
      }
    }
    return blocks
  }

  /// The findings in groups of one statement, each under a heading the outline lists: a row a
  /// finding, on one line, with its subject and first sighting; a finding of more connections
  /// than a row lists has them in the appendix.
  var findings: [EvidenceReportBlock] {
    guard !bundle.findings.isEmpty else { return [.paragraph(EvidenceReportWording.noFindings)] }
    var blocks: [EvidenceReportBlock] = [.paragraph(EvidenceReportWording.findingsIntro)]
    // Without a baseline the summary has said so, once.
    if let baseline = bundle.baseline {
      blocks.append(.paragraph(EvidenceReportWording.baselineColumn(baseline.sessionID)))
    }
    for group in findingGroups {
      let first = bundle.findings[group[0]]
      let heading = EvidenceReportWording.groupHeading(first.evidence, count: group.count)
      blocks.append(.heading(heading))
      blocks.append(
        .paragraph(EvidenceWording.statement(of: first.evidence, minimum: bundle.minimum)))
      blocks += bearing(of: Set(group.map { bundle.findings[$0] }))
      blocks.append(
        .table(
          EvidenceReportTable(
            columns: EvidenceReportWording.findingRowColumns(baseline: bundle.baseline?.sessionID),
            rows: group.map { index in
              let finding = bundle.findings[index]
              let id = FindingsDocument.identifier(index)
              let inRow = finding.flowIDs.count <= EvidenceReportWording.flowIDsInRow
              var row = [
                EvidenceReportCell(id, style: .literal, anchor: id), subject(index),
                firstSeen(index),
                inRow
                  ? EvidenceReportCell(
                    AuditPresentation.flowList(finding.flowIDs), style: .literal)
                  : EvidenceReportCell(
                    EvidenceReportWording.flowIDsInAppendix(finding.flowIDs.count),
                    link: EvidenceReportWording.appendixAnchor(id)),
              ]
              if let hosts = bundle.baselineHosts[index] {
                row.append(
                  EvidenceReportCell(
                    EvidenceReportWording.alsoContacted(
                      hosts.count, of: max(hosts.count, bundle.findingSubjects[index].names.count)))
                )
              }
              return row
            }, title: heading)))
      // A connection read before this session's edge: where what the finding rests on was read.
      for index in group {
        for reading in bundle.earlierReadings[index] {
          blocks.append(.note("\(FindingsDocument.identifier(index)): \(reading.sentence)."))
        }
      }
    }
    return blocks
  }

  /// Which requirements a group of findings stands against or in support of: a row each,
  /// linking to the requirement.
  /// The requirements a group of findings bears on, in a line: against them, or in support.
  func bearing(of group: Set<Finding>) -> [EvidenceReportBlock] {
    let requirements = bundle.assessment.requirements
    let against = requirements.filter { !group.isDisjoint(with: $0.contraryFindings) }
    let support = requirements.filter {
      group.isDisjoint(with: $0.contraryFindings) && !group.isDisjoint(with: $0.supportingFindings)
    }
    guard !against.isEmpty || !support.isEmpty else {
      return [.paragraph(EvidenceReportWording.citedByNone)]
    }
    return [
      .facts([
        EvidenceReportFact(
          EvidenceReportWording.bearingLabel,
          EvidenceReportWording.bearing(
            against: against.map(\.requirement.id), support: support.map(\.requirement.id)))
      ])
    ]
  }

  /// The flow ids of each finding whose row could not list them, up to the limit.
  var appendix: [EvidenceReportBlock] {
    let long = bundle.findings.indices.filter {
      bundle.findings[$0].flowIDs.count > EvidenceReportWording.flowIDsInRow
    }
    guard !long.isEmpty else { return [] }
    return [
      .paragraph(EvidenceReportWording.appendixIntro),
      .table(
        EvidenceReportTable(
          columns: ["Finding", "Flow ids of its connections"],
          rows: long.map { index in
            let finding = bundle.findings[index]
            let id = FindingsDocument.identifier(index)
            var ids = AuditPresentation.flowList(
              Array(finding.flowIDs.prefix(limits.flowIDsPerFinding)))
            if finding.flowIDs.count > limits.flowIDsPerFinding {
              ids +=
                ", "
                + EvidenceReportWording.flowIDsCut(
                  shown: limits.flowIDsPerFinding, of: finding.flowIDs.count)
            }
            return [
              EvidenceReportCell(
                id, style: .literal, link: id, anchor: EvidenceReportWording.appendixAnchor(id)),
              EvidenceReportCell(ids, style: .literal),
            ]
          }, title: EvidenceReportSectionKind.appendix.title)),
    ]
  }

  /// Each check's four counts in a row of one table, then why the checks could not look, a row
  /// per check and reason.
  var checks: [EvidenceReportBlock] {
    let reports = bundle.assessment.findings.coverageReports
    var blocks: [EvidenceReportBlock] = [
      .paragraph(EvidenceReportWording.checksIntro),
      .table(
        EvidenceReportTable(
          columns: EvidenceReportWording.checkColumns,
          rows: reports.map { report in
            [
              EvidenceReportCell(EvidenceWording.checkName(report.check)),
              EvidenceReportCell(Quantity.grouped(report.flaggedFlowIDs.count)),
              EvidenceReportCell(Quantity.grouped(report.satisfiedFlowIDs.count)),
              EvidenceReportCell(Quantity.grouped(report.unassessedCount)),
              EvidenceReportCell(Quantity.grouped(report.notApplicableFlowIDs.count)),
            ]
          }, title: EvidenceReportSectionKind.checks.title)),
    ]
    let reasons = reports.flatMap { report in
      report.unassessed.map { (EvidenceWording.checkName(report.check), $0) }
    }
    guard !reasons.isEmpty else { return blocks }
    blocks.append(.heading(EvidenceReportWording.checkReasonsTitle))
    blocks.append(
      .table(
        EvidenceReportTable(
          columns: EvidenceReportWording.checkReasonColumns,
          rows: reasons.map { name, gap in
            [
              EvidenceReportCell(name), EvidenceReportCell(Quantity.grouped(gap.flowIDs.count)),
              EvidenceReportCell(gap.sentence),
            ]
          }, title: EvidenceReportWording.checkReasonsTitle)))
    return blocks
  }

  var tlsReadings: [EvidenceReportBlock] {
    let readings = bundle.tlsReadings
    guard !readings.isEmpty else {
      return [
        .paragraph(EvidenceReportWording.tlsIntro), .paragraph(EvidenceReportWording.noTLSReadings),
      ]
    }
    // Readings below the minimum first, each marked: they are what the TLS check is about.
    let below = readings.filter { $0.version < bundle.minimum }
    let shown = (below + readings.filter { !($0.version < bundle.minimum) }).prefix(
      limits.tlsReadingRows)
    var blocks: [EvidenceReportBlock] = [.paragraph(EvidenceReportWording.tlsIntro)]
    // Said before the table, not at the end of its pages.
    if readings.count > shown.count {
      blocks.append(
        .paragraph(EvidenceReportWording.tlsRowsCut(shown: shown.count, of: readings.count)))
    }
    // Each fingerprint once, by a label: the readings' rows stay a line or two high.
    var clients: [String] = []
    for reading in shown {
      if let ja4 = reading.ja4, !clients.contains(ja4) { clients.append(ja4) }
    }
    let label = Dictionary(
      uniqueKeysWithValues: clients.enumerated().map { ($1, EvidenceReportWording.clientLabel($0)) }
    )
    blocks += [
      .table(
        EvidenceReportTable(
          columns: EvidenceReportWording.tlsColumns,
          rows: shown.map { reading in
            [
              EvidenceReportCell(reading.host, style: .literal), EvidenceReportCell(reading.origin),
              EvidenceReportCell(
                reading.version < bundle.minimum
                  ? EvidenceReportWording.belowMinimum(reading.version, bundle.minimum)
                  : reading.version.name),
              EvidenceReportCell(TLSVersionWording.basisShortName(reading.basis)),
              EvidenceReportCell(
                [
                  reading.cipherSuite.map {
                    TLSRegistry.cipherSuiteNames[$0] ?? TLSRegistry.hex($0)
                  },
                  reading.group.map { TLSRegistry.groupNames[$0] ?? String($0) },
                ].compactMap { $0 }.joined(separator: " · "), style: .literal),
              EvidenceReportCell(reading.ja4.flatMap { label[$0] } ?? "—", style: .literal),
              EvidenceReportCell(Quantity.grouped(reading.connections)),
            ]
          }, title: EvidenceReportSectionKind.tlsReadings.title))
    ]
    guard !clients.isEmpty else { return blocks }
    blocks += [
      .heading(EvidenceReportWording.tlsClientsTitle),
      .table(
        EvidenceReportTable(
          columns: EvidenceReportWording.tlsClientColumns,
          rows: clients.map { ja4 in
            let of = shown.filter { $0.ja4 == ja4 }
            return [
              EvidenceReportCell(label[ja4] ?? "", style: .literal),
              EvidenceReportCell(ja4, style: .literal),
              EvidenceReportCell(Quantity.grouped(Set(of.map(\.host)).count)),
              EvidenceReportCell(Quantity.grouped(of.reduce(0) { $0 + $1.connections })),
            ]
          }, title: EvidenceReportWording.tlsClientsTitle)),
    ]
    return blocks
  }

  var captureBlocks: [EvidenceReportBlock] {
    var blocks: [EvidenceReportBlock] = []
    let lines = EvidenceExportPresentation.captureLines(capture)
    blocks.append(.paragraph(lines[0]))
    var counts: [(String, String, Int)] = [
      ("Recorded in the session", "packets.recorded", capture.packets.recorded),
      ("Written to capture.pcapng", "packets.written", capture.packets.written),
    ]
    for reason in EvidenceMissingReason.allCases {
      if let count = capture.packets.withoutBytes[reason], count > 0 {
        counts.append(
          (
            EvidenceReportWording.withoutBytes(reason), "packets.withoutBytes.\(reason.rawValue)",
            count
          ))
      }
    }
    if capture.beforeStart > 0 {
      counts.append(
        (
          "Written, from before the session started", "writtenOutsideSession.beforeStart",
          capture.beforeStart
        ))
    }
    if capture.afterEnd > 0 {
      counts.append(
        (
          "Written, from after the session ended", "writtenOutsideSession.afterEnd",
          capture.afterEnd
        ))
    }
    blocks.append(
      .table(
        EvidenceReportTable(
          columns: ["Packets", "Count", "Key in capture.json"],
          rows: counts.map {
            [
              EvidenceReportCell($0.0), EvidenceReportCell(Quantity.grouped($0.2)),
              EvidenceReportCell($0.1, style: .literal),
            ]
          })))
    for line in lines.dropFirst() { blocks.append(.paragraph(line)) }
    blocks.append(.heading("What the capture holds (capture.json, contents)"))
    blocks.append(.note(EvidenceNotes.captureContents))
    blocks.append(.heading("Packet comments (capture.json, packetComments)"))
    blocks.append(.note(EvidenceNotes.packetComments))
    return blocks
  }
}
