import Capture
import XCTest

final class TimeOrderedFramesTests: XCTestCase {
  static func frame(_ milliseconds: Int64) -> DecodedFrame {
    DecodedFrame(
      microseconds: 1_791_540_000_000_000 + milliseconds * 1_000, linkType: 101, data: [0],
      originalLength: 1)
  }

  func handedOver(_ ordered: inout TimeOrderedFrames, olderThan span: Int64, readUpTo: Int) throws
    -> [Int64]
  {
    var out: [Int64] = []
    try ordered.release(olderThan: span, readUpTo: readUpTo) {
      out.append(($0.microseconds - 1_791_540_000_000_000) / 1_000)
    }
    return out
  }

  func testFramesOldInTheStreamGoOnlyOnceTheyWereReadLongEnoughAgo() throws {
    var ordered = TimeOrderedFrames()
    for ms: Int64 in [0, 100, 400, 1_000] { try ordered.add(Self.frame(ms)) { _ in XCTFail() } }
    XCTAssertEqual(ordered.readCount, 4)
    // By the stream's time (250 ms) the first three could go, but only two were read long ago.
    XCTAssertEqual(try handedOver(&ordered, olderThan: 250_000, readUpTo: 2), [0, 100])
    XCTAssertEqual(try handedOver(&ordered, olderThan: 250_000, readUpTo: 2), [])
    XCTAssertEqual(try handedOver(&ordered, olderThan: 250_000, readUpTo: 4), [400])
    // The latest is never older than itself.
    XCTAssertEqual(try handedOver(&ordered, olderThan: 0, readUpTo: 4), [])
  }

  func testAFrameReadLateButDatedEarlierStaysBehindWhatIsHeld() throws {
    var ordered = TimeOrderedFrames()
    for ms: Int64 in [0, 600, 1_000] { try ordered.add(Self.frame(ms)) { _ in XCTFail() } }
    // Read fourth, dated between the first two: it goes in after 0, and is not yet long held.
    try ordered.add(Self.frame(300)) { _ in XCTFail() }
    XCTAssertEqual(try handedOver(&ordered, olderThan: 250_000, readUpTo: 3), [0])
    XCTAssertEqual(try handedOver(&ordered, olderThan: 250_000, readUpTo: 4), [300, 600])
  }
}
