import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Crypto
import Evidence
import FlowStore
import Foundation
import Record
import ReportPDF

enum AssessmentCommands {
  static let catalogueFile = OptionKey<PathArgument>(
    "catalogue-file", "file",
    "Assess against this catalogue file instead of the project's (validated like a bundled one).")
  static let catalogueID = OptionKey<String>(
    "catalogue", "id",
    "Assess against this bundled catalogue instead of the project's: \(RequirementCatalogueLibrary.identifiers.joined(separator: ", "))."
  )

  /// The catalogue given on the command line (a bundled one by --catalogue, or a file), if any.
  static func givenCatalogue(_ parsed: ParsedCommand) throws -> RequirementCatalogue? {
    let identifier = try parsed.value(catalogueID)
    let file = try parsed.value(catalogueFile)?.text
    if identifier != nil && file != nil {
      throw UsageError(
        message: "Choose a catalogue by --catalogue or by --catalogue-file, not both",
        path: parsed.path)
    }
    if let file { return try CatalogueFile.load(file) }
    guard let identifier else { return nil }
    do { return try RequirementCatalogueLibrary.catalogue(identifier: identifier) } catch {
      throw RefusedError(error.description)
    }
  }
  static let trackerList = OptionKey<PathArgument>(
    "tracker-list", "file",
    "Compare the hosts with this tracker list too (Adblock-style ||host^ rules or a hosts file); repeatable. EasyPrivacy and EasyList are read where webext-ublock-origin-firefox installs them.",
    repeatable: true)
  static let first = ArgumentKey<SessionID>("session", "One session's id.")

  /// The tracker lists: those given with --tracker-list, then the installed ones
  /// ($TUNNELVISION_SHARE_DIR, else /usr/share); nil when there are none.
  static func trackers(_ parsed: ParsedCommand, context: CommandContext) throws -> TrackerLists? {
    let given = try parsed.values(trackerList).map(\.text)
    let lists: TrackerLists?
    do {
      lists = try TrackerListLoader.lists(given: given, shareDirectory: shareDirectory(context))
    } catch { throw RefusedError(error.description) }
    for list in lists?.lists ?? [] {
      if let warning = TrackerWording.linesNotRead(list) {
        context.standardError(TerminalText.inline(warning) + "\n")
      }
    }
    return lists
  }

  /// Where installed lists are read from: $TUNNELVISION_SHARE_DIR, else /usr/share.
  static func shareDirectory(_ context: CommandContext) -> String {
    context.environment["TUNNELVISION_SHARE_DIR"] ?? TrackerListLoader.defaultShareDirectory
  }
  static let second = ArgumentKey<SessionID>("other-session", "The other session's id.")

  /// Where the catalogue a project is assessed against comes from, the one place every command
  /// (findings, compare, flow, export, report) resolves it: one given on the command line, else
  /// the project's choice (bundled, or kept in the store). Its one error is the library's.
  static func catalogueSource(_ parsed: ParsedCommand, storeURL: URL) throws
    -> CatalogueResolution
  {
    let given = try givenCatalogue(parsed)
    return { (project) throws(RequirementCatalogueLibraryError) in
      if let given { return given }
      return try StoreCatalogues.catalogue(for: project, storeDirectory: storeURL)
    }
  }

  /// The catalogue to assess a project against, as `catalogueSource` resolves it.
  static func catalogue(for project: AuditProject, parsed: ParsedCommand, storeURL: URL) throws
    -> RequirementCatalogue
  {
    let resolve = try catalogueSource(parsed, storeURL: storeURL)
    do { return try resolve(project) } catch {
      throw RefusedError(EvidenceExportPresentation.catalogueFailure(error))
    }
  }

  static var findings: CommandDefinition {
    CommandDefinition(
      name: "findings",
      abstract: "What an ended or open session's traffic shows against each requirement.",
      discussion:
        "Per requirement: its verdict statement and what the tool looks at for it, the findings against and for it (F1, F2… in the order things happened), and how far \(EvidenceWording.eachCheck) got. No verdict is a test result.",
      arguments: [CommonKeys.session.definition],
      options: [
        catalogueID.definition, catalogueFile.definition, trackerList.definition,
        ProjectCommands.json.definition,
      ],
      run: { parsed, context in
        let support = CommandSupport(parsed: parsed, context: context)
        let store = try support.openStore()
        let session = try support.session(try parsed.argument(CommonKeys.session), in: store)
        let flows = try store.withOpenings(try store.flows(inAuditSession: session.id))
        let assessment = try HistoryCommands.assessment(
          session, store: store, parsed, trackers: try trackers(parsed, context: context),
          flows: flows)
        let overview = try support.overview(of: session, in: store)
        let earlier = EarlierReading.of(flows)
        if parsed.json {
          return context.printJSON(
            FindingsPresentation.json(assessment, session: overview, earlier: earlier))
        }
        let domains = RegistrableDomains.of(
          flows, by: PublicSuffixList.installed(shareDirectory: shareDirectory(context)),
          lookups: true)
        context.standardOutput(
          FindingsPresentation.text(
            assessment, session: overview, domains: domains, earlier: earlier))
      })
  }

