import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Capture
import Crypto
import FlowStore
import Foundation
import ReportModel
import ReportPDF
import SystemCalls

/// A failure of the report hook, kept apart from failures to write.
struct ReportNotDrawn: Error { let reason: String }

public struct EvidenceExportResult: Sendable, Equatable {
  /// The .zip.
  public let url: URL
  public let byteCount: UInt64
  /// The files of the bundle, by name, in the archive's order.
  public let fileNames: [String]
  public let flowCount: Int
  public let findingCount: Int
  /// capture.json, as written.
  public let capture: EvidenceCaptureDocument
  public let sessionID: Int64
  /// Where the flows' addresses are registered, from the databases given.
  public var registrations = AddressRegistrations()
}

/// Lays report.pdf out, and gives what draws it into a folder once the digests it cites are
/// known: the report layer plugs in here, the exporter knows no PDF.
public typealias EvidenceReportRendering =
  @Sendable (EvidenceBundle, EvidenceCaptureSummary) throws -> EvidenceReportDrawing
public typealias EvidenceReportDrawing =
  ([EvidenceReportDigest], URL) throws -> EvidenceReportRenderer.Drawn

/// Reads a closed session out of the history and makes its bundle: the documents and the report
/// are written (and hashed, and deflated) into a folder of its own temporary directory, the
/// capture straight into the archive at its destination when it does not shrink, and the
/// manifest last. At most one bundle is left in the temporary directory; a failure leaves
/// nothing. The default directory is the exporter's own, so exports running at once never clear
/// each other's files.
public final class EvidenceExporter {
  public let store: FlowStore
  public let temporaryDirectory: URL
  public var report: EvidenceReportRendering?
  /// The tracker lists the session's hosts are compared with; nil: none installed or given.
  /// `export` lets them go once it has classified the session.
  public var trackers: TrackerLists?
  /// The public suffix list the flows' registrable domains come from; nil: none.
  public var publicSuffixList: PublicSuffixList?
  /// The address databases the flows' addresses are looked up in (`--ip-database`); none: none.
  public var addressDatabases: [AddressDatabase] = []
  /// An Ed25519 private key (PEM): the bundle then carries signature.json over its manifest.
  public var signingKey: Data?
  /// Whether the bundle holds the exchanges' content itself (content.har): `--with-content`.
  public var withContent = false
  /// Runs after everything was read and written, before the history is checked again: the seam
  /// through which a test changes the history under an export.
  public var beforeFinalCheck: (() throws -> Void)?
  public var zip64Threshold: UInt64 = 0xFFFF_FFFF
  /// Where `report` has the export copy report.pdf, and the timing of the last one drawn.
  private var keptReport: URL?
  private var reportTiming = EvidenceReportRenderer.Timing()
  /// The session's fingerprint and packet counts, being read while `bundle` classifies (the
  /// export's way).
  private var historyAhead: Alongside<HistoryAhead>?
  /// Told each phase's name and wall time, when set (`TUNNELVISION_TRACE=1` on the command line).
  public var trace: ((String, TimeInterval) -> Void)?
  private var phaseStart = Date()
  private func phase(_ name: String) {
    let now = Date()
    trace?(name, now.timeIntervalSince(phaseStart))
    phaseStart = now
  }
  /// The catalogue a project is assessed against: the bundled library's choice unless the
  /// command line resolves it otherwise (a catalogue given, or kept in the store).
  public var catalogue: CatalogueResolution = {
    (project) throws(RequirementCatalogueLibraryError) in
    try RequirementCatalogueLibrary.catalogue(for: project)
  }

  public init(store: FlowStore, temporaryDirectory: URL = EvidenceExporter.newTemporaryDirectory())
  {
    self.store = store
    self.temporaryDirectory = temporaryDirectory
  }

  /// A directory of this exporter's own under TMPDIR, named with the user and the process; those
  /// of the user's exports killed while they wrote (their process gone) are removed first.
  public static func newTemporaryDirectory() -> URL {
    let temporary = FileManager.default.temporaryDirectory
    let prefix = "tunnelvision-export-\(getuid())-"
    AtomicRename.removeAbandoned(in: temporary, prefix: prefix)
    return temporary.appendingPathComponent(
      "\(prefix)\(getpid())-\(UUID().uuidString)", isDirectory: true)
  }

