import Audit
import XCTest

final class ArrayFittingTests: XCTestCase {
  func testAFittedArrayHoldsTheSameElementsWithRoomForNoMore() {
    var grown: [Int64] = []
    for value: Int64 in 0..<5_000 { grown.append(value * 3) }
    XCTAssertGreaterThan(grown.capacity, grown.count + 1_000, "grown by doubling")
    let fitted = grown.fitted()
    XCTAssertEqual(fitted, grown)
    // malloc rounds a block up to its next size class: a few elements at most.
    XCTAssertLessThanOrEqual(fitted.capacity, grown.count + 4)
    XCTAssertEqual([String]().fitted(), [])
  }
}
