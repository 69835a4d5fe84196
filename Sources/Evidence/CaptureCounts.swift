import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Crypto
import Foundation
import ReportLayout

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
      return ["capture.json's packets lack recorded, written or withoutBytes"]
    }
    if recorded != written + without.total {
      problems.append(
        "capture.json's packets.recorded is \(recorded), not written and withoutBytes together (\(written + without.total))"
      )
    }
    let flowWritten = flows.reduce(0) { $0 + ($1.written ?? 0) }
    let flowRecorded = flows.reduce(0) { $0 + ($1.recorded ?? 0) }
    if flowWritten != written {
      problems.append(
        "capture.json's flows write \(flowWritten) packets; packets.written says \(written)")
    }
    if flowRecorded != recorded {
      problems.append(
        "capture.json's flows record \(flowRecorded) packets; packets.recorded says \(recorded)")
    }
    if let files = doc.sourceFiles {
      let fileWritten = files.reduce(0) { $0 + ($1.written ?? 0) }
      let filePackets = files.reduce(0) { $0 + ($1.packets ?? 0) }
      if fileWritten != written {
        problems.append(
          "capture.json's source files gave \(fileWritten) packets; packets.written says \(written)"
        )
      }
      if filePackets + without.notCaptured != recorded {
        problems.append(
          "capture.json's source files hold \(filePackets) packets and \(without.notCaptured) were never captured, not the \(recorded) recorded"
        )
      }
    }
    var flowProblems: [String] = []
    for flow in flows {
      guard let r = flow.recorded, let w = flow.written, let wb = flow.withoutBytes else {
        flowProblems.append(
          "capture.json's flow \(flow.id) lacks recorded, written or withoutBytes")
        continue
      }
      if r != w + wb.total {
        flowProblems.append(
          "capture.json's flow \(flow.id) records \(r) packets, not its written and withoutBytes together (\(w + wb.total))"
        )
      }
      if let count = packetCounts[flow.id], count != r {
        flowProblems.append(
          "flow \(flow.id) has \(count) packets in flows.json; capture.json records \(r)")
      }
      if (packetsInCapture[flow.id] ?? 0) != w {
        flowProblems.append(
          "capture.pcapng holds \(packetsInCapture[flow.id] ?? 0) packets of flow \(flow.id); capture.json says \(w) were written"
        )
      }
    }
    return problems + flowProblems
  }
}
