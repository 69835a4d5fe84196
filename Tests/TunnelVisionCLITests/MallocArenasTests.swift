import Foundation
import TestSupport
import XCTest

/// The command allocates from one malloc arena, however many threads an export keeps busy.
final class MallocArenasTests: XCTestCase {
  func testAnExportOnTwoCoresAllocatesFromOneArenaAsItsTraceSays() throws {
    let binary = try TunnelVisionExecutable.url()
    let dir = TemporaryDirectory("arenas")
    let store = dir.url.appendingPathComponent("store").path
    XCTAssertEqual(try ExternalTool.run(binary.path, ["sample", "--store", store])?.status, 0)
    var environment = ProcessInfo.processInfo.environment
    environment["TUNNELVISION_TRACE"] = "1"
    let export = try XCTUnwrap(
      ExternalTool.run(
        binary.path,
        ["--store", store, "export", "3", "-o", dir.url.appendingPathComponent("b.zip").path],
        environment: environment))
    XCTAssertEqual(export.status, 0, export.error)
    let phases = export.error.split(separator: "\n").filter { $0.contains("(resident") }
    // The documents are written on a second thread while the capture is sliced on this one.
    XCTAssertTrue(
      phases.contains { $0.contains("archived the entries before report.pdf") }, export.error)
    for phase in phases { XCTAssertTrue(phase.hasSuffix(", 1 malloc arena)"), String(phase)) }
  }
}
