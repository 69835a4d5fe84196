import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Capture
import ContentMatching
import Crypto
import Foundation
import ReportModel
import SystemCalls

/// Opens an evidence bundle without the store and checks it: every manifest entry's size and
/// digest, no file missing or extra, the capture's packet count against capture.json, every
/// identifier cited resolving, and flows.csv against flows.json.
public enum BundleVerifier {
  public typealias Check = VerificationCheck

  /// The most of each document read whole that verify holds: export writes a manifest of a
  /// few kilobytes and a session.json of its markers and notes. Beyond these a document is not
  /// read (its digest is still computed), so that memory stays bounded whatever the archive.
  static let wholeDocumentLimits: [String: Int] = [
    EvidenceBundle.manifestName: 1 << 16, EvidenceBundle.sessionName: 1 << 24,
    EvidenceBundle.signatureName: 1 << 12, EvidenceContentHAR.fileName: 1 << 30,
  ]

  /// How much of an entry verify reads whole; nil: none (it is streamed, or not a document).
  static func wholeDocumentLimit(_ name: String) -> Int? {
    wholeDocumentLimits[name] ?? (EvidenceBundle.isServerScanName(name) ? 1 << 24 : nil)
  }

  public static func verify(_ url: URL) -> [Check] { verify(url, trusting: nil).checks }

  /// The checks of an archive written with ZIP64 fields from `zip64Threshold` on (tests force
  /// them on small bundles; export's is 4 GiB).
  public static func verify(_ url: URL, zip64Threshold: UInt64) -> [Check] {
    var standing = SignatureStanding.unsigned
    return verifyChecks(
      url, trustedKey: nil, standing: &standing, zip64Threshold: zip64Threshold)
  }

  /// The checks, and whether (and by whom) the manifest is signed; `trusting`: the raw Ed25519
  /// public key the signature must be by.
  public static func verify(_ url: URL, trusting trustedKey: Data?, trace: PhaseTrace? = nil) -> (
    checks: [Check], signature: SignatureStanding
  ) {
    var standing = SignatureStanding.unsigned
    let checks = verifyChecks(url, trustedKey: trustedKey, standing: &standing, trace: trace)
    return (checks, standing)
  }

