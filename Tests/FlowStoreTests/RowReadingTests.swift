import Foundation
import XCTest

/// No query reads a row of several columns by position: a column is read by its case of a
/// `TableColumns` (or `QueryColumns`) enum, whose place in the select list is the case's own.
/// A read of column 0 alone (`SELECT count(*)`) names no other column to mix it up with.
final class RowReadingTests: XCTestCase {
  func testNoRowIsReadByAPositionPastItsFirstColumn() throws {
    let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")
    let positional = try NSRegularExpression(
      pattern:
        #"(\$0|row)\.(int64|int|string|optionalString|optionalInt64|date|optionalDate|bool|data|isNull)\([1-9][0-9]*\)"#
    )
    var found: [String] = []
    let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!
    for case let file as URL in files where file.pathExtension == "swift" {
      let text = try String(contentsOf: file, encoding: .utf8)
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      where positional.firstMatch(
        in: String(line), range: NSRange(line.startIndex..., in: line)) != nil
      {
        found.append("\(file.lastPathComponent):\(number + 1): \(line)")
      }
    }
    XCTAssertEqual(found, [], found.joined(separator: "\n"))
  }
}
