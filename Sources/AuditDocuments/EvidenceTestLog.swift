import Audit
import AuditRules
import AuditWording
import Foundation

/// TR-03161-1 §4.2's record of a test, as far as the bundle knows it: every step in the order it
/// happened, with its time, and every tool in the chain with the version it stated. Derived from
/// the bundle's other facts (verify derives it again), but for the libraries the exporter links,
/// which only the exporting machine can state.
public struct EvidenceTestLog: Sendable, Hashable {
  public enum StepKind: String, Sendable, CaseIterable {
    case sessionStarted, captureImported, recorderStarted, markerPlaced, recorderEnded
    case serverScanKept, sessionEnded, exported
  }

  public struct Step: Sendable, Hashable {
    /// Nil for an import: the history keeps when the capture's packets were, not when it was read.
    public let at: Date?
    public let kind: StepKind
    public let statement: String
  }

  /// Where in the chain a tool worked.
  public enum Stage: String, Sendable, CaseIterable {
    case recording
    case importing = "import"
    case inspection, scan, judging
    /// The libraries the exporter links: stated by the machine that exported, taken as stated
    /// by verify.
    case libraries
  }

  public struct Tool: Sendable, Hashable {
    public let name: String
    /// As the tool stated it; nil: not known.
    public let version: String?
    public let stage: Stage
    public let use: String
    /// The options it ran with (an inspecting proxy's); nil for the others.
    public let options: [String: String]?

    public init(
      name: String, version: String?, stage: Stage, use: String, options: [String: String]? = nil
    ) {
      self.name = name
      self.version = version
      self.stage = stage
      self.use = use
      self.options = options
    }
  }

  public let steps: [Step]
  public let tools: [Tool]
}

extension EvidenceTestLog {
  /// The bundle's test log; `libraries` are the exporter's (`Stage.libraries`).
  public init(_ bundle: EvidenceBundle, libraries: [Tool]) {
    steps = Self.steps(bundle)
    tools = Self.tools(bundle) + libraries
  }

  static func steps(_ b: EvidenceBundle) -> [Step] {
    let s = b.session
    var timed: [(at: Date, rank: Int, step: Step)] = []
    func add(_ at: Date, _ kind: StepKind, _ statement: String) {
      timed.append((at, timed.count, Step(at: at, kind: kind, statement: statement)))
    }
    add(
      s.startedAt, .sessionStarted,
      TestLogWording.sessionStarted(
        id: s.id, kind: s.kind, environment: s.environment, inspection: s.inspection))
    for run in b.coverage.runs {
      add(run.startedAt, .recorderStarted, TestLogWording.recorderStarted(run))
      if let ended = run.endedAt {
        add(
          ended, .recorderEnded,
          TestLogWording.recorderEnded(run, instant: Instant.rfc3339ToTheSecond))
      }
    }
    for marker in b.markers {
      add(marker.date, .markerPlaced, TestLogWording.markerPlaced(marker.kind))
    }
    for (index, scan) in b.serverScans.enumerated() {
      add(
        scan.storedAt, .serverScanKept,
        TestLogWording.serverScanKept(
          tool: scan.tool, fileName: scan.fileName, sha256: scan.sha256,
          file: EvidenceBundle.serverScanName(index)))
    }
    if let ended = s.endedAt { add(ended, .sessionEnded, TestLogWording.sessionEnded(id: s.id)) }
    add(
      b.exportedAt, .exported,
      TestLogWording.exported(
        exportedWith: b.exportedWith, project: b.project, catalogue: b.catalogue.identifier))
    var steps = timed.sorted { ($0.at, $0.rank) < ($1.at, $1.rank) }.map(\.step)
    if let source = s.source, let start = steps.firstIndex(where: { $0.kind == .sessionStarted }) {
      steps.insert(
        Step(at: nil, kind: .captureImported, statement: TestLogWording.captureImported(source)),
        at: start + 1)
    }
    return steps
  }