  /// Every check, in the order they are stated: one pass over the archive, then a function per
  /// check. A check that the ones before it leave nothing to read for is not made.
  static func verifyChecks(
    _ url: URL, trustedKey: Data?, standing: inout SignatureStanding,
    zip64Threshold: UInt64 = 0xFFFF_FFFF, trace: PhaseTrace? = nil
  ) -> [Check] {
    let archive: ZipArchiveReader
    do { archive = try ZipArchiveReader(url: url, zip64Threshold: zip64Threshold) } catch {
      return [Check(statement: VerifyWording.notAZip, problems: ["\(error)"])]
    }
    var read = BundleReading(archive)
    trace?.mark("read the archive: each entry inflated and hashed, the documents parsed")
    var checks = [
      Check(
        statement: VerifyWording.entriesRead(archive.entries.count), problems: read.problems),
      Check(statement: VerifyWording.layout, problems: archive.layoutProblems),
    ]
    // The manifest.
    guard let manifestData = read.documents[EvidenceBundle.manifestName],
      let manifest = try? JSONSerialization.jsonObject(with: manifestData) as? [String: Any],
      let files = manifest[ManifestDocument.Key.files] as? [[String: Any]]
    else {
      return checks + [
        Check(statement: VerifyWording.manifestThere, problems: [VerifyWording.manifestMissing])
      ]
    }
    guard files.count <= 64 else {
      return checks + [
        Check(
          statement: VerifyWording.manifestLists,
          problems: [VerifyWording.tooManyFiles(files.count)])
      ]
    }
    let (manifestCheck, listed) = manifestCheck(files, reading: read)
    checks += [manifestCheck, fileSetCheck(listed: listed, archive: archive)]
    let signatureEntry = archive.entries.contains { $0.name == EvidenceBundle.signatureName }
    if let check = signatureCheck(
      read.documents[EvidenceBundle.signatureName] ?? (signatureEntry ? Data() : nil),
      manifest: manifestData, trustedKey: trustedKey, standing: &standing)
    {
      checks.append(check)
    }
    checks.append(syntaxCheck(read))
    trace?.mark("checked the manifest, the files, the signature and the syntax")
    // The documents.
    guard let flowsReading = read.flowsReading, read.flowsRead?.readable == true,
      read.findingsRead?.readable == true, let findings = read.findingsReading?.outline,
      read.captureRead?.readable == true, let captureDoc = read.captureReading?.outline,
      read.exchangesRead?.readable ?? true
    else { return checks + [unreadableDocumentsCheck(read)] }
    var citations = Dictionary(
      flowsReading.flows.map { ($0.id, $0.findingIDs) }, uniquingKeysWith: { a, _ in a })
    checks.append(captureCheck(read.capture, captureDoc, reading: read, flows: flowsReading))
    trace?.mark("checked capture.pcapng against capture.json")
    checks.append(
      identifierCheck(
        flows: flowsReading.flows.map(\.id), citations: citations,
        findings: read.findingList.items, outline: findings, reading: read))
    read.forgetCaptureScan()
    let reading = read
    // capture.json and flows.json written again from the values they hold: every key, type and
    // form of theirs is then the format's, or the bytes differ. capture.json on another thread
    // while this one checks the documents' agreement; flows.json while it re-derives the findings
    // and verdicts from flows.json and session.json. Neither changes what the reading holds.
    let captureForm = Alongside {
      captureFormProblems(
        captureDoc.document(flows: reading.captureFlows.items), digests: reading.digests,
        keyProblems: { keyProblems(of: $0, in: reading) })
    }
    // findings.json's list is compared: only its count is needed from here on.
    let findingCount = reading.findingList.items.count
    reading.forgetFindingsListed()
    checks.append(
      agreementCheck(
        manifest: manifestData, session: reading.documents[EvidenceBundle.sessionName],
        flows: flowsReading, findings: findings, capture: captureDoc))
    checks.append(flowsReading.csv.check(flowCount: flowsReading.flows.count))
    trace?.mark("resolved the identifiers; the documents' agreement; flows.csv")
    // capture.json's flows go before the re-derivation holds its own beside flows.json's.
    let captureProblems = captureForm.value
    reading.forgetCaptureFlows()
    let form = Alongside {
      Check(
        statement: VerifyWording.formStatement,
        problems: captureProblems
          + flowsFormProblems(
            flowsReading, sessionID: flowsReading.outline?.sessionID, digests: reading.digests,
            keyProblems: { keyProblems(of: $0, in: reading) }))
    }
    let rederived = rederive(
      session: reading.documents[EvidenceBundle.sessionName], flows: flowsReading.records,
      baselineClaims: flowsReading.baselineClaims, citations: citations,
      registrableDomains: RegistrableDomains.stated(
        flowsReading.records, flowsReading.registrableDomains),
      registrations: flowsReading.registrations,
      scanFiles: reading.documents.filter { EvidenceBundle.isServerScanName($0.key) },
      findings: findings, findingCount: findingCount,
      captureCoverage: captureDoc.coverage,
      digests: reading.digests, exchanges: reading.exchangeList.items,
      keyProblems: { keyProblems(of: $0, in: reading) })
    // The flows go before the report is drawn again, with what was compared with them: it
    // needs the re-derived bundle alone, and the form check (their other reader) has run.
    checks.append(form.value)
    flowsReading.forgetRecords()
    citations = [:]
    checks.append(
      rederivationCheck(consume rederived, capture: captureDoc.summary, digests: reading.digests))
    trace?.mark(
      "re-derived the findings and verdicts, redrew the report; form check alongside"
    )
    if let check = contentCheck(reading) {
      checks.append(check)
      trace?.mark("searched content.har again for the test account's values")
    }
    return checks
  }

  /// content.har, when the bundle holds it: each exchange's content searched again for the test
  /// account's values session.json states gives the matches exchanges.json states; a body kept as
  /// sent has the SHA-256 it states.
  static func contentCheck(_ reading: BundleReading) -> Check? {
    guard let data = reading.documents[EvidenceContentHAR.fileName] else { return nil }
    let records = reading.exchangeList.items
    guard let har = try? HARReader.read(data),
      let session = reading.documents[EvidenceBundle.sessionName],
      let record = try? EvidenceSessionRecord(session)
    else {
      return Check(
        statement: VerifyWording.contentRematched(exchanges: 0),
        problems: [VerifyWording.contentUnreadable])
    }
    let matcher = ContentMatcher(values: record.testAccount)
    var byID: [Int64: HTTPExchange] = [:]
    for entry in har.entries { byID[entry.exchange.id] = entry.exchange }
    var problems: [String] = []
    let listed = Set(records.map(\.exchangeID))
    for id in byID.keys.sorted() where !listed.contains(id) {
      problems.append(VerifyWording.contentExtraExchange(id))
    }
    for stated in records {
      guard let exchange = byID[stated.exchangeID] else {
        problems.append(VerifyWording.contentMissingExchange(stated.exchangeID))
        continue
      }
      let found = matcher.matches(in: exchange)
      if found != stated.matches {
        problems.append(
          VerifyWording.contentMatchesDiffer(
            stated.exchangeID, stated: stated.matches.count, found: found.count))
      }
      if let body = stated.request, body.decoding == .asSent,
        SHA256Digest.hex(of: exchange.requestBody?.bytes ?? Data()) != body.sha256
      {
        problems.append(VerifyWording.contentBodyDiffers(stated.exchangeID))
      }
    }
    return Check(
      statement: VerifyWording.contentRematched(exchanges: byID.count),
      problems: Array(problems.prefix(8)))
  }

