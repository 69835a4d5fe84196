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

enum ProjectCommands {
  static let json = CommonKeys.json
  static let name = ArgumentKey<String>("name", "The project's name, usually the app's.")
  static let bundleIDNew = OptionKey<String>(
    "bundle-id", "id", "The audited app's bundle identifier (informational: it filters nothing).")
  static let allowNew = OptionKey<String>(
    "allow", "pattern[=note]", "An allowed domain, with an optional note; repeat in order.",
    repeatable: true)
  static let newName = OptionKey<String>("name", "name", "A new name.")
  static let bundleID = OptionKey<String>("bundle-id", "id", "A new bundle identifier.")
  static let clearBundleID = FlagKey("clear-bundle-id", "Remove the bundle identifier.")
  static let clearAllowlist = FlagKey(
    "clear-allowlist", "Remove every allowlist entry (before adding those given with --allow).")
  static let removeAllow = OptionKey<String>(
    "remove-allow", "pattern", "Remove an allowlist entry; repeatable.", repeatable: true)
  static let allowEdit = OptionKey<String>(
    "allow", "pattern[=note]",
    "Add an allowed domain at the end (or change the note of one already there); repeatable.",
    repeatable: true)
  static let catalogue = OptionKey<String>(
    "catalogue", "id",
    "The requirement catalogue to assess against (default: \(RequirementCatalogueLibrary.defaultIdentifier))."
  )

  static let catalogueFile = OptionKey<PathArgument>(
    "catalogue-file", "file",
    "An assessor's own catalogue: validated, kept in the store, and chosen for the project.")

  /// The catalogue a project is to be assessed against: a bundled identifier (anything else is
  /// refused), or an assessor's file, validated like a bundled one and kept in the store.
  static func chosenCatalogue(_ parsed: ParsedCommand, storeURL: URL) throws -> String? {
    if try parsed.value(catalogue) != nil && parsed.value(catalogueFile) != nil {
      throw UsageError(
        message: "Choose a catalogue by --catalogue or by --catalogue-file, not both",
        path: parsed.path)
    }
    if let identifier = try parsed.value(catalogue) {
      do { _ = try RequirementCatalogueLibrary.catalogue(identifier: identifier) } catch {
        throw RefusedError(error.description)
      }
      return identifier
    }
    guard let path = try parsed.value(catalogueFile)?.text else { return nil }
    let catalogue = try CatalogueFile.load(path)
    guard StoreCatalogues.isUsableIdentifier(catalogue.identifier) else {
      throw RefusedError(
        "The catalogue's identifier “\(catalogue.identifier)” cannot name a file; use letters, digits, dots, underscores and hyphens."
      )
    }
    guard !RequirementCatalogueLibrary.identifiers.contains(catalogue.identifier) else {
      throw RefusedError(
        "“\(catalogue.identifier)” is the identifier of a catalogue that ships with tunnelvision; give your catalogue an identifier of its own."
      )
    }
    do {
      try StoreCatalogues.add(
        try Data(contentsOf: URL(fileURLWithPath: path)), identifier: catalogue.identifier,
        storeDirectory: storeURL)
    } catch {
      throw RefusedError(
        "The catalogue could not be kept in the store: \(SystemErrorText.reason(error)).")
    }
    return catalogue.identifier
  }

  static var definition: CommandDefinition {
    CommandDefinition(
      name: "project", abstract: "Create, list, show, edit and delete audit projects.",
      discussion:
        "A project is the app being audited: its name, its bundle identifier, and the domains it is expected to contact (the allowlist).",
      subcommands: [new, list, show, edit, allow, data, delete])
  }

  static let dataAction = ArgumentKey<String>(
    "action", "add, list or remove.")
  static let dataLabel = ArgumentKey<String>(
    "label", "What the value is (“e-mail”, “diagnosis”, “advertising ID”).", optional: true)
  static let dataValue = ArgumentKey<String>(
    "value", "The value as the app sends it (add only).", optional: true)
  static let category = OptionKey<TestDataCategory>(
    "category", "category",
    "What kind of data it is: \(TestDataCategory.allCases.map(\.rawValue).joined(separator: ", ")) (default: other)."
  )

