import CFixedPoint
import Foundation
import ReportPDF
import XCTest

/// Cairo's numbers go through this target's fortified snprintf: every digit must be glibc's.
final class FixedPointTests: XCTestCase {
  /// What glibc's own vsnprintf writes (this target answers only the fortified entry).
  func glibc(_ format: String, _ arguments: [CVarArg], capacity: Int = 64) -> (String, Int32) {
    var buffer = [CChar](repeating: 0x7F, count: max(capacity, 1))
    let length = withVaList(arguments) { vsnprintf(&buffer, capacity, format, $0) }
    return (Self.text(buffer, capacity), length)
  }

  static func text(_ buffer: [CChar], _ capacity: Int) -> String {
    capacity == 0
      ? "" : String(decoding: buffer.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self)
  }

  func here(_ capacity: Int = 64, _ call: (UnsafeMutablePointer<CChar>, Int) -> Int32) -> (
    String, Int32
  ) {
    var buffer = [CChar](repeating: 0x7F, count: max(capacity, 1))
    let length = call(&buffer, capacity)
    return (Self.text(buffer, capacity), length)
  }

  /// Values that round to either side, ties to even, zeros of both signs, the smallest and
  /// largest it formats, and those it leaves to glibc.
  static let chosen: [Double] = [
    0, -0.0, 0.5, 1.5, 2.5, -2.5, 0.125, 0.375, 1e-7, 5e-7, 4.9999995e-7, -1e-7, 0.1, 0.05,
    0.000_000_5, 595.275_590_551_181, 841.889_763_779_528, 0.999_999_5, 9.999_999_5, 123.456_789,
    -72.000_000_5, 1e15, 4_503_599_627_370_495.5, 9_007_199_254_740_992, 9.2e18, 9.3e18, 1e19,
    1e300, -1e300, Double(bitPattern: 1), Double(bitPattern: 0x000F_FFFF_FFFF_FFFF), .infinity,
    -.infinity, .nan,
    Double.greatestFiniteMagnitude, Double.leastNormalMagnitude, Double.leastNonzeroMagnitude,
  ]

  /// Doubles from random bit patterns (every magnitude) and from a page's coordinates.
  static func randomValues(_ count: Int) -> [Double] {
    var generator = SystemRandomNumberGenerator()
    return (0..<count).map { i in
      switch i % 3 {
      case 0: return Double(bitPattern: generator.next())
      case 1: return Double.random(in: -900...900, using: &generator)
      default:
        return Double(Int.random(in: -900_000...900_000, using: &generator)) / 1000
          + Double.random(in: -1e-9...1e-9, using: &generator)
      }
    }
  }

  func testEveryPrecisionIsGlibcsDigitsToTheLast() {
    for value in Self.chosen + Self.randomValues(10_000) {
      for precision in [0, 1, 2, 3, 6, 9, 12, 17, 18] {
        let expected = glibc("%.\(precision)f", [value], capacity: 400)
        let made = here(400) {
          tv_snprintf_precision_double($0, $1, "%.*f", Int32(precision), value)
        }
        XCTAssertEqual(made.0, expected.0, "\(value.bitPattern) at \(precision)")
        XCTAssertEqual(made.1, expected.1, "\(value.bitPattern) at \(precision)")
        // Made here, not by glibc (the calls above would pass through to it just as well).
        let direct = here(400) { tv_fixed_point($0, $1, value, Int32(precision)) }
        if value.isFinite && abs(value) < 0x1p63 {
          XCTAssertEqual(direct.0, expected.0, "\(value.bitPattern) at \(precision), here")
        } else {
          XCTAssertEqual(direct.1, -1, "\(value.bitPattern) is glibc's")
        }
        let written = here(400) { tv_snprintf_double($0, $1, "%.\(precision)f", value) }
        XCTAssertEqual(written.0, expected.0, "\(value.bitPattern) as %.\(precision)f")
      }
      let expected = glibc("%f", [value], capacity: 400)
      XCTAssertEqual(here(400) { tv_snprintf_double($0, $1, "%f", value) }.0, expected.0)
    }
  }

  func testWhatItDoesNotFormatIsLeftToGlibc() {
    for value in [0.5, 1e300, .nan, -.infinity] {
      XCTAssertEqual(tv_fixed_point(nil, 0, value, 19), -1, "a precision above 18")
      for format in ["%5.2f", "%+f", "%e", "%g", "%.19f", "%.25f", "%f%%", " %f"] {
        XCTAssertEqual(
          here(400) { tv_snprintf_double($0, $1, format, value) }.0,
          glibc(format, [value], capacity: 400).0, format)
      }
    }
    for format in ["%x", "%5d", "%-3d", "%ld", "%d%%"] {
      XCTAssertEqual(
        here { tv_snprintf_int($0, $1, format, -42) }.0, glibc(format, [Int32(-42)]).0, format)
    }
    XCTAssertEqual(tv_fixed_point(nil, 0, 1e19, 6), -1, "2^63 and more is glibc's")
    XCTAssertEqual(tv_fixed_point(nil, 0, .nan, 6), -1)
  }

  /// The test binary exports CFixedPoint's __snprintf_chk as the executables do: Cairo's calls in
  /// every report these tests draw go through it.
  func testTheLibrariesCallsReachIt() {
    XCTAssertTrue(EvidenceReportPDF.numbersFormattedHere)
  }

  func testIntegersAreGlibcs() {
    for value: Int32 in [0, 1, -1, 9, 10, -10, 595, 841, 65_535, .max, .min, .max - 1, .min + 1] {
      XCTAssertEqual(here { tv_snprintf_int($0, $1, "%d", value) }.0, glibc("%d", [value]).0)
    }
  }

  /// snprintf's contract: the length it would have written, the text cut to the room with its
  /// NUL, nothing written into no room.
  func testATextCutShortIsCutAsGlibcCutsIt() {
    for capacity in [0, 1, 2, 5, 8, 11] {
      for value in [123.456_789, -0.000_000_4] {
        let expected = glibc("%f", [value], capacity: capacity)
        let made = here(capacity) { tv_snprintf_double($0, $1, "%f", value) }
        XCTAssertEqual(made.0, expected.0, "\(value) into \(capacity)")
        XCTAssertEqual(made.1, expected.1, "\(value) into \(capacity)")
      }
      let int = here(capacity) { tv_snprintf_int($0, $1, "%d", -12_345) }
      XCTAssertEqual(int.0, glibc("%d", [Int32(-12_345)], capacity: capacity).0)
      XCTAssertEqual(int.1, 6)
    }
  }
}
