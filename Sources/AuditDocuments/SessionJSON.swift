import Audit
import AuditRules
import AuditWording

/// The JSON of a session, its markers, its capture and a project's allowlist: one shape for
/// session.json and for the screens' `--json`.
public enum SessionJSON {
  typealias D = SessionDocument
  public static func kindJSON(_ kind: AuditSessionKind) -> [String: JSONValue] {
    switch kind {
    case .baseline:
      return [
        D.SessionKey.kind.rawValue: .string("baseline"), D.SessionKey.release.rawValue: .null,
      ]
    case .audit(let r):
      return [
        D.SessionKey.kind.rawValue: .string("audit"),
        D.SessionKey.release.rawValue: .fields([
          D.ReleaseKey.version: .string(r.version), .build: .string(r.build),
        ]),
      ]
    }
  }

  public static func summaryJSON(_ s: AuditSession, connections: Int) -> JSONValue {
    var object = kindJSON(s.kind)
    object[D.SessionKey.id] = .int(s.id)
    object[D.SessionKey.name] = .string(AuditPresentation.sessionName(s.kind))
    object["status"] = .string(s.isOpen ? "recording" : "ended")
    object[D.SessionKey.startedAt] = .string(Instant.rfc3339(s.startedAt))
    object[D.SessionKey.endedAt] = .optional(s.endedAt.map(Instant.rfc3339))
    object["connections"] = .int(connections)
    return .object(object)
  }

  /// A marker as JSON; session.json leaves out its row id (`withID: false`).
  public static func markerJSON(_ m: SessionMarker, withID: Bool = true) -> JSONValue {
    typealias K = D.MarkerKey
    var object: [String: JSONValue] = [
      K.at.rawValue: .string(Instant.rfc3339(m.date)),
      K.name.rawValue: .string(AuditPresentation.markerName(m.kind)), K.label.rawValue: .null,
    ]
    if withID { object["id"] = .int(m.id) }
    switch m.kind {
    case .consentGiven: object[K.kind] = .string("consentGiven")
    case .loggedIn: object[K.kind] = .string("loggedIn")
    case .loggedOut: object[K.kind] = .string("loggedOut")
    case .consentWithdrawn: object[K.kind] = .string("consentWithdrawn")
    case .custom(let label):
      object[K.kind] = .string("custom")
      object[K.label] = .string(label)
    }
    return .object(object)
  }

  /// The capture an imported session was read from, as session.json and `session show --json`
  /// carry it; null for a recorded session.
  public static func captureJSON(_ s: AuditSession) -> JSONValue {
    guard let source = s.source else { return .null }
    return .fields([
      D.CaptureKey.fileName: .string(source.fileName), .sha256: .string(source.sha256),
      .application: .optional(source.application), .host: .optional(source.host),
      .importedWith: .string(s.environment.toolVersion),
    ])
  }
  public static func allowlistJSON(_ entry: AllowlistEntry) -> JSONValue {
    .fields([D.AllowlistKey.pattern: .string(entry.pattern.text), .note: .optional(entry.note)])
  }

}

extension SessionJSON {
  /// A session's coverage: the statement, each stretch not recorded, and the recorder runs it
  /// was derived from (verify derives it again from these).
  public static func recordingJSON(_ c: SessionCoverage, session s: AuditSession) -> JSONValue {
    let open = s.isOpen
    let lines = CoverageWording.gapLines(c, instant: Instant.rfc3339)
    var fields: [D.RecordingKey: JSONValue] = [
      .basis: .string(c.basis.rawValue),
      .statement: .string(CoverageWording.headline(c, open: open)),
      .gaps: .array(
        zip(c.gaps, lines).map { gap, line in
          .fields([
            D.GapKey.from: .string(Instant.rfc3339(gap.from)),
            .to: .optional(gap.to.map(Instant.rfc3339)),
            .afterRun: gap.after.map { .int($0.id) } ?? .null,
            .cutConnections: .int(gap.cutConnections), .sentence: .string(line),
          ])
        }),
      .runs: .array(c.runs.map(runJSON)),
      .recorderAtEnd: s.recorderAtEnd.map { .int($0) } ?? .null,
      .inspectionLogAtEnd: .optional(s.inspectionLogAtEnd?.name),
    ]
    // What qualifies every verdict that found nothing (findings.json `onlyWhereRecorded`); only
    // where stretches were not recorded, so that other sessions' documents keep their bytes.
    if let unrecorded = c.unrecorded {
      fields[.notRecorded] = FindingsDocument.unrecordedJSON(unrecorded)
    }
    return .fields(fields)
  }

  /// The inspecting proxy's starts, as a run or an import read them from its log.
  public static func proxiesJSON(_ proxies: [RecorderRun.ProxyRun]) -> JSONValue {
    .array(
      proxies.map {
        .fields([
          D.ProxyKey.tool: .string($0.tool), .version: .optional($0.version),
          .options: .object($0.options.mapValues { .string($0) }),
        ])
      })
  }

  static func runJSON(_ r: RecorderRun) -> JSONValue {
    var run: [D.RunKey: JSONValue] = [
      .id: .int(r.id), .source: .string(r.source), .live: .bool(r.isLive),
      .processID: .int(Int64(r.processID)), .startedAt: .string(Instant.rfc3339(r.startedAt)),
      .lastSignOfLife: .string(Instant.rfc3339(r.aliveAt)),
      .endedAt: .optional(r.endedAt.map(Instant.rfc3339)), .end: .optional(r.end?.name),
      .inspectionLog: .optional(r.inspectionLog),
      .inspectionLogState: .optional(r.inspectionLogState?.name),
      .filter: .optional(r.filter), .libpcap: .optional(r.libpcap),
      .proxies: proxiesJSON(r.proxies),
    ]
    // Only where some were: a run that read every line keeps its bytes (format 7).
    if r.inspectionLinesUnreadable > 0 {
      run[.inspectionLinesUnreadable] = .int(Int64(r.inspectionLinesUnreadable))
    }
    return .fields(run)
  }
}
