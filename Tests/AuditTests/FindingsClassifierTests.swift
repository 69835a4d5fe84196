import Audit
import AuditDocuments
import AuditScreens
import AuditWording
import Foundation
import ReportContent
import ReportLayout
import ReportModel
import TestSupport
import XCTest

@testable import AuditRules

final class FindingsClassifierTests: XCTestCase {
  let project = AuditProject(
    id: 1, name: "P", bundleIdentifier: nil, catalogueVersion: nil,
    allowlist: [AllowlistEntry(pattern: try! DomainPattern(parsing: "*.example.com"))],
    createdAt: FlowFixture.epoch)
  func session(
    _ inspection: InspectionConditions = InspectionConditions(
      inspectionEnabled: true, caTrusted: true)
  ) -> AuditSession {
    AuditSession(
      id: 1, projectID: 1, kind: .audit(AppRelease(version: "1", build: "1")),
      environment: FlowFixture.environment,
      inspection: inspection, startedAt: FlowFixture.at(0), endedAt: FlowFixture.at(1000), notes: ""
    )
  }
  let policy = FindingsPolicy(minimumTLSVersion: .tls12)!
  let consent = [SessionMarker(id: 1, sessionID: 1, date: FlowFixture.at(100), kind: .consentGiven)]

  func flows() -> [StoredFlow] {
    var weak = FlowFixture.tcp(id: 1, at: 50, sni: "tracker.net")
    weak.streamOpening = .tlsHandshake
    weak.serverTLS = .negotiated(
      version: .tls10, cipherSuite: 0x002f, fromHelloRetryRequest: false, source: .serverHello)
    var clear = FlowFixture.tcp(id: 2, port: 80, at: 150, sni: nil, status: .plaintext)
    clear.streamOpening = .httpRequest
    clear.dnsName = "api.example.com"
    var pinned = FlowFixture.tcp(id: 3, at: 200, sni: "api.example.com", status: .notInspectable)
    pinned.streamOpening = .tlsHandshake
    var again = FlowFixture.tcp(id: 4, at: 60, sni: "tracker.net")
    again.streamOpening = .tlsHandshake
    again.serverTLS = .negotiated(
      version: .tls10, cipherSuite: 0x002f, fromHelloRetryRequest: false, source: .serverHello)
    return [pinned, clear, weak, again]  // not in the order they happened
  }

  func testFindingsComeInTheOrderThingsHappenedEachWithItsFlows() {
    let result = FindingsClassifier.classify(
      flows: flows(), project: project, session: session(), markers: consent, policy: policy)
    XCTAssertEqual(result.flowIDs, [1, 4, 2, 3])
    XCTAssertEqual(
      result.findings,
      [
        Finding(
          evidence: .weakTLSVersion(TLSVersionObservation(version: .tls10, basis: .serverHello)),
          flowIDs: [1, 4]),
        Finding(evidence: .hostNotInAllowlist(host: "tracker.net"), flowIDs: [1, 4]),
        Finding(evidence: .activityBeforeConsent, flowIDs: [1, 4]),
        Finding(evidence: .cleartextTraffic(.http, host: "api.example.com"), flowIDs: [2]),
        Finding(evidence: .pinningObserved(host: "api.example.com"), flowIDs: [3]),
      ])
    for finding in result.findings { XCTAssertFalse(finding.flowIDs.isEmpty) }
  }

  func testEveryChecksCoverageAddsUpToTheSessionsFlows() {
    let result = FindingsClassifier.classify(
      flows: flows(), project: project, session: session(), markers: consent, policy: policy)
    for report in result.coverageReports {
      XCTAssertEqual(report.total, 4, "\(report.check)")
      let all =
        report.flaggedFlowIDs + report.satisfiedFlowIDs + report.unassessed.flatMap(\.flowIDs)
        + report.notApplicableFlowIDs
      XCTAssertEqual(Set(all), [1, 2, 3, 4], "\(report.check): each flow exactly once")
      XCTAssertEqual(all.count, 4)
    }
    XCTAssertEqual(result.pinning.satisfiedFlowIDs, [], "pinning's satisfied is always empty")
    XCTAssertEqual(
      result.tlsVersion.unassessed, [UnassessedFlows(gap: .serverAnswerNotRead, flowIDs: [3])])
    XCTAssertEqual(result.tlsVersion.notApplicableFlowIDs, [2])
    XCTAssertEqual(result.host.satisfiedFlowIDs, [2, 3])
    XCTAssertEqual(result.consent.satisfiedFlowIDs, [2, 3])
    XCTAssertEqual(
      result.pinning.unassessed, [UnassessedFlows(gap: .noInspectionOutcome, flowIDs: [1, 4])])
  }

