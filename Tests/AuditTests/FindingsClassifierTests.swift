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