  /// Each entry of the manifest against the archive's: its size, its SHA-256, its place; and the
  /// names it lists.
  static func manifestCheck(_ files: [[String: Any]], reading: BundleReading) -> (
    Check, Set<String>
  ) {
    var problems: [String] = []
    var listed = Set<String>()
    typealias K = ManifestDocument.FileKey
    for file in files {
      guard let name = file[K.name] as? String,
        let size = JSONNumber.integer(file[K.byteCount]).flatMap({ UInt64(exactly: $0) }),
        let sha = file[K.sha256] as? String
      else {
        problems.append(VerifyWording.entryIncomplete)
        continue
      }
      if !listed.insert(name).inserted { problems.append(VerifyWording.listedTwice(name)) }
      guard let (actualSize, actualDigest) = reading.digests[name] else { continue }
      if actualSize != size {
        problems.append(VerifyWording.sizeDiffers(name, actual: actualSize, stated: size))
      }
      if actualDigest != sha {
        problems.append(VerifyWording.digestDiffers(name, actual: actualDigest, stated: sha))
      }
    }
    // Export archives the files in the manifest's order, the manifest last: any other order
    // (an entry moved, one the manifest does not list) is not an export's.
    let entries = reading.archive.entries.map(\.name)
    let signed = entries.contains(EvidenceBundle.signatureName)
    let order =
      files.compactMap { $0[ManifestDocument.FileKey.name] as? String }
      + [EvidenceBundle.manifestName]
      + (signed ? [EvidenceBundle.signatureName] : [])
    if entries != order { problems.append(VerifyWording.orderDiffers) }
    return (
      Check(statement: VerifyWording.manifestStatement(files.count), problems: problems), listed
    )
  }

  /// No file the manifest lists is missing from the archive, and the archive holds no other.
  static func fileSetCheck(listed: Set<String>, archive: ZipArchiveReader) -> Check {
    let present = Set(archive.entries.map(\.name)).subtracting([
      EvidenceBundle.manifestName, EvidenceBundle.signatureName,
    ])
    let problems =
      listed.subtracting(present).sorted().map(VerifyWording.missing)
      + present.subtracting(listed).sorted().map(VerifyWording.extra)
    return Check(statement: VerifyWording.fileSet, problems: problems)
  }

  /// Strictly: Foundation's decoders forgive a trailing comma, which other parsers refuse.
  static func syntaxCheck(_ reading: BundleReading) -> Check {
    var streamed: [String: String?] = [:]
    if let flows = reading.flowsRead { streamed[EvidenceBundle.flowsName] = flows.syntax }
    if let capture = reading.captureRead {
      streamed[EvidenceBundle.captureJSONName] = capture.syntax
    }
    if let findings = reading.findingsRead {
      streamed[EvidenceBundle.findingsName] = findings.syntax
    }
    if let exchanges = reading.exchangesRead {
      streamed[EvidenceBundle.exchangesName] = exchanges.syntax
    }
    let names = (reading.documents.keys.filter { $0.hasSuffix(".json") } + streamed.keys).sorted()
    let problems = names.compactMap { name in
      (streamed[name] ?? JSONSyntax.problem(in: reading.documents[name]!)).map {
        VerifyWording.notWellFormed(name, $0)
      }
    }
    return Check(statement: VerifyWording.wellFormed(names.count), problems: problems)
  }

  /// capture.pcapng against capture.json's counts: every packet commented, as many as written,
  /// each flow's packets as counted.
  static func captureCheck(
    _ capture: PcapngScan, _ document: VerifiedCapture, reading: BundleReading,
    flows: FlowsJSONReading
  ) -> Check {
    let written = document.packets.written
    var problems = capture.problems
    if capture.uncommented > 0 { problems.append(VerifyWording.uncommented(capture.uncommented)) }
    if capture.packets != written {
      problems.append(VerifyWording.packetsDiffer(capture.packets, written: written))
    }
    problems += CaptureCounts.problems(
      document, flows: reading.captureFlows.items, packetsInCapture: capture.packetsByFlow,
      packetCounts: Dictionary(
        flows.records.map { ($0.id, $0.packetCount) }, uniquingKeysWith: { a, _ in a }))
    return Check(statement: VerifyWording.captureHolds(capture.packets), problems: problems)
  }

