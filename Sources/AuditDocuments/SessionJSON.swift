import Audit
import AuditRules
import AuditWording

/// The JSON of a session, its markers, its capture and a project's allowlist: one shape for
/// session.json and for the screens' `--json`.
public enum SessionJSON {
  public static func kindJSON(_ kind: AuditSessionKind) -> [String: JSONValue] {
    switch kind {
    case .baseline: return ["kind": .string("baseline"), "release": .null]
    case .audit(let r):
      return [
        "kind": .string("audit"),
        "release": .object(["version": .string(r.version), "build": .string(r.build)]),
      ]
    }
  }

  public static func summaryJSON(_ s: AuditSession, connections: Int) -> JSONValue {
    var object = kindJSON(s.kind)
    object["id"] = .int(s.id)
    object["name"] = .string(AuditPresentation.sessionName(s.kind))
    object["status"] = .string(s.isOpen ? "recording" : "ended")
    object["startedAt"] = .string(Instant.rfc3339(s.startedAt))
    object["endedAt"] = .optional(s.endedAt.map(Instant.rfc3339))
    object["connections"] = .int(connections)
    return .object(object)
  }

  /// A marker as JSON; session.json leaves out its row id (`withID: false`).
  public static func markerJSON(_ m: SessionMarker, withID: Bool = true) -> JSONValue {
    var object: [String: JSONValue] = [
      "at": .string(Instant.rfc3339(m.date)),
      "name": .string(AuditPresentation.markerName(m.kind)), "label": .null,
    ]
    if withID { object["id"] = .int(m.id) }
    switch m.kind {
    case .consentGiven: object["kind"] = .string("consentGiven")
    case .loggedIn: object["kind"] = .string("loggedIn")
    case .loggedOut: object["kind"] = .string("loggedOut")
    case .custom(let label):
      object["kind"] = .string("custom")
      object["label"] = .string(label)
    }
    return .object(object)
  }

  /// The capture an imported session was read from, as session.json and `session show --json`
  /// carry it; null for a recorded session.
  public static func captureJSON(_ s: AuditSession) -> JSONValue {
    guard let source = s.source else { return .null }
    return .object([
      "fileName": .string(source.fileName), "sha256": .string(source.sha256),
      "application": .optional(source.application), "host": .optional(source.host),
      "importedWith": .string(s.environment.toolVersion),
    ])
  }
  public static func allowlistJSON(_ entry: AllowlistEntry) -> JSONValue {
    .object(["pattern": .string(entry.pattern.text), "note": .optional(entry.note)])
  }

}
