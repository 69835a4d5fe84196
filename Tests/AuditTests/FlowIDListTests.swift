import XCTest

@testable import AuditRules

/// A check's flow ids held as differences: the ids come back as they went in, whatever their
/// order or size, and two lists are equal when their ids are.
final class FlowIDListTests: XCTestCase {
  func testIdsComeBackInTheOrderAddedWhateverTheirDifferences() {
    var ids: [Int64] = [0, 1, 2, 3, 10, 9, 200, 199, 70_000, -5, .max, .min, .max, 0, 0]
    var state: UInt64 = 7
    for _ in 0..<1_000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      ids.append(Int64(bitPattern: state) >> Int64(state % 64))
    }
    let list = FlowIDList(ids)
    XCTAssertEqual(Array(list), ids)
    XCTAssertEqual(list.count, ids.count)
    XCTAssertEqual(list.map { $0 }, ids)
  }

  func testAListAppendedToAnotherGivesTheIdsOfBoth() {
    var first: FlowIDList = [5, 6, 7]
    let second: FlowIDList = [3, 100, 4]
    first.append(contentsOf: second)
    XCTAssertEqual(first, [5, 6, 7, 3, 100, 4])
    XCTAssertEqual(first.count, 6)
    XCTAssertNotEqual(first, [5, 6, 7, 3, 100])
  }

  func testAnEmptyListHasNoIds() {
    let list = FlowIDList()
    XCTAssertTrue(list.isEmpty)
    XCTAssertEqual(list.count, 0)
    XCTAssertEqual(Array(list), [])
    XCTAssertEqual(list, [])
  }

  func testConsecutiveIdsTakeAByteEach() {
    let list = FlowIDList(Int64(1_000_000)..<1_020_000)
    XCTAssertEqual(list.count, 20_000)
    XCTAssertEqual(list.byteCount, 20_002, "the first id takes three bytes, each next one one")
    XCTAssertEqual(list.first, 1_000_000)
    XCTAssertEqual(Array(list).last, 1_019_999)
  }
}
