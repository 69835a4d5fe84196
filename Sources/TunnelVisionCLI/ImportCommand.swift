import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Crypto
import FlowStore
import Foundation
import Import
import ReportPDF

enum ImportCommand {
  static let file = ArgumentKey<String>(
    "file", "The capture: pcap (µs or ns, either byte order) or pcapng.")
  static let project = OptionKey<String>(
    "project", "project", "The project's exact name or its id.")
  static let baseline = FlagKey(
    "baseline", "The capture is a baseline: the device without the audited app.")
  static let device = OptionKey<DeviceAddress>(
    "device", "address", "An address of the device; repeatable.", repeatable: true)
  static let marker = OptionKey<String>(
    "marker", "kind@instant", "A marker, e.g. consent-given@2026-10-09T10:01:00Z; repeatable.",
    repeatable: true)
  static let deviceModel = OptionKey<String>(
    "device-model", "model",
    "The recorded device's model (default: not stated; a capture names its host, not the phone).")
  static let osVersion = OptionKey<String>(
    "os-version", "version", "The recorded device's system (default: not stated).")
  static let inspectionLog = OptionKey<PathArgument>(
    "inspection-log", "file",
    "The inspecting proxy's log (mitmproxy with 'tunnelvision mitmproxy-addon'): its outcomes become the connections'."
  )
  static let har = OptionKey<PathArgument>(
    "har", "file",
    "A HAR file of the same traffic (PCAPdroid, HTTP Toolkit, Charles, a browser, mitmproxy's hardump): each entry joined to its connection by address, port and time, or kept without one."
  )
  static let caTrusted = FlagKey(
    "ca-trusted", "The same as --ca system: the system trusted the proxy's certificate authority.")
  static let again = FlagKey(
    "again", "Import a capture whose bytes were imported before, as another session.")

  /// The capture is read again on this thread while its packet rows go into SQLite on another:
  /// with an arena each they do not take turns at malloc's lock (a tenth of the import's time),
  /// and what an import holds grows with the capture's flows whatever the arenas.
  static let mallocArenas = 4

  static var definition: CommandDefinition {
    var definition = CommandDefinition(
      name: "import",
      abstract:
        "Import a pcap or pcapng capture (tcpdump, Wireshark, PCAPdroid) into a new audit session.",
      discussion:
        "The session starts at the capture's first packet and ends at its last. Markers are KIND@INSTANT with KIND as for 'mark' and an RFC 3339 instant inside the capture. The device side is the addresses given with --device, else inferred per connection (the side that opened it; private over public) and stated in the session's notes.",
      usage:
        "<file> --project <project> (--baseline | --version <version> --build <build>) [--device <address> ...] [--marker <kind@instant> ...] [--device-model <model>] [--os-version <version>] [--inspection-log <file> [--ca <scenario>]] [--har <file>] [--notes <text>] [--again] [--json]",
      arguments: [file.definition],
      options: [
        project.definition, baseline.definition, CommonKeys.version.definition,
        CommonKeys.build.definition,
        device.definition, marker.definition, deviceModel.definition, osVersion.definition,
        inspectionLog.definition, CommonKeys.ca.definition, caTrusted.definition, har.definition,
        again.definition,
        CommonKeys.notes.definition, ProjectCommands.json.definition,
      ],
      run: run)
    definition.mallocArenas = mallocArenas
    return definition
  }

  /// The markers given as KIND@INSTANT, each read or refused in a sentence.
  static func markers(_ parsed: ParsedCommand) throws -> [(SessionMarkerKind, Date)] {
    try parsed.values(marker).map { text -> (SessionMarkerKind, Date) in
      guard let at = text.lastIndex(of: "@") else {
        throw UsageError(
          message:
            "A marker is KIND@INSTANT, as consent-given@2026-10-09T10:01:00Z; “\(text)” is not",
          path: parsed.path)
      }
      let kind = try MarkCommand.markerKind(String(text[..<at]), path: parsed.path)
      guard let date = Instant.parseRFC3339(String(text[text.index(after: at)...])) else {
        throw UsageError(
          message: "The instant of the marker “\(text)” is not RFC 3339 (2026-10-09T10:01:00Z)",
          path: parsed.path)
      }
      return (kind, date)
    }
  }