  /// Reads the session out of the history and builds its documents (pure), with what tells at the
  /// end whether the history changed since. The bundle holds the flows; the export takes them
  /// out (`HeldFlows`) and lets them go piece by piece as flows.json and flows.csv are written.
  /// `countingAhead` (the export's way): the session's fingerprint and packet counts are read
  /// on another thread meanwhile (`EvidenceCaptureWriter.historyAhead`), the counts for the
  /// slicing.
  public func bundle(
    sessionID: Int64, exportedWith: String, now: Date, countingAhead: Bool = false
  ) throws(EvidenceExportError) -> (EvidenceBundle, HistoryCheck) {
    func history<T>(_ body: () throws -> T) throws(EvidenceExportError) -> T {
      do { return try body() } catch { throw .historyUnreadable("\(error)") }
    }
    historyAhead = nil
    let mark = try history { try store.historyMark() }
    guard let session = try history({ try store.auditSession(id: sessionID) }) else {
      throw .sessionNotFound
    }
    guard !session.isOpen else { throw .sessionStillOpen }
    guard let project = try history({ try store.auditProject(id: session.projectID) }) else {
      throw .sessionNotFound
    }
    let catalogue: RequirementCatalogue
    do { catalogue = try self.catalogue(project) } catch { throw .catalogue(error) }
    let ahead =
      countingAhead
      ? EvidenceCaptureWriter.historyAhead(store: store, session: session) : nil
    let fingerprint = try history {
      try ahead == nil ? store.auditSessionFingerprint(id: sessionID) : nil
    }
    let flows = try history {
      try store.withOpenings(try store.flows(inAuditSession: sessionID))
    }
    let markers = try history { try store.markers(forSession: sessionID) }
    let baseline = try history { try Self.baseline(for: session, in: store) }
    let runs = try history {
      try store.recorderRuns(from: session.startedAt, to: session.endedAt)
    }
    let runsNotKept = try history { try store.hasFlowsOfUnknownRuns(inAuditSession: sessionID) }
    let content = try history { try SessionContentReader.content(of: session, in: store) }
    let scans = try history { try store.serverScans(ofSession: sessionID) }
    let importProxies = try history {
      session.source == nil ? [] : try store.importProxyStarts(inAuditSession: sessionID)
    }
    let made: EvidenceBundle
    do {
      var bundle = try EvidenceBundle(
        project: project, session: session, markers: markers, flows: flows, catalogue: catalogue,
        exportedWith: exportedWith, exportedAt: now, baseline: baseline, runs: runs,
        runsNotKept: runsNotKept, trackers: trackers,
        publicSuffixList: publicSuffixList?.identity,
        registrableDomains: RegistrableDomains.of(flows, by: publicSuffixList),
        addressRegistrations: AddressDatabase.registrations(of: flows, in: addressDatabases),
        serverScans: scans, content: content)
      bundle.includesContent = withContent
      bundle.importProxies = importProxies
      bundle.exportLibraries = ExportLibraries.stated(
        publicSuffixList: publicSuffixList != nil, addressDatabases: !addressDatabases.isEmpty)
      made = bundle
    } catch {
      switch error {
      case .sessionStillOpen: throw .sessionStillOpen
      case .sessionOfAnotherProject, .duplicateFlow: throw .historyUnreadable("\(error)")
      }
    }
    historyAhead = ahead
    let check = HistoryCheck(
      sessionID: sessionID, mark: mark,
      fingerprint: try history { try fingerprint ?? ahead!.value.fingerprint.get() })
    return (made, check)
  }

  public func export(sessionID: Int64, exportedWith: String, now: Date, destination: URL? = nil)
    throws(EvidenceExportError) -> EvidenceExportResult
  {
    if let destination { try Self.requireDirectory(of: destination) }
    phaseStart = Date()
    var (bundle, check) = try bundle(
      sessionID: sessionID, exportedWith: exportedWith, now: now, countingAhead: true)
    let held = HeldFlows(bundle.takeFlows())
    // The bundle keeps the lists' identities only; their rules are megabytes the files to write
    // do not need.
    trackers = nil
    phase("read the history and classified")
    let captures = try capturesDirectory()
    let fm = FileManager.default
    let (folder, archive) = try prepareFolder(for: bundle)
    var succeeded = false
    defer {
      try? fm.removeItem(at: folder)
      if !succeeded { try? fm.removeItem(at: archive) }
    }
    do {
      // Handed over: the bundle is let go before the report is drawn, the export's peak.
      let result = try writeBundle(
        consume bundle, held: held, check: check, folder: folder,
        archive: destination ?? archive, captures: captures, exportedWith: exportedWith, now: now)
      succeeded = true
      return result
    } catch {
      throw Self.exportError(error)
    }
  }

