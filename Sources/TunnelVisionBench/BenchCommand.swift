import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Bytes
import Capture
import Crypto
import Evidence
import FlowStore
import Foundation
import ReportModel
import ReportPDF
import Sample
import Synchronization
import SystemCalls
import TunnelVisionCLI

/// `tunnelvision-bench`: the reference workload, and each cost as a ratio to the machine's floor
/// measured in the same run. A program of its own beside `tunnelvision`, whose commands it times.
package enum BenchCommand {
  static let scale = OptionKey<Double>(
    "scale", "factor", "Scale the workload (default: 1; the tests run 0.005).")
  static let repeats = OptionKey<String>(
    "repeat", "count",
    "Measure the floor, each export, the report, verify, import and tshark this many times and show the median (default: 3)."
  )
  static let jsonOutput = OptionKey<PathArgument>(
    "json-output", "file", "Also write the figures as JSON to this file.")
  static let keep = FlagKey("keep", "Keep the temporary directory and say where it is.")
  static let month = FlagKey(
    "month",
    "Instead: an audit's day on a store holding a month of history (1,000,000 connections, 20,000,000 packets at scale 1) against one holding a hundredth of it."
  )

  package static var root: CommandDefinition {
    var definition = CommandDefinition(
      name: "tunnelvision-bench",
      abstract:
        "Measure export, report, verify, import and record on the reference workload, as ratios to this machine's floor.",
      discussion:
        "Builds the workload (20,000 flows, 400,000 packets, 229 MB of capture; and a tenth of it) with the sample generator in a temporary directory. The floor is reading the session's capture files once, hashing them with SHA-256 and writing them once. Exports, verify, import and record (the capture replayed through a pipe) run as child processes, so each peak resident memory is its own. What a second core is worth on the machine at the time (two threads' work against one's) is measured before and after, as the exports run on two threads.",
      options: [
        scale.definition, repeats.definition, month.definition, jsonOutput.definition,
        keep.definition, CommonKeys.json.definition,
      ],
      run: { parsed, context in
        let scale = try parsed.value(Self.scale) ?? 1
        guard scale > 0, scale <= 4 else {
          throw UsageError(message: "--scale takes a number above 0 and up to 4", path: parsed.path)
        }
        // Said as the range it takes, whatever the word: "three" as much as 21.
        let repeats = try parsed.value(Self.repeats).map { Int($0) ?? 0 } ?? 3
        guard (1...20).contains(repeats) else {
          throw UsageError(message: "--repeat takes a whole number from 1 to 20", path: parsed.path)
        }
        // A JSON file that could not be written is found out before minutes of measuring, not after.
        let jsonOutput = try parsed.value(Self.jsonOutput).map { try jsonDestination($0.text) }
        let bench = Bench(scale: scale, repeats: repeats, context: context)
        let json: JSONValue
        let table: String
        if parsed.flag(month) {
          let result = try bench.runMonth(keep: parsed.flag(keep))
          (json, table) = (result.json, result.table)
        } else {
          let result = try bench.run(keep: parsed.flag(keep))
          (json, table) = (result.json, result.table)
        }
        if parsed.json { context.printJSON(json) } else { context.standardOutput(table) }
        if let jsonOutput {
          do {
            try Data((json.serialized() + "\n").utf8).write(to: jsonOutput, options: .atomic)
          } catch {
            throw RefusedError(
              "The figures above could not be written to \(jsonOutput.path): \(SystemErrorText.reason(error))"
            )
          }
        }
      })
    // The floor is measured in this process, reading a mebibyte at a time into a new buffer:
    // mapped apart, each buffer would be fresh pages and the floor the slower for it. The
    // commands measured run as children, with their own setting.
    definition.mappedApartFrom = nil
    return definition
  }

  /// Where --json-output goes: a file in a directory that is there.
  static func jsonDestination(_ path: String) throws -> URL {
    guard !CommandSupport.isDirectory(path) else {
      throw RefusedError("\(path) is a directory; --json-output takes a file's name.")
    }
    let url = URL(fileURLWithPath: path)
    let directory = url.deletingLastPathComponent().path
    guard CommandSupport.isDirectory(directory) else {
      throw RefusedError(
        "The directory \(directory) for --json-output is not there; nothing was measured.")
    }
    return url
  }
}

