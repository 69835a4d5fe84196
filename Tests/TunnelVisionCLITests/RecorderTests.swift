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
import TestSupport
import XCTest

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
}
