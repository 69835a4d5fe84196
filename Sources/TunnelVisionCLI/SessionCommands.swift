import Audit
import FlowStore
import Foundation

enum SessionCommands {
  static var definition: CommandDefinition {
    CommandDefinition(
      name: "session", abstract: "Start, end, list, show and delete audit sessions.",
      discussion:
        "A session is a named recording of one app release (or a baseline without the app). Only one session records at a time, across all projects; every connection written while it records is tagged with it.",
      subcommands: [start, end, list, show, delete])
  }

  static var start: CommandDefinition {
    CommandDefinition(
      name: "start", abstract: "Start recording a session.",
      discussion:
        "The device model and system default to this machine's; inspection is off unless declared. The tool version is recorded by itself.",
      usage:
        "<project> (--baseline | --version <version> --build <build>) [--notes <text>] [--device-model <model>] [--os-version <version>] [--inspection] [--ca-trusted] [--json]",
      arguments: [ArgumentDefinition(name: "project", help: "The project's exact name or its id.")],
      options: [
        .flag("baseline", "Record a baseline: the device without the audited app."),
        .value("version", "version", "The audited release's version, exactly as the app shows it."),
        .value("build", "build", "The audited release's build number."),
        .value("notes", "text", "Notes kept with the session."),
        .value("device-model", "model", "The recorded device's model (default: this machine's)."),
        .value(
          "os-version", "version", "The recorded device's system version (default: this machine's)."
        ),
        .flag("inspection", "Declare that HTTPS inspection was on."),
        .flag("ca-trusted", "Declare that the device trusted the local certificate authority."),
        ProjectCommands.json,
      ],
      run: { parsed, context in
        let support = CommandSupport(parsed: parsed, context: context)
        let kind = try sessionKind(parsed)
        let store = try support.openStore()
        let project = try support.project(parsed.argument(0)!, in: store)
        let draft = AuditSessionDraft(
          projectID: project.id, kind: kind,
          environment: AuditEnvironment(
            deviceModel: parsed.value("device-model") ?? context.machine.deviceModel,
            osVersion: parsed.value("os-version") ?? context.machine.osVersion,
            toolVersion: ToolVersion.current),
          inspection: InspectionConditions(
            inspectionEnabled: parsed.flag("inspection"), caTrusted: parsed.flag("ca-trusted")),
          notes: parsed.value("notes") ?? "")
        let session = try store.startAuditSession(draft, at: context.now())
        if parsed.json {
          return context.printJSON(
            SessionPresentation.json(try support.overview(of: session, in: store)))
        }
        context.print(
          """
          Started session \(session.id): \(AuditPresentation.sessionName(kind)) in \(project.name), at \(AuditPresentation.clock(session.startedAt, in: context.timeZone)).
          \(SessionPresentation.method(for: kind))
          \(PinningEvidence(session.inspection).forecast)
          """)
      })
  }

  static func sessionKind(_ parsed: ParsedCommand) throws -> AuditSessionKind {
    let version = parsed.value("version")?.trimmingCharacters(in: .whitespaces)
    let build = parsed.value("build")?.trimmingCharacters(in: .whitespaces)
    if parsed.flag("baseline") {
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
        "End the recording session (or the one named): tagging stops and it takes no more markers.",
      arguments: [
        ArgumentDefinition(
          name: "session", help: "The session's id (default: the one recording).", optional: true)
      ],
      options: [ProjectCommands.json],
      run: { parsed, context in
        let support = CommandSupport(parsed: parsed, context: context)
        let store = try support.openStore()
        let id: Int64
        if let text = parsed.argument(0) {
          id = try support.session(text, in: store).id
        } else {
          guard let open = try store.openAuditSession() else {
            throw RefusedError("No session is recording, so none was ended.")
          }
          id = open.id
        }
        let session = try store.endAuditSession(id: id, at: context.now())
        let overview = try support.overview(of: session, in: store)
        if parsed.json { return context.printJSON(SessionPresentation.json(overview)) }
        context.print(
          "Ended session \(session.id) (\(AuditPresentation.sessionName(session.kind))) of \(overview.projectName) at \(AuditPresentation.clock(session.endedAt!, in: context.timeZone)), with \(AuditPresentation.count(overview.connectionCount, "connection")). \(SessionPresentation.endedConsequence)"
        )
      })
  }