  static var data: CommandDefinition {
    CommandDefinition(
      name: "data", abstract: "Plant, list and remove the test account's values.",
      discussion:
        "An assessment uses a test account whose data the assessor chooses: its e-mail, name, phone, birth date, insurance number, diagnosis, the advertising ID and Android ID read from the phone, a location as latitude,longitude. Each value is looked for, in the forms apps and SDKs send it, in the requests of the project's sessions (decrypted by the inspecting proxy, in the clear in the capture, or in a HAR file). A value too short or too common to match honestly is refused.",
      usage:
        "<project> add <label> <value> [--category <category>] | <project> list | <project> remove <label>",
      arguments: [
        CommonKeys.project.definition, dataAction.definition, dataLabel.definition,
        dataValue.definition,
      ],
      options: [category.definition, json.definition],
      run: { parsed, context in
        let action = try parsed.argument(dataAction)
        let support = CommandSupport(parsed: parsed, context: context)
        let label = try parsed.argumentIfGiven(dataLabel)
        let value = try parsed.argumentIfGiven(dataValue)
        switch action {
        case "list":
          guard label == nil else {
            throw UsageError(message: "list takes no label", path: parsed.path)
          }
          let store = try support.openStore()
          let project = try support.project(try parsed.argument(CommonKeys.project), in: store)
          let values = try store.testData(forProject: project.id)
          if parsed.json { return context.printJSON(TestDataPresentation.json(values)) }
          context.standardOutput(TestDataPresentation.text(values, project: project.name))
        case "add":
          guard let label, let value else {
            throw UsageError(message: "add takes a label and a value", path: parsed.path)
          }
          let store = try support.openStore(writing: true)
          let project = try support.project(try parsed.argument(CommonKeys.project), in: store)
          let planted = TestDataValue(
            label: label, value: value, category: try parsed.value(category) ?? .other)
          do {
            try store.addTestData(planted, toProject: project.id, at: context.now())
          } catch let problem as TestDataProblem {
            throw RefusedError(TestDataWording.refusal(problem))
          }
          context.standardOutput(TestDataWording.added(planted, project: project.name) + "\n")
        case "remove":
          guard let label, value == nil else {
            throw UsageError(message: "remove takes the label alone", path: parsed.path)
          }
          let store = try support.openStore(writing: true)
          let project = try support.project(try parsed.argument(CommonKeys.project), in: store)
          try store.removeTestData(label: label, fromProject: project.id)
          context.standardOutput(TestDataWording.removed(label, project: project.name) + "\n")
        default:
          throw UsageError(
            message: "The action “\(action)” is not add, list or remove", path: parsed.path)
        }
      })
  }

  static let fromSession = OptionKey<SessionID>(
    "from-session", "session",
    "The session (a baseline, or an audit session) whose connections' names the patterns cover.")
  static let addWithoutAsking = FlagKey(
    "yes", "Add the patterns without asking (needed when no terminal can be asked).")