  func testFlowsACheckCouldNotAssessAreListedUnderTheirOwnReasonWhenReasonsAlternate() {
    // A reason, another, the first again, a third, the second again: each listed once, in the
    // order first seen, with all its flows.
    func tls(_ id: Int64, at seconds: Double, refusedWith alert: UInt8?) -> StoredFlow {
      var flow = FlowFixture.tcp(id: id, at: seconds, sni: "api.example.com")
      flow.streamOpening = .tlsHandshake
      flow.serverTLS = alert.map { .refused(alert: $0) }
      return flow
    }
    let flows = [
      tls(1, at: 10, refusedWith: 40), tls(2, at: 20, refusedWith: nil),
      tls(3, at: 30, refusedWith: 40), tls(4, at: 40, refusedWith: 70),
      tls(5, at: 50, refusedWith: nil),
    ]
    let result = FindingsClassifier.classify(
      flows: flows, project: project, session: session(), markers: consent, policy: policy)
    XCTAssertEqual(
      result.tlsVersion.unassessed,
      [
        UnassessedFlows(gap: .serverRefused(alert: 40), flowIDs: [1, 3]),
        UnassessedFlows(gap: .serverAnswerNotRead, flowIDs: [2, 5]),
        UnassessedFlows(gap: .serverRefused(alert: 70), flowIDs: [4]),
      ])
  }

  func testFlowsThatBeganAtTheSameInstantComeInTheOrderOfTheirIds() {
    // In the order of their first packets, not of their ids where two began together.
    let flows = [
      FlowFixture.tcp(id: 6, at: 30, sni: "c.example.com"),
      FlowFixture.tcp(id: 7, at: 40, sni: "a.example.com"),
      FlowFixture.tcp(id: 5, at: 40, sni: "b.example.com"),
    ]
    XCTAssertEqual(flows.inSessionOrder().map(\.id), [6, 5, 7])
    XCTAssertEqual([flows[0], flows[2], flows[1]].inSessionOrder().map(\.id), [6, 5, 7])
    XCTAssertEqual([flows[1], flows[2], flows[0]].inSessionOrder().map(\.id), [6, 5, 7])
    let result = FindingsClassifier.classify(
      flows: flows, project: project, session: session(), markers: consent, policy: policy)
    XCTAssertEqual(result.flowIDs, [6, 5, 7])
  }

  func testFlowsClassifiedInPartsGiveWhatTheyGiveInOneInTheSameOrder() {
    // Hosts and outcomes that recur across the parts' boundaries: a finding first seen in the
    // first part takes flows from the second, and gaps come back in later parts.
    var many: [StoredFlow] = []
    for k in 0..<700 {
      for (i, base) in flows().enumerated() {
        let id = Int64(k * 4 + i + 1)
        var flow = FlowFixture.tcp(
          id: id, port: i == 1 ? 80 : 443, at: Double((k * 4 + i) % 997) + Double(k) / 1000,
          sni: base.sni.map { k % 3 == 0 ? $0 : "h\(k % 11).\($0)" },
          status: k % 5 == 0 ? .notInspectable : base.tlsStatus)
        flow.streamOpening = base.streamOpening
        flow.serverTLS = base.serverTLS
        flow.dnsName = base.dnsName
        many.append(flow)
      }
    }
    func classified(_ parts: Int) -> SessionFindings {
      FindingsClassifier.classify(
        flows: many, project: project, session: session(), markers: consent, policy: policy,
        runs: [], baseline: nil, trackers: nil, content: nil, serverScans: [], parts: parts)
    }
    let whole = classified(1)
    XCTAssertGreaterThan(whole.findings.count, 10)
    XCTAssertEqual(
      FindingsClassifier.classify(
        flows: many, project: project, session: session(), markers: consent, policy: policy),
      whole)
    for parts in [2, 3, 7] { XCTAssertEqual(classified(parts), whole, "\(parts) parts") }
    // A part of one flow is run one flow at a time; the others `flowsAtATime` at a time.
    XCTAssertEqual(classified(many.count), whole, "one flow at a time")
  }

