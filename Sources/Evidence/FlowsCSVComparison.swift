import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Crypto
import Foundation

/// flows.csv against the flows of flows.json, a row for each flow as the flow is read.
struct FlowsCSVComparison {
  private let rows: CSVRows?
  private var headerHolds = false
  private var problems: [String] = []
  private var compared = 0
  /// The row export writes for the flow being compared, gathered as export gathers it.
  private var line = GatheredBytes()

  /// nil: flows.csv is not in the archive.
  init(_ rows: CSVRows?) {
    self.rows = rows
    headerHolds = rows?.next() == EvidenceFlowsCSV.headers
  }

  /// The flow against the next row: the row flows.csv must have is the one the export writes
  /// for the flow read back from flows.json.
  mutating func compare(_ record: EvidenceFlowRecord.Decoded) {
    guard headerHolds, let rows else { return }
    let registrations = AddressRegistrations(record.registrations)
    // The row export writes, byte for byte, is taken whole; any other is read cell by cell.
    line.bytes.removeAll(keepingCapacity: true)
    EvidenceFlowsCSV.appendRow(
      record.flow, findingIDs: record.findingIDs, registrableDomain: record.registrableDomain,
      registrations: registrations, to: &line)
    if rows.take(ifNextRecordIs: line.bytes) {
      compared += 1
      return
    }
    guard let row = rows.next() else { return }
    let expected = EvidenceFlowsCSV.cells(
      record.flow, findingIDs: record.findingIDs, registrableDomain: record.registrableDomain,
      registrations: registrations)
    defer { compared += 1 }
    let header = EvidenceFlowsCSV.Column.allCases
    guard row.count == header.count else {
      problems.append(
        VerifyWording.csvCells(row: compared + 2, count: row.count, expected: header.count))
      return
    }
    for column in header {
      let cell = EvidenceFlowsCSV.spreadsheetCell(expected[column.rawValue])
      let found = row[column.rawValue]
      guard found != cell else { continue }
      // The duration is a number, which the two files may spell differently.
      if column == .durationSeconds, let value = Double(found), value == Double(cell) {
        continue
      }
      problems.append(
        VerifyWording.csvCellDiffers(
          row: compared + 2, flow: record.flow.id, column: column.identifier, found: found,
          stated: cell))
    }
  }

  /// The check, once every flow was compared: rows left over or missing are counted.
  func check(flowCount: Int) -> BundleVerifier.Check {
    let statement = VerifyWording.csvStatement(flowCount)
    guard let rows else {
      return .init(statement: statement, problems: [VerifyWording.csvUnreadable])
    }
    var count = compared
    // Every row is read, to the end: bytes that are not UTF-8 may come last.
    while rows.next() != nil { count += 1 }
    guard !rows.sawBytesThatAreNotUTF8 else {
      return .init(statement: statement, problems: [VerifyWording.csvUnreadable])
    }
    guard headerHolds else {
      return .init(statement: statement, problems: [VerifyWording.csvHeader])
    }
    var problems = self.problems
    if rows.sawLineEndOtherThanCRLF {
      problems.insert(VerifyWording.csvLineEnds, at: 0)
    }
    if count != flowCount {
      problems.insert(VerifyWording.csvRows(count, flows: flowCount), at: 0)
    }
    return .init(statement: statement, problems: problems)
  }
}
