import AuditDocuments
import Foundation
import XCTest

@testable import Evidence

/// flows.csv compared with flows.json's flows on a thread of its own, in batches: the problems are
/// those of comparing each flow in turn, at the batches' edges and in a last batch left short.
final class FlowsCSVBehindTests: XCTestCase {
  func testComparedBehindInBatchesTheProblemsAreThoseOfComparingEachFlowInTurn() throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Samples/example-health-2.4.0-evidence.zip")
    let archive = try ZipArchiveReader(url: url)
    func entry(_ name: String) throws -> Data {
      try archive.data(try XCTUnwrap(archive.entries.first { $0.name == name }))
    }
    let flows = try XCTUnwrap(BundleVerifier.decodeFlows(try entry("flows.json")))
    XCTAssertEqual(flows.count, 35)
    // The first cell of rows 4, 5, 6 and 36 (flows 3, 4, 5 and 35) changed: in batches of four,
    // the first batch's last two flows, the second's first, and the short last batch's last.
    var lines = String(decoding: try entry("flows.csv"), as: UTF8.self)
      .components(separatedBy: "\r\n")
    for row in [4, 5, 6, 36] { lines[row - 1] = "9" + lines[row - 1] }
    let changed = Data(lines.joined(separator: "\r\n").utf8)

    var inTurn = FlowsCSVComparison(CSVRows(changed))
    for flow in flows { inTurn.compare(flow) }
    let expected = inTurn.check(flowCount: flows.count).problems
    XCTAssertEqual(expected.count, 4, "\(expected)")
    for row in [4, 5, 6, 36] {
      XCTAssertTrue(expected.contains { $0.contains("row \(row)") }, "row \(row): \(expected)")
    }
    for length in [1, 4, 34, 35, 256] {
      let behind = FlowsCSVBehind(FlowsCSVComparison(CSVRows(changed)), batchLength: length)
      for flow in flows { behind.compare(flow) }
      XCTAssertEqual(
        behind.finished().check(flowCount: flows.count).problems, expected, "batches of \(length)")
    }
  }
}
