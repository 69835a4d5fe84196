import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Capture
import Crypto
import FlowStore
import Foundation
import Record
import ReportPDF

enum RecordCommand {
  static let interface = OptionKey<String>(
    "interface", "interface", short: "i",
    "Capture this interface live with libpcap (as root): eth0, wlan0, a hotspot or bridge, wg0, lo, any."
  )
  static let read = OptionKey<PathArgument>(
    "read", "file", short: "r",
    "Read a pcap or pcapng file or stream instead; '-' is standard input (tcpdump -U -w - | …).")
  static let filter = OptionKey<String>(
    "filter", "bpf",
    "Keep only packets this BPF expression matches (as tcpdump's), e.g. 'host 192.168.4.2'.")
  static let snaplen = OptionKey<PositiveCount>(
    "snaplen", "bytes",
    "Bytes kept of each packet (default and most: \(PcapFormat.defaultSnaplen), all of an IP packet)."
  )
  static let duration = OptionKey<Double>(
    "duration", "seconds", "Stop after this many seconds (default: at Ctrl-C or the stream's end).")
  static let quiet = FlagKey("quiet", "No status line on standard error.")
  static let inspectionLog = OptionKey<PathArgument>(
    "inspection-log", "file",
    "Follow this mitmproxy log (tunnelvision mitmproxy-addon) as it grows: its outcomes become the connections'."
  )

  static var definition: CommandDefinition {
    CommandDefinition(
      name: "record",
      abstract:
        "Record traffic into the store as it happens: live from an interface, or a capture stream.",
      discussion:
        "Every connection is written as it opens and again as it goes; while an audit session is open (session start, in another terminal) what is written is tagged with it, and markers placed with 'mark' fall between its packets. Outside a session the traffic is kept as history, under the storage limits (--max-age, --max-size; evidence is exempt). One recorder runs per store. Stop it with Ctrl-C: what was read is written.",
      usage:
        "(--interface <interface> | --read <file>) [--filter <bpf>] [--device <address> ...] [--snaplen <bytes>] [--duration <seconds>] [--inspection-log <file>] [--max-age <age>] [--max-size <size>] [--quiet] [--json]",
      options: [
        interface.definition, read.definition, filter.definition, ImportCommand.device.definition,
        snaplen.definition, duration.definition, inspectionLog.definition,
      ] + StorageCommand.settingsOptions + [quiet.definition, ProjectCommands.json.definition],
      run: { parsed, context in try run(parsed, context) })
  }

  /// What the command line asks to record, checked before anything is opened.
  struct Arguments {
    var source: PacketSource
    var devices: [String]
    var snaplen: Int
    var seconds: Double?
    var retention: RetentionSettings
  }

  static func arguments(_ parsed: ParsedCommand) throws -> Arguments {
    let source: PacketSource
    switch (try parsed.value(interface), try parsed.value(read)) {
    case (let name?, nil): source = .interface(name)
    case (nil, let file?): source = .file(file.text)
    case (nil, nil):
      throw UsageError(
        message:
          "Say what to record: --interface <interface> or --read <file> ('-': standard input)",
        path: parsed.path)
    case (_?, _?):
      throw UsageError(
        message: "--interface and --read exclude each other: record one source at a time",
        path: parsed.path)
    }
    let devices = try parsed.values(ImportCommand.device).map(\.text)
    let snap = try parsed.value(snaplen)?.value ?? Int(PcapFormat.defaultSnaplen)
    guard snap <= Int(PcapFormat.defaultSnaplen) else {
      throw UsageError(
        message: "--snaplen is at most \(PcapFormat.defaultSnaplen) bytes", path: parsed.path)
    }
    let seconds = try parsed.value(duration)
    if let seconds, seconds <= 0 {
      throw UsageError(message: "--duration is a number of seconds above 0", path: parsed.path)
    }
    let retention = try StorageCommand.settings(parsed)
    if case .file(let path) = source, path != "-", CommandSupport.isDirectory(path) {
      throw RefusedError("\(path) is a directory; --read takes one capture file or '-'.")
    }
    return Arguments(
      source: source, devices: devices, snaplen: snap, seconds: seconds, retention: retention)
  }