  /// The summary as sets of ids count it: each flow once, flagged before not assessed before
  /// looked at, a finding's flows only where they are the session's.
  func summaryBySets(_ findings: SessionFindings, _ checks: [FindingsCheck]) -> [Int] {
    let others = checks.contains { !FindingsChecks.supplementary.contains($0) }
    var flagged = Set<Int64>()
    var unassessed = Set<Int64>()
    var satisfied = Set<Int64>()
    for check in checks {
      flagged.formUnion(findings.flaggedFlowIDs(of: check))
      let coverage = findings.coverage(of: check)
      if !(others && FindingsChecks.supplementary.contains(check)) {
        unassessed.formUnion(coverage.unassessed.flatMap(\.flowIDs))
      }
      satisfied.formUnion(coverage.satisfiedFlowIDs)
    }
    unassessed.subtract(flagged)
    satisfied.subtract(flagged.union(unassessed))
    return [flagged.count, satisfied.count, unassessed.count]
  }

  /// Every share-th of the ids, from a place that differs between shares: lists that overlap.
  func some(_ ids: [Int64], _ share: Int) -> [Int64] {
    var chosen: [Int64] = []
    for (index, id) in ids.enumerated() where index % share == 0 || index % (share + 2) == 1 {
      chosen.append(id)
    }
    return chosen
  }

  /// Findings and coverage of `checks` over flows of the ids, a gap's flows with `beyond` too, a
  /// finding's with `stray`.
  func findings(_ ids: [Int64], _ checks: [FindingsCheck], beyond: [Int64], stray: Int64)
    -> SessionFindings
  {
    let gap = AnyCheckGap(TLSVersionGap.serverAnswerNotRead)
    var coverages: [FindingsCheck: CheckCoverage<AnyCheckGap>] = [:]
    for (index, check) in checks.enumerated() {
      coverages[check] = CheckCoverage(
        satisfiedFlowIDs: FlowIDList(some(ids, 2 + index)),
        unassessed: [UnassessedFlows(gap: gap, flowIDs: FlowIDList(some(ids, 3 + index) + beyond))],
        notApplicableFlowIDs: FlowIDList())
    }
    // `stray`: as a document read from elsewhere may hold.
    let weak = Finding(
      evidence: FindingEvidence(kind: .weakTLSVersion, host: "a"), flowIDs: some(ids, 5))
    let clear = Finding(
      evidence: FindingEvidence(kind: .cleartextTraffic, host: "b"),
      flowIDs: some(ids, 7) + [stray])
    return SessionFindings(findings: [weak, clear], flowIDs: ids, coverages: coverages)
  }

  func testTheCoverageSummaryCountsAlikeWhetherTheIdsLieCloseTogetherOrFarApart() {
    var checks: [FindingsCheck] = [.tlsVersion, .encryption]
    if let supplementary = FindingsChecks.supplementary.sorted(by: { "\($0)" < "\($1)" }).first {
      checks.append(supplementary)
    }
    let count = 600
    // Close together, with a gap's flow far beyond them or none; a million apart; across the
    // whole of Int64; one far from the others.
    let close = (0..<count).map { Int64($0) + 1 }
    // A finding's flow that is not the session's lies between its flows or beyond them.
    let cases: [(ids: [Int64], beyond: [Int64], stray: Int64)] = [
      (close, [], 617), (close.filter { $0 % 10 != 0 }, [], 20), (close, [700_000], 20),
      ((0..<count).map { Int64($0) * 1_000_000 }, [5], 7),
      ((0..<count).map { Int64.min &+ Int64($0) &* (Int64.max / 300) }, [5], 7),
      ([9_000_000_000] + close.dropFirst(), [5], 7),
    ]
    for (index, testCase) in cases.enumerated() {
      let findings = findings(
        testCase.ids, checks, beyond: testCase.beyond, stray: testCase.stray)
      for subset in [checks, [checks[0]], Array(checks.dropFirst())] {
        let summary = findings.summary(of: subset)
        XCTAssertEqual(
          [summary.flagged, summary.satisfied, summary.unassessed],
          summaryBySets(findings, subset), "case \(index), \(subset)")
      }
    }
  }

  func testAPolicyExistsOnlyForAPublishedMinimum() {
    XCTAssertNotNil(FindingsPolicy(minimumTLSVersion: .tls13))
    XCTAssertNil(FindingsPolicy(minimumTLSVersion: TLSProtocolVersion(rawValue: 0x0305)))
  }

  func testAnEmptySessionHasNoFindingsAndEmptyCoverage() {
    let result = FindingsClassifier.classify(
      flows: [], project: project, session: session(), markers: [], policy: policy)
    XCTAssertEqual(result.findings, [])
    XCTAssertTrue(result.coverageReports.allSatisfy { $0.total == 0 })
  }
}
