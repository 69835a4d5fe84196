import AuditDocuments
import ReportModel
import XCTest

/// Enums with a text raw value that are compared and hashed by case (looked up often): each
/// value equals itself alone and keys its own entry.
final class EnumsComparedByCaseTests: XCTestCase {
  func check<E: CaseIterable & Hashable & RawRepresentable>(_: E.Type) where E.RawValue == String {
    let cases = Array(E.allCases)
    for a in cases {
      for b in cases {
        XCTAssertEqual(a == b, a.rawValue == b.rawValue, "\(a) against \(b)")
      }
    }
    XCTAssertEqual(Set(cases).count, cases.count)
    let named = Dictionary(uniqueKeysWithValues: cases.map { ($0, $0.rawValue) })
    for value in cases {
      XCTAssertEqual(named[value], value.rawValue)
      XCTAssertEqual(named[E(rawValue: value.rawValue)!], value.rawValue)
    }
  }

  func testEachReportTextStyleIsItselfAndNoOtherAsAKey() {
    check(EvidenceReportTextStyle.self)
  }

  func testEachReasonAPacketIsMissingIsItselfAndNoOtherAsAKey() {
    check(EvidenceMissingReason.self)
  }
}
