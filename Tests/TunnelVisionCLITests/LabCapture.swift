import Foundation
import Record
import TestSupport
import XCTest

/// A capture a test starts — tcpdump writing a file, or the recorder writing a store — once it is
/// open, and ended once the files hold the end of every connection the test made.
struct LabCapture {
  let process: RunningProcess
  /// The pcap files it writes, as they are now.
  let files: () -> [String]
  /// Whether it is tcpdump, which says at its end how many packets the kernel dropped.
  var isTcpdump = false

  /// tcpdump on `interface`, in `namespace` (else here), writing packets as they come.
  static func tcpdump(
    in namespace: NetworkNamespace?, interface: String = "lo", to path: String, filter: String
  ) throws -> LabCapture {
    // A loopback frame takes a 64 KiB slot of the kernel's ring: libpcap's default 2 MiB holds
    // about 30 of them, which a loaded machine overruns (the recorder's own 32 MiB, here too).
    let arguments = [
      "tcpdump", "-i", interface, "-U", "--immediate-mode", "-B", "32768", "-n", "-w", path,
      filter,
    ]
    let process =
      try namespace?.start(arguments)
      ?? RunningProcess(try XCTUnwrap(ExternalTool.which("tcpdump")), Array(arguments.dropFirst()))
    try process.waitForOutput(containing: "listening on")
    return LabCapture(process: process, files: { [path] }, isTcpdump: true)
  }

  /// `tunnelvision record ARGUMENTS --store STORE`, in `namespace` (else here), once it holds the
  /// store's recorder lock: its capture is open by then. Its files are the capture files it
  /// makes, not those the store held before.
  static func recorder(
    in namespace: NetworkNamespace?, binary: URL, _ arguments: [String], store: String
  ) throws -> LabCapture {
    let captures = store + "/captures"
    let before = Set((try? FileManager.default.contentsOfDirectory(atPath: captures)) ?? [])
    let all = [binary.path, "record"] + arguments + ["--store", store]
    let process =
      try namespace?.start(all) ?? RunningProcess(binary.path, Array(all.dropFirst()))
    let directory = URL(fileURLWithPath: store)
    try Readiness.wait("the recorder holding its lock") {
      guard process.process.isRunning else {
        throw Readiness.NotReady(
          description: "the recorder ended before it started: \(process.outputSoFar.error)")
      }
      return RecorderLock.running(storeDirectory: directory) != nil
    }
    return LabCapture(
      process: process,
      files: {
        ((try? FileManager.default.contentsOfDirectory(atPath: captures)) ?? []).filter {
          !before.contains($0)
        }.sorted().map { captures + "/" + $0 }
      })
  }

  /// Ends it with SIGINT once its files hold `connections` TCP connections, each closed, and
  /// `datagrams` UDP datagrams; fails when tcpdump says the kernel dropped packets.
  @discardableResult
  func end(afterClosing connections: Int, datagrams: Int = 0) throws -> (
    status: Int32, output: String, error: String
  ) {
    do {
      try Readiness.waitForClosedConnections(connections, datagrams: datagrams, in: files)
    } catch {
      let ended = process.end(SIGINT)
      throw Readiness.NotReady(description: "\(error) \(dropped(ended.error) ?? "")")
    }
    let ended = process.end(SIGINT)
    if let dropped = dropped(ended.error) { throw Readiness.NotReady(description: dropped) }
    return ended
  }

  /// tcpdump's own line on the packets the kernel dropped, when it dropped any.
  func dropped(_ error: String) -> String? {
    guard isTcpdump,
      let line = error.split(separator: "\n").first(where: { $0.hasSuffix("dropped by kernel") }),
      !line.hasPrefix("0 ")
    else { return nil }
    return "tcpdump: \(line)"
  }
}

/// What the recorder has committed to a store so far, counted with sqlite3 (another process, as
/// an assessor's would be).
enum StoreCount {
  static func of(_ store: String, _ sql: String) throws -> Int {
    let run = try XCTUnwrap(ExternalTool.run("sqlite3", [store + "/history.sqlite", sql]))
    return Int(run.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
  }

  /// The TCP connections of audit session `session` whose end the store holds: a RST, or a FIN
  /// each way.
  static func closedConnections(inSession session: Int) -> String {
    """
    SELECT count(*) FROM flows WHERE audit_session_id = \(session) AND protocol = 6 AND (
      EXISTS (SELECT 1 FROM packets WHERE flow_id = flows.id AND tcp_flags & 4)
      OR (EXISTS (SELECT 1 FROM packets WHERE flow_id = flows.id AND direction = 1 AND tcp_flags & 1)
        AND EXISTS (SELECT 1 FROM packets WHERE flow_id = flows.id AND direction = 2 AND tcp_flags & 1)))
    """
  }

  /// Waits until `sql`, a count over the store, is at least `count`.
  static func wait(_ what: String, _ store: String, _ sql: String, atLeast count: Int = 1) throws {
    try Readiness.wait(what) { try of(store, sql) >= count }
  }
}
