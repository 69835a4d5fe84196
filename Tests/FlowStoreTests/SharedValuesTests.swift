import Audit
import AuditRules
import AuditWording
import Foundation
import TestSupport
import XCTest

@testable import FlowStore

final class SharedValuesTests: StoreTestCase {
  func testFlowsRepeatingLongNamesReadBackAsWrittenWhetherTheirTextIsSharedOrNot() throws {
    let capture = try store.beginCaptureSession(at: FlowFixture.epoch)
    let project = try store.createAuditProject(AuditProjectDraft(name: "P"), at: FlowFixture.epoch)
      .id
    let session = try store.startAuditSession(
      FlowFixture.sessionDraft(project: project), at: FlowFixture.at(1))
    var written: [StoredFlow] = []
    for i in 0..<40 {
      // Even flows repeat two long names and lists; odd ones are each their own.
      let host =
        i % 2 == 0
        ? "telemetry-\(i % 4).eu-central.example-health.com" : "unique-\(i).tracker.example.org"
      var flow = FlowFixture.tcp(
        at: Double(2 + i), sni: host, deviceAddress: "fd00:1234:5678::2",
        serverAddress: "2001:db8:85a3::\(i % 3)")
      flow.captureSessionID = capture
      flow.dnsName = host
      flow.dnsOtherNames =
        i % 2 == 0
        ? ["cdn.example-health-static.net", "edge.example-health-static.net"]
        : ["only-\(i).example.net"]
      flow.clientTLS = ClientTLSOffer(
        versionsForm: .listed, versions: i % 2 == 0 ? [.tls13, .tls12] : [.tls12],
        alpn: i % 2 == 0 ? ["h2", "http/1.1"] : ["proto-\(i)"])
      flow.id = try store.upsertFlow(flow)
      flow.auditSessionID = session.id
      written.append(flow)
    }
    XCTAssertEqual(try store.flows(inAuditSession: session.id), written)
  }

  func testPastItsLimitTheTableKeepsNothingNewButStillGivesEachValueBack() {
    let shared = SharedValues(limit: 2)
    let names = (0..<6).map { "a-name-longer-than-fifteen-\($0).example" }
    XCTAssertEqual(names.map(shared.string), names)
    XCTAssertEqual(names.map(shared.string), names, "asked again, kept or not")
    let lists = names.map { shared.list($0) { [$0, $0 + ".alias"] } }
    XCTAssertEqual(lists, names.map { [$0, $0 + ".alias"] })
    var made = 0
    _ = shared.versions("772,771") {
      made += 1
      return $0.split(separator: ",").compactMap { UInt16($0) }.map(TLSProtocolVersion.init)
    }
    _ = shared.versions("772,771") { _ in
      made += 1
      return []
    }
    XCTAssertEqual(made, 1, "a list kept is not made again")
  }
}