struct Bench {
  let scale: Double
  /// How many times the floor, each export and the report are measured; the median is kept.
  var repeats = 3
  let context: CommandContext

  init(scale: Double, repeats: Int = 3, context: CommandContext) {
    self.scale = scale
    self.repeats = repeats
    self.context = context
  }

  /// The run of median time, of `repeats` runs.
  func median<T>(by time: (T) -> Double, _ measure: () throws -> T) rethrows -> T {
    var runs: [T] = []
    for _ in 0..<repeats { runs.append(try measure()) }
    return runs.sorted { time($0) < time($1) }[runs.count / 2]
  }

  func median(_ measure: () throws -> Run) rethrows -> Run { try median(by: \.wall, measure) }

  struct Run {
    var wall: Double
    var cpu: Double
    var peakMB: Double
    var status: Int32
    /// The phases `TUNNELVISION_TRACE=1` had the command say, in order, with their seconds.
    var phases: [(name: String, seconds: Double)] = []

    /// Its figures as the bench's JSON states a run; its phases when it was traced.
    var json: JSONValue {
      var members: [String: JSONValue] = [
        "wallSeconds": .double(wall), "cpuSeconds": .double(cpu), "peakMegabytes": .double(peakMB),
      ]
      if !phases.isEmpty {
        members["phases"] = .array(
          phases.map { .object(["name": .string($0.name), "seconds": .double($0.seconds)]) })
      }
      return .object(members)
    }
  }

  /// The sample's 2.4.0 session, which both workloads measure, and its capture files still there.
  static func sampleSession(in store: FlowStore) throws -> (session: AuditSession, files: [URL]) {
    let project = try store.auditProjects().first { $0.name == SampleScenario.projectName }!
    let session = try store.auditSessions(forProject: project.id).first {
      $0.kind.release?.version == "2.4.0"
    }!
    let library = CaptureLibrary(directory: store.capturesDirectory)
    let files = try store.captureFileSequences(inAuditSession: session.id).sorted().map {
      library.url(sequence: $0)
    }.filter { FileManager.default.fileExists(atPath: $0.path) }
    return (session, files)
  }

  /// The phases of a trace on standard error: "  0.353 s  read the capture …  (resident …)".
  static func phases(_ text: String) -> [(name: String, seconds: Double)] {
    text.split(separator: "\n").compactMap { line in
      let fields = line.drop { $0 == " " }
      guard let space = fields.firstIndex(of: " "), let seconds = Double(fields[..<space]),
        fields[space...].hasPrefix(" s  ")
      else { return nil }
      var name = String(fields[fields.index(space, offsetBy: 4)...])
      if let memory = name.range(of: "  (resident") { name = String(name[..<memory.lowerBound]) }
      return (name, seconds)
    }
  }
  struct Workload {
    var label: String
    var flows: Int, packets: Int, captureBytes: Int
    /// The workload's size against the reference workload's.
    var scaleFactor: Double
    var generate: Double = 0
    var floor: Double = 0
    var exportBundle: Run? = nil, exportReport: Run? = nil, verify: Run? = nil,
      importRun: Run? = nil, recordRun: Run? = nil, flowsPage: Run? = nil
    /// The merged capture's bytes, and the packets import and record kept of it.
    var mergedBytes: UInt64 = 0, importedPackets = 0, recordedFromPipe = 0
    var tshark: Double? = nil
    var archiveBytes: UInt64 = 0, archiveWithReport: UInt64 = 0
    var layout: Double = 0, drawing: Double = 0, pages = 0
    var findings = 0, recorded = 0, captureFiles = 0
    var matching: MatchingBench.Figures? = nil
  }