  static func run(_ parsed: ParsedCommand, _ context: CommandContext) throws {
    let support = CommandSupport(parsed: parsed, context: context)
    let path = try parsed.argument(file)
    guard let projectName = try parsed.value(project) else {
      throw UsageError(
        message: "Name the project the session belongs to: --project <project>",
        path: parsed.path)
    }
    let kind = try SessionCommands.sessionKind(
      parsed, baseline: baseline, version: CommonKeys.version, build: CommonKeys.build)
    let markers = try markers(parsed)
    if CommandSupport.isDirectory(path) {
      throw RefusedError(
        "\(path) is a directory; import takes one capture file (pcap or pcapng).")
    }
    guard FileManager.default.isReadableFile(atPath: path) else {
      throw RefusedError("There is no readable file \(path).")
    }
    let scenario = try CommonKeys.scenario(parsed, caTrusted: caTrusted)
    if scenario != nil, try parsed.value(inspectionLog) == nil {
      throw UsageError(
        message:
          "--ca states what an inspection log is read under: give --inspection-log too",
        path: parsed.path)
    }
    let logPath = try parsed.value(inspectionLog)?.text
    let log = try logPath.map(InspectionCommands.log(at:))
    let harPath = try parsed.value(har)?.text
    let harRead = try harPath.map(Self.readHAR)
    let store = try support.openStore(writing: true)
    let project = try support.project(projectName, in: store)
    let progress: ((Int) -> Void)? =
      context.standardErrorIsTerminal
      ? { context.progress("Reading \(path): \($0) frames") } : nil
    let analysis: CaptureAnalysis
    let session: AuditSession
    var inspection: InspectionLogSummary?
    var harCounts: (entries: Int, joined: Int)?
    let trace = context.phaseTrace()
    do {
      let read = try CaptureImporter.analyse(
        URL(fileURLWithPath: path), devices: try parsed.values(device).map(\.text),
        progress: progress)
      trace?.mark("read the capture: decoded in time order, dissected, hashed")
      // What is said afterwards needs no flow: the import takes them and lets them go once written.
      analysis = read.withoutFlows
      if progress != nil { context.progress("Writing the session…") }
      if let digest = read.sha256, !parsed.flag(again),
        let first = try store.auditSessions(importedFromCaptureSHA256: digest).first
      {
        let owner = try store.auditProject(id: first.projectID)?.name ?? "a project"
        throw RefusedError(
          ImportPresentation.alreadyImported(
            fileName: URL(fileURLWithPath: path).lastPathComponent, as: first, of: owner))
      }
      var request = CaptureImportRequest(
        projectID: project.id, kind: kind, devices: try parsed.values(device).map(\.text),
        markers: markers, deviceModel: try parsed.value(deviceModel),
        osVersion: try parsed.value(osVersion), toolVersion: ToolVersion.current,
        notes: try parsed.value(CommonKeys.notes) ?? "")
      if let log, let logPath {
        let join = CaptureImporter.join(log, to: read, scenario: scenario)
        let summary = InspectionLogSummary(join, lines: log.entries.count)
        inspection = summary
        request.inspection = (join, summary, URL(fileURLWithPath: logPath).lastPathComponent)
        request.scenario = scenario
        request.proxyStarts = log.starts.map {
          RecorderRun.ProxyRun(tool: $0.tool, version: $0.version, options: $0.options)
        }
        request.exchanges = CaptureImporter.exchanges(of: join)
      }
      if let harRead {
        let flows = HARReader.join(harRead.entries, to: read.flows.map(\.flow))
        request.exchanges += zip(harRead.entries, flows).map { ($0.exchange, $1) }
        harCounts = (harRead.entries.count, flows.compactMap { $0 }.count)
      }
      trace?.mark("joined the inspection log and HAR, if given")
      session = try CaptureImporter.write(
        consume read, from: URL(fileURLWithPath: path), request: request, into: store)
      trace?.mark("wrote the session: capture files, connections, packets")
    } catch let error as CaptureImportError {
      if progress != nil { context.progress("") }
      throw RefusedError(error.description)
    }
    if progress != nil { context.progress("") }
    if parsed.json {
      return context.printJSON(ImportPresentation.json(analysis.summary, session: session))
    }
    context.standardOutput(
      ImportPresentation.text(
        analysis.summary, session: session, projectName: project.name, file: path,
        inspection: inspection, har: harCounts)
    )
  }

  /// A HAR file read whole; a sentence naming what is wrong in it.
  static func readHAR(_ path: String) throws -> HARReader.Read {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw RefusedError("There is no readable HAR file \(path).")
    }
    do { return try HARReader.read(data) } catch {
      throw RefusedError(ImportPresentation.harUnreadable(path: path, reason: error.reason))
    }
  }
}