  static func tools(_ b: EvidenceBundle) -> [Tool] {
    var tools: [Tool] = []
    let s = b.session
    if let source = s.source {
      tools.append(
        Tool(
          name: "capture writer", version: source.application, stage: .importing,
          use: TestLogWording.wroteCapture(source.fileName)))
      tools.append(
        Tool(
          name: "tunnelvision", version: s.environment.toolVersion, stage: .importing,
          use: TestLogWording.importedCapture))
      for proxy in b.importProxies {
        tools.append(
          Tool(
            name: proxy.tool, version: proxy.version, stage: .inspection,
            use: TestLogWording.inspectedImport, options: proxy.options))
      }
    } else {
      tools.append(
        Tool(
          name: "tunnelvision", version: s.environment.toolVersion, stage: .recording,
          use: TestLogWording.recordedSession))
    }
    let runs = b.coverage.runs
    // One row per libpcap version (nil: runs from before the store kept it), its runs named.
    var pcapVersions: [String?] = []
    for run in runs where !pcapVersions.contains(run.libpcap) { pcapVersions.append(run.libpcap) }
    for version in pcapVersions {
      tools.append(
        Tool(
          name: "libpcap", version: version, stage: .recording,
          use: TestLogWording.readPackets(runs: runs.filter { $0.libpcap == version }.map(\.id))))
    }
    for run in runs {
      for proxy in run.proxies {
        tools.append(
          Tool(
            name: proxy.tool, version: proxy.version, stage: .inspection,
            use: TestLogWording.inspected(run: run.id, log: run.inspectionLog),
            options: proxy.options))
      }
      if run.proxies.isEmpty, let log = run.inspectionLog {
        tools.append(
          Tool(
            name: "inspecting proxy", version: nil, stage: .inspection,
            use: TestLogWording.proxyUnstated(run: run.id, log: log), options: [:]))
      }
    }
    for (index, scan) in b.serverScans.enumerated() {
      let file = EvidenceBundle.serverScanName(index)
      let run = try? ServerScanReport.read(scan.output)
      tools.append(
        Tool(
          name: scan.tool, version: run?.toolVersion, stage: .scan,
          use: TestLogWording.scanned(file: file)))
      tools.append(
        Tool(
          name: "OpenSSL", version: run?.opensslVersion, stage: .scan,
          use: TestLogWording.scannerOpenSSL(tool: scan.tool, file: file)))
    }
    let prefix = "tunnelvision "
    tools.append(
      Tool(
        name: "tunnelvision",
        version: b.exportedWith.hasPrefix(prefix)
          ? String(b.exportedWith.dropFirst(prefix.count)) : b.exportedWith,
        stage: .judging, use: TestLogWording.judged))
    let catalogue = b.catalogue
    tools.append(
      Tool(
        name: catalogue.source.document, version: catalogue.source.version, stage: .judging,
        use: TestLogWording.requirementsFrom(catalogue.source, catalogue: catalogue.identifier)))
    tools.append(
      Tool(
        name: catalogue.tlsSource.document, version: catalogue.tlsSource.version, stage: .judging,
        use: TestLogWording.tlsTablesFrom(catalogue.tlsSource)))
    for list in b.trackerLists {
      tools.append(
        Tool(
          name: list.name, version: list.date, stage: .judging,
          use: TestLogWording.trackerList(path: list.path, sha256: list.sha256)))
    }
    if let psl = b.publicSuffixList {
      tools.append(
        Tool(
          name: "public suffix list", version: psl.date, stage: .judging,
          use: TestLogWording.publicSuffixList(path: psl.path, sha256: psl.sha256)))
    }
    for database in b.addressRegistrations.databases {
      tools.append(
        Tool(
          name: database.name, version: database.built, stage: .judging,
          use: TestLogWording.addressDatabase(path: database.path, sha256: database.sha256)))
    }
    return tools
  }
}

extension EvidenceTestLog {
  /// session.json's `testLog`.
  public var json: JSONValue {
    .fields([
      SessionDocument.TestLogKey.note: .string(TestLogWording.note),
      .steps: .array(
        steps.map {
          .fields([
            SessionDocument.StepKey.at: .optional($0.at.map(Instant.rfc3339)),
            .step: .string($0.kind.rawValue), .statement: .string($0.statement),
          ])
        }),
      .tools: .array(tools.map(Self.toolJSON)),
    ])
  }

  static func toolJSON(_ t: Tool) -> JSONValue {
    .fields([
      SessionDocument.ToolKey.tool: .string(t.name), .version: .optional(t.version),
      .stage: .string(t.stage.rawValue), .use: .string(t.use),
      .options: t.options.map { .object($0.mapValues { .string($0) }) } ?? .null,
    ])
  }

  /// The exporter's libraries as session.json states them (its `testLog.tools` of the stage
  /// `libraries`): what verify takes as stated. Strict: an entry of another shape is a problem.
  public static func statedLibraries(_ testLog: Any?) -> [Tool]? {
    typealias K = SessionDocument.ToolKey
    guard let object = testLog as? [String: Any],
      let tools = object[SessionDocument.TestLogKey.tools.rawValue] as? [[String: Any]]
    else { return nil }
    var libraries: [Tool] = []
    for tool in tools where tool[K.stage.rawValue] as? String == Stage.libraries.rawValue {
      let version = tool[K.version.rawValue]
      guard let name = tool[K.tool.rawValue] as? String, let use = tool[K.use.rawValue] as? String,
        version as? NSNull != nil || version as? String != nil
      else { return nil }
      libraries.append(Tool(name: name, version: version as? String, stage: .libraries, use: use))
    }
    return libraries
  }
}
