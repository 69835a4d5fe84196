import Audit
import AuditRules
import AuditWording
import Crypto
import FlowStore
import Foundation

/// Retention crosses both halves: it deletes capture files and prunes the history, and is the
/// only place that knows about both.
public struct StorageManager {
  public let store: FlowStore
  public let library: CaptureLibrary

  public init(store: FlowStore) {
    self.store = store
    library = CaptureLibrary(directory: store.capturesDirectory)
  }

  public func usage() throws -> StorageUsage {
    let files = try library.files()
    let evidence = try store.auditEvidenceFileSequences()
    let sidecars = ["", "-wal", "-shm"].map { store.databaseURL.path + $0 }
    let historyBytes = sidecars.reduce(UInt64(0)) { sum, path in
      sum
        + ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)??
          .uint64Value ?? 0)
    }
    let evidenceFiles = files.filter { evidence.contains($0.sequence) }
    let claimed = try store.claimedCaptureFileSequences()
    let leftOvers = files.filter { !claimed.contains($0.sequence) }
    return StorageUsage(
      captureBytes: files.reduce(0) { $0 + $1.byteCount }, captureFileCount: files.count,
      historyBytes: historyBytes, historyFlowCount: try store.historyFlowCount(),
      historyPacketCount: try store.historyPacketCount(),
      evidenceFileCount: evidenceFiles.count,
      evidenceBytes: evidenceFiles.reduce(0) { $0 + $1.byteCount },
      leftOverFileCount: leftOvers.count, leftOverBytes: leftOvers.reduce(0) { $0 + $1.byteCount })
  }

  /// `sparing`: the capture session a recorder of another process writes now.
  public func plan(
    _ settings: RetentionSettings, recordingSequence: UInt32?, now: Date,
    sparing captureSession: Int64? = nil
  ) throws -> RetentionPlan {
    // A file's start is the store's, from when it claimed the sequence: a copied or restored
    // store's files are born anew on disk. One the history does not know keeps its birth time.
    let started = try store.captureFileStartDates()
    let files = try library.files().map {
      CaptureFileInfo(
        sequence: $0.sequence, url: $0.url, byteCount: $0.byteCount,
        createdAt: started[$0.sequence] ?? $0.createdAt)
    }
    var plan = RetentionPlanner.plan(
      files: files, settings: settings, now: now,
      recordingSequence: recordingSequence,
      evidenceSequences: try store.auditEvidenceFileSequences())
    plan.sparedCaptureSession = captureSession
    plan.prunableConnections =
      try plan.historyCutoff.map {
        try store.prunableFlowCount(before: $0, sparing: captureSession)
      }
      ?? 0
    return plan
  }

  /// Applies the caps: deletes the planned files (a failure per file is kept, the rest goes on)
  /// and prunes the history by age, never removing flows of an audit session.
  @discardableResult
  public func enforce(_ settings: RetentionSettings, recordingSequence: UInt32?, now: Date) throws
    -> RetentionOutcome
  {
    try enforce(
      plan(settings, recordingSequence: recordingSequence, now: now),
      recordingSequence: recordingSequence)
  }

  /// Carries out a plan: the one `storage` showed is the one `storage enforce` applies.
  /// `pruning` is told how many connections of the history have been pruned so far.
  @discardableResult
  public func enforce(
    _ plan: RetentionPlan, recordingSequence: UInt32?, pruning: (Int) -> Void = { _ in }
  ) throws -> RetentionOutcome {
    var failures: [String] = []
    /// Deletes the files given, keeping a failure per file and going on; what was deleted, and its bytes.
    func delete(_ files: [CaptureFileInfo]) -> ([UInt32], UInt64) {
      var deleted: [UInt32] = []
      var bytes: UInt64 = 0
      for file in files {
        do {
          try library.delete(sequence: file.sequence)
          deleted.append(file.sequence)
          bytes += file.byteCount
        } catch {
          failures.append(error.description)
        }
      }
      return (deleted, bytes)
    }
    // Files left by an import that did not finish go first. An import claims its files and
    // writes them inside one write transaction: holding the write lock here, no import is
    // under way, so a file the history does not know of is no one's.
    let (leftOvers, leftOverBytes) = try store.transaction {
      let claimed = try store.claimedCaptureFileSequences()
      return delete(
        try library.files().filter {
          !claimed.contains($0.sequence)
            && !RetentionPlanner.isRecorded($0.sequence, recordingSequence: recordingSequence)
        })
    }
    let files = Dictionary(uniqueKeysWithValues: try library.files().map { ($0.sequence, $0) })
    let (deleted, bytes) = delete(plan.filesToDelete.compactMap { files[$0] })
    let reclaimed = leftOverBytes + bytes
    let pruned =
      try plan.historyCutoff.map {
        try store.prune(before: $0, sparing: plan.sparedCaptureSession, progress: pruning)
      } ?? 0
    return RetentionOutcome(
      deletedLeftOvers: leftOvers, leftOverBytesReclaimed: leftOverBytes, deletedFiles: deleted,
      bytesReclaimed: reclaimed, prunedFlows: pruned, failures: failures,
      sizeCapUnreachable: plan.sizeCapUnreachable, sizeCapHeldByEvidence: plan.sizeCapHeldByEvidence
    )
  }
}
