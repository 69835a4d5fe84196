import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Foundation
import ReportLayout
import TestSupport
import XCTest

/// § The verdict is not the test result: one test per row.
final class SessionAssessmentTests: XCTestCase {
  let catalogue = try! RequirementCatalogueLibrary.catalogue(identifier: "tr-03161-1_3.0")
  let project = AuditProject(
    id: 1, name: "P", bundleIdentifier: nil, catalogueVersion: nil,
    allowlist: [AllowlistEntry(pattern: try! DomainPattern(parsing: "*.example.com"))],
    createdAt: FlowFixture.epoch)
  func session(
    inspection: InspectionConditions = InspectionConditions(
      inspectionEnabled: true, caTrusted: true)
  ) -> AuditSession {
    AuditSession(
      id: 1, projectID: 1, kind: .audit(AppRelease(version: "1", build: "1")),
      environment: FlowFixture.environment,
      inspection: inspection, startedAt: FlowFixture.at(0), endedAt: FlowFixture.at(1000), notes: ""
    )
  }
  /// A tracker list naming tracker.net: the tracker check can look.
  static let trackers = TrackerLists([
    TrackerList(
      identity: TrackerList.Identity(
        name: "Lab list", path: "/lab.txt", sha256: String(repeating: "0", count: 64),
        date: "2026-10-01"), text: "||tracker.net^\n")
  ])
  func verdicts(
    _ flows: [StoredFlow],
    inspection: InspectionConditions = InspectionConditions(
      inspectionEnabled: true, caTrusted: true),
    markers: [SessionMarker] = [], trackers: TrackerLists? = SessionAssessmentTests.trackers
  ) -> [String: RequirementVerdict] {
    let assessment = SessionAssessment(
      catalogue: catalogue, flows: flows, project: project,
      session: session(inspection: inspection), markers: markers, trackers: trackers)
    return Dictionary(
      uniqueKeysWithValues: assessment.requirements.map { ($0.requirement.id, $0.verdict) })
  }
  func tls(
    _ id: Int64, sni: String, version: TLSProtocolVersion = .tls13,
    status: TLSInspectionStatus = .encrypted
  ) -> StoredFlow {
    var f = FlowFixture.tcp(id: id, at: Double(id), sni: sni, status: status)
    f.streamOpening = .tlsHandshake
    f.serverTLS = .negotiated(
      version: version, cipherSuite: 0x1301, fromHelloRetryRequest: false, source: .serverHello)
    return f
  }

  func testARuleThatReadsNoFindingIsOutsideToolScope() {
    let v = verdicts([tls(1, sni: "a.example.com")])
    for id in ["O.Ntwk_6", "O.Ntwk_8"] {
      XCTAssertEqual(v[id], .notAssessed(.outsideToolScope), id)
    }
  }
  func testAContraryFindingContradictsWhateverElseWasSeen() {
    let v = verdicts([
      tls(1, sni: "a.example.com"), tls(2, sni: "a.example.com", version: .tls10),
      tls(3, sni: "tracker.net", status: .inspected),
      tls(4, sni: "b.example.com", status: .notInspectable),
    ])
    XCTAssertEqual(v["O.Ntwk_2"], .contradicted)
    XCTAssertEqual(v["O.Purp_8"], .contradicted)
    XCTAssertEqual(
      v["O.Ntwk_4"], .contradicted, "pinningAbsent against, though pinningObserved supports")
  }
  func testNoContraryFindingAndSatisfiedFlowsOrASupportingFindingIsObservedWithoutContradiction() {
    let v = verdicts([
      tls(1, sni: "a.example.com"), tls(2, sni: "b.example.com", status: .notInspectable),
    ])
    XCTAssertEqual(v["O.Ntwk_2"], .observedWithoutContradiction)
    XCTAssertEqual(v["O.Ntwk_1"], .observedWithoutContradiction)
    XCTAssertEqual(v["O.Purp_8"], .observedWithoutContradiction)
    XCTAssertEqual(v["O.Purp_7"], .observedWithoutContradiction)
    XCTAssertEqual(
      v["O.Ntwk_4"], .observedWithoutContradiction, "a supporting finding, no satisfied flow")
    // Without a tracker list the tracker check could not look: nothing is claimed of O.Purp_7,
    // and O.Purp_8 is no longer "observed without contradiction".
    let bare = verdicts(
      [tls(1, sni: "a.example.com"), tls(2, sni: "b.example.com", status: .notInspectable)],
      trackers: nil)
    XCTAssertEqual(bare["O.Purp_7"], .notAssessed(.nothingObserved))
    XCTAssertEqual(bare["O.Purp_8"], .notAssessed(.nothingObserved))
  }
  func testAHostTheListNamesContradictsO_Purp_7AndO_Purp_8() {
    let v = verdicts([tls(1, sni: "a.example.com"), tls(3, sni: "cdn.tracker.net")])
    XCTAssertEqual(v["O.Purp_7"], .contradicted)
    XCTAssertEqual(v["O.Purp_8"], .contradicted)
  }
  func testAnythingElseIsNothingObserved() {
    let v = verdicts([FlowFixture.udp(port: 53)], inspection: .off)
    XCTAssertEqual(v["O.Ntwk_2"], .notAssessed(.nothingObserved))
    XCTAssertEqual(v["O.Ntwk_1"], .notAssessed(.nothingObserved))
    XCTAssertEqual(v["O.Ntwk_4"], .notAssessed(.nothingObserved))
    XCTAssertEqual(v["O.Purp_3"], .notAssessed(.nothingObserved), "no consent marker")
    XCTAssertEqual(verdicts([])["O.Purp_8"], .notAssessed(.nothingObserved))
  }
  func testTheAssessmentCarriesTheFindingsAgainstAndForEachRequirementAndTheCoverage() throws {
    let assessment = SessionAssessment(
      catalogue: catalogue,
      flows: [
        tls(1, sni: "a.example.com", status: .inspected),
        tls(2, sni: "b.example.com", status: .notInspectable),
      ],
      project: project, session: session(), markers: [])
    let pinning = try XCTUnwrap(assessment.requirements.first { $0.requirement.id == "O.Ntwk_4" })
    XCTAssertEqual(
      pinning.contraryFindings.map(\.evidence), [.pinningAbsent(host: "a.example.com")])
    XCTAssertEqual(
      pinning.supportingFindings.map(\.evidence), [.pinningObserved(host: "b.example.com")])
    XCTAssertEqual(
      pinning.coverage,
      CheckCoverageSummary(
        checks: [.pinning, .certificateValidation], flagged: 2, satisfied: 0, unassessed: 0,
        notApplicable: 0),
      "under the system's trust each is behind a pinning finding")
  }
  /// O.Ntwk_2 citing the TLS version and the encryption checks: both checks' findings count,
  /// and each connection is counted once in its coverage.
  func twoCheckCatalogue() throws -> RequirementCatalogue {
    var object =
      try JSONSerialization.jsonObject(
        with: RequirementCatalogueLibrary.data(identifier: "tr-03161-1_3.0")!) as! [String: Any]
    var list = object["requirements"] as! [[String: Any]]
    let index = try XCTUnwrap(list.firstIndex { $0["id"] as? String == "O.Ntwk_2" })
    list[index]["contraryKinds"] = ["weakTLSVersion", "cleartextTraffic"]
    object["requirements"] = list
    return try RequirementCatalogue(data: JSONSerialization.data(withJSONObject: object))
  }

