import XCTest

@testable import Evidence

final class FlowPositionsTests: XCTestCase {
  /// Whichever way the ids are held, each is found at its position and any other id is not found.
  func testEveryIdIsFoundAtItsPositionAndNoOtherIdIsFoundWhetherTheIdsLieCloseOrFar() {
    var random = SystemRandomNumberGenerator()
    let close: [Int64] = Array(1_000...1_999).shuffled(using: &random)
    let gappy: [Int64] = stride(from: 5, to: 40_000, by: 7).map { Int64($0) }
    let far: [Int64] = [1, 1 << 40, -(1 << 40), .max, .min, 17]
    for ids in [close, gappy, far, [42], []] {
      let positions = FlowPositions(ids)
      let expected = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
      for (id, at) in expected { XCTAssertEqual(positions[id], at, "id \(id) of \(ids.count)") }
      var probes: [Int64] = [0, -1, .min, .max, 2_000, 999, 40_000, 6]
      for _ in 0..<1_000 { probes.append(Int64.random(in: -50_000...50_000, using: &random)) }
      for id in probes where expected[id] == nil {
        XCTAssertNil(positions[id], "id \(id) is not one of \(ids.count)")
      }
    }
  }
}