  /// The `tunnelvision` it measures: the one built beside this program.
  var executable: String {
    let own =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: own).deletingLastPathComponent().appendingPathComponent(
      "tunnelvision"
    ).path
  }

  func note(_ text: String) { context.standardError(text + "\n") }

  /// A temporary directory for the run, removed after it unless kept.
  func withRoot<T>(keep: Bool, _ body: (URL) throws -> T) throws -> T {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tunnelvision-bench-\(getpid())")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    defer {
      if !keep { try? FileManager.default.removeItem(at: root) } else { note("Kept \(root.path)") }
    }
    return try body(root)
  }

  func runMonth(keep: Bool) throws -> MonthResult {
    try withRoot(keep: keep) { root in
      MonthResult(scale: scale, stores: try MonthBench(bench: self).run(in: root))
    }
  }

  func run(keep: Bool) throws -> BenchResult {
    try withRoot(keep: keep) { try run(in: $0) }
  }

  func run(in root: URL) throws -> BenchResult {
    var workloads: [Workload] = []
    note("[machine] two threads at once against one")
    let coresBefore = coresAtOnce()
    for (label, factor) in [("tenth", 0.1 * scale), ("full", scale)] {
      let flows = max(40, Int(20_000 * factor))
      let packets = max(800, Int(400_000 * factor))
      let bytes = max(400_000, Int(229_000_000 * factor))
      workloads.append(
        try measure(
          Workload(
            label: label, flows: flows, packets: packets, captureBytes: bytes, scaleFactor: factor),
          in: root.appendingPathComponent(label)))
    }
    note("[machine] two threads at once against one, again")
    return BenchResult(
      workloads: workloads, scale: scale, repeats: repeats,
      coresAtOnce: (coresBefore, coresAtOnce()))
  }

  /// How much work two threads do at once against one alone (2: two whole cores; 1: the second
  /// gives nothing): each runs the same integer arithmetic, one thread, then two at once. The
  /// exports run on two threads, so their figures move with this.
  func coresAtOnce() -> Double {
    func seconds(_ work: () -> Void) -> Double {
      let start = Date()
      work()
      return Date().timeIntervalSince(start)
    }
    // A tenth as long for the test suite's tiny workloads (which run a debug build).
    let rounds = Int(200_000_000 * min(1, max(0.1, scale * 20)))
    let one = median(by: \.self) { seconds { Self.spin(rounds) } }
    let two = median(by: \.self) {
      seconds { DispatchQueue.concurrentPerform(iterations: 2) { _ in Self.spin(rounds) } }
    }
    return 2 * one / max(two, 1e-9)
  }

  /// A xorshift generator stepped `rounds` times (200 million: about 0.1 s of a core); the result
  /// is kept so that it is computed.
  @inline(never) static func spin(_ rounds: Int) {
    var x: UInt64 = 0x9E37_79B9_7F4A_7C15
    for _ in 0..<rounds {
      x ^= x << 13
      x ^= x >> 7
      x ^= x << 17
    }
    spun.withLock { $0 &+= x }
  }
  static let spun = Mutex<UInt64>(0)

  func measure(_ initial: Workload, in dir: URL) throws -> Workload {
    var w = initial
    let store = dir.appendingPathComponent("store")
    note(
      "[\(w.label)] writing the workload: \(w.flows) flows, \(w.packets) packets, \(w.captureBytes) capture bytes"
    )
    let start = Date()
    _ = try SampleWriter.write(
      SampleScenario.plan(
        SampleOptions(flows: w.flows, packets: w.packets, captureBytes: w.captureBytes)), to: store)
    w.generate = Date().timeIntervalSince(start)
    let flowStore = try FlowStore(directory: store)
    let (session, files) = try Self.sampleSession(in: flowStore)
    w.captureFiles = files.count
    // The floor: read, hash, write each capture file once.
    note("[\(w.label)] the floor: reading, hashing and writing \(files.count) capture files")
    w.floor = try measureFloor(files, in: dir)
    let at = "2026-10-07T09:00:00Z"
    note("[\(w.label)] exporting without the report")
    let plain = dir.appendingPathComponent("plain.zip")
    let full = dir.appendingPathComponent("full.zip")
    // Each export writes a new file, as the floor does: replacing the last run's 270 MB archive
    // would have each run but the first pay some 0.1 s for the kernel letting go of it.
    w.exportBundle = try median {
      try? FileManager.default.removeItem(at: plain)
      return try child(
        [
          "--store", store.path, "export", "\(session.id)", "--no-report", "--at", at, "-o",
          plain.path, "--json",
        ], traced: true)
    }
    w.archiveBytes = size(plain)
    note("[\(w.label)] exporting with the report")
    w.exportReport = try median {
      try? FileManager.default.removeItem(at: full)
      return try child(
        [
          "--store", store.path, "export", "\(session.id)", "--at", at, "-o", full.path, "--json",
        ], traced: true)
    }
    w.archiveWithReport = size(full)
    note("[\(w.label)] the report alone")
    // Laid out and drawn on one core with nothing else running: what the report itself costs
    // (in an export the layout shares the machine with the capture's slicing).
    let exporter = EvidenceExporter(
      store: flowStore, temporaryDirectory: dir.appendingPathComponent("tmp"))
    let (held, _) = try exporter.bundle(
      sessionID: session.id, exportedWith: "bench", now: Date(timeIntervalSince1970: 1_791_370_800))
    let counted = try EvidenceCaptureWriter.count(
      for: held, from: flowStore, captureDirectory: flowStore.capturesDirectory)
    let timing = try median(by: \.total) {
      try EvidenceReportRenderer.render(
        held, counted.summary, citing: EvidenceReportDigest.placeholders, into: dir)
    }
    w.layout = timing.layout
    w.drawing = timing.drawing
    w.pages = timing.pages
    let (bundle, _) = try exporter.bundle(sessionID: session.id, exportedWith: "bench", now: Date())
    w.findings = bundle.findings.count
    w.recorded = try flowStore.packetCounts(inAuditSession: session.id).reduce(0) {
      $0 + $1.packets
    }
    note("[\(w.label)] verifying the archive")
    w.verify = try median { try child(["verify", full.path, "--json"], traced: true) }
    try measureImportAndRecord(&w, files, in: dir)
    let exchanges = max(100, Int(20_000 * w.scaleFactor))
    note("[\(w.label)] matching \(exchanges) exchanges' bodies for twenty values, then for one")
    w.matching = MatchingBench.measure(
      exchanges: exchanges, bodyBytes: max(1_000_000, Int(200_000_000 * w.scaleFactor)))
    return w
  }

  /// The floor: each capture file read, hashed and written once, as a new file.
  func measureFloor(_ files: [URL], in dir: URL) throws -> Double {
    try median {
      sync()
      let start = Date()
      let copy = dir.appendingPathComponent("floor.bin")
      let out = try EvidenceFileWriter(url: copy)
      for file in files {
        let handle = try FileHandle(forReadingFrom: file)
        while let data = try handle.read(upToCount: 1 << 20), !data.isEmpty { try out.write(data) }
        try handle.close()
      }
      _ = try out.finish()
      let wall = Date().timeIntervalSince(start)
      try? FileManager.default.removeItem(at: copy)
      return Run(wall: wall, cpu: 0, peakMB: 0, status: 0)
    }.wall
  }

  /// Import: the session's captures as one pcap, beside tshark reading it; the first page of
  /// `flows` of the imported history; and the same file recorded from a pipe.
  func measureImportAndRecord(_ w: inout Workload, _ files: [URL], in dir: URL) throws {
    let merged = dir.appendingPathComponent("workload.pcap")
    try merge(files, into: merged)
    note("[\(w.label)] importing \(size(merged)) bytes")
    let importStore = dir.appendingPathComponent("import-store")
    // Each import into a store of its own: a second one would meet the first one's history.
    w.importRun = try median {
      try? FileManager.default.removeItem(at: importStore)
      _ = try child(["--store", importStore.path, "project", "new", "Bench"])
      return try child(
        [
          "--store", importStore.path, "import", merged.path, "--project", "Bench", "--baseline",
          "--json",
        ], traced: true)
    }
    w.mergedBytes = size(merged)
    // The Timeline's first page of the imported history (its 20,000 flows, the activity line).
    note("[\(w.label)] the first page of 'flows'")
    w.flowsPage = try median { try child(["--store", importStore.path, "flows"]) }
    w.importedPackets = try FlowStore(directory: importStore, reading: true).historyPacketCount()
    // Record: the same file replayed through a pipe, as `tcpdump -U -w - | tunnelvision record
    // --read -` gives it; the shell's peak is the larger of its children's (the recorder's).
    note("[\(w.label)] recording it from a pipe")
    let recordStore = dir.appendingPathComponent("record-store")
    w.recordRun = try child(
      [
        "-c", "cat \"$1\" | \"$0\" --store \"$2\" record --read - --quiet --json >/dev/null",
        executable, merged.path, recordStore.path,
      ], program: "/bin/sh", traced: true)
    if w.recordRun?.status != 0 {
      throw RefusedError(
        "The benchmark's step 'record --read -' failed (exit \(w.recordRun?.status ?? -1)).")
    }
    w.recordedFromPipe = try FlowStore(directory: recordStore, reading: true).historyPacketCount()
    if ExternalToolPath.find("tshark") != nil {
      note("[\(w.label)] tshark reading the same file")
      w.tshark = try median {
        try child(
          ["-r", merged.path, "-T", "fields", "-e", "tls.handshake.extensions_server_name"],
          program: ExternalToolPath.find("tshark")!)
      }.wall
    }
    try? FileManager.default.removeItem(at: merged)
  }

  func size(_ url: URL) -> UInt64 {
    (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)??.uint64Value
      ?? 0
  }

  /// The store's pcap files as one capture as a recorder writes it: the first header, then every
  /// complete record of each file (a file whose last record was cut short gives the records
  /// before it), in time order (the sample writes a flow's packets together, so its files are not).
  /// `startingAt`: the records moved in time, whole seconds, so that the first is then.
  func merge(_ files: [URL], into url: URL, startingAt start: Date? = nil) throws {
    let out = try EvidenceFileWriter(url: url)
    let contents = try files.map { try Data(contentsOf: $0, options: .alwaysMapped) }
    var records: [(micros: UInt64, file: Int, range: Range<Int>)] = []
    if let first = contents.first(where: { $0.count >= PcapFormat.globalHeaderLength }) {
      try out.write(first.prefix(PcapFormat.globalHeaderLength))
    }
    for (i, data) in contents.enumerated() where data.count >= PcapFormat.globalHeaderLength {
      var at = PcapFormat.globalHeaderLength
      // The records are the bench's own, written little-endian.
      while let seconds = data.integer(at: at, endianness: .little, as: UInt32.self),
        let micros = data.integer(at: at + 4, endianness: .little, as: UInt32.self),
        let included = data.integer(at: at + 8, endianness: .little, as: UInt32.self),
        at + PcapFormat.recordHeaderLength + Int(included) <= data.count
      {
        let end = at + PcapFormat.recordHeaderLength + Int(included)
        records.append((UInt64(seconds) * 1_000_000 + UInt64(micros), i, at..<end))
        at = end
      }
    }
    records.sort {
      ($0.micros, $0.file, $0.range.lowerBound) < ($1.micros, $1.file, $1.range.lowerBound)
    }
    let shift =
      start.flatMap { start in
        records.first.map {
          UInt32(max(0, Int(start.timeIntervalSince1970) - Int($0.micros / 1_000_000)))
        }
      } ?? 0
    for record in records {
      let slice = contents[record.file][record.range]
      guard shift > 0 else {
        try out.write(slice)
        continue
      }
      var bytes = Data(slice)
      let seconds = bytes.integer(at: 0, endianness: .little, as: UInt32.self)! &+ shift
      bytes.withUnsafeMutableBytes { $0.storeInteger(seconds, at: 0, endianness: .little) }
      try out.write(bytes)
    }
    _ = try out.finish()
  }

  /// Runs a child process to its end: wall time, CPU time and peak resident memory of its own.
  /// The child runs under GNU time, which forks it from a small process: a child spawned straight
  /// from this one would inherit this process's high-water mark across exec (Linux keeps the
  /// larger of the two), and its peak would be ours.
  func child(_ arguments: [String], program: String? = nil, traced: Bool = false) throws -> Run {
    // Each step starts with the page cache's dirty pages on disk, as the floor does: otherwise a
    // step pays for flushing what the one before it wrote.
    sync()
    guard
      let time = ExternalToolPath.find("time")
        ?? (FileManager.default.isExecutableFile(atPath: "/usr/bin/time") ? "/usr/bin/time" : nil)
    else {
      return try spawn(arguments, program: program, traced: traced)
    }
    let report = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bench-time-\(getpid())-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: report) }
    var run = try spawn(
      ["-f", "%e %U %S %M %x", "-o", report.path, program ?? executable] + arguments, program: time,
      checked: false, traced: traced)
    let fields = ((try? String(contentsOf: report, encoding: .utf8)) ?? "").split(whereSeparator: {
      $0 == " " || $0 == "\n"
    }).compactMap { Double($0) }
    guard fields.count >= 5 else {
      throw RefusedError(
        "The benchmark could not read GNU time's figures for \(arguments.first ?? "a step").")
    }
    let exit = Int32(fields[4])
    if exit != 0 && program == nil {
      throw RefusedError(
        "The benchmark's step 'tunnelvision \(arguments.joined(separator: " "))' failed (exit \(exit))."
      )
    }
    run.cpu = fields[1] + fields[2]
    run.peakMB = fields[3] / 1024
    run.status = exit
    return run
  }

  /// `traced`: the child runs with TUNNELVISION_TRACE=1 and its phases are read from its
  /// standard error.
  func spawn(
    _ arguments: [String], program: String? = nil, checked: Bool = true, traced: Bool = false
  )
    throws -> Run
  {
    let path = program ?? executable
    var pid: pid_t = 0
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    let errors = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bench-trace-\(getpid())-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: errors) }
    posix_spawn_file_actions_addopen(
      &actions, 2, traced ? errors.path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    defer { posix_spawn_file_actions_destroy(&actions) }
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var environment = ProcessInfo.processInfo.environment.filter { $0.key != "TUNNELVISION_TRACE" }
    if traced { environment["TUNNELVISION_TRACE"] = "1" }
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in envp { free(pointer) } }
    let start = Date()
    let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
    guard spawned == 0 else {
      throw RefusedError(
        "The benchmark could not start \(path): \(Errno(rawValue: spawned)).")
    }
    var status: Int32 = 0
    var usage = rusage()
    _ = wait4(pid, &status, 0, &usage)
    let wall = Date().timeIntervalSince(start)
    let cpu =
      Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
      + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    let exit = (status >> 8) & 0xff
    if checked && exit != 0 && program == nil {
      throw RefusedError(
        "The benchmark's step 'tunnelvision \(arguments.joined(separator: " "))' failed (exit \(exit))."
      )
    }
    let trace = traced ? (try? String(contentsOf: errors, encoding: .utf8)) ?? "" : ""
    return Run(
      wall: wall, cpu: cpu, peakMB: Double(usage.ru_maxrss) / 1024, status: exit,
      phases: Self.phases(trace))
  }
}

