import Audit
import AuditDocuments
import XCTest

/// Bytes gathered in a value's own buffer before its array are the bytes appended to an array.
final class GatheredBytesTests: XCTestCase {
  /// CSV lines of cells short and long (past the buffer's 512 bytes), quoted, doubled quotes and
  /// formulas, one after another, as flows.csv's rows are made: the same bytes both ways.
  func testACSVLineGatheredIsTheLineAppendedToAnArray() {
    let long = String(repeating: "MIIB", count: 300)
    let rows: [[String]] = [
      ["1", "tcp", "=SUM(A1)", "a,b", "say \"hi\"", ""],
      [long, "x", long + ",", "-1"],
      (0..<200).map { "cell\($0)" },
      [],
    ]
    var gathered = GatheredBytes(Array("header\r\n".utf8))
    var plain = Array("header\r\n".utf8)
    for (n, row) in rows.enumerated() {
      EvidenceFlowsCSV.appendLine(row, to: &gathered)
      EvidenceFlowsCSV.appendLine(row, to: &plain)
      XCTAssertEqual(gathered.count, plain.count, "after row \(n)")
    }
    XCTAssertEqual(gathered.bytes, plain)
    gathered.bytes.removeAll(keepingCapacity: true)
    EvidenceFlowsCSV.appendLine(["again"], to: &gathered)
    XCTAssertEqual(String(decoding: gathered.bytes, as: UTF8.self), "again\r\n")
  }
}