  /// Every flow and finding identifier cited, across flows.json, findings.json, capture.json and
  /// the packets' comments, resolves, and each citation is cited back.
  static func identifierCheck(
    flows flowIDs: [Int64], citations: [Int64: [String]], findings: [VerifiedFindings.Finding],
    outline: VerifiedFindings, reading: BundleReading
  ) -> Check {
    var problems: [String] = []
    let flowSet = Set(flowIDs)
    if flowSet.count != flowIDs.count { problems.append(VerifyWording.flowListedTwice) }
    let findingIDs = Set(findings.compactMap(\.id))
    let findingFlows = Dictionary(
      findings.compactMap { f in f.id.map { ($0, Set(f.flowIDs ?? [])) } },
      uniquingKeysWith: { a, b in a.union(b) })
    for (flow, ids) in citations.sorted(by: { $0.key < $1.key }) {
      for id in ids {
        if let cited = findingFlows[id] {
          if !cited.contains(flow) {
            problems.append(VerifyWording.notCitedBack(flow: flow, finding: id))
          }
        } else {
          problems.append(VerifyWording.findingMissing(flow: flow, finding: id))
        }
      }
    }
    var findingsSeen = Set<String>()
    for (index, finding) in findings.enumerated() {
      guard let id = finding.id else {
        problems.append(VerifyWording.findingWithoutID(index))
        continue
      }
      if !findingsSeen.insert(id).inserted { problems.append(VerifyWording.findingListedTwice(id)) }
      guard let flowsCited = finding.flowIDs, !flowsCited.isEmpty else {
        problems.append(VerifyWording.findingWithoutFlows(id))
        continue
      }
      for flow in flowsCited {
        if !flowSet.contains(flow) {
          problems.append(VerifyWording.flowMissing(finding: id, flow: flow))
        } else if !(citations[flow] ?? []).contains(id) {
          problems.append(VerifyWording.flowNotCitingBack(finding: id, flow: flow))
        }
      }
    }
    for requirement in outline.requirements {
      for id in requirement.contraryFindingIDs + requirement.supportingFindingIDs
      where !findingIDs.contains(id) {
        problems.append(VerifyWording.requirementCitesMissing(requirement.id, finding: id))
      }
    }
    if reading.captureFlows.items.map(\.id) != flowIDs {
      problems.append(VerifyWording.captureFlowsDiffer)
    }
    for flow in reading.capture.commentTexts.keys.sorted() {
      let cited = reading.capture.citedFindings(ofFlow: flow)
      guard let expected = citations[flow] else {
        problems.append(VerifyWording.commentCitesMissingFlow(flow))
        continue
      }
      if cited != Set(expected) {
        problems.append(
          VerifyWording.commentCitationsDiffer(flow: flow, cited: cited.sorted(), stated: expected))
      }
    }
    // The comments' form, as export writes it from flows.json: a connection that opened in a row
    // outside the bundle names its findings as resting on earlier packets.
    let records = reading.flowsReading?.records ?? []
    for record in records {
      guard let text = reading.capture.commentTexts[record.id] else { continue }
      let expected = EvidenceCaptureDocument.packetComment(
        of: record, findingIDs: citations[record.id] ?? [], held: flowSet)
      if text != expected, problems.count < 20 {
        problems.append(VerifyWording.commentFormDiffers(flow: record.id, expected: expected))
      }
    }
    return Check(
      statement: VerifyWording.identifiersResolve(flows: flowIDs.count, findings: findingIDs.count),
      problems: problems)
  }

  /// What the documents must agree on: the session, the export instant, the counts.
  static func agreementCheck(
    manifest: Data, session: Data?, flows: FlowsJSONReading, findings: VerifiedFindings,
    capture: VerifiedCapture
  ) -> Check {
    let sessionFacts = VerifiedSessionFacts.read(session)
    let manifestFacts = VerifiedSessionFacts.read(manifest)
    let agreement = DocumentAgreement(
      sessionIDs: [
        (EvidenceBundle.manifestName, manifestFacts?.sessionID),
        (EvidenceBundle.sessionName, sessionFacts?.sessionID),
        (EvidenceBundle.flowsName, flows.outline?.sessionID),
        (EvidenceBundle.findingsName, findings.sessionID),
        (EvidenceBundle.captureJSONName, capture.sessionID),
      ],
      exportedAt: [
        (EvidenceBundle.manifestName, manifestFacts?.exportedAt),
        (EvidenceBundle.sessionName, sessionFacts?.exportedAt),
      ],
      startedAt: sessionFacts?.startedAt, endedAt: sessionFacts?.endedAt,
      flowCount: flows.outline?.flowCount, flowsListed: flows.flows.count)
    return Check(statement: DocumentAgreement.statement, problems: agreement.problems)
  }