  /// The bundle's files, archived as they are written into `archive` (straight to the
  /// destination when there is one, through a temporary name beside it: copying a 250 MB
  /// archive afterwards would cost as much as writing it), the history checked again before the
  /// manifest is written.
  func writeBundle(
    _ bundle: consuming EvidenceBundle, held: HeldFlows, check: HistoryCheck, folder: URL,
    archive final: URL, captures: URL, exportedWith: String, now: Date
  ) throws -> EvidenceExportResult {
    // Two cores, two lines of work. This thread reads the history's packet counts, forecasts
    // from them what capture.json will count, and slices the capture. The other writes
    // flows.json and then lays report.pdf out from the forecast while the capture is still
    // being sliced, then writes such documents as are left; this thread takes the rest once
    // the capture is done. The report is drawn once every other file's digest is known (its
    // first page cites them). If the capture counts otherwise than forecast, the report is
    // laid out again from what it does count, before it is drawn. Neither core holds the bundle
    // while the report is drawn: what the archive's end needs of it is kept apart (`Kept`).
    let second = SecondCore()
    let group = DispatchGroup()
    let report = self.report
    // With a report, the documents are deflated as they are archived, on this thread while the
    // second core draws: the report waits for their digests, not for their deflated bytes.
    let documents = EvidenceDocumentQueue(
      bundle: copy bundle, folder: folder, flows: held.drain,
      deflation: report == nil ? .asWritten : .whenArchived)
    second.bundle = copy bundle
    DispatchQueue.global().async(group: group) {
      Self.secondCore(second, documents: documents, report: report, folder: folder)
    }
    defer {
      second.release()
      group.wait()
    }
    let zip = try EvidenceBundleArchive(
      url: final, folder: folder, modified: now, zip64Threshold: zip64Threshold)
    var zipFinished = false
    defer { if !zipFinished { zip.abandon() } }
    var (capture, files) = try sliceCapture(
      of: bundle, into: zip, second: second, captures: captures, application: exportedWith)
    files += try documentsWritten(documents, of: bundle, folder: folder)
    let kept = Kept(bundle)
    _ = consume bundle
    let digests = try Self.citedDigests(files)
    second.handOver(digests, captured: capture.document.summary)
    phase("wrote the documents left")
    let manifest = try archiveTheRest(
      files, into: zip, second: second, group: group, sessionID: kept.sessionID,
      folder: folder, check: check, now: now)
    zipFinished = true
    return try self.result(final, manifest: manifest, kept: kept, capture: capture.document)
  }

  /// What the archive's end and the export's result need of the bundle, kept so that the bundle
  /// itself can go before the report is drawn.
  struct Kept {
    let sessionID: Int64
    let flowCount: Int
    let findingCount: Int
    let registrations: AddressRegistrations

    init(_ bundle: borrowing EvidenceBundle) {
      sessionID = bundle.session.id
      flowCount = bundle.flowCount
      findingCount = bundle.findings.count
      registrations = bundle.addressRegistrations
    }
  }

  /// The capture sliced into the archive (capture.pcapng straight in, capture.json beside it),
  /// the forecast of what it counts handed to the second core for the report's layout first.
  fileprivate func sliceCapture(
    of bundle: EvidenceBundle, into zip: EvidenceBundleArchive, second: SecondCore,
    captures: URL, application: String
  ) throws -> (EvidenceCapture, [WrittenFile]) {
    let counts =
      try historyAhead?.value.counts.get()
      ?? EvidenceCaptureWriter.packetCounts(for: bundle, from: store)
    historyAhead = nil
    let forecast = try EvidenceCaptureWriter.forecast(
      for: bundle, counts: counts, from: store, captureDirectory: captures)
    second.handOver(report != nil ? .success(forecast.summary) : .failure(CancellationError()))
    // The bundle's files; the archive takes them in the manifest's order (by name), the manifest last.
    let sliced = try zip.addCapture(
      for: bundle, counts: counts, forecast: forecast, from: store, captureDirectory: captures,
      application: application, trace: trace)
    phase("sliced the capture (documents and the report alongside)")
    return sliced
  }

