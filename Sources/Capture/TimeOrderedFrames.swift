import Audit
import AuditRules
import AuditWording
import Crypto
import Foundation

/// Frames handed over in time order from a file that is nearly so: each is held back until
/// `window` frames (or `byteLimit` bytes) follow it, and the earliest goes first. A capture of
/// several interfaces is out of step by a few packets; two captures concatenated are out of order
/// by far more than a window, and that is refused: no flow is ever read from packets out of order.
package struct TimeOrderedFrames {
  package static let window = 512
  static let byteLimit = 4 << 20

  /// The frames held back, earliest first from `head` on (ties in file order).
  private var pending: [(frame: DecodedFrame, number: Int)] = []
  private var head = 0
  private var bytes = 0
  private var read = 0
  private var last: (microseconds: Int64, number: Int)?

  package init() {}

  /// Whether no frame is held back.
  package var isEmpty: Bool { pending.count == head }

  /// The instant of the earliest frame held back (µs): everything before it has been handed over.
  package var earliestHeld: Int64? { isEmpty ? nil : pending[head].frame.microseconds }

  package mutating func add(_ frame: DecodedFrame, _ body: (DecodedFrame) throws -> Void) throws {
    read += 1
    // A time the history cannot hold is the reader's to count as such: it orders nothing.
    guard Instant.storableMicroseconds.contains(frame.microseconds) else { return try body(frame) }
    if let last, frame.microseconds < last.microseconds {
      throw CaptureFileError(
        offset: frame.offset,
        reason: Self.outOfOrder(
          number: read, at: frame.microseconds, before: last.number, at: last.microseconds))
    }
    // In order (nearly always): appended. Otherwise it goes in after the last frame not later.
    if pending.count == head || pending[pending.count - 1].frame.microseconds <= frame.microseconds
    {
      pending.append((frame, read))
    } else {
      var low = head
      var high = pending.count
      while low < high {
        let middle = (low + high) / 2
        if pending[middle].frame.microseconds <= frame.microseconds {
          low = middle + 1
        } else {
          high = middle
        }
      }
      pending.insert((frame, read), at: low)
    }
    bytes += frame.data.count
    while pending.count - head > Self.window || (bytes > Self.byteLimit && pending.count > head) {
      try emit(body)
    }
  }

  package mutating func finish(_ body: (DecodedFrame) throws -> Void) throws {
    while pending.count > head { try emit(body) }
  }

  /// How many frames have been added so far: the number the last one added was read as.
  package var readCount: Int { read }

  /// Hands over the frames held that are dated more than `span` µs before the latest one read and
  /// were among the first `readUpTo` added: a reader that has caught up with its source lets them
  /// go, keeping the last moments in order. The caller says which frames have been held long
  /// enough by its own clock, because a stream replayed faster than it was captured covers a span
  /// of its time between two reads that the reader only seemed to catch up between.
  package mutating func release(
    olderThan span: Int64, readUpTo number: Int, _ body: (DecodedFrame) throws -> Void
  ) throws {
    guard let latest = pending.last?.frame.microseconds, pending.count > head else { return }
    while pending.count > head, pending[head].frame.microseconds < latest - span,
      pending[head].number <= number
    {
      try emit(body)
    }
  }

  private mutating func emit(_ body: (DecodedFrame) throws -> Void) throws {
    let (frame, number) = pending[head]
    head += 1
    bytes -= frame.data.count
    last = (frame.microseconds, number)
    // What was handed over is let go now and then, not shifted out one by one.
    if head >= Self.window {
      pending.removeFirst(head)
      head = 0
    }
    try body(frame)
  }

  static func outOfOrder(
    number: Int, at micros: Int64, before earlier: Int, at earlierMicros: Int64
  )
    -> String
  {
    let seconds = Double(earlierMicros - micros) / 1_000_000
    return
      "packet \(Quantity.grouped(number)) is dated \(Instant.rfc3339(microseconds: micros)), \(JSONText.number((seconds * 1000).rounded() / 1000)) s before packet \(Quantity.grouped(earlier)), which comes before it in the file: the capture is not in time order (captures joined end to end, or interfaces written out of step). Put it in order with 'reordercap FILE SORTED' and import the sorted file"
  }
}
