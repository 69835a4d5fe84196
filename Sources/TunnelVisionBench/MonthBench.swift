import Audit
import FlowStore
import Foundation
import Sample
import TunnelVisionCLI

/// `--month`: an audit's day on a store beside a month of recorded history, and the same day on
/// a store with a hundredth of it. Each step is timed on both; what does not grow with the
/// history takes about as long on either.
struct MonthBench {
  let bench: Bench
  /// The month's history at scale 1: a million connections of twenty packets over 30 days.
  static let connections = 1_000_000
  static let days = 30

  struct Store {
    var label: String
    var connections: Int, packets: Int
    var generateSeconds: Double = 0
    var steps: [(step: Step, run: Bench.Run)] = []
    /// Connections `storage enforce` pruned, by step.
    var pruned: [Step: Int] = [:]
    var recordedBytes: UInt64 = 0
  }

  enum Step: String, CaseIterable {
    case sessionStart = "session start"
    case record = "record from a pipe (its pass prunes the hour past 30d)"
    case sessionEnd = "session end"
    case flows = "flows, first page"
    case findings = "findings of the session"
    case export = "export of the session, with report"
    case enforce = "storage enforce --max-age 2w"
    case enforceAgain = "storage enforce again (nothing due)"
  }

  func run(in root: URL) throws -> [Store] {
    let month = max(1_000, Int(Double(Self.connections) * bench.scale))
    // The history ends an hour before now: the recorder's pass (30d) finds an hour past its limit.
    let end = Date().addingTimeInterval(-3_600)
    return try [("small", month / 100), ("month", month)].map { label, connections in
      try measure(label: label, connections: connections, end: end, in: root)
    }
  }

  func measure(label: String, connections: Int, end: Date, in root: URL) throws -> Store {
    let dir = root.appendingPathComponent("month-\(label)")
    let store = dir.appendingPathComponent("store")
    let plan = SampleHistoryPlan(connections: connections, end: end, days: Self.days)
    var figures = Store(
      label: label, connections: connections, packets: connections * plan.packetsPerConnection)
    bench.note(
      "[\(label)] writing the sample and \(connections) history connections over \(Self.days) days")
    let started = Date()
    // The session recorded below is the sample's, at a fiftieth of the reference workload.
    let sampleFlows = max(40, Int(400 * min(1, bench.scale * 20)))
    _ = try SampleWriter.write(
      SampleScenario.plan(
        SampleOptions(
          flows: sampleFlows, packets: sampleFlows * 20, captureBytes: sampleFlows * 11_450)
      ), to: store)
    let flowStore = try FlowStore(directory: store)
    try SampleHistory.grow(flowStore, plan)
    try flowStore.checkpoint()
    figures.generateSeconds = Date().timeIntervalSince(started)
    let capture = dir.appendingPathComponent("session.pcap")
    try bench.merge(try Bench.sampleSession(in: flowStore).files, into: capture, startingAt: Date())
    figures.recordedBytes = bench.size(capture)
    let cli = ["--store", store.path]
    func step(_ step: Step, _ arguments: [String], program: String? = nil) throws {
      bench.note("[\(label)] \(step.rawValue)")
      let run = try bench.child(arguments, program: program)
      if run.status != 0 {
        throw RefusedError("The benchmark's step '\(step.rawValue)' failed (exit \(run.status)).")
      }
      figures.steps.append((step, run))
    }
    try step(
      .sessionStart,
      cli + ["session", "start", SampleScenario.projectName, "--version", "9.9", "--build", "1"])
    let session = try openSession(store)
    try step(
      .record,
      [
        "-c",
        "cat \"$1\" | \"$0\" --store \"$2\" record --read - --max-age 30d --quiet >/dev/null",
        bench.executable, capture.path, store.path,
      ], program: "/bin/sh")
    try step(.sessionEnd, cli + ["session", "end"])
    try step(.flows, cli + ["flows"])
    try step(.findings, cli + ["findings", "\(session)"])
    try step(
      .export,
      cli + [
        "export", "\(session)", "--at", "2026-12-01T09:00:00Z", "-o",
        dir.appendingPathComponent("session.zip").path,
      ])
    for enforce in [Step.enforce, .enforceAgain] {
      let before = try FlowStore(directory: store, reading: true).historyFlowCount()
      try step(enforce, cli + ["storage", "enforce", "--max-age", "2w", "--max-size", "unlimited"])
      figures.pruned[enforce] =
        before - (try FlowStore(directory: store, reading: true).historyFlowCount())
    }
    return figures
  }

  /// The open session's id, which `session start` just made.
  func openSession(_ store: URL) throws -> Int64 {
    guard let open = try FlowStore(directory: store, reading: true).openAuditSession() else {
      throw RefusedError("The benchmark's step 'session start' left no session open.")
    }
    return open.id
  }
}

struct MonthResult {
  let scale: Double
  let stores: [MonthBench.Store]

  func run(_ step: MonthBench.Step, in store: MonthBench.Store) -> Bench.Run? {
    store.steps.first { $0.step == step }?.run
  }

  /// Wall time per connection pruned, in microseconds; nil when none was.
  func perPruned(_ step: MonthBench.Step, in store: MonthBench.Store) -> Double? {
    guard let pruned = store.pruned[step], pruned > 0, let run = run(step, in: store) else {
      return nil
    }
    return run.wall / Double(pruned) * 1e6
  }

  var table: String {
    func f(_ value: Double, _ digits: Int = 2) -> String { BenchResult.f(value, digits) }
    var out =
      "TunnelVision Evidence benchmark, --month (scale \(scale)): an audit's day beside \(MonthBench.days) days of history, and beside a hundredth of it\n\n"
    out += BenchResult.aligned(
      [["store", "history connections", "packets", "written in s", "session capture MB"]]
        + stores.map {
          [
            $0.label, "\($0.connections)", "\($0.packets)", f($0.generateSeconds, 1),
            f(Double($0.recordedBytes) / 1e6, 1),
          ]
        })
    guard let small = stores.first, let month = stores.last else { return out }
    var rows = [["step", "small s", "month s", "month/small", "month peak MB"]]
    for step in MonthBench.Step.allCases {
      guard let a = run(step, in: small), let b = run(step, in: month) else { continue }
      rows.append([
        step.rawValue, f(a.wall), f(b.wall), "\(f(b.wall / max(a.wall, 1e-6)))×", f(b.peakMB, 1),
      ])
    }
    out += "\n" + BenchResult.aligned(rows)
    for step in [MonthBench.Step.enforce, .enforceAgain] {
      let each = [small, month].map { store in
        "\(store.label) \(store.pruned[step] ?? 0)"
          + (perPruned(step, in: store).map { " (\(f($0, 1)) µs each)" } ?? "")
      }
      out += "\(step.rawValue): connections pruned, \(each.joined(separator: "; "))\n"
    }
    return out
  }

  var json: JSONValue {
    return .object([
      "scale": .double(scale), "days": .int(MonthBench.days),
      "stores": .array(
        stores.map { store in
          .object([
            "label": .string(store.label), "connections": .int(store.connections),
            "packets": .int(store.packets), "generateSeconds": .double(store.generateSeconds),
            "sessionCaptureBytes": .int(Int(store.recordedBytes)),
            "steps": .array(
              store.steps.map { step, r in
                .object([
                  "step": .string(step.rawValue), "run": r.json,
                  "prunedConnections": store.pruned[step].map(JSONValue.int) ?? .null,
                ])
              }),
          ])
        }),
    ])
  }
}
