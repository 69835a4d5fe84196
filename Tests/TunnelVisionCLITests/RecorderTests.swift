import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Capture
import Crypto
import FlowStore
import Foundation
import TestSupport
import XCTest

@testable import Record

/// The recorder in-process, on a capture file through libpcap: what it keeps across rotations.
final class RecorderTests: XCTestCase {
  func testAnOldCaptureReplayedAcrossRotationsKeepsEveryPacketUnderRetention() throws {
    let dir = TemporaryDirectory("recorder")
    let store = try FlowStore(directory: dir.url.appendingPathComponent("store"), creating: true)
    // The real capture, thirty days older: past the default week of retention.
    let old = dir.url.appendingPathComponent("old.pcapng").path
    let shifted = try ExternalTool.run(
      "editcap", ["-t", "-2592000", RecordCommandTests.realCapture.path, old])
    guard shifted?.status == 0 else { throw XCTSkip("editcap (tshark's package) is not installed") }
    let capture = try PacketCapture(.file(old), snaplen: 262_144, filter: nil)
    let claim = RecorderClaim(
      processID: getpid(), sourceName: "real-traffic.pcapng", isLive: false, since: Date())
    // Small files, retention at every tick: the capture is months old by the machine's clock.
    let recorder = Recorder(
      store: store, capture: capture, claim: claim,
      request: RecordingRequest(rotationBytes: 4096, retentionInterval: 0))
    let end = try recorder.run(now: { Date() }, report: { _ in })
    XCTAssertEqual(end, .sourceEnded)
    XCTAssertGreaterThan(recorder.status.captureFiles, 3)
    XCTAssertEqual(recorder.status.captureFilesDeleted, 0)
    XCTAssertEqual(try store.historyPacketCount(), recorder.status.packets)
    XCTAssertEqual(try store.historyFlowCount(), recorder.status.connections)
    // Every packet's bytes are where its row says.
    let library = CaptureLibrary(directory: store.capturesDirectory)
    XCTAssertEqual(try library.files().count, recorder.status.captureFiles)
  }

  /// Raw IPv4 UDP datagrams (LINKTYPE_RAW records), one per source port, a millisecond apart,
  /// from `at` (now unless given).
  static func datagrams(_ ports: Range<Int>, at: Date = Date()) -> Data {
    var data = Data()
    let now = Int(at.timeIntervalSince1970)
    func le32(_ value: Int) { withUnsafeBytes(of: UInt32(value).littleEndian) { data += $0 } }
    for port in ports {
      let udp: [UInt8] = [
        UInt8((40_000 + port) >> 8), UInt8((40_000 + port) & 0xff), 0x27, 0x0f, 0, 12, 0, 0,
        1, 2, 3, 4,
      ]
      let ip: [UInt8] = [
        0x45, 0, 0, UInt8(20 + udp.count), 0, 0, 0, 0, 64, 17, 0, 0, 10, 0, 0, 2, 10, 0, 0, 1,
      ]
      le32(now)
      le32(port * 1_000)
      le32(ip.count + udp.count)
      le32(ip.count + udp.count)
      data += ip + udp
    }
    return data
  }

