import Foundation
import XCTest

@testable import Evidence

/// flows.csv's rows pulled a piece at a time, as verify pulls them from the archive: the same rows
/// wherever the pieces end, and bytes that are not UTF-8 noticed wherever they are.
final class CSVRowsTests: XCTestCase {
  func rows(_ bytes: [UInt8], pieces size: Int) -> (rows: [[String]], notUTF8: Bool) {
    var start = 0
    let rows = CSVRows {
      guard start < bytes.count else { return nil }
      defer { start += size }
      return Data(bytes[start..<min(start + size, bytes.count)])
    }
    var all: [[String]] = []
    while let row = rows.next() { all.append(row) }
    return (all, rows.sawBytesThatAreNotUTF8)
  }

  func testRowsAreTheSameWhereverThePiecesEnd() {
    let text =
      "id,name,note\r\n1,\"a, b\",\"say \"\"hi\"\"\"\r\n2,Größe,\"two\r\nlines\"\r\n3,,\r\n"
      + "5,x\"y,\"q\"z and more\r\n4,\"\",last"
    let expected: [[String]] = [
      ["id", "name", "note"], ["1", "a, b", "say \"hi\""], ["2", "Größe", "two\r\nlines"],
      ["3", "", ""], ["5", "x\"y", "qz and more"], ["4", "", "last"],
    ]
    for size in [1, 2, 3, 5, 8, 64] {
      let (rows, notUTF8) = rows(Array(text.utf8), pieces: size)
      XCTAssertEqual(rows, expected, "pieces of \(size)")
      XCTAssertFalse(notUTF8)
    }
    XCTAssertEqual(CSVText.parse(text), expected, "given whole")
  }

  func testBytesThatAreNotUTF8AreNoticedInAnyRowAndInsideQuotes() {
    for bytes: [UInt8] in [
      Array("a,b\r\n".utf8) + [0xFF, 0x2C, 0x63, 0x0D, 0x0A],
      Array("a,\"".utf8) + [0xC3, 0x28] + Array("\"\r\n".utf8),
      Array("a\r\nb,c\r\n".utf8) + [0xE2, 0x82],
    ] {
      for size in [1, 3, 100] {
        XCTAssertTrue(rows(bytes, pieces: size).notUTF8, "\(bytes) in pieces of \(size)")
      }
    }
    XCTAssertFalse(
      rows(Array("é,€,😀\r\n".utf8), pieces: 1).notUTF8,
      "multi-byte sequences cut between pieces are still UTF-8")
  }

  /// A record export would write is taken whole wherever the pieces end; any other record, one
  /// the line only begins, and one without CR LF at the end are left to be read cell by cell.
  func testARecordIsTakenWholeOnlyWhenItsBytesAreTheLineGiven() {
    let text = Array("h\r\n1,a\r\n2,b\r\n22,bb\r\n3,c".utf8)
    for size in [1, 2, 3, 5, 64] {
      var start = 0
      let rows = CSVRows {
        guard start < text.count else { return nil }
        defer { start += size }
        return Data(text[start..<min(start + size, text.count)])
      }
      XCTAssertEqual(rows.next(), ["h"])
      XCTAssertTrue(rows.take(ifNextRecordIs: Array("1,a\r\n".utf8)), "pieces of \(size)")
      XCTAssertFalse(rows.take(ifNextRecordIs: Array("2,x\r\n".utf8)))
      XCTAssertEqual(rows.next(), ["2", "b"], "pieces of \(size)")
      XCTAssertFalse(rows.take(ifNextRecordIs: Array("22,bb".utf8)), "not a whole record")
      XCTAssertFalse(rows.take(ifNextRecordIs: Array("2,b\r\n".utf8)))
      XCTAssertTrue(rows.take(ifNextRecordIs: Array("22,bb\r\n".utf8)))
      XCTAssertFalse(rows.take(ifNextRecordIs: Array("3,c\r\n".utf8)), "no CR LF at the end")
      XCTAssertFalse(rows.sawLineEndOtherThanCRLF)
      XCTAssertEqual(rows.next(), ["3", "c"])
      XCTAssertTrue(rows.sawLineEndOtherThanCRLF)
      XCTAssertNil(rows.next())
    }
  }

  /// The source holds an archive entry's inflater and buffers: once it has given its last bytes,
  /// the rows let it go.
  func testWhatTheRowsArePulledFromIsLetGoOnceItHasGivenItsLast() {
    final class Source {
      var pieces = [Data("a,b\r\n".utf8), Data("c,d\r\n".utf8)]
      func next() -> Data? { pieces.isEmpty ? nil : pieces.removeFirst() }
    }
    weak var source: Source?
    let rows: CSVRows = {
      let pulled = Source()
      source = pulled
      return CSVRows { pulled.next() }
    }()
    XCTAssertEqual(rows.next(), ["a", "b"])
    XCTAssertNotNil(source, "more may come")
    XCTAssertEqual(rows.next(), ["c", "d"])
    XCTAssertNil(rows.next())
    XCTAssertNil(source)
    XCTAssertNil(rows.next(), "and nothing is pulled again")
  }
}