  /// The documents, as either core wrote them, and the files written after them.
  func documentsWritten(_ documents: EvidenceDocumentQueue, of bundle: EvidenceBundle, folder: URL)
    throws -> [WrittenFile]
  {
    let (files, jobs) = try documents.finish()
    for (names, done) in jobs {
      trace?(
        "  \(names.joined(separator: " and ")) written \(done.onSecondCore ? "on the second core" : "here")",
        done.seconds)
    }
    return try files + writeFilesLeft(of: bundle, into: folder)
  }

  /// Every file not archived yet, in the archive's order: those before report.pdf while the
  /// report may still be drawn on the second core, then the report, the rest, and, once the
  /// history is checked again, the manifest and its signature.
  fileprivate func archiveTheRest(
    _ files: [WrittenFile], into zip: EvidenceBundleArchive, second: SecondCore,
    group: DispatchGroup, sessionID: Int64, folder: URL, check: HistoryCheck, now: Date
  ) throws -> EvidenceManifest {
    var files = files
    let (before, laterEntries) = Self.aroundReport(files, archived: zip.archived)
    var after = laterEntries
    for file in before { try zip.add(file) }
    if report != nil {
      group.wait()
      let reportFile = try finishedReport(second, folder: folder)
      files.append(reportFile)
      after.append(reportFile)
    }
    phase("archived the entries before report.pdf, had the report")
    try beforeFinalCheck?()
    guard try check.holds(in: store) else {
      throw EvidenceExportError.historyChangedWhileExporting
    }
    let manifest = EvidenceManifest(
      sessionID: sessionID, exportedAt: now, entries: files.map(\.entry))
    let last = try writeManifestAndSignature(manifest, into: folder)
    for file in after.sorted(by: Self.byName) + last { try zip.add(file) }
    try zip.finish()
    phase("checked the history, wrote the manifest, finished the archive")
    return manifest
  }

  /// report.pdf as drawn on the second core (laid out again first when the capture counted
  /// otherwise than forecast), kept where `report` asked for a copy.
  fileprivate func finishedReport(_ second: SecondCore, folder: URL) throws -> WrittenFile {
    trace?("  of which the report, on the second core", second.reportTiming.total)
    if second.laidOutAgain {
      trace?("  the capture counted otherwise than forecast: report.pdf laid out again", 0)
    }
    let file = try second.report!.get()
    reportTiming = second.reportTiming
    if let keptReport {
      try FileManager.default.copyItem(
        at: folder.appendingPathComponent(EvidenceBundle.reportName), to: keptReport)
    }
    return file
  }

  /// What the export says it made: the archive, its size and its files in order.
  func result(
    _ archive: URL, manifest: EvidenceManifest, kept: Kept, capture: EvidenceCaptureDocument
  ) throws -> EvidenceExportResult {
    let names =
      manifest.entries.map(\.name) + [EvidenceBundle.manifestName]
      + (signingKey == nil ? [] : [EvidenceBundle.signatureName])
    let size =
      (try FileManager.default.attributesOfItem(atPath: archive.path)[.size] as? NSNumber)?
      .uint64Value ?? 0
    return EvidenceExportResult(
      url: archive, byteCount: size, fileNames: names, flowCount: kept.flowCount,
      findingCount: kept.findingCount, capture: capture, sessionID: kept.sessionID,
      registrations: kept.registrations)
  }

  /// The files written after the documents: content.har when asked for, and each kept server
  /// scan as it was read.
  func writeFilesLeft(of bundle: EvidenceBundle, into folder: URL) throws -> [WrittenFile] {
    var files: [WrittenFile] = []
    if withContent { files.append(try writeContentHAR(of: bundle, into: folder)) }
    for (index, scan) in bundle.serverScans.enumerated() {
      let writer = try EvidenceFileWriter(
        url: folder.appendingPathComponent(EvidenceBundle.serverScanName(index)),
        deflation: .asWritten)
      try writer.write(scan.output)
      files.append(try writer.finishFile())
    }
    return files
  }

