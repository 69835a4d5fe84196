import AuditDocuments
import AuditRules
import XCTest

final class FindingCitationsTests: XCTestCase {
  let findings = [
    Finding(evidence: .hostNotInAllowlist(host: "tracker.net"), flowIDs: [7, 3]),
    Finding(evidence: .activityBeforeConsent, flowIDs: [3, 12, 3]),
    Finding(evidence: .cleartextTraffic(.http, host: "api.example.com"), flowIDs: [12]),
  ]

  func testAFlowIsCitedByTheFindingsThatNameItInTheirOrder() {
    let citations = FindingCitations(findings)
    XCTAssertEqual(citations.identifiers(ofFlow: 3), ["F1", "F2", "F2"])
    XCTAssertEqual(citations.identifiers(ofFlow: 7), ["F1"])
    XCTAssertEqual(citations.identifiers(ofFlow: 12), ["F2", "F3"])
    XCTAssertEqual(Array(citations.places(ofFlow: 12)), [1, 2])
  }

  func testAFlowNoFindingNamesIsCitedByNone() {
    let citations = FindingCitations(findings)
    for id: Int64 in [-1, 0, 4, 8, 13, .max] {
      XCTAssertEqual(citations.identifiers(ofFlow: id), [], "flow \(id)")
    }
    XCTAssertEqual(FindingCitations([]).identifiers(ofFlow: 3), [])
  }

  func testTheCitationsOfFindingsGivenInAnotherOrderFollowThatOrder() {
    let citations = FindingCitations(findings.reversed())
    XCTAssertEqual(citations.identifiers(ofFlow: 12), ["F1", "F2"])
    XCTAssertEqual(citations.identifiers(ofFlow: 7), ["F3"])
  }
}
