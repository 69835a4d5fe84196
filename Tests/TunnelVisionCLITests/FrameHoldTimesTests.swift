import Foundation
import XCTest

@testable import Record

final class FrameHoldTimesTests: XCTestCase {
  func testTheFramesHeldLongEnoughAreThoseOfTheBatchesTakenByTheCutoff() {
    let t0 = Date(timeIntervalSince1970: 1_791_540_000)
    var times = FrameHoldTimes()
    XCTAssertEqual(times.readUpTo(takenBy: t0), 0, "nothing taken yet")
    times.taken(at: t0, through: 10)
    times.taken(at: t0 + 0.1, through: 25)
    times.taken(at: t0 + 0.3, through: 40)
    XCTAssertEqual(times.readUpTo(takenBy: t0 - 0.01), 0)
    XCTAssertEqual(times.readUpTo(takenBy: t0 + 0.2), 25)
    // What was held long enough stays so when no further batch has passed the cutoff.
    XCTAssertEqual(times.readUpTo(takenBy: t0 + 0.25), 25)
    XCTAssertEqual(times.readUpTo(takenBy: t0 + 0.3), 40)
    times.taken(at: t0 + 0.5, through: 41)
    XCTAssertEqual(times.readUpTo(takenBy: t0 + 0.4), 40)
  }
}
