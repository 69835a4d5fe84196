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

/// What the bundle says of the project's baseline: which of a finding's hosts it also contacted,
/// and of each flow whether its host was; no verdict changes for it.
final class EvidenceBaselineTests: XCTestCase {
  let catalogue = try! RequirementCatalogueLibrary.catalogue(identifier: "tr-03161-1_3.0")
  let project = AuditProject(
    id: 1, name: "Example Health", bundleIdentifier: nil, catalogueVersion: nil,
    allowlist: [AllowlistEntry(pattern: try! DomainPattern(parsing: "*.example.com"), note: nil)],
    createdAt: FlowFixture.epoch)

  func session(id: Int64, kind: AuditSessionKind, ended: Double?) -> AuditSession {
    AuditSession(
      id: id, projectID: 1, kind: kind, environment: FlowFixture.environment,
      inspection: InspectionConditions(inspectionEnabled: true, caTrusted: true),
      startedAt: FlowFixture.at(0), endedAt: ended.map(FlowFixture.at), notes: "")
  }

  var release: AuditSession {
    session(id: 3, kind: .audit(AppRelease(version: "2", build: "1")), ended: 600)
  }

  func flows() -> [StoredFlow] {
    [
      FlowFixture.tcp(id: 1, at: 1, sni: "Tracker.example.net", status: .inspected),
      FlowFixture.tcp(id: 2, at: 2, sni: "ads.example.org", status: .inspected),
      FlowFixture.tcp(id: 3, at: 3, sni: "api.example.com", status: .inspected),
      FlowFixture.tcp(id: 4, port: 80, at: 4, status: .plaintext),
    ]
  }

  func bundle(_ baseline: EvidenceBaseline?) throws -> EvidenceBundle {
    try EvidenceBundle(
      project: project, session: release, markers: [], flows: flows(), catalogue: catalogue,
      exportedWith: "t", exportedAt: FlowFixture.at(3600), baseline: baseline)
  }

  func testTheBaselineIsTheProjectsLastEndedBaselineAndNoneForABaseline() {
    let first = session(id: 1, kind: .baseline, ended: 100)
    let later = session(id: 2, kind: .baseline, ended: 200)
    let open = session(id: 4, kind: .baseline, ended: nil)
    XCTAssertEqual(EvidenceBaseline.session(for: release, among: [first, later, open])?.id, 2)
    XCTAssertEqual(EvidenceBaseline.session(for: release, among: [first, open])?.id, 1)
    XCTAssertNil(EvidenceBaseline.session(for: release, among: [open, release]))
    XCTAssertNil(EvidenceBaseline.session(for: later, among: [first, later]))
  }

  func testAFindingsHostTheBaselineContactedIsSaidSoAndNoVerdictChanges() throws {
    let baseline = EvidenceBaseline(
      sessionID: 1, hosts: ["tracker.example.net", "api.example.com"])
    let with = try bundle(baseline)
    let without = try bundle(nil)
    XCTAssertEqual(
      with.assessment.requirements.map(\.verdict), without.assessment.requirements.map(\.verdict))
    XCTAssertEqual(with.findings, without.findings)
    let outside = try XCTUnwrap(
      with.findings.firstIndex { $0.evidence == .hostNotInAllowlist(host: "tracker.example.net") })
    XCTAssertEqual(with.baselineHosts[outside], ["tracker.example.net"])
    let other = try XCTUnwrap(
      with.findings.firstIndex { $0.evidence == .hostNotInAllowlist(host: "ads.example.org") })
    XCTAssertEqual(with.baselineHosts[other], [])
    XCTAssertTrue(without.baselineHosts.allSatisfy { $0 == nil })

    // findings.json and flows.json, as a JSON parser reads them.
    let entry = try XCTUnwrap(
      JSONSerialization.jsonObject(
        with: Data(JSONValue.object(["f": with.findingEntry(outside)]).serialized().utf8))
        as? [String: [String: Any]])
    XCTAssertEqual(entry["f"]?["alsoContactedInBaseline"] as? [String], ["tracker.example.net"])
    XCTAssertEqual(
      with.flows.map(with.alsoContactedInBaseline), [true, false, true, nil],
      "the unnamed HTTP flow says null")
    XCTAssertEqual(without.flows.map(without.alsoContactedInBaseline), [nil, nil, nil, nil])
    let session = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(with.sessionDocument.serialized().utf8))
        as? [String: Any])
    let cited = try XCTUnwrap(session["baseline"] as? [String: Any])
    XCTAssertEqual(cited["sessionID"] as? Int, 1)
    XCTAssertEqual(cited["hosts"] as? [String], ["api.example.com", "tracker.example.net"])
    XCTAssertTrue(
      (try XCTUnwrap(
        JSONSerialization.jsonObject(with: Data(without.sessionDocument.serialized().utf8))
          as? [String: Any]))["baseline"] is NSNull)
  }

  func testSessionJSONReadsBackWithItsBaseline() throws {
    let with = try bundle(EvidenceBaseline(sessionID: 1, hosts: ["api.example.com"]))
    let record = try EvidenceSessionRecord(Data(with.sessionDocument.serialized().utf8))
    XCTAssertEqual(record.baseline, with.baseline)
    let without = try EvidenceSessionRecord(Data(try bundle(nil).sessionDocument.serialized().utf8))
    XCTAssertNil(without.baseline)
    var broken = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(with.sessionDocument.serialized().utf8))
        as? [String: Any])
    broken["baseline"] = ["sessionID": 1, "hosts": "api.example.com"]
    XCTAssertThrowsError(
      try EvidenceSessionRecord(JSONSerialization.data(withJSONObject: broken))
    ) { XCTAssertEqual("\($0)", "session.json's baseline.hosts is not a list of host names") }
  }

  func testTheReportSaysWhatTheBaselineAlsoContactedOrThatThereIsNone() throws {
    for (baseline, expected) in [
      (
        EvidenceBaseline(sessionID: 1, hosts: ["tracker.example.net"]) as EvidenceBaseline?,
        "also contacted"
      ),
      (nil, EvidenceReportWording.baseline(nil, session: release, hosts: 0)),
    ] {
      let b = try bundle(baseline)
      let capture = EvidenceCaptureDocument(
        sessionID: 3, snaplen: nil, packets: EvidencePacketTally(), beforeStart: 0, afterEnd: 0,
        sourceFiles: [], flows: [])
      let report = try EvidenceReport(bundle: b, capture: capture.summary, limits: .bundled)
      var texts: [String] = []
      for block in report.sections.flatMap(\.blocks) {
        switch block {
        case .paragraph(let t): texts.append(t)
        case .facts(let f): texts += f.map(\.value)
        case .table(let t): texts += t.rows.flatMap { $0.map(\.text) }
        default: break
        }
      }
      XCTAssertTrue(texts.contains(expected), "\(texts)")
      if baseline == nil {
        XCTAssertEqual(texts.filter { $0 == expected }.count, 1, "said once, on the first page")
      }
    }
  }
}
