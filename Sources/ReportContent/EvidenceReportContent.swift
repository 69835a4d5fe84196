import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Foundation
import ReportModel

/// The report's own sentences: what it says where the documents do not.
public enum EvidenceReportWording {
  public static let noMarkers =
    "No markers were placed in this session, so no connection can be placed before or after a moment of the app's use; consent was not assessed."
  public static func markersInTestLog(_ count: Int) -> String {
    "\(Quantity.grouped(count)) placed; the test log lists \(count == 1 ? "it" : "each") with its time."
  }
  public static let emptyAllowlist =
    "The project's allowlist is empty: no connection can be found to go outside it, and the host check could not be assessed."
  public static let methodIntro =
    "This report sets out what the documents of the evidence bundle say; the JSON documents are the ones that count. Quoted from them verbatim and set apart: the five notes of the bundle, how traffic is attributed first; then what the tool looks at for each requirement, said once."
  public static func requirementsIntro(verdicts: Bool) -> String {
    "Every requirement of the catalogue with its title and test depth, as the catalogue gives them, \(verdicts ? "its verdict (page 1 gives the first \(verdictsOnPageOne)) " : "")and the findings against it or in its support by identifier: \(verdicts ? "" : "page 1 gives each verdict, ")Findings states each finding, and Method what the tool looks at for each requirement."
  }
  /// The Requirements table's columns: with "Verdict" when page 1 cannot list every verdict.
  public static func requirementColumns(verdicts: Bool) -> [String] {
    ["Requirement", "Title (test depth)"] + (verdicts ? ["Verdict"] : []) + ["Findings"]
  }
  public static let noneCited = "none"
  /// A requirement's findings: those against it, then those in its support, by identifier.
  public static func cited(against: [String], support: [String]) -> String {
    if against.isEmpty, support.isEmpty { return noneCited }
    return [("against:", against), ("in support:", support)].filter { !$0.1.isEmpty }.map {
      "\($0.0) \($0.1.joined(separator: ", "))"
    }.joined(separator: "; ")
  }
  /// A range of findings by identifier: "F4", or "F4–F9".
  public static func range(_ r: ClosedRange<Int>) -> String {
    let first = FindingsDocument.identifier(r.lowerBound)
    return r.count == 1 ? first : "\(first)–\(FindingsDocument.identifier(r.upperBound))"
  }
  /// Identifier ranges a cell lists; past twelve, how many more.
  public static func ranges(_ ranges: [ClosedRange<Int>]) -> [String] {
    guard ranges.count > 12 else { return ranges.map(range) }
    let rest = ranges.dropFirst(12).reduce(0) { $0 + $1.count }
    return ranges.prefix(12).map(range) + ["\(Quantity.grouped(rest)) more (findings.json)"]
  }
  public static let lookedAtTitle = "What the tool looks at"
  public static let lookedAtIntro =
    "For each requirement, what the tool looks at in the traffic, as the catalogue states it (findings.json, toolCoverage), and the checks that do; a requirement not listed is one this tool does not assess."
  /// A requirement's toolCoverage, after the requirement and the checks that bear on it.
  public static func lookedAt(_ requirement: String, _ coverage: String, checks: [FindingsCheck])
    -> String
  {
    checks.isEmpty
      ? "\(requirement): \(coverage)"
      : "\(requirement), by the \(EvidenceWording.checksNoun(checks)): \(coverage)"
  }
  public static let findingsIntro =
    "The findings check by check, the most serious first: each statement once, with the requirements it bears on, then a row per finding (the rows of one host together); past \(findingsRowedPerStatement) findings each about one host, their identifiers, each cited from its host's row of Hosts contacted. A finding with a row and more than four connections has its flow ids in the appendix; findings.json has every finding's."
  public static let appendixIntro =
    "The flow ids of each finding that cites more connections than its row in Findings lists; flows.json holds every connection by its flow id."
  public static let hostsIntro =
    "Every host contacted, once, in the order first contacted: its registrable domain (by the public suffix list), its party (by the allowlist, or the tracker list that names it), its connections, the bytes sent and received, the TLS versions its servers negotiated, where its addresses are registered (with an address database) and the findings that cite it; then, under TLS of each host, what its servers chose and which client connected."
  public static let testLogIntro =
    "The record of the test (TR-03161-1 §4.2): the steps the history kept, in order, then each tool in the chain with the version it stated, so that a third party can repeat the test (session.json, testLog). What was done on the device between the steps is the assessor's to record."
  public static let testLogStepColumns = ["Time", "Step"]
  public static let testLogToolColumns = ["Tool", "Version", "What it did"]
  public static let testLogToolsTitle = "Tools and versions"
  /// A tool's use, with the options it ran with (an inspecting proxy's).
  public static func toolUse(_ tool: EvidenceTestLog.Tool) -> String {
    guard let options = tool.options, !options.isEmpty else { return tool.use }
    return "\(tool.use); its options: \(TestLogWording.options(options))"
  }
  /// The inventory's columns; "Registrable domain" only with the public suffix list read,
  /// "Registered" only when an address database was given.
  public static func hostColumns(domains: Bool, registered: Bool) -> [String] {
    ["Host"] + (domains ? ["Registrable domain"] : []) + [
      "Party", "Connections", "Sent", "Received", "TLS",
    ] + (registered ? ["Registered"] : []) + ["Findings"]
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
    ["Host", "Finding", "Stated about", "First seen", "Flow ids"]
      + (baseline == nil ? [] : ["Baseline"])
  }
  /// When the First seen column's times are: UTC, and the one day every finding was first seen
  /// on, when there is one (the rows then give the time alone).
  public static func firstSeen(day: String?) -> String {
    "First seen is the time of the first packet of a finding's first connection, in UTC\(day.map { ", on \($0)" } ?? "")."
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

  /// A check's heading over its findings: which check, and how many.
  public static func checkHeading(_ check: String, count: Int) -> String {
    "\(check) · \(Quantity.count(count, "finding"))"
  }
  /// One of a check's statements, under its short form (the rows name it by that).
  public static func statement(short: String, _ sentence: String) -> String {
    "\(short): \(sentence)"
  }

  /// "These findings stand against O.Purp_3 and O.Purp_4; in support of O.Ntwk_4."
  public static func bearing(against: [String], support: [String], findings: Int) -> String {
    let parts = [("against", against), ("in support of", support)].filter { !$0.1.isEmpty }
    guard !parts.isEmpty else {
      return findings == 1
        ? "No requirement of the catalogue cites this finding."
        : "No requirement of the catalogue cites these findings."
    }
    let stand = parts.map { "\($0.0) \(Quantity.list($0.1))" }.joined(separator: "; ")
    return findings == 1 ? "This finding stands \(stand)." : "These findings stand \(stand)."
  }
  public static let noFindings = "The session holds no findings."
  public static let checksIntro =
    "For \(EvidenceWording.eachCheck), its connections by what it found; the four add up to the session's connections."
  public static let checkColumns = [
    "Check", "Behind a finding", "Looked at, nothing to report", "Not assessed", "Not applicable",
  ]
  public static let checkReasonsTitle = "Why a check could not look"
  public static let checkReasonColumns = ["Check", "Connections", "Why it could not look"]
  public static func tlsIntro(minimum: TLSProtocolVersion) -> String {
    "A row per host and reading: the version the server negotiated (from its ServerHello unless marked: (proxy) from the inspecting proxy's own connection, (QUIC) from its QUIC version; ▼ below the minimum, \(minimum.name)), the cipher suite and group it chose, the TLS client (its JA4 fingerprint in the table after) and the connections."
  }
  public static let tlsColumns = [
    "Host", "Version", "Cipher suite · group", "Client", "Connections",
  ]
  /// A reading's version, marked when below the minimum or not read from the ServerHello.
  public static func tlsVersion(
    _ version: TLSProtocolVersion, basis: TLSVersionBasis, minimum: TLSProtocolVersion
  ) -> String {
    let mark: String
    switch basis {
    case .serverHello: mark = ""
    case .upstreamConnection: mark = " (proxy)"
    case .quic: mark = " (QUIC)"
    }
    return (version < minimum ? "▼ " : "") + version.name + mark
  }
  /// The hosts' TLS, under the inventory: what each host's servers chose, and the clients.
  public static let tlsTitle = "TLS of each host"
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
  /// Above page 1's verdicts; past the first rows, where the others are.
  public static func summaryIntro(shown: Int, of total: Int) -> String {
    shown == total
      ? "Each requirement's verdict and the findings, connections and hosts behind it (not a test result):"
      : "The verdicts of the first \(shown) of the catalogue's \(total) requirements and what stands behind them (not test results); Requirements gives every one:"
  }
  /// Requirements page 1 gives the verdict of; the Requirements section gives every one.
  public static let verdictsOnPageOne = 16
  /// After page 1's coverage headline, which counts the gaps: where each is stated.
  public static let gapsStated = "The Session section states when and why."
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

  /// Above the key findings: how they are chosen and ordered, and how many page 1 lists.
  public static func keyFindings(shown: Int, of total: Int) -> String {
    shown == total
      ? "The findings against the requirements, the most serious first; Findings states each in full:"
      : "\(shown) of the \(Quantity.grouped(total)) findings against the requirements, the most serious first and one of each kind while there is room; Findings states every one:"
  }
  public static let noFindingAgainst = "No finding runs against any requirement of the catalogue."
  public static let keyFindingsShown = 5
  public static let digestColumns = [
    "File", "SHA-256, as manifest.json lists it ('tunnelvision verify' checks each)",
  ]
  /// A line to write on, for the assessor's block.
  public static let blank = "________________________"
  public static let assessorColumns = ["Assessed by", "Date", "Signature"]
  /// Findings of one statement given a row each; more, each about one host of the inventory,
  /// are cited by their identifiers' ranges (the inventory cites each from its host's row).
  public static let findingsRowedPerStatement = 12
  /// Above the identifiers of a statement's findings cited by range.
  public static func citedFromInventory(_ count: Int) -> String {
    "\(Quantity.grouped(count)) findings, each about one host; Hosts contacted cites each from its host's row"
  }
  /// The destination of a statement's findings cited by range, named after the first.
  public static func groupAnchor(_ firstID: String) -> String { "findings-\(firstID)" }
  /// Hosts listed for a finding about several; the rest are counted.
  public static let subjectsShown = 4
  /// After the flow ids shown of a finding citing more: short, for a narrow column.
  public static func flowIDsCut(shown: Int, of total: Int) -> String {
    "\(Quantity.grouped(total - shown)) more in flows.json"
  }

  public static func tlsRowsCut(shown: Int, of total: Int) -> String {
    "The table below stops at \(Quantity.grouped(shown)) of \(Quantity.grouped(total)) rows, those below the minimum first; flows.json holds every reading."
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
  /// The findings of each statement, check by check (the most serious first), each statement
  /// in the order it first comes.
  let statementGroups: [(check: FindingsCheck, sentence: String, indices: [Int])]
  /// Where a finding cited by its identifier's range is stated: its group's anchor. A finding
  /// with a row of its own is its row's anchor, its identifier.
  let groupAnchor: [Int: String]
  /// The one UTC day every finding was first seen on, if there is one.
  let findingsDay: String?

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
    statementGroups = Self.statementGroups(bundle)
    var anchors: [Int: String] = [:]
    let inventoried = Set(bundle.hostInventory.hosts.map(\.name))
    for group in statementGroups where Self.citedByRange(group.indices, bundle, inventoried) {
      let anchor = EvidenceReportWording.groupAnchor(FindingsDocument.identifier(group.indices[0]))
      for index in group.indices { anchors[index] = anchor }
    }
    groupAnchor = anchors
    let days = Set(bundle.findingSubjects.compactMap(\.firstSeen).map(Instant.day))
    findingsDay = days.count == 1 ? days.first : nil
  }

  static func statementGroups(_ bundle: EvidenceBundle) -> [(
    check: FindingsCheck, sentence: String, indices: [Int]
  )] {
    let byCheck = Dictionary(grouping: bundle.findings.indices) { bundle.findings[$0].kind.check }
    let runOrder = FindingsCheck.allCases
    let rank = { (check: FindingsCheck) in
      (
        byCheck[check]!.map { bundle.findings[$0].kind.meaning }.min()!,
        runOrder.firstIndex(of: check)!
      )
    }
    return runOrder.filter { byCheck[$0] != nil }.sorted { rank($0) < rank($1) }.flatMap {
      check -> [(check: FindingsCheck, sentence: String, indices: [Int])] in
      var order: [String] = []
      var of: [String: [Int]] = [:]
      for index in byCheck[check]! {
        let sentence = EvidenceWording.statement(
          of: bundle.findings[index].evidence, minimum: bundle.minimum)
        if of[sentence] == nil { order.append(sentence) }
        of[sentence, default: []].append(index)
      }
      return order.map { (check, $0, of[$0]!) }
    }
  }

  /// Whether a statement's findings are cited by their identifiers' ranges: many, each about
  /// one host of the inventory, whose row cites it (an event is stated once).
  static func citedByRange(_ indices: [Int], _ bundle: EvidenceBundle, _ inventoried: Set<String>)
    -> Bool
  {
    indices.count > EvidenceReportWording.findingsRowedPerStatement
      && indices.allSatisfy { index in
        let names = bundle.findingSubjects[index].names
        return names.count == 1 && inventoried.contains(names[0])
      }
  }

  /// Where a link to a finding lands: its row, or the range that cites it.
  func anchor(of index: Int) -> String {
    groupAnchor[index] ?? FindingsDocument.identifier(index)
  }

  /// The same for an identifier ("F12").
  func anchor(ofID id: String) -> String {
    Int(id.dropFirst()).map { anchor(of: $0 - 1) } ?? id
  }

  func blocks(of kind: EvidenceReportSectionKind) -> [EvidenceReportBlock] {
    switch kind {
    case .summary: return summary
    case .session: return session
    case .hosts: return hosts + [.heading(EvidenceReportWording.tlsTitle)] + tlsReadings
    case .personalData: return personalData
    case .method: return method
    case .testLog: return testLog
    case .requirements: return requirements
    case .findings: return findings
    case .checks: return checks
    case .capture: return captureBlocks
    case .appendix: return appendix
    }
  }

  /// Every time the report prints: to the second, with the zone (flows.json keeps microseconds).
  static func time(_ date: Date) -> String { Instant.rfc3339ToTheSecond(date) }

  /// The first page, which stands alone and answers first: what was recorded and its totals,
  /// the key findings by what they mean, each requirement's verdict with what stands behind it,
  /// the files' digests and a block for the assessor. Each list on it is bounded, so that it
  /// fits one page; what it leaves out it says where to find.
  var summary: [EvidenceReportBlock] {
    var blocks: [EvidenceReportBlock] = [.facts(summaryFacts)]
    blocks += keyFindings
    let requirements = bundle.assessment.requirements
    let shown = requirements.prefix(EvidenceReportWording.verdictsOnPageOne)
    blocks.append(
      .paragraph(EvidenceReportWording.summaryIntro(shown: shown.count, of: requirements.count)))
    blocks.append(
      .table(
        EvidenceReportTable(
          columns: ["Requirement", "Verdict", "Findings", "Connections", "Hosts"],
          rows: shown.map { r in
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

  /// Page 1's facts: the session, when and how it was recorded, its totals.
  var summaryFacts: [EvidenceReportFact] {
    let s = bundle.session
    let gaps = CoverageWording.gapLines(bundle.coverage, instant: Self.time)
    return [
      EvidenceReportFact(
        "Session",
        "\(s.id), \(s.kind.release.map { "release \($0.version) (build \($0.build))" } ?? "a baseline without the audited app"): \(Self.time(s.startedAt)) to \(s.endedAt.map(Self.time) ?? "—"), \(EvidenceNotes.recordedWith(s)); certificates: \(s.inspection.inspectionEnabled ? PinningEvidence.scenarioPhrase(s.inspection.scenario) : "HTTPS inspection off")",
        staysWithNext: true),
      EvidenceReportFact(
        "Coverage",
        ([CoverageWording.headline(bundle.coverage, open: s.isOpen)]
          + (gaps.isEmpty ? [] : [EvidenceReportWording.gapsStated])).joined(separator: " "),
        staysWithNext: true),
      EvidenceReportFact(
        EvidenceReportWording.trafficLabel,
        EvidenceReportWording.traffic(
          bundle.totals, allowlist: !bundle.project.allowlist.isEmpty,
          domains: bundle.publicSuffixList != nil, trackerLists: !bundle.trackerLists.isEmpty),
        staysWithNext: true),
      EvidenceReportFact(ContentWording.summaryLabel, personalDataLine, staysWithNext: true),
      EvidenceReportFact(
        "Baseline",
        EvidenceReportWording.baseline(
          bundle.baseline, session: s,
          hosts: Set(bundle.baselineHosts.compactMap { $0 }.joined().map { $0.lowercased() })
            .count)),
    ]
  }

  /// The findings against the requirements page 1 names: the first of each meaning, most
  /// serious first, then more in the same order while there is room; a line each.
  var keyFindings: [EvidenceReportBlock] {
    let against = Set(
      bundle.assessment.requirements.flatMap(\.contraryFindings).compactMap { findingIndex[$0] })
    guard !against.isEmpty else { return [.paragraph(EvidenceReportWording.noFindingAgainst)] }
    let ordered = against.sorted {
      (bundle.findings[$0].kind.meaning, $0) < (bundle.findings[$1].kind.meaning, $1)
    }
    var chosen: [Int] = []
    var meanings: Set<FindingMeaning> = []
    for index in ordered where meanings.insert(bundle.findings[index].kind.meaning).inserted {
      chosen.append(index)
    }
    chosen = Array(chosen.prefix(EvidenceReportWording.keyFindingsShown))
    for index in ordered where chosen.count < EvidenceReportWording.keyFindingsShown {
      if !chosen.contains(index) { chosen.append(index) }
    }
    let shown = chosen.sorted {
      (bundle.findings[$0].kind.meaning, $0) < (bundle.findings[$1].kind.meaning, $1)
    }
    return [
      .paragraph(EvidenceReportWording.keyFindings(shown: shown.count, of: ordered.count)),
      .table(
        EvidenceReportTable(
          columns: ["Finding", "What", "About"],
          rows: shown.map { index in
            let id = FindingsDocument.identifier(index)
            return [
              EvidenceReportCell(id, style: .literal, link: anchor(of: index)),
              EvidenceReportCell(EvidenceWording.shortStatement(bundle.findings[index].evidence)),
              keySubject(index),
            ]
          })),
    ]
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
      EvidenceReportFact(
        "Project",
        bundle.project.name + (bundle.project.bundleIdentifier.map { " (\($0))" } ?? "")),
      EvidenceReportFact(
        "Session",
        "\(s.id), "
          + (s.kind.release.map { "release \($0.version) (build \($0.build))" }
            ?? "a baseline, recorded without the audited app")),
      EvidenceReportFact(
        "Recorded", "\(Self.time(s.startedAt)) to \(s.endedAt.map(Self.time) ?? "—")"),
      EvidenceReportFact("Device", "\(s.environment.deviceModel), \(s.environment.osVersion)"),
      EvidenceReportFact(
        "Coverage",
        ([CoverageWording.headline(bundle.coverage, open: s.isOpen)]
          + CoverageWording.gapLines(bundle.coverage, instant: Self.time)).joined(separator: "\n")),
      EvidenceReportFact(
        "HTTPS inspection",
        s.inspection.inspectionEnabled
          ? "on; certificate scenario: \(PinningEvidence.scenarioPhrase(s.inspection.scenario))"
          : "off"),
      // The test log lists each marker with its time: said there once.
      EvidenceReportFact(
        "Markers",
        bundle.markers.isEmpty
          ? EvidenceReportWording.noMarkers
          : EvidenceReportWording.markersInTestLog(bundle.markers.count)),
    ]
    if !s.notes.isEmpty { facts.append(EvidenceReportFact("Notes", s.notes)) }
    // Nothing looked up, nothing scanned: a line each here, not a section each.
    if bundle.addressRegistrations.databases.isEmpty {
      facts.append(
        EvidenceReportFact(
          "Address registrations",
          AddressRegistrationWording.summary(bundle.addressRegistrations).joined(separator: " ")))
    }
    if bundle.serverScans.isEmpty {
      facts.append(EvidenceReportFact("Server scans", ScanWording.noneInBundle(s.id)))
    }
    var blocks: [EvidenceReportBlock] = [
      .facts(facts),
      .heading("Certificate checks"), .note(EvidenceNotes.pinning(s.inspection)),
    ]
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
    let domains = bundle.publicSuffixList != nil
    let columns = EvidenceReportWording.hostColumns(domains: domains, registered: looked)
    blocks.append(
      .table(
        EvidenceReportTable(
          columns: columns,
          rows: inventory.hosts.map { host in
            // Made at its size: begun with one cell and the rest appended, a row held room for
            // nearly twice its cells from the layout until the report was drawn.
            var row: [EvidenceReportCell] = []
            row.reserveCapacity(columns.count)
            row.append(EvidenceReportCell(host.name, style: .literal))
            if domains {
              row.append(EvidenceReportCell(host.registrableDomain ?? "—", style: .literal))
            }
            row.append(EvidenceReportCell(EvidenceReportWording.party(host)))
            row.append(EvidenceReportCell("\(host.connections)", style: .literal))
            row.append(EvidenceReportCell(Quantity.byteCount(host.bytesOut), style: .literal))
            row.append(EvidenceReportCell(Quantity.byteCount(host.bytesIn), style: .literal))
            row.append(
              EvidenceReportCell(
                host.versions.isEmpty ? "—" : host.versions.map(\.name).joined(separator: ", ")))
            if looked { row.append(EvidenceReportCell(EvidenceReportWording.registered(host))) }
            // One finding links to where it is stated, as every lone identifier in a table does.
            row.append(
              EvidenceReportCell(
                host.findingIDs.joined(separator: ", "), style: .literal,
                link: host.findingIDs.count == 1 ? anchor(ofID: host.findingIDs[0]) : nil))
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
    guard !bundle.serverScans.isEmpty else { return [] }
    var blocks: [EvidenceReportBlock] = [.heading("Server configuration")]
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
    guard !stated.databases.isEmpty else { return [] }
    var blocks: [EvidenceReportBlock] = [.heading("Where the addresses are registered")]
    let lines = AddressRegistrationWording.summary(stated)
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

  /// The bundle's five notes, then what the tool looks at for each requirement, once.
  var method: [EvidenceReportBlock] {
    let looked = bundle.assessment.requirements.filter { $0.requirement.toolCoverage != nil }
    var blocks: [EvidenceReportBlock] = [
      .paragraph(EvidenceReportWording.methodIntro),
      .heading("How traffic is attributed (session.json, attribution)"),
      .note(EvidenceNotes.attribution(for: bundle.session)),
      .heading("What the bundle holds (session.json, contents)"),
      .note(ContentWording.contents(withContent: bundle.includesContent)),
      .heading("What a verdict is (findings.json, verdictsNote)"),
      .note(EvidenceWording.verdictsNote),
      .heading("What the capture holds (capture.json, contents)"),
      .note(EvidenceNotes.captureContents),
      .heading("Packet comments (capture.json, packetComments)"),
      .note(EvidenceNotes.packetComments),
    ]
    guard !looked.isEmpty else { return blocks }
    blocks += [
      .heading(EvidenceReportWording.lookedAtTitle),
      .paragraph(EvidenceReportWording.lookedAtIntro),
    ]
    blocks += looked.map { r in
      .paragraph(
        EvidenceReportWording.lookedAt(
          r.requirement.id, r.requirement.toolCoverage ?? "", checks: r.coverage?.checks ?? []))
    }
    return blocks
  }

  /// What a key finding of page 1 is about, in a line: what it states with its host, else the
  /// name of its one connection or how many hosts (the Findings section lists them).
  func keySubject(_ index: Int) -> EvidenceReportCell {
    let finding = bundle.findings[index]
    let stated = EvidenceWording.subject(of: finding.evidence)
    if let stated, finding.evidence.host != nil {
      return EvidenceReportCell(stated, style: .literal)
    }
    let names = bundle.findingSubjects[index].names
    let hosts = names.count > 1 ? "\(names.count) hosts" : names.first
    // A reading stated without a host (a TLS version) is said with the hosts it was read from.
    let text = [stated, hosts].compactMap { $0 }.joined(separator: " · ")
    return EvidenceReportCell(text.isEmpty ? "—" : text, style: stated == nil ? .literal : .text)
  }

  /// A finding's first connection's first packet, in UTC: the time alone when every finding
  /// was first seen on one day (the table's heading names it).
  func firstSeen(_ index: Int) -> EvidenceReportCell {
    let time = bundle.findingSubjects[index].firstSeen.map(Self.time)
    return EvidenceReportCell(
      time.map { findingsDay == nil ? $0 : String($0.dropFirst(11)) } ?? "—", style: .literal)
  }

  /// Every requirement in a row: its verdict and the findings that bear on it, by identifier
  /// (each is stated once, under Findings; what the tool looks at is said once, under Method).
  var requirements: [EvidenceReportBlock] {
    let c = bundle.catalogue
    // Page 1 gives each verdict unless the catalogue has more than it lists: then here.
    let verdicts =
      bundle.assessment.requirements.count > EvidenceReportWording.verdictsOnPageOne
    var blocks: [EvidenceReportBlock] = [
      .paragraph(EvidenceReportWording.requirementsIntro(verdicts: verdicts)),
      .facts([
        EvidenceReportFact("Catalogue", c.identifier, literal: true),
        EvidenceReportFact("TLS minimum", bundle.minimum.name),
      ]),
      .table(
        EvidenceReportTable(
          columns: EvidenceReportWording.requirementColumns(verdicts: verdicts),
          rows: bundle.assessment.requirements.map { r in
            let against = citedIDs(r.contraryFindings)
            let support = citedIDs(r.supportingFindings)
            let lone = against.count + support.count == 1 ? (against + support)[0] : nil
            return [
              EvidenceReportCell(
                r.requirement.id, style: .literal,
                anchor: EvidenceReportLine.requirementAnchor(r.requirement.id)),
              EvidenceReportCell(
                r.requirement.title + (r.requirement.testDepth.map { " (\($0.rawValue))" } ?? ""),
                language: c.source.language),
            ] + (verdicts ? [EvidenceReportCell(EvidenceWording.verdictMark(r))] : []) + [
              r.requirement.rule.readsFindings
                ? EvidenceReportCell(
                  EvidenceReportWording.cited(against: against, support: support),
                  link: lone.flatMap { $0.contains("–") ? nil : anchor(ofID: $0) })
                : EvidenceReportCell("—")
            ]
          }, title: EvidenceReportSectionKind.requirements.title)),
    ]
    // A verdict that holds only where recorded says what was not.
    for r in bundle.assessment.requirements where r.onlyWhereRecorded != nil {
      blocks.append(.paragraph("\(r.requirement.id): \(EvidenceWording.verdict(r))"))
    }
    return blocks
  }

  /// Findings by identifier, consecutive ones as a range.
  func citedIDs(_ list: [Finding]) -> [String] {
    let indices = Set(list.compactMap { findingIndex[$0] }).sorted()
    return EvidenceReportWording.ranges(Self.idRanges(indices))
  }

  /// Finding indices in order, consecutive ones as one range.
  static func idRanges(_ sorted: [Int]) -> [ClosedRange<Int>] {
    var ranges: [ClosedRange<Int>] = []
    for n in sorted {
      if let last = ranges.last, n == last.upperBound + 1 {
        ranges[ranges.count - 1] = last.lowerBound...n
      } else {
        ranges.append(n...n)
      }
    }
    return ranges
  }

  /// The findings check by check, the most serious first, each under a heading the outline
  /// lists: the check's statements once, then a row a finding, the rows of one host together.
  var findings: [EvidenceReportBlock] {
    guard !bundle.findings.isEmpty else { return [.paragraph(EvidenceReportWording.noFindings)] }
    var blocks: [EvidenceReportBlock] = [.paragraph(EvidenceReportWording.findingsIntro)]
    blocks.append(.paragraph(EvidenceReportWording.firstSeen(day: findingsDay)))
    // Without a baseline the summary has said so, once.
    if let baseline = bundle.baseline {
      blocks.append(.paragraph(EvidenceReportWording.baselineColumn(baseline.sessionID)))
    }
    var checks: [FindingsCheck] = []
    for group in statementGroups where checks.last != group.check { checks.append(group.check) }
    for check in checks {
      blocks += findings(of: check, statementGroups.filter { $0.check == check })
    }
    return blocks
  }

  /// One check's findings: its heading, what they bear on, each statement once, and the table.
  func findings(
    of check: FindingsCheck, _ groups: [(check: FindingsCheck, sentence: String, indices: [Int])]
  ) -> [EvidenceReportBlock] {
    let indices = groups.flatMap(\.indices)
    let heading = EvidenceReportWording.checkHeading(
      EvidenceWording.checkName(check), count: indices.count)
    var blocks: [EvidenceReportBlock] = [.heading(heading)]
    // Each statement once, with a table of its findings under it, or the range of identifiers
    // the host inventory cites them by.
    for group in groups {
      blocks.append(.paragraph("\(group.sentence) \(bearing(of: group.indices))"))
      if let anchor = groupAnchor[group.indices[0]] {
        blocks.append(
          .table(
            EvidenceReportTable(
              columns: [EvidenceReportWording.citedFromInventory(group.indices.count)],
              rows: [
                [
                  EvidenceReportCell(
                    Self.idRanges(group.indices).map(EvidenceReportWording.range).joined(
                      separator: ", "), style: .literal,
                    anchor: anchor)
                ]
              ], title: heading)))
      } else {
        blocks.append(.table(findingTable(group.indices, title: heading)))
      }
    }
    // A connection read before this session's edge: where what a finding rests on was read,
    // each sentence once with the findings it concerns.
    var readings: [String] = []
    var about: [String: [String]] = [:]
    for index in indices {
      for reading in bundle.earlierReadings[index] {
        if about[reading.sentence] == nil { readings.append(reading.sentence) }
        let id = FindingsDocument.identifier(index)
        if about[reading.sentence]?.contains(id) != true {
          about[reading.sentence, default: []].append(id)
        }
      }
    }
    blocks += readings.map { .note("\(about[$0]!.joined(separator: ", ")): \($0).") }
    return blocks
  }

  /// A table of findings of one statement, a row each, the rows of one host together (hosts
  /// in the order their first finding comes), the host named on its first row.
  func findingTable(_ indices: [Int], title: String) -> EvidenceReportTable {
    var hostOrder: [String] = []
    var rowsOf: [String: [Int]] = [:]
    for index in indices {
      let host = hostsText(index)
      if rowsOf[host] == nil { hostOrder.append(host) }
      rowsOf[host, default: []].append(index)
    }
    return EvidenceReportTable(
      columns: EvidenceReportWording.findingRowColumns(baseline: bundle.baseline?.sessionID),
      rows: hostOrder.flatMap { host in
        rowsOf[host]!.enumerated().map { n, index in findingRow(index, host: n == 0 ? host : "") }
      }, title: title)
  }

  /// A row of a finding: its host (on the host's first row only), identifier, what it states,
  /// first sighting, connections and, with a baseline, whether it contacted the host too.
  func findingRow(_ index: Int, host: String) -> [EvidenceReportCell] {
    let finding = bundle.findings[index]
    let id = FindingsDocument.identifier(index)
    let inRow = finding.flowIDs.count <= EvidenceReportWording.flowIDsInRow
    var row = [
      EvidenceReportCell(host, style: .literal),
      EvidenceReportCell(id, style: .literal, anchor: id),
      EvidenceReportCell(detail(index)), firstSeen(index),
      inRow
        ? EvidenceReportCell(AuditPresentation.flowList(finding.flowIDs), style: .literal)
        : EvidenceReportCell(
          EvidenceReportWording.flowIDsInAppendix(finding.flowIDs.count),
          link: EvidenceReportWording.appendixAnchor(id)),
    ]
    if let hosts = bundle.baselineHosts[index] {
      row.append(
        EvidenceReportCell(
          EvidenceReportWording.alsoContacted(
            hosts.count, of: max(hosts.count, bundle.findingSubjects[index].names.count))))
    }
    return row
  }

  /// The hosts a finding is about (the two ends of an unnamed connection), with the protocol
  /// and port its connections share.
  func hostsText(_ index: Int) -> String {
    let names = bundle.findingSubjects[index].names
    let service =
      names.allSatisfy({ $0.contains(" ↔ ") }) ? nil : bundle.findingSubjects[index].service
    var hosts: String
    switch names.count {
    case 0: hosts = "—"
    case 1: hosts = names[0]
    default:
      let shown = names.prefix(EvidenceReportWording.subjectsShown).joined(separator: ",\n")
      // A line each, so that the column is as wide as its widest host.
      hosts =
        "\(names.count) hosts:\n\(shown)\(names.count > EvidenceReportWording.subjectsShown ? ",\n…" : "")"
    }
    return hosts + (service.map { " (\($0))" } ?? "")
  }

  /// What a finding states beyond its host ("JA4 …", "POST /v1/diary"), or a dash.
  func detail(_ index: Int) -> String {
    EvidenceWording.subject(of: bundle.findings[index].evidence.withoutHost).flatMap {
      $0.isEmpty ? nil : $0
    } ?? "—"
  }

  /// The requirements a group of findings bears on, in a sentence: against them, or in support.
  func bearing(of group: [Int]) -> String {
    let findings = Set(group.map { bundle.findings[$0] })
    let requirements = bundle.assessment.requirements
    let against = requirements.filter { !findings.isDisjoint(with: $0.contraryFindings) }
    let support = requirements.filter {
      findings.isDisjoint(with: $0.contraryFindings)
        && !findings.isDisjoint(with: $0.supportingFindings)
    }
    return EvidenceReportWording.bearing(
      against: against.map(\.requirement.id), support: support.map(\.requirement.id),
      findings: group.count)
  }

  /// The flow ids of each finding whose row could not list them, up to the limit.
  var appendix: [EvidenceReportBlock] {
    // Of the findings with a row: one cited by range has its host's row instead.
    let long = bundle.findings.indices.filter {
      bundle.findings[$0].flowIDs.count > EvidenceReportWording.flowIDsInRow
        && groupAnchor[$0] == nil
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
    // A reason that kept several checks from the same connections is said once, naming them.
    var reasons: [(names: [String], sentence: String, count: Int)] = []
    // Keyed by the sentence and the connections as values: written out as text, the lists of
    // ids were a tenth of drawing the report again.
    struct Reason: Hashable {
      let sentence: String
      let flowIDs: [Int64]
    }
    var seen: [Reason: Int] = [:]
    for report in reports {
      for gap in report.unassessed {
        let key = Reason(sentence: gap.sentence, flowIDs: gap.flowIDs.sorted())
        if let at = seen[key] {
          reasons[at].names.append(EvidenceWording.checkName(report.check))
        } else {
          seen[key] = reasons.count
          reasons.append(
            ([EvidenceWording.checkName(report.check)], gap.sentence, gap.flowIDs.count))
        }
      }
    }
    guard !reasons.isEmpty else { return blocks }
    blocks.append(.heading(EvidenceReportWording.checkReasonsTitle))
    blocks.append(
      .table(
        EvidenceReportTable(
          columns: EvidenceReportWording.checkReasonColumns,
          rows: reasons.map { reason in
            [
              EvidenceReportCell(reason.names.joined(separator: ",\n")),
              EvidenceReportCell(Quantity.grouped(reason.count)),
              EvidenceReportCell(reason.sentence),
            ]
          }, title: EvidenceReportWording.checkReasonsTitle)))
    return blocks
  }

  var tlsReadings: [EvidenceReportBlock] {
    let readings = bundle.tlsReadings
    guard !readings.isEmpty else {
      return [
        .paragraph(EvidenceReportWording.tlsIntro(minimum: bundle.minimum)),
        .paragraph(EvidenceReportWording.noTLSReadings),
      ]
    }
    // Readings below the minimum first, each marked: they are what the TLS check is about.
    let below = readings.filter { $0.version < bundle.minimum }
    let shown = (below + readings.filter { !($0.version < bundle.minimum) }).prefix(
      limits.tlsReadingRows)
    var blocks: [EvidenceReportBlock] = [
      .paragraph(EvidenceReportWording.tlsIntro(minimum: bundle.minimum))
    ]
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
              EvidenceReportCell(reading.host, style: .literal),
              EvidenceReportCell(
                EvidenceReportWording.tlsVersion(
                  reading.version, basis: reading.basis, minimum: bundle.minimum)),
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
          }, title: EvidenceReportWording.tlsTitle))
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
    // Every packet in the capture, none from outside the session: the headline says it all.
    if counts.count > 2 || counts[0].2 != counts[1].2 {
      blocks.append(capturePackets(counts))
    }
    // The table's rows say why packets are missing; the other sentences follow it.
    var reasons: Set<String> = []
    if case .incomplete(_, _, let missing) = capture.standing {
      reasons = Set(missing.map(EvidenceExportPresentation.reasonSentence))
    }
    for line in lines.dropFirst() where !reasons.contains(line) { blocks.append(.paragraph(line)) }
    return blocks
  }

  /// capture.json's counts in words, their keys beside.
  func capturePackets(_ counts: [(String, String, Int)]) -> EvidenceReportBlock {
    .table(
      EvidenceReportTable(
        columns: ["Packets", "Count", "Key in capture.json"],
        rows: counts.map {
          [
            EvidenceReportCell($0.0), EvidenceReportCell(Quantity.grouped($0.2)),
            EvidenceReportCell($0.1, style: .literal),
          ]
        }))
  }
}
