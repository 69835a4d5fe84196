import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Foundation

/// What `tunnelvision storage` says.
public enum StoragePresentation {
  public static func text(_ usage: StorageUsage, settings: RetentionSettings, plan: RetentionPlan)
    -> String
  {
    var out =
      "Captures  \(Quantity.count(usage.captureFileCount, "file")), \(Quantity.byteCount(usage.captureBytes))"
    if let cap = settings.maxCaptureSize.maxBytes {
      out +=
        usage.captureBytes <= cap
        ? " of the \(Quantity.byteCount(cap)) limit (\(Quantity.byteCount(cap - usage.captureBytes)) left)"
        : " — over the \(Quantity.byteCount(cap)) limit"
    } else {
      out += " (no size limit)"
    }
    out +=
      "\nHistory   \(Quantity.count(usage.historyFlowCount, "connection")), \(Quantity.count(usage.historyPacketCount, "packet")), \(Quantity.byteCount(usage.historyBytes)); limited by age, not size, because SQLite does not give space back when rows are deleted\n"
    out += "Limits    \(settings.maxAge.words), \(settings.maxCaptureSize.words)\n"
    if plan.sparedCaptureSession != nil {
      out += "Recording \(sparedWords)\n"
    }
    if usage.evidenceFileCount > 0 {
      out +=
        "Evidence  \(Quantity.count(usage.evidenceFileCount, "capture file")) (\(Quantity.byteCount(usage.evidenceBytes))) hold audit evidence and are exempt from both limits until their session is deleted.\n"
    }
    if usage.leftOverFileCount > 0 {
      out +=
        "Left over \(Quantity.count(usage.leftOverFileCount, "capture file")) (\(Quantity.byteCount(usage.leftOverBytes))) written by an import that did not finish and known to no session; 'tunnelvision storage enforce' deletes them.\n"
    }
    if !plan.hasWork {
      out += "Nothing is due for deletion now.\n"
    } else {
      out +=
        "Due now   \(Quantity.count(plan.filesToDelete.count, "capture file")) (\(Quantity.byteCount(plan.bytesReclaimed))) and \(Quantity.count(plan.prunableConnections, "connection")) older than the age limit, of no audit session; 'tunnelvision storage enforce' deletes them.\n"
    }
    if plan.sizeCapHeldByEvidence {
      out +=
        "The size limit cannot be met while the audit evidence is kept: deleting an audit session frees its captures.\n"
    } else if plan.sizeCapUnreachable {
      out += "The size limit cannot be met even after deleting every capture file it may delete.\n"
    }
    return out
  }

  /// Why the connections a running recorder writes are left out here.
  static let sparedWords =
    "A recorder is writing now: the connections it writes are left to its own retention, which counts their age by the time of their packets, not by this machine's clock."

  /// The progress line of `storage enforce` while it prunes the history.
  public static func pruning(_ done: Int, of total: Int) -> String {
    "Pruning the history: \(Quantity.grouped(done)) of \(Quantity.count(total, "connection")) older than the age limit…"
  }

  public static func outcome(_ outcome: RetentionOutcome) -> String {
    guard outcome.didChangeAnything || !outcome.failures.isEmpty else {
      return "Nothing was due: no capture file or history was deleted.\n"
    }
    var out = ""
    if !outcome.deletedLeftOvers.isEmpty {
      out +=
        "Deleted \(Quantity.count(outcome.deletedLeftOvers.count, "capture file")) left by an import that did not finish (\(outcome.deletedLeftOvers.map { CaptureFileName.of(sequence: $0) }.joined(separator: ", "))), \(Quantity.byteCount(outcome.leftOverBytesReclaimed)).\n"
    }
    if !outcome.deletedFiles.isEmpty {
      out +=
        "Deleted \(Quantity.count(outcome.deletedFiles.count, "capture file")) (\(outcome.deletedFiles.map { CaptureFileName.of(sequence: $0) }.joined(separator: ", "))), \(Quantity.byteCount(outcome.bytesReclaimed - outcome.leftOverBytesReclaimed)).\n"
    }
    if outcome.prunedFlows > 0 {
      out +=
        "Removed \(Quantity.count(outcome.prunedFlows, "connection")) older than the age limit from the history; connections of audit sessions were kept.\n"
    }
    for failure in outcome.failures { out += "Not deleted: \(failure)\n" }
    if outcome.sizeCapHeldByEvidence {
      out += "The size limit is still not met: the remaining captures hold audit evidence.\n"
    } else if outcome.sizeCapUnreachable {
      out += "The size limit is still not met.\n"
    }
    return out
  }

  public static func json(_ usage: StorageUsage, settings: RetentionSettings, plan: RetentionPlan)
    -> JSONValue
  {
    .object([
      "captureBytes": .int(usage.captureBytes), "captureFiles": .int(usage.captureFileCount),
      "historyBytes": .int(usage.historyBytes), "historyFlows": .int(usage.historyFlowCount),
      "historyPackets": .int(usage.historyPacketCount),
      "evidenceFiles": .int(usage.evidenceFileCount), "evidenceBytes": .int(usage.evidenceBytes),
      "leftOverFiles": .int(usage.leftOverFileCount), "leftOverBytes": .int(usage.leftOverBytes),
      "maxAge": .string(settings.maxAge.rawValue),
      "maxSize": .string(settings.maxCaptureSize.rawValue),
      "dueFiles": .ints(plan.filesToDelete), "dueBytes": .int(plan.bytesReclaimed),
      "dueConnections": .int(plan.prunableConnections),
      "sizeCapUnreachable": .bool(plan.sizeCapUnreachable),
      "sizeCapHeldByEvidence": .bool(plan.sizeCapHeldByEvidence),
      "recordingSpared": .bool(plan.sparedCaptureSession != nil),
    ])
  }
}
