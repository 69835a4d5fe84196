import Audit
import Foundation

public enum RetentionAge: String, Sendable, Hashable, CaseIterable {
  case oneDay = "1d"
  case threeDays = "3d"
  case oneWeek = "1w"
  case twoWeeks = "2w"
  case oneMonth = "30d"
  case unlimited
  /// nil: no cap.
  public var maxAge: TimeInterval? {
    switch self {
    case .oneDay: return 86_400
    case .threeDays: return 3 * 86_400
    case .oneWeek: return 7 * 86_400
    case .twoWeeks: return 14 * 86_400
    case .oneMonth: return 30 * 86_400
    case .unlimited: return nil
    }
  }
  public var words: String {
    switch self {
    case .oneDay: return "one day"
    case .threeDays: return "three days"
    case .oneWeek: return "one week"
    case .twoWeeks: return "two weeks"
    case .oneMonth: return "30 days"
    case .unlimited: return "no age limit"
    }
  }
}

public enum RetentionSize: String, Sendable, Hashable, CaseIterable {
  case megabytes256 = "256MB"
  case megabytes512 = "512MB"
  case gigabyte1 = "1GB"
  case gigabytes2 = "2GB"
  case gigabytes5 = "5GB"
  case unlimited
  /// nil: no cap.
  public var maxBytes: UInt64? {
    switch self {
    case .megabytes256: return 256 * 1_000_000
    case .megabytes512: return 512 * 1_000_000
    case .gigabyte1: return 1_000_000_000
    case .gigabytes2: return 2_000_000_000
    case .gigabytes5: return 5_000_000_000
    case .unlimited: return nil
    }
  }
  public var words: String {
    self == .unlimited
      ? "no size limit"
      : rawValue.replacingOccurrences(of: "MB", with: " MB").replacingOccurrences(
        of: "GB", with: " GB")
  }
}

public struct RetentionSettings: Sendable, Hashable {
  public var maxAge: RetentionAge
  public var maxCaptureSize: RetentionSize
  public init(maxAge: RetentionAge, maxCaptureSize: RetentionSize) {
    self.maxAge = maxAge
    self.maxCaptureSize = maxCaptureSize
  }
  /// One week and 1 GB.
  public static let `default` = RetentionSettings(maxAge: .oneWeek, maxCaptureSize: .gigabyte1)
  public var isUnlimited: Bool { maxAge == .unlimited && maxCaptureSize == .unlimited }
}

public struct RetentionPlan: Sendable, Hashable {
  /// For `FlowStore.prune(before:)`.
  public let historyCutoff: Date?
  /// Oldest first.
  public let filesToDelete: [UInt32]
  public let bytesReclaimed: UInt64
  public let captureBytesAfter: UInt64
  /// The size cap cannot be met even after deleting every file it may delete.
  public let sizeCapUnreachable: Bool
  /// The size cap is unmet because of audit evidence: deleting the session would free it.
  public let sizeCapHeldByEvidence: Bool
  /// Connections of no audit session last seen before `historyCutoff`, which enforcing prunes
  /// (counted by the store; the planner sees files only).
  public var prunableConnections = 0
  /// The capture session a recorder of another process is writing now, whose connections are
  /// not pruned: ages are counted here on the machine's clock, and a capture of last month
  /// replayed now would lose what is being written (the recorder's own passes count on the
  /// packets' clock).
  public var sparedCaptureSession: Int64?
  public var hasWork: Bool { !filesToDelete.isEmpty || prunableConnections > 0 }
}

/// Who goes, decided over a listing without touching the disk. The decisions:
/// 1. a file's data ended when its successor was created; the newest file has no successor
///    and is never aged out, nor is one whose successor has no date;
/// 2. the file being recorded is never deleted, nor any claimed after it (a recorder may rotate
///    while a pass that began before runs);
/// 3. audit evidence is exempt from both caps until its session is deleted;
/// 4. the size cap takes the oldest files first, after the age cap;
/// 5. an unmet size cap says whether evidence holds it or nothing could.
public enum RetentionPlanner {
  public static func plan(
    files: [CaptureFileInfo], settings: RetentionSettings, now: Date,
    recordingSequence: UInt32?, evidenceSequences: Set<UInt32>
  ) -> RetentionPlan {
    let ordered = files.sorted { $0.sequence < $1.sequence }
    func deletable(_ file: CaptureFileInfo) -> Bool {
      !isRecorded(file.sequence, recordingSequence: recordingSequence)
        && !evidenceSequences.contains(file.sequence)
    }
    var doomed = Set<UInt32>()
    var cutoff: Date?
    if let maxAge = settings.maxAge.maxAge {
      let limit = now.addingTimeInterval(-maxAge)
      cutoff = limit
      for (index, file) in ordered.enumerated() where index + 1 < ordered.count && deletable(file) {
        if let ended = ordered[index + 1].createdAt, ended < limit { doomed.insert(file.sequence) }
      }
    }
    var remaining = ordered.filter { !doomed.contains($0.sequence) }.reduce(UInt64(0)) {
      $0 + $1.byteCount
    }
    var unreachable = false
    var heldByEvidence = false
    if let maxBytes = settings.maxCaptureSize.maxBytes {
      for file in ordered
      where remaining > maxBytes && !doomed.contains(file.sequence) && deletable(file) {
        doomed.insert(file.sequence)
        remaining -= file.byteCount
      }
      if remaining > maxBytes {
        let evidence = ordered.filter {
          evidenceSequences.contains($0.sequence)
            && !isRecorded($0.sequence, recordingSequence: recordingSequence)
        }
        .reduce(UInt64(0)) { $0 + $1.byteCount }
        heldByEvidence = evidence > 0 && remaining - evidence <= maxBytes
        unreachable = !heldByEvidence
      }
    }
    let deleted = ordered.filter { doomed.contains($0.sequence) }
    return RetentionPlan(
      historyCutoff: cutoff, filesToDelete: deleted.map(\.sequence),
      bytesReclaimed: deleted.reduce(0) { $0 + $1.byteCount }, captureBytesAfter: remaining,
      sizeCapUnreachable: unreachable, sizeCapHeldByEvidence: heldByEvidence)
  }

  /// Whether the file `sequence` is the one being recorded or came after it.
  public static func isRecorded(_ sequence: UInt32, recordingSequence: UInt32?) -> Bool {
    recordingSequence.map { sequence >= $0 } ?? false
  }
}