  /// manifest.json, and with a signing key signature.json over it: the archive's last entries.
  func writeManifestAndSignature(_ manifest: EvidenceManifest, into folder: URL) throws
    -> [WrittenFile]
  {
    var last = [try Self.write(manifest, into: folder)]
    guard let signingKey else { return last }
    let (signature, publicKey) = try Ed25519Signature.sign(
      Data(manifest.text.utf8), privateKeyPEM: signingKey)
    let writer = try EvidenceFileWriter(
      url: folder.appendingPathComponent(EvidenceBundle.signatureName))
    try writer.write(
      EvidenceBundle.signatureDocument(publicKey: publicKey, signature: signature).serialized()
        + "\n")
    last.append(try writer.finishFile())
    return last
  }

  /// content.har: the session's exchanges from the store, an entry at a time.
  func writeContentHAR(of bundle: EvidenceBundle, into folder: URL) throws -> WrittenFile {
    let writer = try EvidenceFileWriter(
      url: folder.appendingPathComponent(EvidenceContentHAR.fileName), deflation: .asWritten)
    try writer.write(EvidenceContentHAR.prefix(toolVersion: ToolVersion.current))
    var first = true
    try store.forEachExchange(inAuditSession: bundle.session.id) { exchange in
      if !first { try writer.write(EvidenceContentHAR.separator) }
      first = false
      try writer.write("      " + EvidenceContentHAR.entry(exchange).serialized())
    }
    try writer.write(EvidenceContentHAR.suffix)
    return try writer.finishFile()
  }

  /// The project's baseline a bundle of the session cites, with the host names of its
  /// connections.
  public static func baseline(for session: AuditSession, in store: FlowStore) throws
    -> EvidenceBaseline?
  {
    let sessions = try store.auditSessions(forProject: session.projectID)
    guard let baseline = EvidenceBaseline.session(for: session, among: sessions) else {
      return nil
    }
    var hosts = Set<String>()
    var clients = Set<String>()
    try FlowReader(store: store).forEachFlow(inAuditSession: baseline.id) {
      if let name = $0.name { hosts.insert(name.text) }
      if let ja4 = $0.clientTLS?.ja4 { clients.insert(ja4) }
    }
    return EvidenceBaseline(sessionID: baseline.id, hosts: hosts, tlsClients: clients)
  }

  /// The store's capture directory, which must be one if it is there at all.
  func capturesDirectory() throws(EvidenceExportError) -> URL {
    var isDirectory: ObjCBool = false
    let captures = store.capturesDirectory
    if FileManager.default.fileExists(atPath: captures.path, isDirectory: &isDirectory),
      !isDirectory.boolValue
    {
      throw .captureDirectoryUnavailable("\(captures.path) is not a directory")
    }
    return captures
  }

  /// The bundle's folder and archive under the exporter's directory, which holds at most one
  /// bundle: the previous one goes.
  func prepareFolder(for bundle: EvidenceBundle) throws(EvidenceExportError) -> (URL, URL) {
    let fm = FileManager.default
    let folder = temporaryDirectory.appendingPathComponent(bundle.fileStem, isDirectory: true)
    let archive = temporaryDirectory.appendingPathComponent(bundle.fileStem + ".zip")
    do {
      try fm.createDirectory(at: temporaryDirectory, withIntermediateDirectories: true)
      for name in try fm.contentsOfDirectory(atPath: temporaryDirectory.path) {
        try fm.removeItem(at: temporaryDirectory.appendingPathComponent(name))
      }
      try fm.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      throw .writeFailed(
        "the export directory \(temporaryDirectory.path) cannot be used: \(SystemErrorText.reason(error))"
      )
    }
    return (folder, archive)
  }

