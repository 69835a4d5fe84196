/// What the store holds, against its retention limits; what enforcing them did.
public struct StorageUsage: Sendable, Hashable {
  /// Including the file being written.
  public let captureBytes: UInt64
  public let captureFileCount: Int
  /// The database and its WAL sidecars.
  public let historyBytes: UInt64
  public let historyFlowCount: Int
  public let historyPacketCount: Int
  /// Capture files that hold audit evidence, and their bytes.
  public let evidenceFileCount: Int
  public let evidenceBytes: UInt64
  /// Capture files the history does not know of, left by an import that did not finish.
  public let leftOverFileCount: Int
  public let leftOverBytes: UInt64
  public var totalBytes: UInt64 { captureBytes + historyBytes }

  public init(
    captureBytes: UInt64, captureFileCount: Int, historyBytes: UInt64, historyFlowCount: Int,
    historyPacketCount: Int, evidenceFileCount: Int, evidenceBytes: UInt64, leftOverFileCount: Int,
    leftOverBytes: UInt64
  ) {
    self.captureBytes = captureBytes
    self.captureFileCount = captureFileCount
    self.historyBytes = historyBytes
    self.historyFlowCount = historyFlowCount
    self.historyPacketCount = historyPacketCount
    self.evidenceFileCount = evidenceFileCount
    self.evidenceBytes = evidenceBytes
    self.leftOverFileCount = leftOverFileCount
    self.leftOverBytes = leftOverBytes
  }
}

public struct RetentionOutcome: Sendable, Hashable {
  /// Files left by an import that did not finish, deleted first, and their bytes (also counted in
  /// `bytesReclaimed`, which is everything deleted).
  public let deletedLeftOvers: [UInt32]
  public let leftOverBytesReclaimed: UInt64
  public let deletedFiles: [UInt32]
  public let bytesReclaimed: UInt64
  public let prunedFlows: Int
  public let failures: [String]
  public let sizeCapUnreachable: Bool
  public let sizeCapHeldByEvidence: Bool
  public var didChangeAnything: Bool {
    !deletedLeftOvers.isEmpty || !deletedFiles.isEmpty || prunedFlows > 0
  }

  public init(
    deletedLeftOvers: [UInt32], leftOverBytesReclaimed: UInt64, deletedFiles: [UInt32],
    bytesReclaimed: UInt64, prunedFlows: Int, failures: [String], sizeCapUnreachable: Bool,
    sizeCapHeldByEvidence: Bool
  ) {
    self.deletedLeftOvers = deletedLeftOvers
    self.leftOverBytesReclaimed = leftOverBytesReclaimed
    self.deletedFiles = deletedFiles
    self.bytesReclaimed = bytesReclaimed
    self.prunedFlows = prunedFlows
    self.failures = failures
    self.sizeCapUnreachable = sizeCapUnreachable
    self.sizeCapHeldByEvidence = sizeCapHeldByEvidence
  }
}
