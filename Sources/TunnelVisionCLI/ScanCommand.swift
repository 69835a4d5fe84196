import Audit
import AuditRules
import AuditWording
import Crypto
import Evidence
import FlowStore
import Foundation
import Record

/// `scan`: each first-party server a session contacted, scanned with testssl.sh one at a time
/// (or a scan made elsewhere, read from its JSON), kept with the session and judged against the
/// catalogue's TLS document. A scan is evidence of its own instant.
enum ScanCommand {
  static let from = OptionKey<PathArgument>(
    "from", "file",
    "Read a scan made elsewhere instead of scanning: testssl.sh's JSON (--jsonfile or --jsonfile-pretty) or sslyze's (--json_out)."
  )
  static let host = OptionKey<String>(
    "host", "host",
    "Scan this host of the session instead of the allowlisted ones, whatever its standing (on a tracker list, outside the allowlist); repeatable.",
    repeatable: true)
  static let timeout = OptionKey<PositiveCount>(
    "timeout", "seconds", "Give up on a server after this many seconds (default: 300).")
  static let list = FlagKey("list", "Judge the scans kept with the session again; scan nothing.")

  static var definition: CommandDefinition {
    CommandDefinition(
      name: "scan",
      abstract:
        "Scan the TLS configuration of a session's first-party servers with testssl.sh, keep it with the session and judge it.",
      discussion:
        "Each server the session's connections reached under an allowlisted name (not a tracker's), one at a time: what it offers, judged against the catalogue's TLS document in the session's year. A scan says what a server offered when it was scanned, not what the app used.",
      arguments: [CommonKeys.session.definition],
      options: [from.definition, host.definition, timeout.definition, list.definition],
      run: { parsed, context in
        let support = CommandSupport(parsed: parsed, context: context)
        let store = try support.openStore(
          writing: try parsed.value(from) != nil || !parsed.flag(list))
        let session = try support.session(try parsed.argument(CommonKeys.session), in: store)
        guard let project = try store.auditProject(id: session.projectID) else {
          throw AuditStoreError.projectNotFound(session.projectID)
        }
        let catalogue = try AssessmentCommands.catalogue(
          for: project, parsed: parsed, storeURL: support.storeURL)
        let judge = ServerConfigurationJudge(policy: catalogue.policy, year: session.startYear)
        if parsed.flag(list) {
          let kept = try store.serverScans(ofSession: session.id)
          guard !kept.isEmpty else {
            return context.standardOutput(ScanWording.noneKept(session.id) + "\n")
          }
          for scan in kept {
            show(scan, run: try ServerScanReport.read(scan.output), judge: judge, context: context)
          }
          return
        }
        if let file = try parsed.value(from)?.text {
          let (stored, run) = try read(file, session: session.id, now: context.now())
          try store.insertServerScan(stored)
          show(stored, run: run, judge: judge, context: context)
          // A scan made elsewhere may be of another server than the session's.
          let ends = Set(
            try store.flows(inAuditSession: session.id).flatMap { [$0.peers.a, $0.peers.b] })
          for scan in run.scans
          where !ends.contains(FlowEndpoint(address: scan.address, port: scan.port)) {
            context.standardError(ScanWording.notInSession(scan, session: session.id) + "\n")
          }
          return
        }
        let flows = try store.flows(inAuditSession: session.id)
        let named = try parsed.values(host)
        let targets = ScanTargets.of(
          flows, allowlist: project.allowlist, named: named,
          trackers: try AssessmentCommands.trackers(parsed, context: context))
        guard !targets.isEmpty else {
          throw RefusedError(ScanWording.noTargets(named: named, allowlist: project.allowlist))
        }
        try scanLive(
          targets, session: session.id, store: store, judge: judge,
          seconds: try parsed.value(timeout)?.value ?? 300, context: context)
      })
  }

  /// A scan file read and checked before it is kept: it must be testssl.sh's.
  static func read(_ path: String, session: Int64, now: Date) throws -> (
    StoredServerScan, ServerScanRun
  ) {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw RefusedError(ScanWording.unreadable(path))
    }
    let run: ServerScanRun
    do { run = try ServerScanReport.read(data) } catch {
      throw RefusedError(ScanWording.notAScan(path, reason: error.description))
    }
    let stored = StoredServerScan(
      sessionID: session, storedAt: now, tool: run.tool,
      fileName: URL(fileURLWithPath: path).lastPathComponent, sha256: SHA256Digest.hex(of: data),
      output: data)
    return (stored, run)
  }

  static func show(
    _ stored: StoredServerScan, run: ServerScanRun, judge: ServerConfigurationJudge,
    context: CommandContext
  ) {
    var out = ScanWording.kept(stored) + "\n" + ServerConfigurationWording.provenance(run) + "\n"
    for scan in run.scans {
      out +=
        ServerConfigurationWording.lines(
          scan, observations: judge.judge(scan), minimum: judge.policy.minimumTLSVersion,
          document: judge.policy.tlsDocument
        ).joined(separator: "\n") + "\n"
    }
    context.standardOutput(out)
  }

  static func scanLive(
    _ targets: [ScanTarget], session: Int64, store: FlowStore, judge: ServerConfigurationJudge,
    seconds: Int, context: CommandContext
  ) throws {
    guard let tool = Testssl.executable(environment: context.environment) else {
      throw RefusedError(ScanWording.noTestssl)
    }
    let stop = StopRequest()
    stop.takeSignals()
    defer { stop.release() }
    var kept = 0
    for (index, target) in targets.enumerated() {
      if stop.wasAsked { break }
      context.standardError(ScanWording.progress(target, index: index, of: targets.count) + "\n")
      let outcome = Testssl.scan(target, tool: tool, seconds: seconds, stop: stop)
      switch outcome {
      case .finished(let data):
        let stored = StoredServerScan(
          sessionID: session, storedAt: context.now(), tool: TestsslReport.tool,
          fileName: "testssl-\(target.host)-\(target.port).json",
          sha256: SHA256Digest.hex(of: data), output: data)
        let run: ServerScanRun
        do { run = try ServerScanReport.read(data) } catch {
          context.standardError(ScanWording.unusable(target, reason: error.description) + "\n")
          continue
        }
        try store.insertServerScan(stored)
        kept += 1
        show(stored, run: run, judge: judge, context: context)
      case .timedOut:
        context.standardError(ScanWording.timedOut(target, seconds: seconds) + "\n")
      case .failed(let reason):
        context.standardError(ScanWording.unusable(target, reason: reason) + "\n")
      case .stopped:
        break
      }
    }
    let summary = ScanWording.summary(kept: kept, of: targets.count, stopped: stop.wasAsked)
    guard kept == targets.count else { throw RefusedError(summary) }
    context.standardOutput(summary + "\n")
  }
}