struct BenchResult {
  let workloads: [Bench.Workload]
  let scale: Double
  var repeats = 1
  /// Two threads' work against one thread's, before the workloads and after them.
  var coresAtOnce: (before: Double, after: Double) = (0, 0)

  static func f(_ value: Double, _ digits: Int = 2) -> String {
    String(format: "%.\(digits)f", value)
  }

  static func aligned(_ rows: [[String]]) -> String {
    TextColumns().lines(rows).map { $0 + "\n" }.joined()
  }

  var table: String {
    var out =
      "TunnelVision Evidence benchmark (scale \(scale)); ratios are to the floor of the same workload, measured in this run"
    out +=
      repeats > 1
      ? "; the floor, the exports, the report, verify, import and tshark are the median of \(repeats) runs\n\n"
      : "\n\n"
    out += Self.aligned(
      [["workload", "flows", "packets", "capture MB", "files", "findings", "pages"]]
        + workloads.map { w in
          [
            w.label, "\(w.flows)", "\(w.packets)", Self.f(Double(w.captureBytes) / 1e6, 1),
            "\(w.captureFiles)", "\(w.findings)", "\(w.pages)",
          ]
        })
    var steps: [[String]] = [["step", "workload", "wall s", "cpu s", "peak MB", "ratio"]]
    var notes: [[String]] = []
    for w in workloads {
      func row(_ name: String, _ run: Bench.Run?, _ extra: String = "") {
        guard let run else { return }
        steps.append([
          name, w.label, Self.f(run.wall), Self.f(run.cpu), Self.f(run.peakMB, 1),
          "\(Self.f(run.wall / max(w.floor, 1e-6)))×floor" + extra,
        ])
      }
      steps.append(["floor (read+hash+write)", w.label, Self.f(w.floor), "—", "—", "1.00"])
      row("export, no report", w.exportBundle)
      row("export with report", w.exportReport)
      row("verify", w.verify)
      if let run = w.importRun {
        row(
          "import", run,
          w.tshark.map { "  \(Self.f(run.wall / max($0, 1e-6)))×tshark (tshark \(Self.f($0)) s)" }
            ?? "  (tshark not installed)")
      }
      row("flows, first page", w.flowsPage, "  of \(w.flows) connections")
      if let run = w.recordRun {
        row(
          "record from a pipe", run,
          "  \(Self.f(Double(w.mergedBytes) / 1e6 / max(run.wall, 1e-6), 0)) MB/s, \(w.importedPackets - w.recordedFromPipe) packets lost"
        )
      }
      notes.append([
        "report layout / drawing", w.label,
        "\(Self.f(w.layout)) / \(Self.f(w.drawing)) s, \(w.pages) pages, \(Self.f(Double(w.pages) / max(w.layout + w.drawing, 1e-6), 0)) pages/s, Cairo's numbers formatted by \(EvidenceReportPDF.numbersFormattedHere ? "CFixedPoint" : "glibc")",
      ])
      if let m = w.matching {
        notes.append([
          "content matching", w.label,
          "\(m.exchanges) exchanges, \(Self.f(Double(m.bodyBytes) / 1e6, 0)) MB of bodies: \(Self.f(m.megabytesPerSecond, 0)) MB/s for 20 values (\(m.patterns.twenty) patterns, \(Self.f(m.seconds.twenty)) s), \(Self.f(m.ratio))× the time for 1 (\(m.patterns.one) patterns, \(Self.f(m.seconds.one)) s)",
        ])
      }
      notes.append([
        "archive", w.label,
        "\(w.archiveBytes) bytes without the report, \(w.archiveWithReport) with it",
      ])
    }
    notes.append([
      "two cores at once", "machine",
      "\(Self.f(coresAtOnce.before))× one core's work before the workloads, \(Self.f(coresAtOnce.after))× after (2.00: two whole cores)",
    ])
    out += "\n" + Self.aligned(steps) + "\n" + Self.aligned(notes)
    if let w = workloads.last {
      var phases: [[String]] = [["phase (TUNNELVISION_TRACE=1)", "workload", "s", "share"]]
      for (name, run) in [
        ("export, no report", w.exportBundle), ("export with report", w.exportReport),
        ("verify", w.verify), ("import", w.importRun), ("record from a pipe", w.recordRun),
      ] {
        guard let run, !run.phases.isEmpty else { continue }
        phases.append([name, w.label, Self.f(run.wall), "100 %"])
        for phase in run.phases {
          phases.append([
            "  " + phase.name, "", Self.f(phase.seconds),
            "\(Self.f(100 * phase.seconds / max(run.wall, 1e-6), 0)) %",
          ])
        }
      }
      if phases.count > 1 { out += "\n" + Self.aligned(phases) }
    }
    return out
  }

