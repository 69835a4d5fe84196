import Capture
import Foundation

/// Frames from the capture's thread to the recorder's, in order. Bounded: a reader ahead of the
/// recorder waits (a stream is held back, not dropped; a live capture's kernel buffer fills and
/// pcap_stats counts what it drops).
final class FrameQueue: @unchecked Sendable {
  private let condition = NSCondition()
  private var frames: [DecodedFrame] = []
  private var end: PacketCapture.End?
  private var takerWaits = false, giverWaits = false
  let capacity: Int

  init(capacity: Int = 8192) { self.capacity = capacity }

  func give(_ frame: DecodedFrame) {
    condition.lock()
    defer { condition.unlock() }
    while frames.count >= capacity, end == nil {
      giverWaits = true
      condition.wait()
    }
    giverWaits = false
    frames.append(frame)
    if takerWaits { condition.broadcast() }
  }

  /// No frame comes after this.
  func finish(_ how: PacketCapture.End) {
    condition.lock()
    defer { condition.unlock() }
    if end == nil { end = how }
    condition.broadcast()
  }

  /// The frames given so far (at most `limit`), waiting until `deadline` for one; and how the
  /// capture ended once every frame has been taken.
  func take(limit: Int, waitingUntil deadline: Date) -> ([DecodedFrame], PacketCapture.End?) {
    condition.lock()
    defer { condition.unlock() }
    while frames.isEmpty, end == nil {
      takerWaits = true
      if !condition.wait(until: deadline) { break }
    }
    takerWaits = false
    var taken: [DecodedFrame]
    if frames.count <= limit {
      taken = []
      swap(&taken, &frames)
    } else {
      taken = Array(frames.prefix(limit))
      frames.removeFirst(limit)
    }
    if giverWaits { condition.broadcast() }
    return (taken, frames.isEmpty ? end : nil)
  }
}
