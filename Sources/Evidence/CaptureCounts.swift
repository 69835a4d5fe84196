import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Crypto
import Foundation

/// capture.json's counts, which must sum: the packets recorded are those written and those
/// without bytes, the flows' and the source files' counts add up to the totals, and each flow's
/// are its packetCount in flows.json and its packets in capture.pcapng.
enum CaptureCounts {
  static func problems(
    _ doc: VerifiedCapture, flows: [VerifiedCapture.Flow], packetsInCapture: [Int64: Int],
    packetCounts: [Int64: Int]
  ) -> [String] {
    var problems: [String] = []
    let p = doc.packets
    guard let recorded = p.recorded, let written = p.written, let without = p.withoutBytes else {
      return [VerifyWording.captureCountsMissing]
    }
    if recorded != written + without.total {
      problems.append(VerifyWording.recordedNotSum(recorded, sum: written + without.total))
    }
    let flowWritten = flows.reduce(0) { $0 + ($1.written ?? 0) }
    let flowRecorded = flows.reduce(0) { $0 + ($1.recorded ?? 0) }
    if flowWritten != written {
      problems.append(VerifyWording.flowsWrite(flowWritten, written: written))
    }
    if flowRecorded != recorded {
      problems.append(VerifyWording.flowsRecord(flowRecorded, recorded: recorded))
    }
    if let files = doc.sourceFiles {
      let fileWritten = files.reduce(0) { $0 + ($1.written ?? 0) }
      let filePackets = files.reduce(0) { $0 + ($1.packets ?? 0) }
      if fileWritten != written {
        problems.append(VerifyWording.filesGave(fileWritten, written: written))
      }
      if filePackets + without.notCaptured != recorded {
        problems.append(
          VerifyWording.filesHold(
            filePackets, neverCaptured: without.notCaptured, recorded: recorded))
      }
    }
    var flowProblems: [String] = []
    for flow in flows {
      guard let r = flow.recorded, let w = flow.written, let wb = flow.withoutBytes else {
        flowProblems.append(VerifyWording.flowCountsMissing(flow.id))
        continue
      }
      if r != w + wb.total {
        flowProblems.append(
          VerifyWording.flowRecordedNotSum(flow.id, recorded: r, sum: w + wb.total))
      }
      if let count = packetCounts[flow.id], count != r {
        flowProblems.append(
          VerifyWording.flowPacketCountDiffers(flow.id, flowsJSON: count, recorded: r))
      }
      if (packetsInCapture[flow.id] ?? 0) != w {
        flowProblems.append(
          VerifyWording.flowPacketsInCapture(
            flow.id, inCapture: packetsInCapture[flow.id] ?? 0, written: w))
      }
    }
    return problems + flowProblems
  }
}