  /// What re-deriving gives before report.pdf is drawn again: a check already decided (the
  /// session unreadable, the bundle not re-derivable), or the bundle re-derived, without its
  /// flows, and the problems found so far: those before the documents' and those after, the
  /// documents (findings.json, session.json, exchanges.json written again) being compared on
  /// another thread while the report is drawn.
  enum Rederived {
    case decided(Check)
    case derived(
      EvidenceRederivation, problems: [String], documents: Alongside<[String]>,
      problemsAfter: [String], catalogue: String)
  }

  /// The re-derivation's second part: report.pdf drawn again from the same values and
  /// capture.json's counts, once the flows may be let go. The re-derived bundle goes once the
  /// report is laid out and the documents' check alongside has read it: the drawing is verify's
  /// resident peak.
  static func rederivationCheck(
    _ rederived: consuming Rederived, capture: EvidenceCaptureSummary?,
    digests: [String: (UInt64, String)]
  ) -> Check {
    switch consume rederived {
    case .decided(let check): return check
    case .derived(let rederivation, let found, let documents, let after, let catalogue):
      let statement = VerifyWording.rederived(
        findings: rederivation.bundle.findings.count, verdicts: rederivation.verdicts.count,
        catalogue: catalogue)
      let report = reportProblems(
        consume rederivation, capture: capture, digests: digests, before: { _ = documents.value })
      return Check(statement: statement, problems: found + documents.value + after + report)
    }
  }

  /// report.pdf drawn again: a problem when it cannot be, or when its bytes differ.
  /// `before`: waited for once the report is laid out, before it is drawn without the bundle.
  static func reportProblems(
    _ rederivation: consuming EvidenceRederivation, capture: EvidenceCaptureSummary?,
    digests: [String: (UInt64, String)], before: () -> Void = {}
  ) -> [String] {
    var problems: [String] = []
    // report.pdf drawn again from the same values and capture.json's counts: the same bytes.
    if let stated = digests[EvidenceBundle.reportName]?.1 {
      // The first page cites the other files' digests: those the archive's entries have.
      let cited = EvidenceBundle.reportCitedNames.map {
        EvidenceReportDigest(name: $0, sha256: digests[$0]?.1 ?? "")
      }
      let bundle = rederivation.bundle
      _ = consume rederivation
      if let capture,
        let drawn = redrawnReportDigest(consume bundle, capture, citing: cited, before: before)
      {
        if drawn != stated {
          problems.append(VerifyWording.documentDiffers(EvidenceBundle.reportName))
        }
      } else {
        problems.append(VerifyWording.reportNotRedrawn)
      }
    }
    return problems
  }