  func testARequirementMayCiteKindsOfTwoChecksAndCountsEachConnectionOnce() throws {
    let catalogue = try twoCheckCatalogue()
    let rule = try XCTUnwrap(catalogue.requirement(id: "O.Ntwk_2")).rule
    XCTAssertEqual(rule.checks, [.tlsVersion, .encryption])
    var clear = FlowFixture.tcp(id: 3, port: 80, at: 3, sni: nil, status: .plaintext)
    clear.streamOpening = .httpRequest
    let unread = FlowFixture.tcp(id: 4, at: 4, sni: "c.example.com")
    var icmp = FlowFixture.tcp(id: 5, at: 5, status: .plaintext)
    icmp.ipProtocol = .icmp
    let flows = [
      tls(1, sni: "a.example.com"), tls(2, sni: "a.example.com", version: .tls10), clear, unread,
      icmp,
    ]
    let assessment = SessionAssessment(
      catalogue: catalogue, flows: flows, project: project, session: session(), markers: [])
    let ntwk2 = try XCTUnwrap(assessment.requirements.first { $0.requirement.id == "O.Ntwk_2" })
    XCTAssertEqual(ntwk2.verdict, .contradicted)
    XCTAssertEqual(
      ntwk2.contraryFindings.map(\.evidence.kind), [.weakTLSVersion, .cleartextTraffic])
    // Flow 2 (weak) and 3 (clear) stand behind findings; flow 4's TLS answer and opening were not
    // read by either check; flow 1 was looked at by both; flow 5 is neither's.
    XCTAssertEqual(
      ntwk2.coverage,
      CheckCoverageSummary(
        checks: [.tlsVersion, .encryption], flagged: 2, satisfied: 1, unassessed: 1,
        notApplicable: 1))
    XCTAssertEqual(ntwk2.coverage?.total, flows.count, "each connection once")

    let overview = SessionOverview(
      session: session(), projectName: "P", markers: [], connectionCount: flows.count)
    let text = FindingsPresentation.text(assessment, session: overview)
    XCTAssertTrue(
      text.contains(
        "The TLS version and encryption checks looked at 3 connections, could not assess 1 and does not apply to 1."
      ), text)
  }

  func testNoVerdictSentenceSaysPassedCompliantOrFulfilled() {
    let sentences =
      [
        RequirementVerdict.contradicted, .observedWithoutContradiction,
        .notAssessed(.outsideToolScope), .notAssessed(.nothingObserved),
      ]
      .map(EvidenceWording.verdict) + [EvidenceWording.verdictsNote]
    for sentence in sentences {
      for word in EvidenceWording.forbiddenWords {
        XCTAssertNil(
          sentence.range(of: "\\b\(word)\\b", options: [.regularExpression, .caseInsensitive]),
          "\(word) in \(sentence)")
      }
    }
  }
}
