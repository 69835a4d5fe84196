import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Crypto
import Foundation

/// The four documents as jobs either core can take: the second core starts on them, the first
/// takes what is left once the capture is sliced, so that the report (drawn on the second core)
/// need not wait for all four.
final class EvidenceDocumentQueue: @unchecked Sendable {
  /// The largest first.
  static let order = [
    EvidenceBundle.flowsName, EvidenceBundle.findingsName, EvidenceBundle.exchangesName,
    EvidenceBundle.sessionName, EvidenceBundle.flowsCSVName,
  ]

  struct Done {
    let file: Result<WrittenFile, Error>
    let seconds: TimeInterval
    let onSecondCore: Bool
  }

  private let bundle: EvidenceBundle
  private let folder: URL
  private let flows: EvidenceExporter.FlowSource
  private var pending = EvidenceDocumentQueue.order
  private var done: [String: Done] = [:]
  private let lock = NSLock()
  private let running = DispatchGroup()

  init(bundle: EvidenceBundle, folder: URL, flows: @escaping EvidenceExporter.FlowSource) {
    self.bundle = bundle
    self.folder = folder
    self.flows = flows
  }

  /// Writes the next document not yet taken; false when none is left.
  func writeNext(onSecondCore: Bool) -> Bool {
    lock.lock()
    guard !pending.isEmpty else {
      lock.unlock()
      return false
    }
    let name = pending.removeFirst()
    running.enter()
    lock.unlock()
    let start = Date()
    let file = Result {
      try EvidenceExporter.writeDocument(name, of: bundle, flows: flows, into: folder)
    }
    lock.lock()
    done[name] = Done(
      file: file, seconds: Date().timeIntervalSince(start), onSecondCore: onSecondCore)
    lock.unlock()
    running.leave()
    return true
  }

  /// Writes what is left, waits for what the other core took, and gives the files in `order`
  /// (or the first failure) with how each was made.
  func finish() throws -> [(name: String, done: Done)] {
    while writeNext(onSecondCore: false) {}
    running.wait()
    let all = Self.order.map { ($0, done[$0]!) }
    for (_, d) in all { _ = try d.file.get() }
    return all
  }
}
