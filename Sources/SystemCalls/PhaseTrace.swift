import Glibc

/// A command's phases as they end, each with the time since the last (`TUNNELVISION_TRACE=1`):
/// the sink says them; without one a mark costs nothing but the call. Times from the monotonic
/// clock, which a change of the wall clock does not move.
public final class PhaseTrace: @unchecked Sendable {
  let sink: (String, Double) -> Void
  private var last: Double

  public init(_ sink: @escaping (String, Double) -> Void) {
    self.sink = sink
    last = Self.now()
  }

  /// The phase that ends now.
  public func mark(_ name: String) {
    let now = Self.now()
    sink(name, now - last)
    last = now
  }

  /// A part of the phase under way, said with its own time, which does not end it.
  public func note(_ name: String, seconds: Double) { sink(name, seconds) }

  static func now() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
  }
}
