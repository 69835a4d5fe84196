import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Crypto
import FlowStore
import Foundation
import Record
import ReportPDF

enum SessionCommands {
  static let baseline = FlagKey(
    "baseline", "Record a baseline: the device without the audited app.")
  static let version = OptionKey<String>(
    "version", "version", "The audited release's version, exactly as the app shows it.")
  static let deviceModel = OptionKey<String>(
    "device-model", "model", "The recorded device's model (default: this machine's).")
  static let osVersion = OptionKey<String>(
    "os-version", "version", "The recorded device's system version (default: this machine's).")
  static let inspection = FlagKey("inspection", "Declare that HTTPS inspection was on.")
  static let caTrusted = FlagKey(
    "ca-trusted", "The same as --ca system: the system trusted the proxy's certificate authority.")
  static let endedSession = ArgumentKey<SessionID>(
    "session", "The session's id (default: the open one).", optional: true)

  static var definition: CommandDefinition {
    CommandDefinition(
      name: "session", abstract: "Start, end, list, show and delete audit sessions.",
      discussion:
        "A session is one app release's audit (or a baseline without the app). Only one session is open at a time, across all projects; every connection written to the store while it is open is tagged with it.",
      subcommands: [start, end, list, show, delete])
  }

  static var start: CommandDefinition {
    CommandDefinition(
      name: "start",
      abstract: "Open a session; connections written from now on are tagged with it.",
      discussion:
        "The device model and system default to this machine's; inspection is off unless declared. The tool version is recorded by itself.",
      usage:
        "<project> (--baseline | --version <version> --build <build>) [--notes <text>] [--device-model <model>] [--os-version <version>] [--inspection [--ca <scenario>]] [--json]",
      arguments: [CommonKeys.project.definition],
      options: [
        baseline.definition, version.definition, CommonKeys.build.definition,
        CommonKeys.notes.definition, deviceModel.definition, osVersion.definition,
        inspection.definition, CommonKeys.ca.definition, caTrusted.definition,
        ProjectCommands.json.definition,
      ],
      run: { parsed, context in
        let support = CommandSupport(parsed: parsed, context: context)
        let kind = try sessionKind(
          parsed, baseline: baseline, version: version, build: CommonKeys.build)
        let store = try support.openStore(writing: true)
        let project = try support.project(try parsed.argument(CommonKeys.project), in: store)
        let draft = AuditSessionDraft(
          projectID: project.id, kind: kind,
          environment: AuditEnvironment(
            deviceModel: try parsed.value(deviceModel) ?? context.machine.deviceModel,
            osVersion: try parsed.value(osVersion) ?? context.machine.osVersion,
            toolVersion: ToolVersion.current),
          inspection: try inspectionConditions(parsed),
          notes: try parsed.value(CommonKeys.notes) ?? "")
        let session = try store.startAuditSession(draft, at: context.now())
        if parsed.json {
          return context.printJSON(
            SessionPresentation.json(try support.overview(of: session, in: store)))
        }
        context.print(
          SessionPresentation.started(
            session, projectName: project.name, zone: context.timeZone,
            recorder: RecorderLock.running(storeDirectory: store.directory)))
      })
  }

  /// Inspection on, and the certificate scenario it serves: a scenario needs inspection on.
  static func inspectionConditions(_ parsed: ParsedCommand) throws -> InspectionConditions {
    let scenario = try CommonKeys.scenario(parsed, caTrusted: caTrusted)
    if scenario != nil, !parsed.flag(inspection) {
      throw UsageError(
        message:
          "--ca states how the inspecting proxy's certificate stood with the device: give --inspection too",
        path: parsed.path)
    }
    return InspectionConditions(inspectionEnabled: parsed.flag(inspection), scenario: scenario)
  }

  /// What is recorded, from the command's own keys (session start's and import's say the same).
  static func sessionKind(
    _ parsed: ParsedCommand, baseline: FlagKey, version: OptionKey<String>,
    build: OptionKey<String>
  ) throws -> AuditSessionKind {
    let version = try parsed.value(version)?.trimmingCharacters(in: .whitespaces)
    let build = try parsed.value(build)?.trimmingCharacters(in: .whitespaces)
    if parsed.flag(baseline) {
      guard version == nil, build == nil else {
        throw UsageError(
          message: "A baseline has no release: give --baseline, or --version and --build, not both",
          path: parsed.path)
      }
      return .baseline
    }
    guard let version, !version.isEmpty, let build, !build.isEmpty else {
      throw UsageError(
        message: "Say what is recorded: --baseline, or --version <version> --build <build>",
        path: parsed.path)
    }
    return .audit(AppRelease(version: version, build: build))
  }

  static var end: CommandDefinition {
    CommandDefinition(
      name: "end",
      abstract:
        "End the open session (or the one named): tagging stops and it takes no more markers.",
      arguments: [endedSession.definition],
      options: [ProjectCommands.json.definition],
      run: { parsed, context in
        let support = CommandSupport(parsed: parsed, context: context)
        let store = try support.openStore(writing: true)
        let id: Int64
        if let text = try parsed.argumentIfGiven(endedSession) {
          id = try support.session(text, in: store).id
        } else {
          guard let open = try store.openAuditSession() else {
            throw RefusedError(SessionPresentation.noneToEnd)
          }
          id = open.id
        }
        let running = RecorderLock.running(storeDirectory: store.directory)
        let recording = try running.flatMap { try store.unendedRun(ofProcess: $0.processID) }
        let session = try store.endAuditSession(
          id: id, at: context.now(), recorderAtEnd: recording)
        let overview = try support.overview(of: session, in: store)
        if parsed.json { return context.printJSON(SessionPresentation.json(overview)) }
        context.print(SessionPresentation.ended(overview, zone: context.timeZone))
      })
  }

