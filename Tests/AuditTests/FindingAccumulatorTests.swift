import XCTest

@testable import AuditRules

/// The classifier's findings in the order first seen, each evidence held once and found again
/// by its hash: evidences whose hashes collide stay apart.
final class FindingAccumulatorTests: XCTestCase {
  let kind = FindingKind(rawValue: FindingsChecks.kindsByName.keys.sorted()[0])!

  func evidence(_ host: String) -> FindingEvidence { FindingEvidence(kind: kind, host: host) }

  func testEvidencesWhoseHashesCollideKeepTheirOwnFlowsInTheOrderFirstSeen() {
    var first = FindingAccumulator()
    first.hash = { _ in 7 }
    for (host, flow) in [("a.example", 1), ("b.example", 2), ("a.example", 3), ("c.example", 4)] {
      first.add(evidence(host), Int64(flow))
    }
    first.add(evidence("b.example"), 5)
    var later = FindingAccumulator()
    later.hash = { _ in 7 }
    later.add(evidence("c.example"), 6)
    later.add(evidence("d.example"), 7)
    later.add(evidence("a.example"), 8)
    first.append(later)
    XCTAssertEqual(
      first.findings.map { [$0.evidence.host ?? ""] + $0.flowIDs.map(String.init) },
      [
        ["a.example", "1", "3", "8"], ["b.example", "2", "5"], ["c.example", "4", "6"],
        ["d.example", "7"],
      ])
  }

  func testTheEvidencesOwnHashesGiveTheSameFindings() {
    var accumulator = FindingAccumulator()
    for (host, flow) in [("a.example", 1), ("b.example", 2), ("a.example", 3)] {
      accumulator.add(evidence(host), Int64(flow))
    }
    XCTAssertEqual(accumulator.findings.map(\.flowIDs), [[1, 3], [2]])
  }
}
