import Audit
import AuditRules
import AuditWording
import Foundation
import TestSupport
import XCTest

@testable import Evidence

/// verify's cross-check of each flow's recorder run against the runs session.json's coverage
/// lists (the bundle of #41.7: runs [], its flows written by run 1, "Every check holds").
final class BundleVerifierTests: XCTestCase {
  func run(_ id: Int64) -> RecorderRun {
    RecorderRun(
      id: id, source: "gw0", isLive: true, processID: Int32(100 + id),
      startedAt: FlowFixture.at(-10), aliveAt: FlowFixture.at(100))
  }

  func testAFlowWrittenByARunTheCoverageDoesNotListIsNamed() {
    var flows = [FlowFixture.tcp(id: 1), FlowFixture.tcp(id: 2)]
    flows[1].captureSessionID = 2
    XCTAssertEqual(
      BundleVerifier.runProblems(
        flows, coverage: SessionCoverage(basis: .runs, runs: [], gaps: [])),
      [
        "flow 1 of flows.json was written by recorder run 1, but session.json's recording lists no run",
        "flow 2 of flows.json was written by recorder run 2, but session.json's recording lists no run",
      ])
    XCTAssertEqual(
      BundleVerifier.runProblems(
        flows, coverage: SessionCoverage(basis: .runs, runs: [run(1)], gaps: [])),
      [
        "flow 2 of flows.json was written by recorder run 2, but session.json's recording lists only run 1"
      ])
  }

  func testFlowsOfListedRunsAndOfImportedSessionsAgree() {
    var flows = [FlowFixture.tcp(id: 1), FlowFixture.tcp(id: 2)]
    flows[1].captureSessionID = 2
    XCTAssertEqual(
      BundleVerifier.runProblems(
        flows, coverage: SessionCoverage(basis: .runs, runs: [run(1), run(2)], gaps: [])), [])
    XCTAssertEqual(
      BundleVerifier.runProblems(
        flows, coverage: SessionCoverage(basis: .imported, runs: [], gaps: [])), [])
  }
}
