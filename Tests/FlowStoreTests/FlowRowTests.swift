import Foundation
import XCTest

@testable import FlowStore

final class FlowRowTests: XCTestCase {
  func testACodeListReadsBackAsWrittenAndReadsAsSplittingAndParsingEachPieceWould() {
    let lists: [[UInt16]] = [[], [0], [4865, 4866, 4867, 49195], [65535, 1, 10, 100]]
    for list in lists {
      XCTAssertEqual(FlowRow.codes(from: FlowRow.codes(list)), list)
    }
    for text in [
      "1,,2", ",5,", "65536,7", "70000000000,8", "x,9", "1x,10", "007,11", "12,", " 13,14", "",
      "-1,15",
    ] {
      XCTAssertEqual(
        FlowRow.codes(from: text),
        text.split(separator: ",").compactMap { UInt16($0) },
        "\(text)")
    }
    XCTAssertEqual(FlowRow.codes(from: nil), [])
  }
}
