import Audit
import AuditRules
import Foundation

/// What the test log says: each step's sentence and what each tool did, for session.json's
/// `testLog` and the report's Test log section (TR-03161-1 §4.2: the steps, so that a third
/// party can repeat them, and the tools in the versions used).
public enum TestLogWording {
  public static let note =
    "The steps of the test this bundle records, in the order they happened, and every tool in the chain with the version it stated. A version not known is null (the report says unknown). The steps are those the history kept; what was done on the device between them is the assessor's to record."

  /// The report's words for a version not known.
  public static let unknownVersion = "unknown"

  // MARK: Steps

  public static func sessionStarted(
    id: Int64, kind: AuditSessionKind, environment: AuditEnvironment,
    inspection: InspectionConditions
  ) -> String {
    let what: String
    switch kind {
    case .baseline: what = "the baseline, recorded without the audited app"
    case .audit(let release): what = "release \(release.version) (build \(release.build))"
    }
    let https =
      inspection.inspectionEnabled
      ? "HTTPS inspection on, certificate scenario: \(PinningEvidence.scenarioPhrase(inspection.scenario))"
      : "HTTPS inspection off"
    return
      "Session \(id) started: \(what), on \(environment.deviceModel), \(environment.osVersion); \(https)."
  }

  public static func captureImported(_ source: CaptureSource) -> String {
    let writer =
      source.application.map { "written by \($0)" } ?? "the file does not say what wrote it"
    return
      "The capture \(source.fileName) was imported (SHA-256 \(source.sha256)); \(writer)."
  }

  public static func recorderStarted(_ run: RecorderRun) -> String {
    let reading =
      run.isLive
      ? "live on the interface \(run.source)"
      : "reading \(run.source)"
    let filter =
      run.filter.map { "packets the filter ‘\($0)’ matches" } ?? "every packet (no filter)"
    let log = run.inspectionLog.map { ", following the inspection log \($0)" } ?? ""
    return
      "Recorder run \(run.id) started (pid \(run.processID)): \(reading), keeping \(filter)\(log)."
  }

  public static func recorderEnded(_ run: RecorderRun, instant: (Date) -> String) -> String {
    let how: String
    switch run.end {
    case .sourceEnded?: how = "it came to the end of what it read"
    case .interrupted?: how = "it was stopped (Ctrl-C or SIGTERM)"
    case .durationReached?: how = "its --duration passed"
    case .failed?: how = "it stopped on an error, after writing what it had read"
    case .vanished?, nil:
      how =
        "it ended without stopping (killed, crashed or the machine stopped); its last sign of life, at \(instant(run.aliveAt)), stands for its end"
    }
    var out = "Recorder run \(run.id) ended: \(how)"
    if let log = run.inspectionLog {
      out += "; its inspection log \(log) \(logState(run.inspectionLogState))"
      if run.inspectionLinesUnreadable > 0 {
        out +=
          ", \(Quantity.count(run.inspectionLinesUnreadable, "line")) of it could not be read"
      }
    }
    return out + "."
  }

  static func logState(_ state: InspectionLogState?) -> String {
    switch state {
    case .missing?: return "was not there"
    case .unreadable?: return "could not be read"
    case .empty?: return "held no line"
    case .read?: return "was read"
    case nil: return "was not looked at"
    }
  }

  public static func markerPlaced(_ kind: SessionMarkerKind) -> String {
    "Marker placed: \(AuditPresentation.markerName(kind))."
  }

  public static func serverScanKept(tool: String, fileName: String, sha256: String, file: String)
    -> String
  {
    "A \(tool) scan of the servers was kept with the session: \(fileName) (SHA-256 \(sha256)), carried as \(file)."
  }

  public static func sessionEnded(id: Int64) -> String { "Session \(id) ended." }

  public static func exported(
    exportedWith: String, project: AuditProject, catalogue: String
  ) -> String {
    let app = project.bundleIdentifier.map { " (\($0))" } ?? ""
    return
      "Exported with \(exportedWith): the project \(project.name)\(app) judged against the catalogue \(catalogue), with its allowlist of \(Quantity.count(project.allowlist.count, "pattern")) as it stood then (session.json, project)."
  }

  // MARK: Tools

  public static let recordedSession = "recorded the session"
  public static let importedCapture = "imported the capture"
  public static func wroteCapture(_ fileName: String) -> String { "wrote the capture \(fileName)" }
  public static let judged = "judged the traffic and wrote this bundle"

  public static func readPackets(runs: [Int64]) -> String {
    "read the packets of recorder \(runList(runs))"
  }

  public static func inspected(run: Int64, log: String?) -> String {
    let file = log.map { ", writing the inspection log \($0)" } ?? ""
    return "inspected HTTPS during recorder run \(run)\(file)"
  }

  public static let inspectedImport =
    "inspected HTTPS while the capture was taken, writing the inspection log the import read"

  public static func proxyUnstated(run: Int64, log: String) -> String {
    "wrote the inspection log \(log) recorder run \(run) followed; no line of it stated the proxy's version"
  }

  public static func scanned(file: String) -> String { "scanned the servers (\(file))" }
  public static func scannerOpenSSL(tool: String, file: String) -> String {
    "the TLS library \(tool) scanned with (\(file))"
  }

  public static func requirementsFrom(_ source: CatalogueSource, catalogue: String) -> String {
    "the requirements of the catalogue \(catalogue): \(document(source))"
  }

  public static func tlsTablesFrom(_ source: CatalogueSource) -> String {
    "the TLS minimum and tables: \(document(source))"
  }

  static func document(_ source: CatalogueSource) -> String {
    let digest =
      source.sha256.map { "SHA-256 of the PDF \($0)" } ?? source.url.map { "cited at \($0)" }
      ?? "no digest stated"
    return "dated \(source.date), \(digest)"
  }

  public static func trackerList(path: String, sha256: String) -> String {
    "named the trackers hosts were compared with (\(path), SHA-256 \(sha256))"
  }

  public static func publicSuffixList(path: String, sha256: String) -> String {
    "gave the registrable domains (\(path), SHA-256 \(sha256))"
  }

  public static func addressDatabase(path: String, sha256: String) -> String {
    "said where the addresses are registered (\(path), SHA-256 \(sha256))"
  }

  /// What each library the exporter links did.
  public static let libpslUse = "read the public suffix list"
  public static let opensslUse = "computed the SHA-256 digests and, with --sign, the signature"
  public static let cairoUse = "drew report.pdf"
  public static let pangoUse = "set the text of report.pdf"
  public static let maxmindUse = "read the address databases"

  /// The proxy's options, as the report lists them: "name=value", by name.
  public static func options(_ options: [String: String]) -> String {
    options.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
  }

  static func runList(_ runs: [Int64]) -> String {
    "\(runs.count == 1 ? "run" : "runs") \(Quantity.list(runs.map(String.init)))"
  }
}