  /// The second core's line of work: flows.json, then report.pdf laid out from the forecast
  /// once this thread has made it, then such documents as are left, then the report drawn once
  /// this thread has the other files' digests.
  fileprivate static func secondCore(
    _ second: SecondCore, documents: EvidenceDocumentQueue, report: EvidenceReportRendering?,
    folder: URL
  ) {
    defer { second.bundle = nil }
    _ = documents.writeNext(onSecondCore: true)
    var drawing: Result<EvidenceReportDrawing, Error>?
    if let report {
      second.forecastMade.wait()
      if case .success(let forecast)? = second.forecast {
        drawing = Result { try layOut(report, second.bundle!, forecast) }
      }
    }
    while documents.writeNext(onSecondCore: true) {}
    guard var drawing, let report else { return }
    second.digestsKnown.wait()
    guard let digests = second.digests, let captured = second.captured else { return }
    // The report states what the capture holds: laid out again when it counts otherwise.
    if case .success(let forecast)? = second.forecast, forecast != captured {
      drawing = Result { try layOut(report, second.bundle!, captured) }
      second.laidOutAgain = true
    }
    second.bundle = nil
    MallocArenas.trim()
    second.report = Result {
      let drawn = try draw(try drawing.get(), digests, folder)
      second.reportTiming = drawn.timing
      return try drawn.file
        ?? WrittenFile.reading(folder.appendingPathComponent(EvidenceBundle.reportName))
    }
  }

  /// The digests report.pdf cites, from the files written before it.
  static func citedDigests(_ files: [WrittenFile]) throws -> [EvidenceReportDigest] {
    try EvidenceBundle.reportCitedNames.map { name in
      guard let file = files.first(where: { $0.entry.name == name }) else {
        throw ReportNotDrawn(reason: "\(name) was not written before the report")
      }
      return EvidenceReportDigest(name: name, sha256: file.entry.sha256)
    }
  }

  /// manifest.json, written into the folder (deflated, as the archive takes it).
  static func write(_ manifest: EvidenceManifest, into folder: URL) throws -> WrittenFile {
    let writer = try EvidenceFileWriter(
      url: folder.appendingPathComponent(EvidenceBundle.manifestName), deflation: .asWritten)
    try writer.write(manifest.text)
    return try writer.finishFile()
  }

  /// The archive's order: by the names' UTF-8 bytes, the manifest last.
  static func byName(_ a: WrittenFile, _ b: WrittenFile) -> Bool {
    a.entry.name.utf8.lexicographicallyPrecedes(b.entry.name.utf8)
  }

  /// The files not archived yet, in the archive's order: those before report.pdf, and the rest.
  static func aroundReport(_ files: [WrittenFile], archived: Set<String>) -> (
    before: [WrittenFile], after: [WrittenFile]
  ) {
    let pending = files.sorted(by: byName).filter { !archived.contains($0.entry.name) }
    let precedes = { (file: WrittenFile) in
      file.entry.name.utf8.lexicographicallyPrecedes(EvidenceBundle.reportName.utf8)
    }
    return (pending.filter(precedes), pending.filter { !precedes($0) })
  }

  /// report.pdf alone, at `destination`: the report the bundle would carry, which cites the
  /// digests of the bundle's other files, so the bundle is made (in the exporter's temporary
  /// directory) and only its report kept.
  public func report(sessionID: Int64, exportedWith: String, now: Date, destination: URL)
    throws(EvidenceExportError) -> EvidenceReportRenderer.Timing
  {
    try Self.requireDirectory(of: destination)
    // The export clears its temporary directory first: the copy is made in it after that.
    let kept = temporaryDirectory.appendingPathComponent("report-alone.pdf")
    let hook = report
    defer {
      try? FileManager.default.removeItem(at: kept)
      keptReport = nil
      report = hook
    }
    report = hook ?? EvidenceReportRenderer.forExporter
    keptReport = kept
    let bundle = try export(sessionID: sessionID, exportedWith: exportedWith, now: now)
    try? FileManager.default.removeItem(at: bundle.url)
    do { try Self.place(kept, at: destination) } catch { throw Self.exportError(error) }
    return reportTiming
  }

  /// What went wrong, as an export (or the report alone) fails with it.
  static func exportError(_ error: Error) -> EvidenceExportError {
    switch error {
    case let error as EvidenceExportError: return error
    case let error as EvidenceCaptureError:
      switch error {
      case .flowNotInBundle: return .historyChangedWhileExporting
      case .destinationUnavailable(let reason), .writeFailed(let reason):
        return .writeFailed(reason)
      }
    case let error as ReportNotDrawn: return .reportNotDrawn(error.reason)
    case let error as EvidenceWriteError: return .writeFailed(error.description)
    case let error as FlowStoreError: return .historyUnreadable(error.description)
    default: return .writeFailed(SystemErrorText.reason(error))
    }
  }

