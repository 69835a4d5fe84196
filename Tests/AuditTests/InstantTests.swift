import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import ReportContent
import ReportLayout
import ReportModel
import XCTest

final class InstantTests: XCTestCase {
  func testToTheSecondCutsTheFractionOffEitherSideOf1970() {
    XCTAssertEqual(
      Instant.rfc3339ToTheSecond(Instant.date(microseconds: 1_791_540_000_999_999)),
      "2026-10-09T10:00:00Z")
    XCTAssertEqual(
      Instant.rfc3339ToTheSecond(Date(timeIntervalSince1970: 1_791_540_000)),
      "2026-10-09T10:00:00Z")
    XCTAssertEqual(
      Instant.rfc3339ToTheSecond(Instant.date(microseconds: -500_000)), "1969-12-31T23:59:59Z")
  }

  func testRFC3339WritesOnlyTheSubSecondDigitsThatExist() {
    XCTAssertEqual(
      Instant.rfc3339(Date(timeIntervalSince1970: 1_791_540_000)), "2026-10-09T10:00:00Z")
    XCTAssertEqual(
      Instant.rfc3339(Date(timeIntervalSince1970: 1_791_540_000.25)), "2026-10-09T10:00:00.25Z")
    XCTAssertEqual(
      Instant.rfc3339(Instant.date(microseconds: 1_791_540_000_123_456)),
      "2026-10-09T10:00:00.123456Z")
    XCTAssertEqual(Instant.rfc3339(Date(timeIntervalSince1970: 0)), "1970-01-01T00:00:00Z")
    XCTAssertEqual(
      Instant.rfc3339(Date(timeIntervalSince1970: 951_782_400)), "2000-02-29T00:00:00Z")
  }

  func testNanosecondsRoundTripThroughDateAtTheMicrosecond() {
    for micros: Int64 in [
      0, 1, 999_999, 1_791_540_000_123_456, 1_791_540_000_999_999, 4_102_444_800_000_001,
    ] {
      let date = Instant.date(microseconds: micros)
      XCTAssertEqual(Instant.microseconds(date), micros)
      XCTAssertEqual(Instant.nanoseconds(date), micros * 1000)
    }
  }

  func testParsingReadsWhatIsWrittenAndOffsets() {
    let date = Instant.date(microseconds: 1_791_540_000_123_456)
    XCTAssertEqual(Instant.parseRFC3339(Instant.rfc3339(date)), date)
    XCTAssertEqual(
      Instant.parseRFC3339("2026-10-09T12:00:00+02:00"), Date(timeIntervalSince1970: 1_791_540_000))
    XCTAssertNil(Instant.parseRFC3339("2026-02-30T00:00:00Z"))
    XCTAssertNil(Instant.parseRFC3339("yesterday"))
  }

  func testRFC3339ReadsBackToTheSameMicrosecondForAnyInstantADateHoldsExactly() {
    // Written digit by digit: every field's width and the fraction's trimming must hold. A Date
    // holds microseconds exactly for some centuries around 1970; whole seconds for any year.
    var random = SystemRandomNumberGenerator()
    let from = CivilTime.daysSinceEpoch(year: 1900, month: 1, day: 1) * 86_400_000_000
    let to = CivilTime.daysSinceEpoch(year: 2100, month: 1, day: 1) * 86_400_000_000
    let shape = try! NSRegularExpression(
      pattern: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{0,5}[1-9])?Z$"#)
    for round in 0..<20_000 {
      var micros = Int64.random(in: from...to, using: &random)
      if round % 3 == 0 { micros -= micros % 1_000_000 }
      if round % 5 == 0 { micros -= micros % 1_000 }
      let text = Instant.rfc3339(Instant.date(microseconds: micros))
      XCTAssertEqual(
        shape.numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text)), 1, text)
      XCTAssertEqual(Instant.parseRFC3339(text).map(Instant.microseconds), micros, text)
    }
    let lastSecond = CivilTime.daysSinceEpoch(year: 10_000, month: 1, day: 1) * 86_400 - 1
    XCTAssertEqual(
      Instant.rfc3339(Date(timeIntervalSince1970: Double(lastSecond))), "9999-12-31T23:59:59Z")
    let firstSecond = CivilTime.daysSinceEpoch(year: 1, month: 1, day: 1) * 86_400
    XCTAssertEqual(
      Instant.rfc3339(Date(timeIntervalSince1970: Double(firstSecond))), "0001-01-01T00:00:00Z")
    XCTAssertEqual(
      Instant.rfc3339(Instant.date(microseconds: 1_791_540_000_000_010)),
      "2026-10-09T10:00:00.00001Z")
  }
}
