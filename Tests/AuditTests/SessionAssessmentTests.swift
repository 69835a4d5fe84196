import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Foundation
import ReportContent
import ReportLayout
import ReportModel
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

  /// The session's window (0…1000 s) with a recorder from 0 to 400 and another from 402.7 on:
  /// 2.7 s no recorder saw.
  func gappedCoverage() -> SessionCoverage {
    func run(_ id: Int64, _ from: Double, _ to: Double) -> RecorderRun {
      RecorderRun(
        id: id, source: "gw0", isLive: true, processID: Int32(100 + id),
        startedAt: FlowFixture.at(from), aliveAt: FlowFixture.at(to), endedAt: FlowFixture.at(to),
        end: .interrupted)
    }
    return SessionCoverage.of(
      session(), runs: [run(1, -5, 400), run(2, 402.7, 1200)], runningProcess: nil,
      now: FlowFixture.at(2000), connections: [])
  }

  func testAVerdictThatFoundNothingAgainstARequirementHoldsOnlyWhereRecorded() throws {
    let flows = [tls(1, sni: "a.example.com"), tls(2, sni: "tracker.net")]
    let gapped = SessionAssessment(
      catalogue: catalogue, flows: flows, project: project, session: session(), markers: [],
      trackers: Self.trackers, recording: gappedCoverage())
    func requirement(_ id: String, in a: SessionAssessment) throws -> RequirementAssessment {
      try XCTUnwrap(a.requirements.first { $0.requirement.id == id })
    }
    let ntwk2 = try requirement("O.Ntwk_2", in: gapped)
    XCTAssertEqual(ntwk2.verdict, .observedWithoutContradiction)
    XCTAssertEqual(ntwk2.onlyWhereRecorded?.stretches, 1)
    XCTAssertEqual(try XCTUnwrap(ntwk2.onlyWhereRecorded?.seconds), 2.7, accuracy: 0.001)
    XCTAssertEqual(
      EvidenceWording.verdictMark(ntwk2), "● Observed without contradiction where recorded")
    XCTAssertTrue(
      EvidenceWording.verdict(ntwk2).hasPrefix(
        "Observed without contradiction where recorded (not recorded for 2.7 s): "),
      EvidenceWording.verdict(ntwk2))
    let nothing = try requirement("O.Purp_3", in: gapped)
    XCTAssertEqual(nothing.verdict, .notAssessed(.nothingObserved))
    XCTAssertEqual(
      EvidenceWording.verdict(nothing),
      "Not assessed: nothing this tool looks at for this requirement was observed where the session was recorded (not recorded for 2.7 s)."
    )
    // A contradiction stands whatever was not recorded; a rule outside the tool's scope says so.
    XCTAssertNil(try requirement("O.Purp_8", in: gapped).onlyWhereRecorded)
    XCTAssertEqual(try requirement("O.Purp_8", in: gapped).verdict, .contradicted)
    XCTAssertNil(try requirement("O.Ntwk_6", in: gapped).onlyWhereRecorded)
    // Recorded throughout: the verdicts stand unqualified.
    let whole = SessionAssessment(
      catalogue: catalogue, flows: flows, project: project, session: session(), markers: [],
      trackers: Self.trackers,
      recording: SessionCoverage(basis: .runs, runs: [], gaps: []))
    XCTAssertNil(try requirement("O.Ntwk_2", in: whole).onlyWhereRecorded)
    XCTAssertEqual(
      EvidenceWording.verdictMark(try requirement("O.Ntwk_2", in: whole)),
      "● Observed without contradiction")
    // The screen and its JSON say it too.
    let overview = SessionOverview(
      session: session(), projectName: "P", markers: [], connectionCount: flows.count)
    XCTAssertTrue(
      FindingsPresentation.text(gapped, session: overview).contains(
        "Observed without contradiction where recorded (not recorded for 2.7 s)"))
    let json = FindingsPresentation.json(gapped, session: overview).serialized()
    XCTAssertTrue(json.contains("\"onlyWhereRecorded\": {"), json)
  }

  func testSeveralStretchesAndOneStillGoingOnAreSaidAsSuch() {
    XCTAssertEqual(
      CoverageWording.notRecorded(.init(stretches: 2, seconds: 65)),
      "not recorded for 1 min 5 s in 2 stretches")
    XCTAssertEqual(
      CoverageWording.notRecorded(.init(stretches: 1, seconds: nil)),
      "not recorded for a stretch that still goes on")
  }

  func testNoVerdictSentenceSaysPassedCompliantOrFulfilled() {
    let flowSets: [[StoredFlow]] = [
      [], [tls(1, sni: "a.example.com")], [tls(1, sni: "tracker.net", version: .tls10)],
    ]
    var sentences = [EvidenceWording.verdictsNote]
    for flows in flowSets {
      for recording in [nil, gappedCoverage()] {
        let assessment = SessionAssessment(
          catalogue: catalogue, flows: flows, project: project, session: session(), markers: [],
          trackers: Self.trackers, recording: recording)
        sentences += assessment.requirements.flatMap {
          [EvidenceWording.verdict($0), EvidenceWording.verdictMark($0)]
        }
      }
    }
    XCTAssertGreaterThan(Set(sentences).count, 8)
    for sentence in sentences {
      for word in EvidenceWording.forbiddenWords {
        XCTAssertNil(
          sentence.range(of: "\\b\(word)\\b", options: [.regularExpression, .caseInsensitive]),
          "\(word) in \(sentence)")
      }
    }
  }
}