  static var allow: CommandDefinition {
    CommandDefinition(
      name: "allow",
      abstract:
        "Start or extend a project's allowlist from the names a session's connections went to.",
      discussion:
        "The names are grouped by their registrable domain (the public suffix list's eTLD+1): *.domain covers the names below it, the domain itself when it was contacted; a name the allowlist covers already is left out. It prints the patterns and asks before adding them.",
      arguments: [CommonKeys.project.definition],
      options: [fromSession.definition, addWithoutAsking.definition],
      run: { parsed, context in
        let support = CommandSupport(parsed: parsed, context: context)
        let store = try support.openStore(writing: true)
        let project = try support.project(try parsed.argument(CommonKeys.project), in: store)
        guard let id = try parsed.value(fromSession) else {
          throw UsageError(
            message: "--from-session names the session whose names to allow", path: parsed.path)
        }
        let session = try support.session(id, in: store)
        guard session.projectID == project.id else {
          throw RefusedError(AllowlistPresentation.otherProject(session: session.id, project.name))
        }
        let names = Set(try store.flows(inAuditSession: session.id).compactMap { $0.name?.text })
        let list = PublicSuffixList.installed(
          shareDirectory: AssessmentCommands.shareDirectory(context))
        var domains: [String: String] = [:]
        for name in names {
          let normal = DomainPattern.normalised(host: name)
          if let domain = list?.registrableDomain(normal) { domains[normal] = domain }
        }
        let proposal = AllowlistProposal.patterns(
          names: names, domains: domains, allowlist: project.allowlist)
        guard !proposal.isEmpty else {
          context.print(AllowlistPresentation.nothingToAdd(session: session.id, project.name))
          return
        }
        context.print(
          AllowlistPresentation.proposal(
            proposal, session: session.id, project: project.name, withDomains: list != nil))
        if !parsed.flag(addWithoutAsking) {
          switch context.confirm(AllowlistPresentation.addQuestion(proposal.count, project.name)) {
          case true?: break
          case false?: throw RefusedError(AllowlistPresentation.notAdded)
          case nil: throw RefusedError(AllowlistPresentation.needsYes)
          }
        }
        var draft = AuditProjectDraft(project)
        draft.allowlist += proposal.map { AllowlistEntry(pattern: $0.pattern) }
        let updated = try store.updateAuditProject(id: project.id, with: draft)
        context.print(ProjectPresentation.updated(updated))
      })
  }