  static var list: CommandDefinition {
    CommandDefinition(
      name: "list", abstract: "List a project's sessions, newest first.",
      arguments: [CommonKeys.project.definition],
      options: [ProjectCommands.json.definition],
      run: { parsed, context in
        let support = CommandSupport(parsed: parsed, context: context)
        let store = try support.openStore()
        let overview = try support.overview(
          of: try support.project(try parsed.argument(CommonKeys.project), in: store), in: store)
        if parsed.json {
          return context.printJSON(
            .array(
              overview.sessions.map {
                SessionJSON.summaryJSON(
                  $0, connections: overview.connectionCounts[$0.id] ?? 0)
              }))
        }
        context.standardOutput(SessionPresentation.list(overview, zone: context.timeZone))
      })
  }

  static var show: CommandDefinition {
    CommandDefinition(
      name: "show",
      abstract:
        "Show a session: status, markers, what it can say about pinning, where it was recorded.",
      arguments: [CommonKeys.session.definition],
      options: [ProjectCommands.json.definition],
      run: { parsed, context in
        let support = CommandSupport(parsed: parsed, context: context)
        let store = try support.openStore()
        let overview = try support.overview(
          of: try support.session(try parsed.argument(CommonKeys.session), in: store), in: store)
        if parsed.json { return context.printJSON(SessionPresentation.json(overview)) }
        context.standardOutput(SessionPresentation.text(overview, zone: context.timeZone))
      })
  }

  static var delete: CommandDefinition {
    CommandDefinition(
      name: "delete",
      abstract:
        "Delete an ended session and its markers; its connections stay in the history. Asks first on a terminal; --yes otherwise.",
      arguments: [CommonKeys.session.definition],
      options: [CommonKeys.yes.definition],
      run: { parsed, context in
        let support = CommandSupport(parsed: parsed, context: context)
        let store = try support.openStore(writing: true)
        let session = try support.session(try parsed.argument(CommonKeys.session), in: store)
        guard !session.isOpen else {
          throw RefusedError(SessionPresentation.openNotDeleted(session))
        }
        let connections = try store.flowCount(inAuditSession: session.id)
        try support.confirmDeletion(SessionPresentation.deletionQuestion(session))
        try store.deleteAuditSession(id: session.id)
        context.print(SessionPresentation.deleted(session, connections: connections))
      })
  }
}

enum MarkCommand {
  static let kind = ArgumentKey<String>(
    "kind", "consent-given | consent-withdrawn | logged-in | logged-out | other:LABEL")

  static var definition: CommandDefinition {
    CommandDefinition(
      name: "mark", abstract: "Place a marker in the open session, at this instant.",
      discussion: "KIND is consent-given, consent-withdrawn, logged-in, logged-out or other:LABEL.",
      arguments: [kind.definition],
      options: [ProjectCommands.json.definition],
      run: { parsed, context in
        let kind = try markerKind(try parsed.argument(Self.kind), path: parsed.path)
        let support = CommandSupport(parsed: parsed, context: context)
        let outcome: OpenSessionMarkerOutcome
        do {
          outcome = try support.openStore(writing: true).addMarkerToOpenSession(
            kind, at: context.now())
        } catch let error as AuditStoreError {
          throw RefusedError(AuditPresentation.markerNotPlaced(.rule(error)))
        } catch FlowStoreError.noStore {
          // No store, no session in it: none is recording.
          throw RefusedError(AuditPresentation.markerNotPlaced(.noSessionRecording))
        } catch let error as FlowStoreError {
          throw RefusedError(
            AuditPresentation.markerNotPlaced(.historyNotWritten(error.description)))
        }
        switch outcome {
        case .noOpenSession:
          throw RefusedError(AuditPresentation.markerNotPlaced(.noSessionRecording))
        case .placed(let marker, let recording):
          if parsed.json {
            guard case .object(var object) = SessionJSON.markerJSON(marker) else { return }
            object["sessionID"] = .int(recording.session.id)
            object["projectName"] = .string(recording.projectName)
            return context.printJSON(.object(object))
          }
          context.print(
            AuditPresentation.markerPlaced(marker, in: recording, zone: context.timeZone))
        }
      })
  }

  /// consent-given | consent-withdrawn | logged-in | logged-out | other:LABEL
  static func markerKind(_ text: String, path: [String]) throws -> SessionMarkerKind {
    switch text {
    case "consent-given": return .consentGiven
    case "logged-in": return .loggedIn
    case "logged-out": return .loggedOut
    case "consent-withdrawn": return .consentWithdrawn
    default:
      if text.hasPrefix("other:") {
        let label = String(text.dropFirst("other:".count)).trimmingCharacters(in: .whitespaces)
        guard !label.isEmpty else {
          // A word of the command line that is not a marker, as an unknown kind is: a usage error.
          throw UsageError(
            message: String(AuditPresentation.markerNotPlaced(.rule(.emptyMarkerLabel)).dropLast()),
            path: path)
        }
        return .custom(label)
      }
      throw UsageError(
        message:
          "No marker was placed: “\(text)” is not a marker kind; use consent-given, consent-withdrawn, logged-in, logged-out or other:LABEL",
        path: path)
    }
  }
}
