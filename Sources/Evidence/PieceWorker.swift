import Foundation

/// A thread of its own that does pieces of work one at a time, in the order handed over: the
/// caller hands a piece over and goes on, and waits only to hand over more than `depth` pieces
/// not yet done (`handOver`), or for all of them (`finish`). A thread, not a dispatch queue: the
/// pieces must not wait for a worker of a pool whose workers may all be waiting themselves.
final class PieceWorker: @unchecked Sendable {
  private let condition = NSCondition()
  private var pieces: [() -> Void] = []
  private var working = false
  private var stopped = false

  init() {
    let thread = Thread { [self] in run() }
    thread.name = "tunnelvision piece worker"
    thread.start()
  }

  deinit { stop() }

  /// Waits until fewer than `depth` pieces handed over are not done (by default: every one is
  /// done), then hands this one over.
  func handOver(depth: Int = 1, _ work: @escaping () -> Void) {
    condition.lock()
    while undone >= depth { condition.wait() }
    pieces.append(work)
    condition.broadcast()
    condition.unlock()
  }

  /// How many pieces handed over are not done yet: those handed over before them are (and what
  /// they wrote is then seen by the caller).
  var notDone: Int {
    condition.lock()
    defer { condition.unlock() }
    return undone
  }

  private var undone: Int { pieces.count + (working ? 1 : 0) }

  /// Waits for every piece handed over to be done.
  func finish() {
    condition.lock()
    while undone > 0 { condition.wait() }
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
      while pieces.isEmpty && !stopped { condition.wait() }
      guard !pieces.isEmpty else {
        condition.unlock()
        return
      }
      let work = pieces.removeFirst()
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
