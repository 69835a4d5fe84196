import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Foundation

/// Whether a session can be started in a project, and why not.
public enum SessionStartAvailability: Sendable, Hashable {
  case available(suggestBaseline: Bool)
  case blocked(by: AuditRecording, sameProject: Bool)

  public init(project: AuditProject, sessions: [AuditSession], recording: AuditRecording?) {
    if let recording {
      self = .blocked(by: recording, sameProject: recording.session.projectID == project.id)
    } else {
      self = .available(suggestBaseline: !sessions.contains { $0.kind == .baseline })
    }
  }

  public var isAvailable: Bool {
    if case .available = self { return true }
    return false
  }

  public var sentence: String {
    switch self {
    case .available(suggestBaseline: true):
      return
        "Begin with a baseline: record the device without the audited app installed, so that its traffic can be told apart from everything else the device sends."
    case .available(suggestBaseline: false):
      return "A session can be started: tunnelvision session start PROJECT --version V --build B."
    case .blocked(let recording, true):
      return
        "Session \(recording.session.id) of this project is open; end it before starting another."
    case .blocked(let recording, false):
      return
        "A session of “\(recording.projectName)” is open (session \(recording.session.id)); only one session can be open at a time, across all projects."
    }
  }
}

/// The facts a project's screen is drawn from.
public struct ProjectOverview: Sendable, Hashable {
  public let project: AuditProject
  public let sessions: [AuditSession]  // newest first
  public let connectionCounts: [Int64: Int]  // by session id
  public let recording: AuditRecording?
  public let catalogueIdentifier: String  // the project's choice or the default
  public let catalogueIsDefault: Bool
  /// The recorder running on the store, if one runs.
  public let recorder: RecorderClaim?

  public init(
    project: AuditProject, sessions: [AuditSession], connectionCounts: [Int64: Int],
    recording: AuditRecording?, catalogueIdentifier: String, catalogueIsDefault: Bool,
    recorder: RecorderClaim? = nil
  ) {
    self.recorder = recorder
    self.project = project
    self.sessions = sessions
    self.connectionCounts = connectionCounts
    self.recording = recording
    self.catalogueIdentifier = catalogueIdentifier
    self.catalogueIsDefault = catalogueIsDefault
  }

  public var availability: SessionStartAvailability {
    SessionStartAvailability(project: project, sessions: sessions, recording: recording)
  }
}

public enum ProjectPresentation {
  /// An open session's status: recording only while a recorder runs on the store.
  public static func openBadge(_ recorder: RecorderClaim?) -> String {
    guard let recorder else { return notRecordingBadge }
    return "● Recording on \(TerminalText.inline(recorder.sourceName))"
  }
  public static let notRecordingBadge = "○ Open, nothing is recording"

  /// `project list`: a line a project, its sessions counted; the open one badged.
  public static func list(
    _ projects: [(AuditProject, sessionCount: Int)], recording: AuditRecording?,
    recorder: RecorderClaim? = nil
  ) -> String {
    guard !projects.isEmpty else {
      return
        "No projects yet. A project is the app being audited and the domains it is expected to contact: create one with 'tunnelvision project new NAME --allow DOMAIN'.\n"
    }
    let rows = projects.map { project, count in
      [
        String(project.id), project.name,
        Quantity.count(count, "session")
          + (recording?.session.projectID == project.id ? "  " + openBadge(recorder) : ""),
      ]
    }
    return TextColumns(rightAligned: [0]).lines(rows).map { $0 + "\n" }.joined()
  }

  /// `project show`.
  public static func text(_ o: ProjectOverview, zone: TimeZone) -> String {
    var out = "\(TerminalText.inline(o.project.name)) (project \(o.project.id))\n"
    out += "Created \(AuditPresentation.dateTime(o.project.createdAt, in: zone))\n"

    out += "\nSessions, newest first\n"
    if o.sessions.isEmpty {
      out += "  None yet.\n"
    } else {
      for line in SessionPresentation.rows(o, zone: zone, withEnd: true) {
        out += "  " + line + "\n"
      }
    }
    out += "  " + o.availability.sentence + "\n"

    out += "\nAllowed domains\n"
    if o.project.allowlist.isEmpty {
      out +=
        "  None. With an empty allowlist no connection can be found outside it, and the host check is not assessed.\n"
    }
    for entry in o.project.allowlist {
      out += "  " + entry.pattern.text + "\n"
      if let note = entry.note { out += "      " + note + "\n" }
    }
    out += "  " + AllowlistPresentation.formsRule + "\n"

    if let bundle = o.project.bundleIdentifier {
      out += "\nAudited app\n  \(bundle)\n  \(AllowlistPresentation.bundleIdentifierCaveat)\n"
    }

    out +=
      "\nRequirement catalogue\n  \(o.catalogueIdentifier)\(o.catalogueIsDefault ? " (the default)" : "")\n"
    return out
  }

  public static func json(_ o: ProjectOverview) -> JSONValue {
    var blocked: JSONValue = .null
    if case .blocked(let recording, _) = o.availability {
      blocked = .object([
        "sessionID": .int(recording.session.id), "projectName": .string(recording.projectName),
        "projectID": .int(recording.session.projectID),
      ])
    }
    return .object([
      "id": .int(o.project.id),
      "name": .string(o.project.name),
      "bundleIdentifier": .optional(o.project.bundleIdentifier),
      "catalogue": .string(o.catalogueIdentifier),
      "createdAt": .string(Instant.rfc3339(o.project.createdAt)),
      "allowlist": .array(o.project.allowlist.map { SessionJSON.allowlistJSON($0) }),
      "sessions": .array(
        o.sessions.map {
          SessionJSON.summaryJSON($0, connections: o.connectionCounts[$0.id] ?? 0)
        }),
      "canStartSession": .bool(o.availability.isAvailable),
      "startBlockedBy": blocked,
      "startSessionNote": .string(o.availability.sentence),
    ])
  }

  public static func created(_ project: AuditProject) -> String {
    "Created project “\(project.name)” (project \(project.id)) with \(Quantity.count(project.allowlist.count, "allowed domain"))."
  }

  public static func updated(_ project: AuditProject) -> String {
    "Updated project “\(project.name)” (project \(project.id)): \(Quantity.count(project.allowlist.count, "allowed domain"))."
  }

  public static func deleted(_ project: AuditProject, sessions: Int, connections: Int) -> String {
    "Deleted project “\(project.name)” with \(Quantity.count(sessions, "session")). Their \(Quantity.count(connections, "connection")) stay in the history; they are no longer evidence and expire with the storage limits."
  }

  public static func deletionQuestion(_ project: AuditProject, sessions: Int) -> String {
    "Delete project “\(project.name)” and the evidence of its \(Quantity.count(sessions, "session"))?"
  }
}

extension String {
  func trailingSpacesTrimmed() -> String {
    var s = self
    while s.hasSuffix(" ") { s.removeLast() }
    return s
  }
}