  /// findings.json and session.json against what this tool derives from the flows and from
  /// session.json's project, session and markers, with the catalogue it carries: the
  /// re-derivation's first part, all that needs the flows.
  static func rederive(
    session: Data?, flows: [StoredFlow], baselineClaims: [Bool?], citations: [Int64: [String]],
    registrableDomains: RegistrableDomains, registrations: [String: AddressRegistration],
    scanFiles: [String: Data], findings: VerifiedFindings, findingCount: Int,
    captureCoverage: [String]?, digests: [String: (UInt64, String)], exchanges: [ExchangeRecord],
    keyProblems: @escaping (String) -> [String]
  ) -> Rederived {
    let statement = VerifyWording.rederivedStatement
    guard let session else {
      return .decided(Check(statement: statement, problems: [VerifyWording.sessionMissing]))
    }
    let record: EvidenceSessionRecord
    do { record = try EvidenceSessionRecord(session) } catch {
      return .decided(Check(statement: statement, problems: [error.description]))
    }
    if let stated = findings.catalogue?.identifier, stated != record.catalogueIdentifier {
      return .decided(
        Check(
          statement: statement,
          problems: [
            VerifyWording.catalogueDiffers(stated: stated, session: record.catalogueIdentifier)
          ]))
    }
    if (try? RequirementCatalogueLibrary.catalogue(identifier: record.catalogueIdentifier)) != nil,
      EvidenceRederivation.catalogue(
        identifier: record.catalogueIdentifier, sourceSHA256: findings.catalogue?.source?.sha256)
        == nil
    {
      return .decided(
        Check(
          statement: statement,
          problems: [VerifyWording.catalogueSourceDiffers(record.catalogueIdentifier)]))
    }
    guard
      let catalogue = EvidenceRederivation.catalogue(
        identifier: record.catalogueIdentifier, sourceSHA256: findings.catalogue?.source?.sha256)
    else {
      return .decided(
        Check(
          statement: VerifyWording.notRederived(catalogue: record.catalogueIdentifier),
          problems: [], made: false))
    }
    guard record.formatVersion == EvidenceBundle.formatVersion else {
      return .decided(
        Check(
          statement: VerifyWording.notRederived(
            formatVersion: record.formatVersion, current: EvidenceBundle.formatVersion),
          problems: [], made: false))
    }
    guard record.exportedWith == ToolVersion.exportedWith else {
      return .decided(
        Check(
          statement: VerifyWording.notRederived(exportedWith: record.exportedWith),
          problems: [], made: false))
    }
    let (trackers, missingList) = TrackerListLoader.again(record.trackerLists)
    if let missingList {
      return .decided(
        Check(
          statement: VerifyWording.notRederived(trackerList: missingList), problems: [],
          made: false))
    }
    let (scans, scanProblems) = serverScans(record, files: scanFiles)
    let rederived: EvidenceRederivation
    do {
      rederived = try EvidenceRederivation(
        record: record, flows: flows, catalogue: catalogue, trackers: trackers,
        registrableDomains: registrableDomains,
        addressRegistrations: AddressRegistrations.stated(
          flows, databases: record.addressDatabases, registrations),
        serverScans: scans, exchanges: exchanges,
        includesContent: digests[EvidenceContentHAR.fileName] != nil, holdingFlows: false)
    } catch {
      return .decided(
        Check(statement: statement, problems: [VerifyWording.notABundle("\(error)")]))
    }
    var problems = scanProblems + runProblems(flows, coverage: rederived.bundle.coverage)
    let verdicts = rederived.verdicts
    problems += findingProblems(
      rederived, verdicts: verdicts, findings: findings, findingCount: findingCount, flows: flows,
      citations: citations, baselineClaims: baselineClaims)
    let documents = Alongside {
      documentProblems(rederived, digests: digests, keyProblems: keyProblems)
    }
    var after: [String] = []
    let coverage = CoverageWording.lines(
      rederived.bundle.coverage, open: rederived.bundle.session.isOpen, instant: Instant.rfc3339)
    if captureCoverage != coverage { after.append(VerifyWording.captureCoverageDiffers) }
    return .derived(
      rederived, problems: problems, documents: documents, problemsAfter: after,
      catalogue: record.catalogueIdentifier)
  }

  /// The scans session.json names, each with its file's bytes: a file missing, or other bytes
  /// than the SHA-256 session.json states, is a problem.
  static func serverScans(_ record: EvidenceSessionRecord, files: [String: Data]) -> (
    [StoredServerScan], [String]
  ) {
    var problems: [String] = []
    let scans = record.serverScans.map { entry -> StoredServerScan in
      let bytes = files[entry.file] ?? Data()
      if files[entry.file] == nil {
        problems.append(VerifyWording.scanMissing(entry.file))
      } else if SHA256Digest.hex(of: bytes) != entry.scan.sha256 {
        problems.append(VerifyWording.scanDiffers(entry.file))
      }
      return StoredServerScan(
        sessionID: entry.scan.sessionID, storedAt: entry.scan.storedAt, tool: entry.scan.tool,
        fileName: entry.scan.fileName, sha256: entry.scan.sha256, output: bytes)
    }
    return (scans, problems)
  }

  /// The verdicts, the count of findings, each flow's citations and baseline claim against
  /// those re-derived.
  static func findingProblems(
    _ rederived: EvidenceRederivation, verdicts: [String: String], findings: VerifiedFindings,
    findingCount: Int, flows: [StoredFlow], citations: [Int64: [String]], baselineClaims: [Bool?]
  ) -> [String] {
    var problems: [String] = []
    for requirement in findings.requirements {
      guard let id = requirement.id else { continue }
      if requirement.verdict != verdicts[id] {
        problems.append(
          VerifyWording.verdictDiffers(
            id, stated: requirement.verdict, rederived: verdicts[id]))
      }
    }
    if findingCount != rederived.bundle.findings.count {
      problems.append(
        VerifyWording.findingCountDiffers(
          stated: findingCount, rederived: rederived.bundle.findings.count))
    }
    let differing = flows.filter {
      (citations[$0.id] ?? []) != rederived.bundle.findingIDs(ofFlow: $0.id)
    }
    for flow in differing.prefix(3) {
      problems.append(
        VerifyWording.citationsDiffer(
          flow: flow.id, stated: citations[flow.id] ?? [],
          rederived: rederived.bundle.findingIDs(ofFlow: flow.id)))
    }
    // What each flow says of the baseline follows from session.json's baseline hosts.
    let misattributed = zip(flows, baselineClaims).filter {
      $1 != rederived.bundle.alsoContactedInBaseline($0)
    }
    for (flow, claim) in misattributed.prefix(3) {
      problems.append(
        VerifyWording.baselineClaimDiffers(
          flow: flow.id, stated: claim, rederived: rederived.bundle.alsoContactedInBaseline(flow)))
    }
    return problems
  }

