import Foundation
import TestSupport
import XCTest

final class RunningProcessTests: XCTestCase {
  func testAProcessThatIgnoresTheSignalIsKilledAtTheLimitAndThatIsSaid() throws {
    let stubborn = try RunningProcess(
      "/bin/sh", ["-c", "trap '' INT; echo ready; while :; do sleep 1; done"])
    try stubborn.waitForOutput(containing: "ready")
    let start = Date()
    let ended = stubborn.end(SIGINT, within: 0.5)
    XCTAssertLessThan(Date().timeIntervalSince(start), 10)
    XCTAssertNotEqual(ended.status, 0)
    XCTAssertTrue(
      ended.error.contains("ended by the test with SIGKILL: it had not ended 0 s after signal 2"),
      ended.error)
  }

  func testAProcessThatEndsAtTheSignalIsNotSaidToBeKilled() throws {
    let obliging = try RunningProcess("/bin/sh", ["-c", "echo ready; exec sleep 30"])
    try obliging.waitForOutput(containing: "ready")
    let ended = obliging.end(SIGTERM, within: 20)
    XCTAssertEqual(ended.output, "ready\n")
    XCTAssertFalse(ended.error.contains("SIGKILL"), ended.error)
  }
}
