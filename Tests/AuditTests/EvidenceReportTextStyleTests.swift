import ReportModel
import XCTest

final class EvidenceReportTextStyleTests: XCTestCase {
  /// Styles are compared and hashed by case: each equals itself alone, and a table keyed by style
  /// gives back each style's own entry.
  func testEachStyleIsItselfAndNoOtherAsAKey() {
    let styles = EvidenceReportTextStyle.allCases
    for a in styles {
      for b in styles {
        XCTAssertEqual(a == b, a.rawValue == b.rawValue, "\(a) against \(b)")
      }
    }
    XCTAssertEqual(Set(styles).count, styles.count)
    let named = Dictionary(uniqueKeysWithValues: styles.map { ($0, $0.rawValue) })
    for style in styles {
      XCTAssertEqual(named[style], style.rawValue)
      XCTAssertEqual(named[EvidenceReportTextStyle(rawValue: style.rawValue)!], style.rawValue)
    }
  }
}