  /// findings.json, session.json and exchanges.json against the bytes export writes from the
  /// re-derived values.
  static func documentProblems(
    _ rederived: EvidenceRederivation, digests: [String: (UInt64, String)],
    keyProblems: (String) -> [String] = { _ in [] }
  ) -> [String] {
    var problems: [String] = []
    // Each document made and hashed in turn; findings.json a finding at a time.
    let documents: [(String, (([UInt8]) -> Void) -> Void)] = [
      (EvidenceBundle.findingsName, rederived.findingsJSON),
      (EvidenceBundle.sessionName, { $0(rederived.sessionJSON) }),
      (EvidenceBundle.exchangesName, { $0(rederived.exchangesJSON) }),
    ]
    for (name, write) in documents {
      let digest = SHA256Digest()
      write { piece in piece.withUnsafeBytes { digest.update($0) } }
      if let stated = digests[name]?.1, stated != digest.finalHex() {
        problems.append(VerifyWording.documentDiffers(name))
        problems += keyProblems(name)
      }
    }
    return problems
  }

  /// The streamed documents could not all be read as the format's: where one is JSON but not of
  /// the format's form, its keys say where.
  static func unreadableDocumentsCheck(_ reading: BundleReading) -> Check {
    let named = [
      (EvidenceBundle.flowsName, reading.flowsRead),
      (EvidenceBundle.findingsName, reading.findingsRead),
      (EvidenceBundle.captureJSONName, reading.captureRead),
      (EvidenceBundle.exchangesName, reading.exchangesRead ?? (nil, true)),
    ].filter { $0.1?.readable != true }.flatMap { keyProblems(of: $0.0, in: reading) }
    return Check(
      statement: VerifyWording.documentsReadable,
      problems: named.isEmpty ? [VerifyWording.documentUnreadable] : named)
  }

  /// Where a JSON document whose bytes are not export's departs from its table of keys: a key
  /// missing, one the format does not have, a value of another form (at most five, each by its
  /// path). A document streamed past is read again for this, when it is at most 16 MiB.
  static func keyProblems(of name: String, in reading: BundleReading) -> [String] {
    guard let keys = EvidenceBundle.documentKeys[name] else { return [] }
    var data = reading.documents[name]
    if data == nil, let entry = reading.archive.entries.first(where: { $0.name == name }),
      entry.size <= 16 << 20
    {
      data = try? reading.archive.data(entry)
    }
    guard let data, let object = try? JSONSerialization.jsonObject(with: data) else { return [] }
    return DocumentShape.problems(of: object, as: keys, limit: 5).map {
      VerifyWording.keyProblem(name, $0.description)
    }
  }

  /// Each flow of a recorded session was written by a run its coverage lists (the first three
  /// that were not are named).
  static func runProblems(_ flows: [StoredFlow], coverage: SessionCoverage) -> [String] {
    guard coverage.basis == .runs else { return [] }
    let listed = coverage.runs.map(\.id)
    let known = Set(listed)
    return flows.filter { !known.contains($0.captureSessionID) }.prefix(3).map {
      VerifyWording.flowRunNotListed(flow: $0.id, run: $0.captureSessionID, listed: listed)
    }
  }

  /// The problems of a document written again from the values read of it: none when its bytes
  /// are those the bundle holds (`digests`), else that its form differs and which keys.
  static func formProblems(
    _ name: String, digests: [String: (UInt64, String)], keyProblems: (String) -> [String],
    write: (([UInt8]) -> Void) -> Void
  ) -> [String] {
    let digest = SHA256Digest()
    write { bytes in bytes.withUnsafeBytes { digest.update($0) } }
    guard digests[name]?.1 != digest.finalHex() else { return [] }
    return formDiffers(name, keyProblems: keyProblems)
  }

  /// That a document's form differs, and which of its keys.
  static func formDiffers(_ name: String, keyProblems: (String) -> [String]) -> [String] {
    [VerifyWording.formDiffers(name)] + keyProblems(name)
  }