  static var compare: CommandDefinition {
    CommandDefinition(
      name: "compare",
      abstract:
        "Compare two ended audit sessions of a project: new domains, TLS changes, domains no longer contacted.",
      discussion: "The later session is the one that started later, whatever its version number.",
      arguments: [
        first.definition, second.definition,
      ],
      options: [
        trackerList.definition, ExportCommands.ipDatabase.definition,
        ProjectCommands.json.definition,
      ],
      run: { parsed, context in
        let support = CommandSupport(parsed: parsed, context: context)
        let databases = try ExportCommands.addressDatabases(parsed)
        let store = try support.openStore()
        let first = try support.session(try parsed.argument(Self.first), in: store)
        let second = try support.session(try parsed.argument(Self.second), in: store)
        guard let project = try store.auditProject(id: first.projectID) else {
          throw AuditStoreError.projectNotFound(first.projectID)
        }
        let firstFlows = try store.flows(inAuditSession: first.id)
        let secondFlows = try store.flows(inAuditSession: second.id)
        let diff: ReleaseDiff
        do {
          diff = try ReleaseDiff(
            between: first, flows: firstFlows, and: second, flows: secondFlows, project: project,
            content: (
              try SessionContentReader.content(of: first, in: store),
              try SessionContentReader.content(of: second, in: store)
            ))
        } catch let refusal as ReleaseDiff.Refusal {
          throw RefusedError(ReleaseComparisonPresentation.refusal(refusal))
        }
        let servers = try serverLines(diff, project: project, store: store, parsed, support)
        // Only with a database given: compare says nothing of registrations otherwise.
        let registered =
          databases.isEmpty
          ? []
          : AddressRegistrationWording.comparison(
            AddressRegistrationChange.changes(
              earlier: diff.earlier.id == first.id ? firstFlows : secondFlows,
              later: diff.later.id == first.id ? firstFlows : secondFlows,
              registrations: AddressDatabase.registrations(
                of: firstFlows + secondFlows, in: databases)))
        if parsed.json {
          guard case .object(var object) = ReleaseComparisonPresentation.json(diff) else {
            return context.printJSON(ReleaseComparisonPresentation.json(diff))
          }
          object["serverConfiguration"] = .strings(servers)
          if !databases.isEmpty { object["addressRegistration"] = .strings(registered) }
          return context.printJSON(.object(object))
        }
        let list = PublicSuffixList.installed(shareDirectory: shareDirectory(context))
        let running = RecorderLock.running(storeDirectory: store.directory)?.processID
        func coverage(_ s: AuditSession) throws -> SessionCoverage {
          try store.coverage(of: s, runningProcess: running, now: s.endedAt ?? Date())
        }
        context.standardOutput(
          ReleaseComparisonPresentation.text(
            diff, projectName: project.name, zone: context.timeZone,
            domains: RegistrableDomains.of(secondFlows + firstFlows, by: list, lookups: true),
            trackers: try trackers(parsed, context: context),
            coverage: (try coverage(diff.earlier), try coverage(diff.later)))
            + (servers.isEmpty
              ? "" : "\nServer configuration\n" + servers.map { "  \($0)\n" }.joined())
            + (registered.isEmpty
              ? ""
              : "\nWhere the addresses are registered\n"
                + registered.map { "  \($0)\n" }.joined()))
      })
  }

  /// The servers scanned in both sessions, compared as `scan` judges them (in the later
  /// session's year).
  static func serverLines(
    _ diff: ReleaseDiff, project: AuditProject, store: FlowStore, _ parsed: ParsedCommand,
    _ support: CommandSupport
  ) throws -> [String] {
    func runs(_ session: AuditSession) throws -> [ServerScanRun] {
      ServerScanReport.runs(try store.serverScans(ofSession: session.id))
    }
    let (earlier, later) = (try runs(diff.earlier), try runs(diff.later))
    let catalogue = try catalogue(for: project, parsed: parsed, storeURL: support.storeURL)
    let judge = ServerConfigurationJudge(policy: catalogue.policy, year: diff.later.startYear)
    return ServerConfigurationWording.comparison(
      ServerScanChange.changes(earlier: earlier, later: later, judge: judge),
      scanned: (!earlier.isEmpty, !later.isEmpty), minimum: catalogue.policy.minimumTLSVersion)
  }
}

/// An assessor's own catalogue, read from a file and validated like a bundled one.
enum CatalogueFile {
  /// A catalogue is a small JSON file: anything larger is refused before it is read.
  static let maximumSize = 4 << 20

  static func load(_ path: String) throws -> RequirementCatalogue {
    let url = URL(fileURLWithPath: path)
    switch OutputTarget.existing(url.resolvingSymlinksInPath()) {
    case .nothing: throw RefusedError("There is no catalogue file \(path).")
    case .regularFile: break
    case let other:
      throw RefusedError(
        "\(path) is \(OutputPresentation.name(other)), not a catalogue file; give the path of a catalogue's JSON file."
      )
    }
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    guard size <= maximumSize else {
      throw RefusedError(
        "The catalogue file \(path) holds \(Quantity.byteCount(UInt64(size))); a catalogue is a JSON file of at most \(Quantity.byteCount(UInt64(maximumSize)))."
      )
    }
    let data: Data
    do { data = try Data(contentsOf: url) } catch {
      throw RefusedError(
        "The catalogue file \(path) cannot be read: \(SystemErrorText.reason(error)).")
    }
    do { return try RequirementCatalogue(data: data) } catch {
      throw RefusedError("The catalogue file \(path) was refused: \(error.description)")
    }
  }
}
