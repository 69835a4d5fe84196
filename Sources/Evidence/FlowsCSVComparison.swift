import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Crypto
import Foundation
import ReportLayout

/// flows.csv against the flows of flows.json, a row for each flow as the flow is read.
struct FlowsCSVComparison {
  private let rows: CSVRows?
  private var headerHolds = false
  private var problems: [String] = []
  private var compared = 0

  /// nil: flows.csv is not in the archive.
  init(_ rows: CSVRows?) {
    self.rows = rows
    headerHolds = rows?.next() == EvidenceFlowsCSV.headers
  }

  /// The flow against the next row: the row flows.csv must have is the one the export writes
  /// for the flow read back from flows.json.
  mutating func compare(_ record: EvidenceFlowRecord.Decoded) {
    guard headerHolds, let row = rows?.next() else { return }
    defer { compared += 1 }
    let header = EvidenceFlowsCSV.Column.allCases
    guard row.count == header.count else {
      problems.append(
        "row \(compared + 2) of flows.csv has \(row.count) cells, not \(header.count)")
      return
    }
    let expected = EvidenceFlowsCSV.cells(record.flow, findingIDs: record.findingIDs)
    for column in header {
      let cell = EvidenceFlowsCSV.spreadsheetCell(expected[column.rawValue])
      let found = row[column.rawValue]
      guard found != cell else { continue }
      // The duration is a number, which the two files may spell differently.
      if column == .durationSeconds, let value = Double(found), value == Double(cell) {
        continue
      }
      problems.append(
        "row \(compared + 2) of flows.csv (flow \(record.flow.id)) has \(column.identifier) “\(found)”; flows.json says “\(cell)”"
      )
    }
  }

  /// The check, once every flow was compared: rows left over or missing are counted.
  func check(flowCount: Int) -> BundleVerifier.Check {
    let statement =
      "flows.csv has a row for each of the \(Quantity.count(flowCount, "flow")), matching flows.json."
    guard let rows else {
      return .init(statement: statement, problems: ["flows.csv is missing or is not UTF-8"])
    }
    var count = compared
    // Every row is read, to the end: bytes that are not UTF-8 may come last.
    while rows.next() != nil { count += 1 }
    guard !rows.sawBytesThatAreNotUTF8 else {
      return .init(statement: statement, problems: ["flows.csv is missing or is not UTF-8"])
    }
    guard headerHolds else {
      return .init(
        statement: statement, problems: ["flows.csv's header row is not the one the format defines"]
      )
    }
    var problems = self.problems
    if rows.sawLineEndOtherThanCRLF {
      problems.insert(
        "flows.csv ends a line otherwise than with CR LF, as RFC 4180 and export do", at: 0)
    }
    if count != flowCount {
      problems.insert("flows.csv has \(count) rows; flows.json has \(flowCount) flows", at: 0)
    }
    return .init(statement: statement, problems: problems)
  }
}
