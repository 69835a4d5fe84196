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

  /// tcpdump on `interface`, in `namespace` (else here), writing packets as they come.
  static func tcpdump(
    in namespace: NetworkNamespace?, interface: String = "lo", to path: String, filter: String
  ) throws -> LabCapture {
    let arguments = [
      "tcpdump", "-i", interface, "-U", "--immediate-mode", "-n", "-w", path, filter,
    ]
    let process =
      try namespace?.start(arguments)
      ?? RunningProcess(try XCTUnwrap(ExternalTool.which("tcpdump")), Array(arguments.dropFirst()))
    try process.waitForOutput(containing: "listening on")
    return LabCapture(process: process, files: { [path] })
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
  /// `datagrams` UDP datagrams.
  @discardableResult
  func end(afterClosing connections: Int, datagrams: Int = 0) throws -> (
    status: Int32, output: String, error: String
  ) {
    do {
      try Readiness.waitForClosedConnections(connections, datagrams: datagrams, in: files)
    } catch {
      process.end(SIGINT)
      throw error
    }
    return process.end(SIGINT)
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