  /// The bundle's flows in its order, one at a time, to whoever writes them (`HeldFlows.drain`).
  typealias FlowSource = (_ body: (StoredFlow) throws -> Void) throws -> Void

  /// The documents of one job (`EvidenceDocumentQueue.jobs`), in its order.
  static func writeDocuments(
    _ names: [String], of bundle: EvidenceBundle, flows: FlowSource, into folder: URL,
    deflation: EvidenceFileWriter.Deflation = .asWritten
  ) throws -> [WrittenFile] {
    if names == [EvidenceBundle.flowsName, EvidenceBundle.flowsCSVName] {
      return try writeFlows(of: bundle, flows: flows, into: folder, deflation: deflation)
    }
    return try names.map {
      try writeDocument($0, of: bundle, into: folder, deflation: deflation)
    }
  }

  /// flows.json and flows.csv, flow by flow, from one reading of the flows.
  static func writeFlows(
    of bundle: EvidenceBundle, flows: FlowSource, into folder: URL,
    deflation: EvidenceFileWriter.Deflation
  ) throws -> [WrittenFile] {
    let json = try StreamedDocumentWriter(
      bundle.flowsDocument, url: folder.appendingPathComponent(EvidenceBundle.flowsName),
      deflation: deflation)
    let csv = try EvidenceFileWriter(
      url: folder.appendingPathComponent(EvidenceBundle.flowsCSVName), deflation: deflation)
    try csv.write(EvidenceFlowsCSV.headerLine)
    var row = GatheredBytes()
    try flows { flow in
      let domain = bundle.registrableDomain(of: flow)
      try json.append { bundle.writeFlowEntry(flow, registrableDomain: domain, to: &$0) }
      row.bytes.removeAll(keepingCapacity: true)
      EvidenceFlowsCSV.appendRow(
        flow, findingIDs: bundle.findingIDs(ofFlow: flow.id), registrableDomain: domain,
        registrations: bundle.addressRegistrations, to: &row)
      try csv.write(row.bytes)
    }
    return [try json.finish(), try csv.finishFile()]
  }

  /// One of the documents that do not list the flows: session.json whole; findings.json and
  /// exchanges.json finding by finding (exchange by exchange).
  static func writeDocument(
    _ name: String, of bundle: EvidenceBundle, into folder: URL,
    deflation: EvidenceFileWriter.Deflation
  ) throws -> WrittenFile {
    switch name {
    case EvidenceBundle.sessionName:
      let session = try EvidenceFileWriter(
        url: folder.appendingPathComponent(name), deflation: deflation)
      try session.write(bundle.sessionDocument.serialized() + "\n")
      return try session.finishFile()
    case EvidenceBundle.findingsName:
      return try streamed(
        bundle.findingsDocument, name: name, into: folder, deflation: deflation,
        elements: bundle.findings.indices.lazy.map(bundle.findingEntry))
    case EvidenceBundle.exchangesName:
      return try streamed(
        bundle.exchangesDocument, name: name, into: folder, deflation: deflation,
        elements: bundle.content.exchanges.lazy.map(EvidenceExchangesDocument.entry))
    default:
      preconditionFailure("\(name) is not one of the bundle's documents")
    }
  }

  static func streamed<S: Sequence>(
    _ document: StreamedJSONObject, name: String, into folder: URL,
    deflation: EvidenceFileWriter.Deflation, elements: S
  ) throws -> WrittenFile
  where S.Element == JSONValue {
    let json = try StreamedDocumentWriter(
      document, url: folder.appendingPathComponent(name), deflation: deflation)
    for element in elements { try json.append(element) }
    return try json.finish()
  }

  /// A report that could not be put on disk failed to write, like any other file of the bundle;
  /// anything else failed to draw.
  static func reportFailure(_ error: Error) -> Error {
    if let error = error as? PDFWriteError { return EvidenceWriteError(error.description) }
    return ReportNotDrawn(reason: "\(error)")
  }

  private static func layOut(
    _ report: EvidenceReportRendering, _ bundle: EvidenceBundle, _ capture: EvidenceCaptureSummary
  ) throws -> EvidenceReportDrawing {
    do { return try report(bundle, capture) } catch { throw reportFailure(error) }
  }

