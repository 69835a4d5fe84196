import Foundation

/// What `tunnelvision storage` says.
public enum StoragePresentation {
  public static func text(_ usage: StorageUsage, settings: RetentionSettings, plan: RetentionPlan)
    -> String
  {
    var out =
      "Captures  \(AuditPresentation.count(usage.captureFileCount, "file")), \(AuditPresentation.byteCount(usage.captureBytes))"
    if let cap = settings.maxCaptureSize.maxBytes {
      out +=
        usage.captureBytes <= cap
        ? " of the \(AuditPresentation.byteCount(cap)) limit (\(AuditPresentation.byteCount(cap - usage.captureBytes)) left)"
        : " — over the \(AuditPresentation.byteCount(cap)) limit"
    } else {
      out += " (no size limit)"
    }
    out +=
      "\nHistory   \(AuditPresentation.count(usage.historyFlowCount, "connection")), \(AuditPresentation.count(usage.historyPacketCount, "packet")), \(AuditPresentation.byteCount(usage.historyBytes)); limited by age, not size, because SQLite does not give space back when rows are deleted\n"
    out += "Limits    \(settings.maxAge.words), \(settings.maxCaptureSize.words)\n"
    if usage.evidenceFileCount > 0 {
      out +=
        "Evidence  \(AuditPresentation.count(usage.evidenceFileCount, "capture file")) (\(AuditPresentation.byteCount(usage.evidenceBytes))) hold audit evidence and are exempt from both limits until their session is deleted.\n"
    }
    if usage.leftOverFileCount > 0 {
      out +=
        "Left over \(AuditPresentation.count(usage.leftOverFileCount, "capture file")) (\(AuditPresentation.byteCount(usage.leftOverBytes))) written by an import that did not finish and known to no session; 'tunnelvision storage enforce' deletes them.\n"
    }
    if !plan.hasWork {
      out += "Nothing is due for deletion now.\n"
    } else {
      out +=
        "Due now   \(AuditPresentation.count(plan.filesToDelete.count, "capture file")) (\(AuditPresentation.byteCount(plan.bytesReclaimed))) and \(AuditPresentation.count(plan.prunableConnections, "connection")) older than the age limit, of no audit session; 'tunnelvision storage enforce' deletes them.\n"
    }
    if plan.sizeCapHeldByEvidence {
      out +=
        "The size limit cannot be met while the audit evidence is kept: deleting an audit session frees its captures.\n"
    } else if plan.sizeCapUnreachable {
      out += "The size limit cannot be met even after deleting every capture file it may delete.\n"
    }
    return out
  }

  public static func outcome(_ outcome: RetentionOutcome) -> String {
    guard outcome.didChangeAnything || !outcome.failures.isEmpty else {
      return "Nothing was due: no capture file or history was deleted.\n"
    }
    var out = ""
    if !outcome.deletedLeftOvers.isEmpty {
      out +=
        "Deleted \(AuditPresentation.count(outcome.deletedLeftOvers.count, "capture file")) left by an import that did not finish (\(outcome.deletedLeftOvers.map { CaptureFileName.of(sequence: $0) }.joined(separator: ", "))), \(AuditPresentation.byteCount(outcome.leftOverBytesReclaimed)).\n"
    }
    if !outcome.deletedFiles.isEmpty {
      out +=
        "Deleted \(AuditPresentation.count(outcome.deletedFiles.count, "capture file")) (\(outcome.deletedFiles.map { CaptureFileName.of(sequence: $0) }.joined(separator: ", "))), \(AuditPresentation.byteCount(outcome.bytesReclaimed - outcome.leftOverBytesReclaimed)).\n"
    }
    if outcome.prunedFlows > 0 {
      out +=
        "Removed \(AuditPresentation.count(outcome.prunedFlows, "connection")) older than the age limit from the history; connections of audit sessions were kept.\n"
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
    ])
  }
}
