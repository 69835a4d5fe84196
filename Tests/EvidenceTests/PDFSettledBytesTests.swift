import XCTest

@testable import ReportPDF

/// The bytes cairo writes that the date edit leaves as they are: those before the first date key.
final class PDFSettledBytesTests: XCTestCase {
  /// What `text` cut into pieces at `cuts` passes on, and whether it ended.
  func settled(_ text: String, cutAt cuts: [Int]) -> (passed: String, ended: Bool, count: Int) {
    let bytes = Array(text.utf8)
    var settled = PDFSettledBytes()
    var passed: [UInt8] = []
    var from = 0
    for end in cuts + [bytes.count] where end >= from {
      bytes[from..<end].withUnsafeBytes { settled.take($0) { passed += $0 } }
      from = end
    }
    return (String(decoding: passed, as: UTF8.self), settled.ended, settled.count)
  }

  let file =
    "1 0 obj\n<< /Type /Pages /Count 1 >>\nendobj\n2 0 obj\n<< /Creator (t)\n"
    + "   /CreationDate (20261007090000Z)\n   /ModDate (20261007090000Z)\n>>\nendobj\nxref\n"

  func testEveryByteBeforeTheFirstDateKeyIsPassedOnWhereverThePiecesAreCut() {
    let before = String(file[..<file.range(of: "/CreationDate (")!.lowerBound])
    for first in 0...file.utf8.count {
      for second in [first, first + 1, first + 7, file.utf8.count] {
        let got = settled(file, cutAt: [first, min(second, file.utf8.count)])
        XCTAssertEqual(got.passed, before, "cut at \(first) and \(second)")
        XCTAssertTrue(got.ended, "cut at \(first) and \(second)")
        XCTAssertEqual(got.count, before.utf8.count)
      }
    }
  }

  func testTheModificationDateEndsTheSettledBytesWhenItComesFirst() {
    let text = "<< /ModDate (2026) /CreationDate (2026) >>"
    XCTAssertEqual(settled(text, cutAt: [9]).passed, "<< ")
  }

  func testANearMissIsPassedOnAndABeginningAtTheEndIsHeld() {
    let text = "/CreationDate 1 /CreationDat( /ModDat (x) /Creation"
    let got = settled(text, cutAt: [3, 20])
    XCTAssertEqual(got.passed, "/CreationDate 1 /CreationDat( /ModDat (x) ")
    XCTAssertFalse(got.ended, "the last bytes may begin a key: held, not passed on")
    XCTAssertEqual(settled(text + "Date (", cutAt: []).passed, got.passed)
    XCTAssertEqual(settled(text + "Time (", cutAt: [text.utf8.count]).passed, text + "Time (")
  }

  func testNothingIsPassedOnOnceAKeyWasMet() {
    var settled = PDFSettledBytes()
    var passed = 0
    for piece in ["ab /ModDate (", "more bytes", "/Other"] {
      Array(piece.utf8).withUnsafeBytes { settled.take($0) { passed += $0.count } }
    }
    XCTAssertEqual(passed, 3)
    XCTAssertTrue(settled.ended)
  }
}