  private static func draw(
    _ drawing: EvidenceReportDrawing, _ digests: [EvidenceReportDigest], _ folder: URL
  ) throws -> EvidenceReportRenderer.Drawn {
    do { return try drawing(digests, folder) } catch { throw reportFailure(error) }
  }

  /// Refuses a destination whose directory is not there, before the session is read or sliced.
  static func requireDirectory(of destination: URL) throws(EvidenceExportError) {
    let directory = destination.deletingLastPathComponent()
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory),
      isDirectory.boolValue
    else {
      throw .destinationDirectoryMissing(directory.path)
    }
  }

  /// Moves the archive to where it was asked for, through a temporary name beside it.
  static func place(_ archive: URL, at destination: URL) throws {
    let fm = FileManager.default
    let partial = AtomicRename.partialName(for: destination)
    do {
      try fm.copyItem(at: archive, to: partial)
      do { try AtomicRename.rename(partial, to: destination) } catch {
        throw EvidenceWriteError(error.description)
      }
      try? fm.removeItem(at: archive)
    } catch {
      try? fm.removeItem(at: partial)
      throw error as? EvidenceWriteError
        ?? EvidenceWriteError(
          "\(destination.path) could not be written: \(SystemErrorText.reason(error))")
    }
  }
}

/// What the second core hands over, each field written before the semaphore that announces it
/// (or before the thread ends) and read after it.
private final class SecondCore: @unchecked Sendable {
  /// Set by the exporting thread before the second core starts, let go by the second core once
  /// the report is laid out for good; the exporting thread no longer reads it.
  var bundle: EvidenceBundle?
  var forecast: Result<EvidenceCaptureSummary, Error>?
  let forecastMade = DispatchSemaphore(value: 0)
  var report: Result<WrittenFile, Error>?
  var reportTiming = EvidenceReportRenderer.Timing()
  var digests: [EvidenceReportDigest]?
  /// What the capture counts as written, handed over with the digests.
  var captured: EvidenceCaptureSummary?
  var laidOutAgain = false
  let digestsKnown = DispatchSemaphore(value: 0)
  // Set and read by the exporting thread only.
  private var forecastHandedOver = false
  private var digestsHandedOver = false

  func handOver(_ forecast: Result<EvidenceCaptureSummary, Error>) {
    self.forecast = forecast
    forecastMade.signal()
    forecastHandedOver = true
  }

  func handOver(_ digests: [EvidenceReportDigest]?, captured: EvidenceCaptureSummary? = nil) {
    self.digests = digests
    self.captured = captured
    digestsKnown.signal()
    digestsHandedOver = true
  }

  /// What the exporting thread did not hand over, handed over as nothing (an export that
  /// failed on the way): the second core's line of work ends instead of waiting.
  func release() {
    if !forecastHandedOver { handOver(.failure(CancellationError())) }
    if !digestsHandedOver { handOver(nil) }
  }
}

/// The flows the bundle was made from, in its order, for flows.json and flows.csv: held in pieces
/// that go as they are written. Read again from the history instead, a quarter of the second
/// core's time on those two documents went to decoding the same rows a second time; held whole
/// until the bundle goes, they raised the export's peak by 4 MB. Each piece is large enough to be
/// mapped apart (`MallocArenas.mappedApartFrom`): its pages go back as it goes, where pieces in
/// the heap left it as large as they made it at the slicing's start.
final class HeldFlows: @unchecked Sendable {
  private var pieces: [[StoredFlow]] = []
  static let pieceCount =
    MallocArenas.mappedApartFrom / MemoryLayout<StoredFlow>.stride + 1

  init(_ flows: consuming [StoredFlow]) {
    var start = 0
    while start < flows.count {
      pieces.append(Array(flows[start..<min(start + Self.pieceCount, flows.count)]))
      start += Self.pieceCount
    }
  }

  /// Each flow in order, each piece let go once its flows are written; once only.
  func drain(_ body: (StoredFlow) throws -> Void) rethrows {
    for index in pieces.indices {
      let piece = pieces[index]
      pieces[index] = []
      for flow in piece { try body(flow) }
    }
  }
}