  static var new: CommandDefinition {
    CommandDefinition(
      name: "new", abstract: "Create a project.",
      discussion:
        "Allowlist entries are an exact name (api.example.com) or *.suffix (*.example.com), each with an optional note after '='. A wildcard does not cover the name itself.",
      arguments: [name.definition],
      options: [
        bundleIDNew.definition, allowNew.definition, catalogue.definition,
        catalogueFile.definition, json.definition,
      ],
      run: { parsed, context in
        let support = CommandSupport(parsed: parsed, context: context)
        let entries = try support.allowlist(try parsed.values(allowNew))
        // A name that would be refused makes no store first.
        let name = try parsed.argument(Self.name)
        if name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
          throw AuditStoreError.emptyProjectName
        }
        let store = try support.openStore(creating: true)
        let catalogueID = try chosenCatalogue(parsed, storeURL: support.storeURL)
        let project = try store.createAuditProject(
          AuditProjectDraft(
            name: name, bundleIdentifier: try parsed.value(bundleIDNew),
            catalogueVersion: catalogueID, allowlist: entries),
          at: context.now())
        if parsed.json {
          return context.printJSON(
            ProjectPresentation.json(try support.overview(of: project, in: store)))
        }
        context.print(ProjectPresentation.created(project))
      })
  }

  static var list: CommandDefinition {
    CommandDefinition(
      name: "list", abstract: "List the projects, newest first.", options: [json.definition],
      run: { parsed, context in
        let support = CommandSupport(parsed: parsed, context: context)
        let store = try support.openStore()
        let projects = try store.auditProjects()
        let rows = try projects.map {
          ($0, sessionCount: try store.auditSessions(forProject: $0.id).count)
        }
        let recording = try store.auditRecording()
        let recorder = RecorderLock.running(storeDirectory: store.directory)
        if parsed.json {
          return context.printJSON(
            .array(
              rows.map { project, count in
                let open = recording?.session.projectID == project.id
                return .object([
                  "id": .int(project.id), "name": .string(project.name), "sessions": .int(count),
                  "sessionOpen": .bool(open), "recording": .bool(open && recorder != nil),
                ])
              }))
        }
        context.standardOutput(
          ProjectPresentation.list(rows, recording: recording, recorder: recorder))
      })
  }

  static var show: CommandDefinition {
    CommandDefinition(
      name: "show",
      abstract: "Show a project: its sessions, whether one can be started, its allowlist.",
      arguments: [CommonKeys.project.definition],
      options: [json.definition],
      run: { parsed, context in
        let support = CommandSupport(parsed: parsed, context: context)
        let store = try support.openStore()
        let overview = try support.overview(
          of: try support.project(try parsed.argument(CommonKeys.project), in: store), in: store)
        if parsed.json { return context.printJSON(ProjectPresentation.json(overview)) }
        context.standardOutput(ProjectPresentation.text(overview, zone: context.timeZone))
      })
  }

  static var edit: CommandDefinition {
    CommandDefinition(
      name: "edit", abstract: "Change a project's name, bundle identifier or allowlist.",
      arguments: [CommonKeys.project.definition],
      options: [
        newName.definition, bundleID.definition, clearBundleID.definition, catalogue.definition,
        catalogueFile.definition, clearAllowlist.definition, removeAllow.definition,
        allowEdit.definition, json.definition,
      ],
      run: { parsed, context in
        let support = CommandSupport(parsed: parsed, context: context)
        let store = try support.openStore(writing: true)
        let project = try support.project(try parsed.argument(CommonKeys.project), in: store)
        var draft = AuditProjectDraft(project)
        if let name = try parsed.value(newName) { draft.name = name }
        if parsed.flag(clearBundleID) { draft.bundleIdentifier = nil }
        if let bundle = try parsed.value(bundleID) { draft.bundleIdentifier = bundle }
        if let identifier = try chosenCatalogue(parsed, storeURL: support.storeURL) {
          draft.catalogueVersion = identifier
        }
        if parsed.flag(clearAllowlist) { draft.allowlist = [] }
        for text in try parsed.values(removeAllow) {
          let pattern: DomainPattern
          do { pattern = try DomainPattern(parsing: text) } catch let error
            as DomainPattern.ParseError
          {
            throw RefusedError(AllowlistPresentation.sentence(for: error, pattern: text))
          }
          guard let index = draft.allowlist.firstIndex(where: { $0.pattern == pattern }) else {
            throw RefusedError(
              "\(pattern.text) is not in the allowlist of “\(project.name)”; nothing was changed.")
          }
          draft.allowlist.remove(at: index)
        }
        for entry in try support.allowlist(
          try parsed.values(allowEdit), startingAt: draft.allowlist.count + 1)
        {
          if let index = draft.allowlist.firstIndex(where: { $0.pattern == entry.pattern }) {
            draft.allowlist[index] = entry
          } else {
            draft.allowlist.append(entry)
          }
        }
        let updated = try store.updateAuditProject(id: project.id, with: draft)
        if parsed.json {
          return context.printJSON(
            ProjectPresentation.json(try support.overview(of: updated, in: store)))
        }
        context.print(ProjectPresentation.updated(updated))
      })
  }

  static var delete: CommandDefinition {
    CommandDefinition(
      name: "delete",
      abstract:
        "Delete a project with its sessions and markers; the connections stay in the history.",
      arguments: [CommonKeys.project.definition],
      options: [CommonKeys.yes.definition],
      run: { parsed, context in
        let support = CommandSupport(parsed: parsed, context: context)
        let store = try support.openStore(writing: true)
        let project = try support.project(try parsed.argument(CommonKeys.project), in: store)
        let sessions = try store.auditSessions(forProject: project.id)
        if let open = sessions.first(where: \.isOpen) {
          throw RefusedError(SessionPresentation.openNotDeleted(open))
        }
        let connections = try sessions.reduce(0) {
          $0 + (try store.flowCount(inAuditSession: $1.id))
        }
        try support.confirmDeletion(
          ProjectPresentation.deletionQuestion(project, sessions: sessions.count))
        try store.deleteAuditProject(id: project.id)
        context.print(
          ProjectPresentation.deleted(project, sessions: sessions.count, connections: connections))
      })
  }
}
