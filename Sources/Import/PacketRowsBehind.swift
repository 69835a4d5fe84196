import Audit
import FlowStore
import SystemCalls

/// An import's packet rows inserted on a queue of their own while the capture is read again and
/// its files written on the importing thread. The store is touched by one thread at a time:
/// batches run on the queue in order, and anything else the import asks of the store goes
/// through `sync`, after the batches handed over before it.
final class PacketRowsBehind: @unchecked Sendable {
  private let store: FlowStore
  private let behind = InOrderBehind(label: "tunnelvision.import-rows")
  /// The first batch's failure; the batches after it are not inserted. Touched on the queue only.
  private var failure: Error?

  init(_ store: FlowStore) { self.store = store }

  /// Hands `packets` over to be inserted after the batches before them.
  func append(_ packets: [StoredPacket]) {
    behind.hand {
      guard self.failure == nil else { return }
      do { try self.store.appendPackets(packets) } catch { self.failure = error }
    }
  }

  /// `body` given the store once every batch handed over is inserted; the first batch's
  /// failure is thrown instead.
  func sync<T>(_ body: (FlowStore) throws -> T) throws -> T {
    try behind.sync {
      if let failure { throw failure }
      return try body(store)
    }
  }
}
