import Audit
import AuditRules
import AuditWording
import Foundation
import TestSupport
import XCTest

/// The server configuration check: what a kept scan found a server to offer is a finding on the
/// connections that reached that server, against O.Ntwk_2; an allowlisted server no scan covers
/// is not assessed for it, without changing the verdict the negotiated parameters give.
final class ServerConfigurationCheckTests: XCTestCase {
  let catalogue = try! RequirementCatalogueLibrary.catalogue(identifier: "tr-03161-1_3.0")
  let project = AuditProject(
    id: 1, name: "P", bundleIdentifier: nil, catalogueVersion: nil,
    allowlist: [AllowlistEntry(pattern: try! DomainPattern(parsing: "*.example.com"))],
    createdAt: FlowFixture.epoch)
  let session = AuditSession(
    id: 1, projectID: 1, kind: .audit(AppRelease(version: "1", build: "1")),
    environment: FlowFixture.environment, inspection: .off, startedAt: FlowFixture.at(0),
    endedAt: FlowFixture.at(1000), notes: "")
  func tls(_ id: Int64, sni: String, server: String) -> StoredFlow {
    var f = FlowFixture.tcp(
      id: id, at: Double(id), sni: sni, serverAddress: server, sourcePort: 50_000 + UInt16(id))
    f.streamOpening = .tlsHandshake
    f.serverTLS = .negotiated(
      version: .tls13, cipherSuite: 0x1302, fromHelloRetryRequest: false, source: .serverHello)
    return f
  }

  /// testssl.sh's real scan of a server offering TLS 1.0 and 1.1 beside 1.2 and 1.3, as if of
  /// 203.0.113.5:443.
  func legacyScan() throws -> ServerScanRun {
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/testssl-3.0.8-legacy-pretty.json")
    var run = try ServerScanReport.read(Data(contentsOf: fixture))
    run.scans[0].address = "203.0.113.5"
    run.scans[0].port = 443
    return run
  }

  var flows: [StoredFlow] {
    var plain = FlowFixture.tcp(
      id: 5, port: 80, at: 5, status: .plaintext, serverAddress: "203.0.113.5", sourcePort: 50_005)
    plain.streamOpening = .httpRequest
    return [
      tls(1, sni: "api.example.com", server: "203.0.113.5"),
      tls(2, sni: "api.example.com", server: "203.0.113.5"),
      tls(3, sni: "other.example.com", server: "198.51.100.7"),
      tls(4, sni: "tracker.net", server: "198.51.100.8"), plain,
    ]
  }

  func assess(_ scans: [ServerScanRun]) -> SessionAssessment {
    SessionAssessment(
      catalogue: catalogue, flows: flows, project: project, session: session, markers: [],
      trackers: SessionAssessmentTests.trackers, serverScans: scans)
  }

  func testWhatAScannedServerOffersIsAFindingOnEachConnectionThatReachedIt() throws {
    let run = try legacyScan()
    let assessment = assess([run])
    let offered = assessment.findings.findings.filter { $0.kind == .serverOffersNotRecommended }
    XCTAssertFalse(offered.isEmpty)
    for finding in offered {
      XCTAssertEqual(finding.flowIDs, [1, 2])
      XCTAssertEqual(finding.evidence.host, "api.example.com")
      XCTAssertEqual(
        finding.evidence.offer?.server, FlowEndpoint(address: "203.0.113.5", port: 443))
      XCTAssertEqual(finding.evidence.offer?.scannedAt, run.startedAt)
    }
    let judge = ServerConfigurationJudge(policy: catalogue.policy, year: session.startYear)
    XCTAssertEqual(offered.compactMap(\.evidence.offer?.observation), judge.judge(run.scans[0]))
    let tls10 = try XCTUnwrap(offered.first)
    XCTAssertEqual(
      EvidenceWording.statement(of: tls10.evidence, minimum: .tls12),
      "TLS 1.0 offered: below the catalogue's TLS minimum, TLS 1.2 (BSI TR-02102-2 (2025-01)). Found by the scan of 203.0.113.5:443 at 2026-12-03T16:59:33Z: what the server offered then, besides what the connection used."
    )
    XCTAssertEqual(
      EvidenceWording.shortStatement(tls10.evidence),
      "Server offers a TLS version below the minimum")
    XCTAssertEqual(
      EvidenceWording.subject(of: tls10.evidence), "TLS 1.0, api.example.com (203.0.113.5:443)")

    let ntwk2 = try XCTUnwrap(assessment.requirements.first { $0.requirement.id == "O.Ntwk_2" })
    XCTAssertEqual(ntwk2.verdict, .contradicted)
    XCTAssertEqual(Set(ntwk2.contraryFindings), Set(offered))
    let coverage = assessment.findings.serverConfiguration
    XCTAssertEqual(coverage.unassessed.map(\.gap), [.notScanned])
    XCTAssertEqual(coverage.unassessed.flatMap(\.flowIDs), [3], "allowlisted, not scanned")
    XCTAssertEqual(coverage.notApplicableFlowIDs, [4, 5], "a tracker's server; no TLS")
  }

  func testAnAllowlistedServerNoScanCoversLeavesTheNegotiatedVerdictStanding() throws {
    let assessment = assess([])
    XCTAssertFalse(assessment.findings.findings.contains { $0.kind == .serverOffersNotRecommended })
    XCTAssertEqual(assessment.findings.serverConfiguration.unassessedCount, 3)
    let ntwk2 = try XCTUnwrap(assessment.requirements.first { $0.requirement.id == "O.Ntwk_2" })
    XCTAssertEqual(ntwk2.verdict, .observedWithoutContradiction)
    XCTAssertEqual(ntwk2.coverage?.unassessed, 0, "the TLS checks looked at every TLS connection")
    XCTAssertEqual(
      ServerConfigurationWording.reason(.notScanned),
      "No scan of the server is kept with the session (tunnelvision scan), so what else it offers is not known."
    )
  }

  func testAServerOfferingOnlyWhatTheTablesRecommendSatisfiesTheCheck() throws {
    var run = try legacyScan()
    var scan = ServerScan(host: "api.example.com", address: "203.0.113.5", port: 443)
    scan.protocols = [.tls11: false, .tls12: true, .tls13: true]
    scan.cipherSuites = [.tls12: [0xC02B], .tls13: [0x1302]]
    run.scans = [scan]
    let assessment = assess([run])
    XCTAssertEqual(assessment.findings.serverConfiguration.satisfiedFlowIDs, [1, 2])
    XCTAssertFalse(assessment.findings.findings.contains { $0.kind == .serverOffersNotRecommended })
  }
}
