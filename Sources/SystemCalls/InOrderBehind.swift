import Dispatch

/// Work handed over to a queue of its own and run there in the order it was handed over, while
/// the thread that handed it goes on: a capture's digest, an import's packet rows, verify's
/// comparison of flows.csv. At most two pieces wait, so what they hold stays bounded however fast
/// they come.
public final class InOrderBehind: @unchecked Sendable {
  private let queue: DispatchQueue
  private let room = DispatchSemaphore(value: 2)

  public init(label: String) { queue = DispatchQueue(label: label) }

  /// `work` given what `piece` makes, after every piece handed over before it. `piece` is made
  /// once there is room: no more than two pieces are ever made and waiting.
  public func hand<Piece: Sendable>(
    _ piece: () -> Piece, to work: @escaping @Sendable (Piece) -> Void
  ) {
    room.wait()
    let made = piece()
    queue.async {
      work(made)
      self.room.signal()
    }
  }

  public func hand(_ work: @escaping @Sendable () -> Void) { hand({ () }, to: work) }

  /// What `body` gives, once every piece handed over before has run.
  public func sync<T>(_ body: () throws -> T) rethrows -> T { try queue.sync(execute: body) }
}