  var json: JSONValue {
    func run(_ r: Bench.Run?) -> JSONValue { r?.json ?? .null }
    return .object([
      "scale": .double(scale), "repeats": .int(repeats),
      "coresAtOnce": .object([
        "before": .double(coresAtOnce.before), "after": .double(coresAtOnce.after),
      ]),
      "workloads": .array(
        workloads.map { w in
          .object([
            "label": .string(w.label), "flows": .int(w.flows), "packets": .int(w.packets),
            "captureBytes": .int(w.captureBytes),
            "captureFiles": .int(w.captureFiles), "findings": .int(w.findings),
            "recordedPackets": .int(w.recorded),
            "generateSeconds": .double(w.generate), "floorSeconds": .double(w.floor),
            "exportWithoutReport": run(w.exportBundle), "exportWithReport": run(w.exportReport),
            "verify": run(w.verify),
            "import": run(w.importRun), "tsharkSeconds": w.tshark.map(JSONValue.double) ?? .null,
            "exportWithReportOverFloor": .double((w.exportReport?.wall ?? 0) / max(w.floor, 1e-6)),
            "recordFromPipe": run(w.recordRun), "flowsFirstPage": run(w.flowsPage),
            "recordMegabytesPerSecond": .double(
              Double(w.mergedBytes) / 1e6 / max(w.recordRun?.wall ?? 0, 1e-6)),
            "recordPacketsLost": .int(w.importedPackets - w.recordedFromPipe),
            "importOverTshark": w.tshark.map { .double((w.importRun?.wall ?? 0) / max($0, 1e-6)) }
              ?? .null,
            "report": .object([
              "pages": .int(w.pages), "layoutSeconds": .double(w.layout),
              "drawingSeconds": .double(w.drawing),
              "pagesPerSecond": .double(Double(w.pages) / max(w.layout + w.drawing, 1e-6)),
              "numbersFormattedHere": .bool(EvidenceReportPDF.numbersFormattedHere),
            ]),
            "matching": w.matching.map { m in
              .object([
                "exchanges": .int(m.exchanges), "bodyBytes": .int(m.bodyBytes),
                "patterns": .object([
                  "twenty": .int(m.patterns.twenty), "one": .int(m.patterns.one),
                ]),
                "seconds": .object([
                  "twenty": .double(m.seconds.twenty), "one": .double(m.seconds.one),
                ]),
                "matches": .object(["twenty": .int(m.matches.twenty), "one": .int(m.matches.one)]),
                "megabytesPerSecond": .double(m.megabytesPerSecond),
                "twentyOverOne": .double(m.ratio),
              ])
            } ?? .null,
            "archiveBytes": .int(w.archiveBytes),
            "archiveWithReportBytes": .int(w.archiveWithReport),
          ])
        }),
    ])
  }
}
