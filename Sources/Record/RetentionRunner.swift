import Audit
import AuditRules
import Capture
import FlowStore
import Foundation

/// The storage limits applied beside the recording, not in its way: each pass runs on a thread
/// of its own with a connection of its own, so the recorder goes on writing what it reads (the
/// store's batched pruning holds the write lock one batch at a time). At most one pass runs at
/// a time.
final class RetentionRunner: @unchecked Sendable {
  /// One pass of the limits: the store's directory, the file being written now, and the instant
  /// ages are counted from. Replaceable in tests.
  typealias Pass = @Sendable (URL, RetentionSettings, UInt32?, Date) throws -> RetentionOutcome

  private let condition = NSCondition()
  private var running = false
  private var finished: [Result<RetentionOutcome, Error>] = []
  private let directory: URL
  private let settings: RetentionSettings
  var pass: Pass = { directory, settings, sequence, now in
    let store = try FlowStore(directory: directory, creating: false)
    return try StorageManager(store: store).enforce(settings, recordingSequence: sequence, now: now)
  }

  init(directory: URL, settings: RetentionSettings) {
    self.directory = directory
    self.settings = settings
  }

  /// Starts a pass unless one is running; whether it started.
  @discardableResult
  func start(recordingSequence: UInt32?, now: Date) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    guard !running else { return false }
    running = true
    let (pass, directory, settings) = (self.pass, self.directory, self.settings)
    Thread { [self] in
      let result = Result { try pass(directory, settings, recordingSequence, now) }
      condition.lock()
      finished.append(result)
      running = false
      condition.broadcast()
      condition.unlock()
    }.start()
    return true
  }

  /// The outcomes of the passes that ended since the last call; the first failure thrown.
  func collect() throws -> [RetentionOutcome] {
    condition.lock()
    let results = finished
    finished = []
    condition.unlock()
    return try results.map { try $0.get() }
  }

  /// Waits for the pass under way to end, then collects.
  func finish() throws -> [RetentionOutcome] {
    condition.lock()
    while running { condition.wait() }
    condition.unlock()
    return try collect()
  }
}
