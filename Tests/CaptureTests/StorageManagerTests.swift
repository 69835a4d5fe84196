import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Capture
import Crypto
import FlowStore
import Foundation
import Sample
import TestSupport
import XCTest

final class StorageManagerTests: XCTestCase {
  func sample() throws -> (TemporaryDirectory, FlowStore) {
    let dir = TemporaryDirectory("storage")
    _ = try SampleWriter.write(
      SampleScenario.plan(SampleOptions()), to: dir.url.appendingPathComponent("store"),
      rotationBytes: 20_000)
    return (dir, try FlowStore(directory: dir.url.appendingPathComponent("store")))
  }

  func testUsageAddsUpTheDirectoryAndTheHistory() throws {
    let (dir, store) = try sample()
    defer { withExtendedLifetime(dir) {} }
    let usage = try StorageManager(store: store).usage()
    let files = try CaptureLibrary(directory: store.capturesDirectory).files()
    XCTAssertEqual(usage.captureFileCount, files.count)
    XCTAssertEqual(usage.captureBytes, files.reduce(0) { $0 + $1.byteCount })
    XCTAssertEqual(usage.historyFlowCount, try store.historyFlowCount())
    XCTAssertGreaterThan(usage.historyBytes, 0)
    XCTAssertGreaterThan(usage.evidenceFileCount, 0)
    XCTAssertLessThanOrEqual(usage.evidenceFileCount, usage.captureFileCount)
  }

  func testEnforcingDeletesWhatIsDueKeepsEvidenceAndTheRecordingFileAndPrunesOnlyUntaggedHistory()
    throws
  {
    let (dir, store) = try sample()
    defer { withExtendedLifetime(dir) {} }
    let manager = StorageManager(store: store)
    let library = CaptureLibrary(directory: store.capturesDirectory)
    let evidence = try store.auditEvidenceFileSequences()
    let before = try library.files()
    let recording = before.last!.sequence
    let untagged = try store.allFlows().filter { $0.auditSessionID == nil }.count
    XCTAssertGreaterThan(untagged, 0)
    // A year later, with the smallest caps: everything that may go, goes.
    let outcome = try manager.enforce(
      RetentionSettings(maxAge: .oneDay, maxCaptureSize: .megabytes256),
      recordingSequence: recording, now: Date().addingTimeInterval(365 * 86_400))
    let after = Set(try library.files().map(\.sequence))
    XCTAssertTrue(after.isSuperset(of: evidence.intersection(before.map(\.sequence))))
    XCTAssertTrue(after.contains(recording))
    XCTAssertEqual(
      Set(outcome.deletedFiles),
      Set(before.map(\.sequence)).subtracting(evidence).subtracting([recording]))
    XCTAssertEqual(outcome.prunedFlows, untagged)
    XCTAssertEqual(try store.allFlows().filter { $0.auditSessionID == nil }.count, 0)
    XCTAssertGreaterThan(try store.historyFlowCount(), 0, "evidence flows stay")
    XCTAssertTrue(outcome.failures.isEmpty)
    // Nothing more is due.
    XCTAssertFalse(
      try manager.enforce(
        .default, recordingSequence: recording, now: Date().addingTimeInterval(365 * 86_400)
      ).didChangeAnything)
  }

  /// A file's age is the store's record of when it was started, not the file system's birth
  /// time: a store copied elsewhere (a backup restored) has every file born anew, and its old
  /// captures were never aged out.
  func testFilesAgeFromWhenTheStoreStartedThemNotFromTheirBirthOnDisk() throws {
    let (dir, original) = try sample()
    let copy = dir.url.appendingPathComponent("restored")
    try FileManager.default.copyItem(at: original.directory, to: copy)
    let store = try FlowStore(directory: copy)
    // A day of history after the sample, a file an hour: 24 files, all born on disk today.
    let newest = try XCTUnwrap(try store.captureFileStartDates().values.max())
    let before = Set(try store.captureFileStartDates().keys)
    try SampleHistory.grow(
      store, SampleHistoryPlan(connections: 240, end: newest.addingTimeInterval(86_400), days: 1))
    let history = Set(try store.captureFileStartDates().keys).subtracting(before).sorted()
    XCTAssertEqual(history.count, 24)
    let later = newest.addingTimeInterval(4 * 86_400)
    let files = try CaptureLibrary(directory: store.capturesDirectory).files()
    XCTAssertTrue(files.allSatisfy { ($0.createdAt ?? later) > later }, "born on disk today")
    let plan = try StorageManager(store: store).plan(
      RetentionSettings(maxAge: .oneDay, maxCaptureSize: .unlimited), recordingSequence: nil,
      now: later)
    XCTAssertTrue(
      Set(plan.filesToDelete).isSuperset(of: history.dropLast()),
      "every history file but the newest: \(plan.filesToDelete)")
    XCTAssertFalse(plan.filesToDelete.contains(history.last!), "the newest file is never aged out")
  }

