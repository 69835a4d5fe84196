import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Crypto
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

  /// verify re-derives without holding the flows, lets flows.json's go, and only then draws the
  /// report again: what it re-derives and draws must not need them.
  func testTheRederivationHoldsNoFlowsAndTheReportIsDrawnAgainWithoutThem() throws {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let read = BundleReading(
      try ZipArchiveReader(
        url: repository.appendingPathComponent("Samples/example-health-2.4.0-evidence.zip")))
    let flows = try XCTUnwrap(read.flowsReading)
    let findings = try XCTUnwrap(read.findingsReading?.outline)
    let capture = try XCTUnwrap(read.captureReading?.outline)
    XCTAssertFalse(flows.records.isEmpty)
    let rederived = BundleVerifier.rederive(
      session: read.documents[EvidenceBundle.sessionName], flows: flows.records,
      baselineClaims: flows.baselineClaims,
      citations: Dictionary(flows.flows.map { ($0.id, $0.findingIDs) }) { a, _ in a },
      registrableDomains: RegistrableDomains.stated(flows.records, flows.registrableDomains),
      registrations: flows.registrations, scanFiles: [:], findings: findings,
      findingCount: read.findingList.items.count, captureCoverage: capture.coverage,
      digests: read.digests, exchanges: read.exchangeList.items, keyProblems: { _ in [] })
    guard case .derived(let rederivation, let problems, let documents, let after, _) = rederived
    else {
      return XCTFail("the sample bundle was not re-derived: \(rederived)")
    }
    XCTAssertEqual(problems, [])
    XCTAssertEqual(after, [])
    XCTAssertEqual(documents.value, [], "the documents written again are the bundle's")
    XCTAssertFalse(rederivation.bundle.holdsFlows)
    XCTAssertEqual(rederivation.bundle.flows.count, 0)
    XCTAssertEqual(rederivation.bundle.flowIDs, flows.records.map(\.id))
    flows.forgetRecords()
    XCTAssertEqual(flows.records.count, 0)
    let check = BundleVerifier.rederivationCheck(
      rederived, capture: capture.summary, digests: read.digests)
    XCTAssertEqual(check.problems, [])
    XCTAssertTrue(check.made)
  }

  /// capture.json's flows are decoded on capture.pcapng's thread while flows.json is read here:
  /// they are the flows its entry holds, in order.
  func testCaptureJSONsFlowsReadAlongsideAreTheFlowsItsEntryHolds() throws {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let archive = try ZipArchiveReader(
      url: repository.appendingPathComponent("Samples/example-health-2.4.0-evidence.zip"))
    let read = BundleReading(archive)
    let entry = try XCTUnwrap(archive.entries.first { $0.name == EvidenceBundle.captureJSONName })
    var whole = Data()
    try archive.read(entry) { whole.append($0) }
    let stated = try JSONDecoder().decode(VerifiedCapture.self, from: whole).flows
    XCTAssertGreaterThan(stated.count, 10)
    XCTAssertEqual(read.captureFlows.items.map(\.id), stated.map(\.id))
    XCTAssertEqual(read.captureFlows.items.map(\.recorded), stated.map(\.recorded))
    XCTAssertEqual(read.captureRead?.readable, true)
    XCTAssertNil(read.captureRead?.syntax ?? nil)
    XCTAssertNotNil(read.captureReading?.outline)
  }
}

extension BundleVerifierTests {
  /// A document written again has no form problem when its bytes, however handed over, are those
  /// the bundle holds; otherwise its form differs and its keys' problems follow.
  func testADocumentWrittenAgainDiffersOnlyWhenItsBytesDo() {
    let bytes = Array("{\n  \"a\": 1\n}\n".utf8)
    let digests = ["x.json": (UInt64(bytes.count), SHA256Digest.hex(of: Data(bytes)))]
    func problems(_ write: (([UInt8]) -> Void) -> Void) -> [String] {
      BundleVerifier.formProblems(
        "x.json", digests: digests, keyProblems: { ["a key of \($0)"] }, write: write)
    }
    XCTAssertEqual(problems { $0(bytes) }, [])
    XCTAssertEqual(
      problems {
        $0(Array(bytes[..<5]))
        $0(Array(bytes[5...]))
      }, [])
    let differs = [VerifyWording.formDiffers("x.json"), "a key of x.json"]
    XCTAssertEqual(problems { $0(Array("{\"a\":1}\n".utf8)) }, differs)
    XCTAssertEqual(problems { $0(Array(bytes.dropLast())) }, differs)
    XCTAssertEqual(
      BundleVerifier.formProblems("y.json", digests: digests, keyProblems: { _ in [] }) {
        $0(bytes)
      }, [VerifyWording.formDiffers("y.json")], "a document the bundle does not hold")
    XCTAssertEqual(
      BundleVerifier.captureFormProblems(nil, digests: digests),
      [VerifyWording.formDiffers(EvidenceBundle.captureJSONName)])
  }
}
