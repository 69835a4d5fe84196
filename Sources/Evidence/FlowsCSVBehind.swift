import AuditDocuments
import SystemCalls

/// flows.csv compared with flows.json's flows on a thread of its own, a batch at a time and in
/// the flows' order, while the reading thread goes on parsing flows.json: the comparison was a
/// third of that thread's time on the flows.
final class FlowsCSVBehind: @unchecked Sendable {
  /// Touched on the queue only.
  private var comparison: FlowsCSVComparison
  /// The flows handed over are held until they are compared.
  private let behind = InOrderBehind(label: "tunnelvision.verify-flows-csv")
  private var batch: [EvidenceFlowRecord.Decoded] = []
  private let batchLength: Int

  init(_ comparison: FlowsCSVComparison, batchLength: Int = 256) {
    self.comparison = comparison
    self.batchLength = max(batchLength, 1)
  }

  /// The flow compared with its row after the flows handed over before it.
  func compare(_ record: EvidenceFlowRecord.Decoded) {
    batch.append(record)
    if batch.count == batchLength { handOver() }
  }

  private func handOver() {
    let records = batch
    batch = []
    behind.hand { for record in records { self.comparison.compare(record) } }
  }

  /// The comparison once every flow handed over is compared.
  func finished() -> FlowsCSVComparison {
    if !batch.isEmpty { handOver() }
    return behind.sync { comparison }
  }
}