  static func run(_ parsed: ParsedCommand, _ context: CommandContext) throws {
    let given = try arguments(parsed)
    let (source, devices, snap, seconds, retention) = (
      given.source, given.devices, given.snaplen, given.seconds, given.retention
    )
    // Ctrl-C and SIGTERM stop the recording from now on; what was read is written first.
    let stop = StopRequest()
    stop.takeSignals()
    defer { stop.release() }
    // The source first: an interface, a file or a filter that cannot be opened makes no store;
    // a stream whose header has not come when a stop is asked (or the duration ends) neither.
    let bpf = try parsed.value(filter)
    let opened: PacketCapture?
    do {
      opened = try PacketCapture.open(
        source, snaplen: Int32(snap), filter: bpf,
        until: seconds.map { context.now().addingTimeInterval($0) }, unless: stop)
    } catch {
      throw RefusedError(words(error, filter: bpf))
    }
    guard let capture = opened else {
      let end: RecordingEnd = stop.wasAsked ? .interrupted : .durationReached
      if parsed.json {
        return context.printJSON(
          .object(["end": .string(end.rawValue), "packets": .int(0), "store": .null]))
      }
      return context.standardOutput(RecordPresentation.nothingOpened(source.name, end: end))
    }
    let support = CommandSupport(parsed: parsed, context: context)
    let store = try support.openStore(creating: true, writing: true)
    // A write of another process (an import) may hold the store for a while: the recorder waits.
    store.setBusyTimeout(seconds: 600)
    let claim = RecorderClaim(
      processID: getpid(), sourceName: source.name, isLive: source.isLive, since: context.now())
    let lock = try lock(store, claim, context)
    defer { lock.release() }
    let logPath = try parsed.value(inspectionLog)?.text
    let recorder = Recorder(
      store: store, capture: capture, claim: claim,
      request: RecordingRequest(
        devices: devices, duration: seconds, retention: retention,
        inspectionLog: logPath.map { URL(fileURLWithPath: $0) }, filter: bpf))
    if let logPath, let state = recorder.inspectionLogState,
      let warning = InspectionLogWording.atStart(state, file: logPath)
    {
      context.standardError(warning + "\n")
    }

    recorder.trace = context.phaseTrace()
    stop.onStop { recorder.stop() }
    let showStatus = context.standardErrorIsTerminal && !parsed.flag(quiet)
    // What the store held before: what this run kept is the difference, whatever failed.
    let before = (flows: try store.historyFlowCount(), packets: try store.historyPacketCount())
    func kept() -> String {
      RecordPresentation.kept(
        packets: ((try? store.historyPacketCount()) ?? before.packets) - before.packets,
        connections: ((try? store.historyFlowCount()) ?? before.flows) - before.flows)
    }
    let end: RecordingEnd
    do {
      end = try recorder.run(now: context.now) { status in
        if showStatus {
          context.progress(RecordPresentation.statusLine(status, now: context.now()))
        }
      }
    } catch let error as PacketCaptureError {
      if showStatus { context.progress("") }
      throw RefusedError(
        words(error, filter: nil) + " " + RecordPresentation.keptSoFar(recorder.status))
    } catch let error as FlowStoreError {
      // The store refused a write (a full disk, most often): the transactions committed before
      // it are kept, and the sentence says how much they hold, counted in the store.
      if showStatus { context.progress("") }
      throw RefusedError(RecordPresentation.storeRefused(error) + " " + kept())
    } catch RecordingRefused.outOfOrder(let what) {
      if showStatus { context.progress("") }
      throw RefusedError("The stream is not in time order: \(what). " + kept())
    } catch let error as PcapWriter.WriterError {
      if showStatus { context.progress("") }
      throw RefusedError("\(error) " + kept())
    }
    if showStatus { context.progress("") }
    if parsed.json { return context.printJSON(RecordPresentation.json(recorder.status, end: end)) }
    context.standardOutput(
      RecordPresentation.summary(recorder.status, end: end, now: context.now()))
  }

  /// The store's recorder lock, or why another recorder holds it.
  static func lock(_ store: FlowStore, _ claim: RecorderClaim, _ context: CommandContext) throws
    -> RecorderLock
  {
    do { return try RecorderLock(storeDirectory: store.directory, claim: claim) } catch {
      switch error {
      case .held(let other):
        throw RefusedError(RecordPresentation.alreadyRecording(other, zone: context.timeZone))
      case .unavailable(let path, let errno):
        throw RefusedError(
          RecordPresentation.lockUnavailable(path: path, reason: errno.description))
      }
    }
  }

  static func words(_ error: PacketCaptureError, filter: String?) -> String {
    switch error.step {
    case .open:
      return RecordPresentation.cannotOpen(
        error.source.name, isLive: error.source.isLive, message: error.message)
    case .filter: return RecordPresentation.filterRefused(filter ?? "", message: error.message)
    case .read: return RecordPresentation.readFailed(error.source.name, message: error.message)
    }
  }
}
