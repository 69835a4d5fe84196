import Dispatch

/// A value worked out on another thread while this one goes on; `value` waits for it. What the
/// work reads must not change until then: the caller hands over values it no longer writes.
final class Alongside<Value>: @unchecked Sendable {
  private let done = DispatchGroup()
  private var result: Value?

  init(_ work: @escaping () -> Value) {
    let handed = Handed(work: work)
    DispatchQueue.global().async(group: done) { self.result = handed.work() }
  }

  var value: Value {
    done.wait()
    return result!
  }

  private struct Handed: @unchecked Sendable { let work: () -> Value }
}
