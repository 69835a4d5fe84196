import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Crypto
import Foundation

/// The five documents as jobs either core can take: the second core starts on them, the first
/// takes what is left once the capture is sliced, so that the report (drawn on the second core)
/// need not wait for all of them.
final class EvidenceDocumentQueue: @unchecked Sendable {
  /// The largest first. flows.json and flows.csv are one job, one reading of the flows for both:
  /// the first core slices the capture meanwhile, so the two were written one after the other on
  /// the second core anyway, each reading the flows from the history.
  static let jobs = [
    [EvidenceBundle.flowsName, EvidenceBundle.flowsCSVName], [EvidenceBundle.findingsName],
    [EvidenceBundle.exchangesName], [EvidenceBundle.sessionName],
  ]

  /// How a job was done, for the trace.
  struct Done {
    let seconds: TimeInterval
    let onSecondCore: Bool
  }

  /// Let go once every job is done: the report is drawn after, without the bundle.
  private var bundle: EvidenceBundle?
  private let folder: URL
  private var flows: EvidenceExporter.FlowSource?
  private let deflation: EvidenceFileWriter.Deflation
  private var pending = EvidenceDocumentQueue.jobs
  private var done: [[String]: (files: Result<[WrittenFile], Error>, Done)] = [:]
  private let lock = NSLock()
  private let running = DispatchGroup()

  /// `deflation`: when the documents are deflated for the archive.
  init(
    bundle: EvidenceBundle, folder: URL, flows: @escaping EvidenceExporter.FlowSource,
    deflation: EvidenceFileWriter.Deflation
  ) {
    self.bundle = bundle
    self.folder = folder
    self.flows = flows
    self.deflation = deflation
  }

  /// Writes the next job not yet taken; false when none is left.
  func writeNext(onSecondCore: Bool) -> Bool {
    lock.lock()
    guard !pending.isEmpty else {
      lock.unlock()
      return false
    }
    let job = pending.removeFirst()
    running.enter()
    lock.unlock()
    let start = Date()
    let files = Result {
      try EvidenceExporter.writeDocuments(
        job, of: bundle!, flows: flows!, into: folder, deflation: deflation)
    }
    let seconds = Date().timeIntervalSince(start)
    lock.lock()
    done[job] = (files, Done(seconds: seconds, onSecondCore: onSecondCore))
    lock.unlock()
    running.leave()
    return true
  }

  /// Writes what is left, waits for what the other core took, and gives the files in the jobs'
  /// order (or the first failure), each job with how it was made under its documents' names.
  func finish() throws -> (files: [WrittenFile], jobs: [(names: [String], done: Done)]) {
    while writeNext(onSecondCore: false) {}
    running.wait()
    lock.lock()
    bundle = nil
    flows = nil
    lock.unlock()
    var files: [WrittenFile] = []
    var jobs: [(names: [String], done: Done)] = []
    for job in Self.jobs {
      let (written, how) = done[job]!
      files += try written.get()
      jobs.append((job, how))
    }
    return (files, jobs)
  }
}