  /// capture.json written again from the capture document read of it.
  static func captureFormProblems(
    _ capture: EvidenceCaptureDocument?, digests: [String: (UInt64, String)],
    keyProblems: (String) -> [String] = { _ in [] }
  ) -> [String] {
    let name = EvidenceBundle.captureJSONName
    guard let capture else { return formDiffers(name, keyProblems: keyProblems) }
    return formProblems(name, digests: digests, keyProblems: keyProblems) { sink in
      capture.document.write(
        count: capture.flows.count,
        element: { i, w in capture.flows[i].tally.write(id: capture.flows[i].id, to: &w) },
        to: sink)
    }
  }

  /// flows.json written again from the flows read of it.
  static func flowsFormProblems(
    _ flows: FlowsJSONReading, sessionID: Int64?, digests: [String: (UInt64, String)],
    keyProblems: (String) -> [String] = { _ in [] }
  ) -> [String] {
    let name = EvidenceBundle.flowsName
    guard let sessionID else { return formDiffers(name, keyProblems: keyProblems) }
    let records = flows.records
    let citations = flows.flows
    let claims = flows.baselineClaims
    let domains = flows.registrableDomains
    let registrations = AddressRegistrations(flows.registrations)
    return formProblems(name, digests: digests, keyProblems: keyProblems) { sink in
      EvidenceBundle.flowsDocument(sessionID: sessionID, flowCount: records.count).write(
        count: records.count,
        element: { i, w in
          EvidenceFlowRecord.write(
            records[i], findingIDs: citations[i].findingIDs, alsoContactedInBaseline: claims[i],
            registrableDomain: domains[i], registrations: registrations, to: &w)
        }, to: sink)
    }
  }

  /// The SHA-256 of report.pdf drawn again, in a directory of its own; nil when it cannot be
  /// drawn (no fonts, a capture of another session).
  static func redrawnReportDigest(
    _ bundle: consuming EvidenceBundle, _ capture: EvidenceCaptureSummary,
    citing digests: [EvidenceReportDigest], before: () -> Void = {}
  ) -> String? {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tunnelvision-verify-\(getpid())-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    guard
      (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true))
        != nil,
      let prepared = try? EvidenceReportRenderer.prepare(bundle, capture)
    else { return nil }
    _ = consume bundle
    before()
    guard (try? prepared.draw(citing: digests, into: folder)) != nil else { return nil }
    return try? SHA256Digest.hex(ofFileAt: folder.appendingPathComponent(EvidenceBundle.reportName))
  }

  /// The flows of flows.json, read as verify reads them; nil if the document or a flow cannot be decoded.
  static func decodeFlows(_ data: Data) -> [EvidenceFlowRecord.Decoded]? {
    let flows = Collected<EvidenceFlowRecord.Decoded>()
    let reading = StreamedArrayReading(
      key: "flows", elements: \VerifiedFlows.flows, read: EvidenceFlowRecord.Decoded.init
    ) {
      flows.items.append($0)
    }
    reading.feed(data)
    return reading.finish().readable ? flows.items : nil
  }

  /// signature.json against manifest.json's bytes (and the key trusted, when one is given); nil
  /// for an unsigned bundle when no key was asked for.
  static func signatureCheck(
    _ document: Data?, manifest: Data, trustedKey: Data?, standing: inout SignatureStanding
  ) -> Check? {
    guard let document else {
      guard trustedKey != nil else { return nil }
      return Check(
        statement: VerifyWording.signedByKeyGiven, problems: [VerifyWording.noSignature])
    }
    // Read strictly: its four keys, each once, signing the manifest; nothing else.
    let object =
      JSONSyntax.failure(in: document) == nil
      ? (try? JSONSerialization.jsonObject(with: document)) as? [String: Any] : nil
    guard let object, Set(object.keys) == ["algorithm", "signs", "publicKey", "signature"],
      object["algorithm"] as? String == "Ed25519",
      object["signs"] as? String == EvidenceBundle.manifestName,
      let key = (object["publicKey"] as? String).flatMap({ Data(base64Encoded: $0) }),
      key.count == 32,
      let signature = (object["signature"] as? String).flatMap({ Data(base64Encoded: $0) }),
      signature.count == 64
    else {
      return Check(
        statement: VerifyWording.signatureReads, problems: [VerifyWording.signatureUnreadable])
    }
    let fingerprint = Ed25519Signature.fingerprint(key)
    var problems: [String] = []
    if !Ed25519Signature.verify(signature, of: manifest, publicKey: key) {
      problems.append(VerifyWording.signatureWrong)
    }
    if let trustedKey, trustedKey != key {
      problems.append(
        VerifyWording.signedByOther(
          fingerprint, trusted: Ed25519Signature.fingerprint(trustedKey)))
    }
    standing = .signed(fingerprint: fingerprint, byTrustedKey: trustedKey == key)
    return Check(statement: VerifyWording.signed(fingerprint), problems: problems)
  }
}