  /// Batches stop at the highest id past the cutoff, not at the first: a connection of an old
  /// capture imported after a month of newer history has the highest id of all, and goes too.
  func testPruningReachesAnOldConnectionWrittenAfterNewerHistory() throws {
    let dir = TemporaryDirectory("storage-month")
    let store = try FlowStore(directory: dir.url)
    let now = Date(timeIntervalSince1970: 1_796_000_000)
    let plan = SampleHistoryPlan(connections: 3_000, packetsPerConnection: 3, end: now, days: 30)
    try SampleHistory.grow(store, plan)
    XCTAssertEqual(try store.historyFlowCount(), 3_000)
    XCTAssertEqual(try store.historyPacketCount(), 9_000)
    let old = now.addingTimeInterval(-60 * 86_400)
    let late = try store.upsertFlow(
      StoredFlow(
        captureSessionID: try store.beginCaptureSession(at: now), ipProtocol: .udp,
        peers: FlowPeers(
          FlowEndpoint(address: "10.0.0.2", port: 5353),
          FlowEndpoint(address: "192.0.2.1", port: 53)),
        firstSeen: old, lastSeen: old, tlsStatus: .plaintext), session: nil)
    XCTAssertEqual(late, try store.highestFlowID())
    let cutoff = now.addingTimeInterval(-20 * 86_400)
    let due = try store.prunableFlowCount(before: cutoff)
    XCTAssertEqual(due, 1_001, "ten of the thirty days, and the late one")
    XCTAssertEqual(try store.prune(before: cutoff), due)
    XCTAssertNil(try store.flow(id: late))
    XCTAssertEqual(try store.historyFlowCount(), 2_000)
    XCTAssertEqual(try store.historyPacketCount(), 6_000)
    XCTAssertEqual(try store.prune(before: cutoff), 0, "nothing due the second time")
  }

  func testThePreviewIsThePlanEnforcingCarriesOutConnectionsIncluded() throws {
    let (dir, store) = try sample()
    defer { withExtendedLifetime(dir) {} }
    let manager = StorageManager(store: store)
    let later = Date().addingTimeInterval(365 * 86_400)
    let untagged = try store.allFlows().filter { $0.auditSessionID == nil }.count
    // Generous caps: no file is due, but the history's untagged connections are old.
    let settings = RetentionSettings(maxAge: .oneDay, maxCaptureSize: .unlimited)
    let plan = try manager.plan(settings, recordingSequence: nil, now: later)
    XCTAssertEqual(plan.prunableConnections, untagged)
    XCTAssertTrue(plan.hasWork, "connections are due even when no file is")
    let usage = try manager.usage()
    let preview = StoragePresentation.text(usage, settings: settings, plan: plan)
    XCTAssertFalse(preview.contains("Nothing is due"), preview)
    XCTAssertTrue(
      preview.contains("and \(Quantity.count(untagged, "connection")) older"), preview)
    let outcome = try manager.enforce(plan, recordingSequence: nil)
    XCTAssertEqual(outcome.deletedFiles, plan.filesToDelete)
    XCTAssertEqual(outcome.prunedFlows, plan.prunableConnections)
  }

