import Foundation

/// A thread of its own that does pieces of work one at a time, in the order handed over: the
/// caller hands a piece over and goes on, and waits only to hand over the next before the last
/// is done (`handOver`), or for all of it (`finish`). A thread, not a dispatch queue: the pieces
/// must not wait for a worker of a pool whose workers may all be waiting themselves.
final class PieceWorker: @unchecked Sendable {
  private let condition = NSCondition()
  private var piece: (() -> Void)?
  private var working = false
  private var stopped = false

  init() {
    let thread = Thread { [self] in run() }
    thread.name = "tunnelvision piece worker"
    thread.start()
  }

  deinit { stop() }

  /// Waits for the piece before to be done, then hands this one over.
  func handOver(_ work: @escaping () -> Void) {
    condition.lock()
    while piece != nil || working { condition.wait() }
    piece = work
    condition.broadcast()
    condition.unlock()
  }

  /// Waits for every piece handed over to be done.
  func finish() {
    condition.lock()
    while piece != nil || working { condition.wait() }
    condition.unlock()
  }

  /// Lets the thread end once the pieces handed over are done.
  func stop() {
    condition.lock()
    stopped = true
    condition.broadcast()
    condition.unlock()
  }

  private func run() {
    while true {
      condition.lock()
      while piece == nil && !stopped { condition.wait() }
      guard let work = piece else {
        condition.unlock()
        return
      }
      piece = nil
      working = true
      condition.unlock()
      work()
      condition.lock()
      working = false
      condition.broadcast()
      condition.unlock()
    }
  }
}
