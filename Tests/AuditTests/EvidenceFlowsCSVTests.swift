import Audit
import AuditDocuments
import Foundation
import TestSupport
import XCTest

final class EvidenceFlowsCSVTests: XCTestCase {
  /// Flows of every reading, and such cells as need quotes, an apostrophe or many digits.
  static var flows: [StoredFlow] {
    var flows = FlowFixture.everyReading
    var odd = FlowFixture.tcp(id: 41, sni: "=cmd|' /C calc'!A0", status: .plaintext)
    odd.httpHost = "a,\"b\""
    odd.dnsName = "-lead"
    odd.dnsOtherNames = ["x.example", "y,z.example"]
    odd.bytesOut = .max
    odd.bytesIn = UInt64(Int64.max) + 1
    odd.lastSeen = Instant.date(microseconds: Instant.microseconds(odd.firstSeen) + 123_450)
    flows.append(odd)
    var early = FlowFixture.udp(id: .max, at: -1_791_540_000)
    early.dnsOtherNames = ["@only"]
    flows.append(early)
    return flows
  }

  static let registrations = AddressRegistrations(
    ["93.184.216.34": AddressRegistration(country: "US", asn: .max, organisation: "Edge, Inc.")],
    addresses: ["10.0.0.2", "93.184.216.34"])

  func testARowWrittenAsBytesIsTheLineOfItsCells() {
    for registrations in [AddressRegistrations(), Self.registrations] {
      for flow in Self.flows {
        for findingIDs in [[], ["F-1"], ["F-1", "F-22"]] {
          let cells = EvidenceFlowsCSV.cells(
            flow, findingIDs: findingIDs, registrableDomain: "example.com",
            registrations: registrations)
          XCTAssertEqual(cells.count, EvidenceFlowsCSV.headers.count)
          var bytes: [UInt8] = []
          EvidenceFlowsCSV.appendRow(
            flow, findingIDs: findingIDs, registrableDomain: "example.com",
            registrations: registrations, to: &bytes)
          XCTAssertEqual(
            String(decoding: bytes, as: UTF8.self), EvidenceFlowsCSV.line(cells), "flow \(flow.id)")
        }
      }
    }
  }

  func testNumbersAndInstantsAreSpelledAsTheirTextWithoutAString() {
    let flow = Self.flows.first { $0.id == 41 }!
    let cells = EvidenceFlowsCSV.cells(flow, findingIDs: [])
    let column = { (c: EvidenceFlowsCSV.Column) in cells[c.rawValue] }
    XCTAssertEqual(column(.bytesOut), "18446744073709551615")
    XCTAssertEqual(column(.bytesIn), "9223372036854775808")
    XCTAssertEqual(column(.firstSeen), "2026-10-09T10:00:00Z")
    XCTAssertEqual(column(.lastSeen), "2026-10-09T10:00:00.12345Z")
    XCTAssertEqual(column(.durationSeconds), "0.12345")
    XCTAssertEqual(column(.sni), "=cmd|' /C calc'!A0")
    for value: Int64 in [0, 7, -7, 10, 1_000_000, .max, .min] {
      let spelled = JSONText.withDigits(negative: value < 0, magnitude: value.magnitude) {
        String(decoding: $0, as: UTF8.self)
      }
      XCTAssertEqual(spelled, String(value))
    }
  }
}
