import AuditScreens
import XCTest

final class TextColumnsTests: XCTestCase {
  /// A name anyone can choose is cut in a listing, so that it cannot pad every other row to its
  /// length (a 65,000-character SNI made each row of `flows` 65 KB).
  func testACellBeyondItsColumnsMostIsCutWithAnEllipsisAndTheOtherRowsKeepTheirWidth() {
    let long = String(repeating: "a", count: 65_000) + ".example"
    let lines = TextColumns(maximumWidths: [1: 12]).lines([
      ["1", long, "end"], ["2", "short.example", "end"], ["3", "x.example", "end"],
    ])
    XCTAssertEqual(lines[0], "1  aaaaaaaaaaa…  end")
    XCTAssertEqual(lines[1], "2  short.examp…  end")
    XCTAssertEqual(lines[2], "3  x.example     end")
    XCTAssertTrue(lines.allSatisfy { $0.count < 40 })
  }
}