  /// A pass of the storage limits that writes the rest of the stream and waits for the store to
  /// hold it: it gets there only if the recorder goes on writing while the pass runs.
  func testFramesAreWrittenWhileARetentionPassRuns() throws {
    let dir = TemporaryDirectory("recorder-retention")
    let store = try FlowStore(directory: dir.url.appendingPathComponent("store"), creating: true)
    let fifo = dir.url.appendingPathComponent("stream").path
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    // Read and write: opening does not wait for a reader, and the stream ends when it closes.
    let stream = FileHandle(fileDescriptor: open(fifo, O_RDWR), closeOnDealloc: true)
    try stream.write(contentsOf: RecordCommandTests.pcapHeader + Self.datagrams(0..<10))
    let capture = try PacketCapture(.file(fifo), snaplen: 65_535, filter: nil)
    let recorder = Recorder(
      store: store, capture: capture,
      claim: RecorderClaim(processID: getpid(), sourceName: "stream", isLive: false, since: Date()),
      request: RecordingRequest(retentionInterval: 0))
    let written = NSLock()
    nonisolated(unsafe) var heldEveryPacket = false
    nonisolated(unsafe) var passes = 0
    recorder.retention.pass = { directory, settings, recording, now in
      let other = try FlowStore(directory: directory, creating: false)
      // Every interval of 0 starts another pass once one ends: only the first writes the rest
      // of the stream (a later one would write to it closed).
      if written.withLock({
        passes += 1
        return passes == 1
      }) {
        try stream.write(contentsOf: Self.datagrams(10..<20))
        try stream.close()
        let held =
          (try? Readiness.wait("the stream's last packets written", timeout: 10) {
            try other.historyPacketCount() == 20
          }) != nil
        written.withLock { heldEveryPacket = held }
      }
      return try StorageManager(store: other).enforce(
        settings, recordingSequence: recording, now: now)
    }
    XCTAssertEqual(try recorder.run(now: { Date() }, report: { _ in }), .sourceEnded)
    XCTAssertTrue(written.withLock { heldEveryPacket })
    XCTAssertEqual(recorder.status.packets, 20)
    XCTAssertEqual(try store.historyPacketCount(), 20)
  }

  /// `storage enforce` in another terminal while a recorder replays last month's capture counts
  /// ages on the machine's clock: it pruned the rows being written (and the recorder then failed
  /// on a connection whose row was gone). The running recorder's capture session is spared.
  func testStorageEnforceElsewhereSparesWhatARecorderIsWritingNow() throws {
    let cli = CLIHarness()
    cli.now = Date()
    let store = try FlowStore(directory: URL(fileURLWithPath: cli.storePath), creating: true)
    let fifo = cli.directory.url.appendingPathComponent("stream").path
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let stream = FileHandle(fileDescriptor: open(fifo, O_RDWR), closeOnDealloc: true)
    let lastMonth = Date().addingTimeInterval(-30 * 86_400)
    try stream.write(
      contentsOf: RecordCommandTests.pcapHeader + Self.datagrams(0..<10, at: lastMonth))
    let claim = RecorderClaim(
      processID: getpid(), sourceName: "stream", isLive: false, since: Date())
    let lock = try RecorderLock(storeDirectory: store.directory, claim: claim)
    defer { lock.release() }
    let recorder = Recorder(
      store: store, capture: try PacketCapture(.file(fifo), snaplen: 65_535, filter: nil),
      claim: claim, request: RecordingRequest())
    nonisolated(unsafe) var outcome: Result<RecordingEnd, Error>?
    let finished = DispatchSemaphore(value: 0)
    Thread {
      outcome = Result { try recorder.run(now: { Date() }, report: { _ in }) }
      finished.signal()
    }.start()
    let reader = try FlowStore(directory: store.directory, creating: false)
    try Readiness.wait("the first ten packets written") { try reader.historyPacketCount() == 10 }
    let preview = cli.run("storage", "--max-age", "1d")
    XCTAssertTrue(
      preview.output.contains(
        "Recording A recorder is writing now: the connections it writes are left to its own retention"
      ),
      preview.output)
    let enforced = cli.run("storage", "enforce", "--max-age", "1d", "--json")
    XCTAssertEqual(enforced.status, 0, enforced.error)
    XCTAssertEqual(try reader.historyPacketCount(), 10, "the recorder's rows were pruned")
    try stream.write(contentsOf: Self.datagrams(10..<20, at: lastMonth))
    try stream.close()
    XCTAssertEqual(finished.wait(timeout: .now() + 30), .success)
    XCTAssertEqual(try outcome?.get(), .sourceEnded)
    XCTAssertEqual(try store.historyPacketCount(), 20)
    XCTAssertEqual(try store.historyFlowCount(), 20)
    // Once it has ended, its rows are history like any other.
    XCTAssertEqual(cli.run("storage", "enforce", "--max-age", "1d").status, 0)
    XCTAssertEqual(try store.historyFlowCount(), 0)
  }
}