  static var list: CommandDefinition {
    CommandDefinition(
      name: "list", abstract: "List a project's sessions, newest first.",
      arguments: [ArgumentDefinition(name: "project", help: "The project's exact name or its id.")],
      options: [ProjectCommands.json],
      run: { parsed, context in
        let support = CommandSupport(parsed: parsed, context: context)
        let store = try support.openStore()
        let overview = try support.overview(
          of: try support.project(parsed.argument(0)!, in: store), in: store)
        if parsed.json {
          return context.printJSON(
            .array(
              overview.sessions.map {
                SessionPresentation.summaryJSON(
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
      arguments: [ArgumentDefinition(name: "session", help: "The session's id.")],
      options: [ProjectCommands.json],
      run: { parsed, context in
        let support = CommandSupport(parsed: parsed, context: context)
        let store = try support.openStore()
        let overview = try support.overview(
          of: try support.session(parsed.argument(0)!, in: store), in: store)
        if parsed.json { return context.printJSON(SessionPresentation.json(overview)) }
        context.standardOutput(SessionPresentation.text(overview, zone: context.timeZone))
      })
  }

  static var delete: CommandDefinition {
    CommandDefinition(
      name: "delete",
      abstract:
        "Delete a session (recording or ended) and its markers; its connections stay in the history.",
      arguments: [ArgumentDefinition(name: "session", help: "The session's id.")],
      run: { parsed, context in
        let support = CommandSupport(parsed: parsed, context: context)
        let store = try support.openStore()
        let session = try support.session(parsed.argument(0)!, in: store)
        let connections = try store.flowCount(inAuditSession: session.id)
        try store.deleteAuditSession(id: session.id)
        context.print(SessionPresentation.deleted(session, connections: connections))
      })
  }
}

enum MarkCommand {
  static var definition: CommandDefinition {
    CommandDefinition(
      name: "mark", abstract: "Place a marker in the recording session, at this instant.",
      discussion: "KIND is consent-given, logged-in, logged-out or other:LABEL.",
      arguments: [
        ArgumentDefinition(
          name: "kind", help: "consent-given | logged-in | logged-out | other:LABEL")
      ],
      options: [ProjectCommands.json],
      run: { parsed, context in
        let kind = try markerKind(parsed.argument(0)!, path: parsed.path)
        let support = CommandSupport(parsed: parsed, context: context)
        let outcome: OpenSessionMarkerOutcome
        do {
          outcome = try support.openStore().addMarkerToOpenSession(kind, at: context.now())
        } catch let error as AuditStoreError {
          throw RefusedError(AuditPresentation.markerNotPlaced(.rule(error)))
        } catch let error as FlowStoreError {
          throw RefusedError(
            AuditPresentation.markerNotPlaced(.historyNotWritten(error.description)))
        }
        switch outcome {
        case .noOpenSession:
          throw RefusedError(AuditPresentation.markerNotPlaced(.noSessionRecording))
        case .placed(let marker, let recording):
          if parsed.json {
            guard case .object(var object) = SessionPresentation.markerJSON(marker) else { return }
            object["sessionID"] = .int(recording.session.id)
            object["projectName"] = .string(recording.projectName)
            return context.printJSON(.object(object))
          }
          context.print(
            AuditPresentation.markerPlaced(marker, in: recording, zone: context.timeZone))
        }
      })
  }

  /// consent-given | logged-in | logged-out | other:LABEL
  static func markerKind(_ text: String, path: [String]) throws -> SessionMarkerKind {
    switch text {
    case "consent-given": return .consentGiven
    case "logged-in": return .loggedIn
    case "logged-out": return .loggedOut
    default:
      if text.hasPrefix("other:") {
        let label = String(text.dropFirst("other:".count)).trimmingCharacters(in: .whitespaces)
        guard !label.isEmpty else {
          throw RefusedError(AuditPresentation.markerNotPlaced(.rule(.emptyMarkerLabel)))
        }
        return .custom(label)
      }
      throw UsageError(
        message:
          "No marker was placed: “\(text)” is not a marker kind; use consent-given, logged-in, logged-out or other:LABEL",
        path: path)
    }
  }
}