  /// An import killed while it wrote leaves capture files whose claim was rolled back with the
  /// rest of it: no session knows of them (216 MB of them, by hand, for a killed 229 MB import).
  func testFilesLeftByAnImportThatDidNotFinishAreShownAndDeletedAndNothingElseIs() throws {
    let (dir, store) = try sample()
    defer { withExtendedLifetime(dir) {} }
    let manager = StorageManager(store: store)
    let library = CaptureLibrary(directory: store.capturesDirectory)
    let before = try library.files()
    XCTAssertEqual(try manager.usage().leftOverFileCount, 0)
    let highest = try XCTUnwrap(before.map(\.sequence).max())
    let header = Data([
      0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0, 101, 0, 0, 0,
    ])
    for (sequence, size) in [(highest + 1, 5_000), (highest + 2, 7_000)] {
      try (header + Data(count: size)).write(
        to: store.capturesDirectory.appendingPathComponent(CaptureFileName.of(sequence: sequence)))
    }
    let usage = try manager.usage()
    XCTAssertEqual(usage.leftOverFileCount, 2)
    XCTAssertEqual(usage.leftOverBytes, UInt64(2 * header.count + 12_000))
    // Limits that leave every other file where it is.
    let outcome = try manager.enforce(
      RetentionSettings(maxAge: .unlimited, maxCaptureSize: .unlimited), recordingSequence: nil,
      now: Date())
    XCTAssertEqual(outcome.deletedLeftOvers, [highest + 1, highest + 2])
    XCTAssertEqual(outcome.deletedFiles, [])
    XCTAssertEqual(outcome.bytesReclaimed, UInt64(2 * header.count + 12_000))
    XCTAssertEqual(outcome.leftOverBytesReclaimed, outcome.bytesReclaimed)
    XCTAssertEqual(try library.files(), before)
    XCTAssertEqual(try manager.usage().leftOverFileCount, 0)
    XCTAssertEqual(
      try store.claimCaptureFileSequence(at: Date()), highest + 1,
      "the next import takes the first sequence free again")
  }

  func testDeletingASessionReleasesItsCapturesToRetention() throws {
    let (dir, store) = try sample()
    defer { withExtendedLifetime(dir) {} }
    let manager = StorageManager(store: store)
    for project in try store.auditProjects() {
      for session in try store.auditSessions(forProject: project.id) {
        try store.deleteAuditSession(id: session.id)
      }
    }
    XCTAssertEqual(try store.auditEvidenceFileSequences(), [])
    let outcome = try manager.enforce(
      RetentionSettings(maxAge: .oneDay, maxCaptureSize: .unlimited), recordingSequence: nil,
      now: Date().addingTimeInterval(365 * 86_400))
    XCTAssertEqual(
      try CaptureLibrary(directory: store.capturesDirectory).files().count, 1,
      "only the newest file is left")
    XCTAssertEqual(try store.historyFlowCount(), 0)
    XCTAssertGreaterThan(outcome.deletedFiles.count, 0)
  }

  func testAFileThatCannotBeDeletedIsReportedAndTheRestGoesOn() throws {
    let (dir, store) = try sample()
    defer { withExtendedLifetime(dir) {} }
    for project in try store.auditProjects() {
      for session in try store.auditSessions(forProject: project.id) {
        try store.deleteAuditSession(id: session.id)
      }
    }
    let files = try CaptureLibrary(directory: store.capturesDirectory).files()
    let evidence = try store.auditEvidenceFileSequences()
    let due = files.dropLast().filter { !evidence.contains($0.sequence) }
    guard let stuck = due.first else { return XCTFail("the sample has no file that is due") }
    // Root deletes from a read-only directory, so the file itself is made immutable (ext4, tmpfs).
    guard let made = try ExternalTool.run("chattr", ["+i", stuck.url.path]), made.status == 0 else {
      throw XCTSkip("chattr cannot make a file immutable here: the failure cannot be made real")
    }
    defer { _ = try? ExternalTool.run("chattr", ["-i", stuck.url.path]) }
    let outcome = try StorageManager(store: store).enforce(
      RetentionSettings(maxAge: .oneDay, maxCaptureSize: .unlimited),
      recordingSequence: nil, now: Date().addingTimeInterval(365 * 86_400))
    XCTAssertEqual(outcome.failures.count, 1)
    XCTAssertTrue(outcome.failures[0].contains(stuck.url.lastPathComponent), outcome.failures[0])
    XCTAssertEqual(
      Set(outcome.deletedFiles), Set(due.map(\.sequence)).subtracting([stuck.sequence]))
    XCTAssertGreaterThan(outcome.prunedFlows, 0, "the history is pruned all the same")
  }
}
