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

/// What every command needs: the store, and projects and sessions named on the command line.
package struct CommandSupport {
  let parsed: ParsedCommand
  let context: CommandContext

  var storeURL: URL {
    StoreLocation.resolve(
      option: (try? parsed.value(TunnelVisionCommand.store))??.text,
      environment: context.environment)
  }

  /// The store, opened once for the command (and kept for the sentence of an error it meets).
  /// Only `project new` makes one (`creating`) when nothing is there, and says so: every other
  /// command needs what a store holds.
  /// A reading command reads a store it cannot write (a read-only mount, a full disk) as it is;
  /// a writing one (`writing`) says it needs write access.
  func openStore(creating: Bool = false, writing: Bool = false) throws -> FlowStore {
    if let store = context.opened.store, store.directory == storeURL { return store }
    let store = try FlowStore(
      directory: storeURL, creating: creating, reading: !(writing || creating))
    if store.wasCreated {
      context.standardError(StorePresentation.created(at: storeURL.path) + "\n")
    }
    context.opened.store = store
    if !store.isReadOnly, !store.wasCreated { try settleVanishedRuns(store) }
    return store
  }

  /// A recorder run that never said it ended, while no recorder holds the store (or another
  /// does), vanished: that is written down the first time a writing command sees it. A lock
  /// whose claim cannot be read leaves every run as it is.
  func settleVanishedRuns(_ store: FlowStore) throws {
    let running = RecorderLock.running(storeDirectory: store.directory)
    if let running, running.processID == 0 { return }
    try store.settleVanishedRuns(runningProcess: running?.processID)
  }

  /// The session's coverage, as of now.
  func coverage(of session: AuditSession, in store: FlowStore) throws -> SessionCoverage {
    try store.coverage(
      of: session,
      runningProcess: RecorderLock.running(storeDirectory: store.directory)?.processID,
      now: context.now())
  }

  /// Evidence is deleted only when the person says so: --yes, or yes to the question on a
  /// terminal. Without a terminal to ask, it is refused and says how to confirm.
  func confirmDeletion(_ question: String) throws {
    if parsed.flag(CommonKeys.yes) { return }
    switch context.confirm(question) {
    case true?: return
    case false?: throw RefusedError(AuditPresentation.deletionDeclined)
    case nil: throw RefusedError(AuditPresentation.deletionNeedsYes(question))
    }
  }

  /// A project by exact name, or by id.
  func project(_ text: String, in store: FlowStore) throws -> AuditProject {
    let projects = try store.auditProjects()
    let named = projects.filter { $0.name == text }
    if named.count == 1 { return named[0] }
    if named.count > 1 {
      throw RefusedError(
        "\(named.count) projects are named “\(text)”; name one by its id (\(named.map { String($0.id) }.joined(separator: ", ")))."
      )
    }
    if text.allSatisfy({ $0.isASCII && $0.isNumber }), let id = Int64(text),
      let project = projects.first(where: { $0.id == id })
    {
      return project
    }
    throw RefusedError(
      "There is no project named “\(text)”. 'tunnelvision project list' shows the projects there are."
    )
  }

  /// A session by id.
  func session(_ id: SessionID, in store: FlowStore) throws -> AuditSession {
    let id = id.value
    guard let session = try store.auditSession(id: id) else {
      throw AuditStoreError.sessionNotFound(id)
    }
    return session
  }

  func projectName(_ store: FlowStore) -> (Int64) -> String? {
    { sessionID in
      guard let session = try? store.auditSession(id: sessionID) else { return nil }
      return (try? store.auditProject(id: session.projectID))?.name
    }
  }

  /// Reads `--allow PATTERN[=NOTE]` entries; every rejected one is reported on its own line.
  func allowlist(_ texts: [String], startingAt first: Int = 1) throws -> [AllowlistEntry] {
    var entries: [AllowlistEntry] = []
    var problems: [String] = []
    for (offset, text) in texts.enumerated() {
      let number = first + offset
      let (pattern, note) = Self.splitAllow(text)
      if pattern.trimmingCharacters(in: .whitespaces).isEmpty {
        if let note, !note.trimmingCharacters(in: .whitespaces).isEmpty {
          problems.append(
            "Allowlist entry \(number) has a note (“\(note)”) but no domain; write the domain before the “=”."
          )
        } else {
          problems.append(
            "Allowlist entry \(number): "
              + AllowlistPresentation.sentence(for: .empty, pattern: pattern))
        }
        continue
      }
      do {
        entries.append(AllowlistEntry(pattern: try DomainPattern(parsing: pattern), note: note))
      } catch {
        problems.append(
          "Allowlist entry \(number): "
            + AllowlistPresentation.sentence(for: error, pattern: pattern))
      }
    }
    if !problems.isEmpty { throw RefusedError(problems.joined(separator: "\n")) }
    return entries
  }

  static func splitAllow(_ text: String) -> (String, String?) {
    guard let eq = text.firstIndex(of: "=") else { return (text, nil) }
    return (String(text[..<eq]), String(text[text.index(after: eq)...]))
  }
}

extension CommandSupport {
  func overview(of project: AuditProject, in store: FlowStore) throws -> ProjectOverview {
    let sessions = try store.auditSessions(forProject: project.id)
    var counts: [Int64: Int] = [:]
    for session in sessions { counts[session.id] = try store.flowCount(inAuditSession: session.id) }
    let catalogue = project.catalogueVersion ?? RequirementCatalogueLibrary.defaultIdentifier
    return ProjectOverview(
      project: project, sessions: sessions, connectionCounts: counts,
      recording: try store.auditRecording(), catalogueIdentifier: catalogue,
      catalogueIsDefault: project.catalogueVersion == nil,
      recorder: RecorderLock.running(storeDirectory: store.directory))
  }

  func overview(of session: AuditSession, in store: FlowStore) throws -> SessionOverview {
    let project = try store.auditProject(id: session.projectID)
    return SessionOverview(
      session: session, projectName: project?.name ?? "project \(session.projectID)",
      markers: try store.markers(forSession: session.id),
      connectionCount: try store.flowCount(inAuditSession: session.id),
      otherSessions: try store.auditSessions(forProject: session.projectID),
      recorder: RecorderLock.running(storeDirectory: store.directory),
      coverage: try coverage(of: session, in: store))
  }
}

extension CommandSupport {
  /// Whether `path` names a directory (not a file, and not nothing).
  package static func isDirectory(_ path: String) -> Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
      && isDirectory.boolValue
  }
}
