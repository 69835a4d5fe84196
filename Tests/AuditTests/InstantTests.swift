import Audit
import XCTest

final class InstantTests: XCTestCase {
    func testRFC3339WritesOnlyTheSubSecondDigitsThatExist() {
        XCTAssertEqual(Instant.rfc3339(Date(timeIntervalSince1970: 1_791_540_000)), "2026-10-09T10:00:00Z")
        XCTAssertEqual(Instant.rfc3339(Date(timeIntervalSince1970: 1_791_540_000.25)), "2026-10-09T10:00:00.25Z")
        XCTAssertEqual(Instant.rfc3339(Instant.date(microseconds: 1_791_540_000_123_456)), "2026-10-09T10:00:00.123456Z")
        XCTAssertEqual(Instant.rfc3339(Date(timeIntervalSince1970: 0)), "1970-01-01T00:00:00Z")
        XCTAssertEqual(Instant.rfc3339(Date(timeIntervalSince1970: 951_782_400)), "2000-02-29T00:00:00Z")
    }

    func testNanosecondsRoundTripThroughDateAtTheMicrosecond() {
        for micros: Int64 in [0, 1, 999_999, 1_791_540_000_123_456, 1_791_540_000_999_999, 4_102_444_800_000_001] {
            let date = Instant.date(microseconds: micros)
            XCTAssertEqual(Instant.microseconds(date), micros)
            XCTAssertEqual(Instant.nanoseconds(date), micros * 1000)
        }
    }

    func testParsingReadsWhatIsWrittenAndOffsets() {
        let date = Instant.date(microseconds: 1_791_540_000_123_456)
        XCTAssertEqual(Instant.parseRFC3339(Instant.rfc3339(date)), date)
        XCTAssertEqual(Instant.parseRFC3339("2026-10-09T12:00:00+02:00"), Date(timeIntervalSince1970: 1_791_540_000))
        XCTAssertNil(Instant.parseRFC3339("2026-02-30T00:00:00Z"))
        XCTAssertNil(Instant.parseRFC3339("yesterday"))
    }
}
