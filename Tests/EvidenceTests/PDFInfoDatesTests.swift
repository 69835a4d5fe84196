import XCTest

@testable import ReportPDF

/// The D: prefix put into the dates of a PDF's tail as cairo 1.16 writes it, the cross-reference
/// table moved with the bytes.
final class PDFInfoDatesTests: XCTestCase {
  /// A tail as cairo ends a file: an object before the Info dictionary, the dictionary, an object
  /// after it, the table and the trailer. `entry` overrides the third object's table entry.
  func tail(thirdEntry entry: String? = nil) -> (bytes: [UInt8], info: Int, after: Int) {
    var text = "1 0 obj\n<< /Type /Catalog >>\nendobj\n"
    let info = text.utf8.count
    text +=
      "2 0 obj\n<< /CreationDate (20261007090000Z)\n   /ModDate (20261007090000Z)\n>>\nendobj\n"
    let after = text.utf8.count
    text += "3 0 obj\n<< /Type /Pages >>\nendobj\n"
    let xref = text.utf8.count
    func offset(_ value: Int) -> String {
      String(repeating: "0", count: 10 - String(value).count) + String(value)
    }
    text += "xref\n0 4\n0000000000 65535 f \n"
    text += "\(offset(0)) 00000 n \n\(offset(info)) 00000 n \n"
    text += (entry ?? "\(offset(after)) 00000 n ") + "\n"
    text += "trailer\n<< /Size 4 /Root 1 0 R /Info 2 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
    return (Array(text.utf8), info, after)
  }

  func testTheDatesArePrefixedAndTheObjectsAfterThemMoveByTwoBytesEach() throws {
    let (bytes, info, after) = tail()
    let edit = try XCTUnwrap(PDFInfoDates.edit(tail: bytes, base: 0))
    let file = Array(bytes[..<edit.offset]) + edit.replacement
    let text = String(decoding: file, as: UTF8.self)
    XCTAssertTrue(
      text.contains("/CreationDate (D:20261007090000Z)\n   /ModDate (D:20261007090000Z)"))
    // Each entry "in use" points at its object in the edited file.
    let table = try XCTUnwrap(text.range(of: "xref\n0 4\n"))
    let entries = text[table.upperBound...].split(separator: "\n").prefix(4)
    let offsets = entries.map { Int($0.prefix(10))! }
    XCTAssertEqual(offsets, [0, 0, info, after + 4])
    for (number, offset) in offsets.enumerated().dropFirst() {
      XCTAssertTrue(text.utf8.dropFirst(offset).starts(with: "\(number) 0 obj".utf8), "\(number)")
    }
    let xref = try XCTUnwrap(text.range(of: "xref\n")).lowerBound.utf16Offset(in: text)
    XCTAssertTrue(text.hasSuffix("startxref\n\(xref)\n%%EOF\n"))
    XCTAssertNil(PDFInfoDates.edit(tail: file, base: 0), "prefixed already: nothing to do")
  }

  func testAnEntryThatIsNotTenDigitsOrWouldOutgrowThemLeavesTheFileAsItIs() {
    XCTAssertNotNil(PDFInfoDates.edit(tail: tail(thirdEntry: "9999999995 00000 n ").bytes, base: 0))
    for entry in [
      "999999999x 00000 n ", "+000000123 00000 n ", " 000000123 00000 n ",
      "9999999996 00000 n ",
    ] {
      XCTAssertNil(PDFInfoDates.edit(tail: tail(thirdEntry: entry).bytes, base: 0), entry)
    }
    // A free entry is not moved, so its number need not fit.
    XCTAssertNotNil(PDFInfoDates.edit(tail: tail(thirdEntry: "9999999999 00000 f ").bytes, base: 0))
  }

  func testTenDigitsReadsOnlyDigits() {
    XCTAssertEqual(PDFInfoDates.tenDigits(Array("0000012345 rest".utf8), at: 0), 12_345)
    XCTAssertEqual(PDFInfoDates.tenDigits(Array("x9999999999".utf8), at: 1), 9_999_999_999)
    XCTAssertNil(PDFInfoDates.tenDigits(Array("00000-2345".utf8), at: 0))
    XCTAssertNil(PDFInfoDates.tenDigits(Array("0000/12345".utf8), at: 0))
    XCTAssertNil(PDFInfoDates.tenDigits(Array("0000:12345".utf8), at: 0))
  }
}
