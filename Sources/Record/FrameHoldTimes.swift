import Foundation

/// When the recorder took each batch of frames, by its own clock, and how many frames had been
/// read by then: which of the frames held for time order have been held for the hold. A stream
/// time's hold alone lets a stream replayed faster than it was captured go early whenever the
/// recorder drains the pipe before the writer refills it, and the next frame a moment earlier is
/// then refused.
struct FrameHoldTimes {
  private var batches: [(at: Date, through: Int)] = []
  /// The frames read up to this number were taken at least a hold ago.
  private var heldLongEnough = 0

  /// A batch taken at `date`, the frames read now numbering `through`.
  mutating func taken(at date: Date, through: Int) {
    batches.append((date, through))
  }

  /// How many of the frames read were taken at or before `cutoff` (the batches before it
  /// forgotten).
  mutating func readUpTo(takenBy cutoff: Date) -> Int {
    let passed = batches.prefix { $0.at <= cutoff }
    if let last = passed.last { heldLongEnough = last.through }
    batches.removeFirst(passed.count)
    return heldLongEnough
  }
}
