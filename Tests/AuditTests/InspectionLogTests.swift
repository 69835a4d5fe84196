import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Foundation
import ReportContent
import ReportLayout
import ReportModel
import XCTest

final class InspectionLogTests: XCTestCase {
  func line(
    client: Int = 40000, proxy: Int? = 8080, serverPeer: Int = 443, start: Double = 1_800_000_000,
    handshake: String = "established", requests: Int = 1, error: String? = nil
  ) -> String {
    var o: [String: Any] = [
      "format": 1, "start": start, "end": start + 1,
      "client": ["address": "::ffff:10.0.0.2", "port": client],
      "server": [
        "address": "api.example-health.de", "port": 443,
        "peer": ["address": "192.0.2.7", "port": serverPeer], "tlsVersion": "TLSv1.2",
        "cipherCode": 0xC02F,
      ] as [String: Any],
      "sni": "api.example-health.de", "clientHandshake": handshake, "requests": requests,
    ]
    if let proxy { o["proxy"] = ["address": "10.0.0.1", "port": proxy] }
    if let error { o["error"] = error }
    return String(decoding: try! JSONSerialization.data(withJSONObject: o), as: UTF8.self)
  }

  func testTheOutcomeIsReadFromTheHandshakeAndTheRequests() throws {
    let text = [
      line(requests: 2), line(handshake: "failed", requests: 0),
      line(requests: 0), line(requests: 0, error: "connection reset"),
      line(handshake: "started", requests: 0),
    ].joined(separator: "\n")
    let entries = try InspectionLog.parse(Data(text.utf8)).entries
    XCTAssertEqual(
      entries.map(\.outcome), [.inspected, .notInspectable, .closedAfterHandshake, nil, nil])
    XCTAssertEqual(entries[0].serverTLSVersion, .tls12)
    XCTAssertEqual(entries[0].serverCipher, 0xC02F)
  }

  func testALineThatIsNotAnEntryIsNamedByItsNumber() {
    let cases = [
      ("{\"format\": 3}", "its format is 3; this tunnelvision reads formats 1 to 2"),
      (
        "{\"format\": 2, \"type\": \"other\"}",
        "its type is not connection, exchange, message or start"
      ),
      ("not json", "it is not JSON"),
      ("[1]", "it is not a JSON object"),
      (
        line().replacingOccurrences(of: "\"established\"", with: "\"maybe\""),
        "clientHandshake is not started, established or failed"
      ),
    ]
    for (bad, reason) in cases {
      XCTAssertThrowsError(try InspectionLog.parse(Data((line() + "\n\n" + bad + "\n").utf8))) {
        XCTAssertEqual($0 as? InspectionLog.Problem, InspectionLog.Problem(line: 3, reason: reason))
      }
    }
  }

  func candidate(_ devicePort: UInt16, _ other: String, _ otherPort: UInt16, first: Int64)
    -> InspectionJoin.Candidate
  {
    InspectionJoin.Candidate(
      peers: FlowPeers(
        FlowEndpoint(address: "10.0.0.2", port: devicePort),
        FlowEndpoint(address: other, port: otherPort)),
      isTCP: true, first: first, last: first + 500_000)
  }

  func testALineJoinsTheFlowOfItsEndsThatWasOpenWhileItsConnectionWas() throws {
    let at: Int64 = 1_800_000_000_000_000
    let entries = try InspectionLog.parse(
      Data(
        [line(), line(client: 40001, proxy: nil), line(client: 40002)].joined(separator: "\n").utf8)
    ).entries
    let join = InspectionJoin(
      entries,
      flows: [
        // The same ephemeral port an hour earlier, then the connection itself (explicit mode).
        candidate(40000, "10.0.0.1", 8080, first: at - 3_600_000_000),
        candidate(40000, "10.0.0.1", 8080, first: at + 100_000),
        // Transparent mode: device ↔ server.
        candidate(40001, "192.0.2.7", 443, first: at),
      ])
    XCTAssertEqual(join.entries.keys.sorted(), [1, 2])
    XCTAssertEqual(join.unjoined.map(\.line), [3], "no flow from port 40002: counted, not guessed")
    let flow = StoredFlow(
      ipProtocol: .tcp,
      peers: FlowPeers(
        FlowEndpoint(address: "10.0.0.2", port: 40000),
        FlowEndpoint(address: "10.0.0.1", port: 8080)),
      firstSeen: Date(), lastSeen: Date(), tlsStatus: .encrypted)
    let applied = InspectionJoin.applying(try XCTUnwrap(join.entries[1]), to: flow)
    XCTAssertEqual(applied.tlsStatus, .inspected)
    XCTAssertEqual(applied.tlsStatusBasis, .inspection)
    XCTAssertEqual(
      applied.serverTLS,
      .negotiated(
        version: .tls12, cipherSuite: 0xC02F, fromHelloRetryRequest: false,
        source: .upstreamConnection))
  }

  func testAConnectionClosedAfterTheHandshakeIsNotAssessedForPinning() {
    var flow = StoredFlow(
      ipProtocol: .tcp,
      peers: FlowPeers(
        FlowEndpoint(address: "10.0.0.2", port: 40000),
        FlowEndpoint(address: "10.0.0.1", port: 8080)),
      firstSeen: Date(), lastSeen: Date(), tlsStatus: .closedAfterHandshake,
      sni: "api.example-health.de", streamOpening: .httpConnect)
    flow.connectHost = "api.example-health.de"
    let on = InspectionConditions(inspectionEnabled: true, caTrusted: true)
    XCTAssertEqual(PinningAssessment(of: flow, conditions: on), .notAssessed(.closedAfterHandshake))
    flow.tlsStatus = .notInspectable
    XCTAssertEqual(
      PinningAssessment(of: flow, conditions: on), .observed(host: "api.example-health.de"))
    XCTAssertEqual(EncryptionAssessment(of: flow), .encrypted(.tls), "a CONNECT is not cleartext")
  }
}

extension InspectionLogTests {
  /// Found by a reliability run: Foundation reads `true` as 1, and the last of two members of
  /// the same name wins; docs/inspection.md says a key of the wrong type is refused.
  func testABooleanIsNoNumberAndAKeyGivenTwiceIsRefused() {
    let good = line(requests: 0)
    let cases = [
      (
        good.replacingOccurrences(of: "\"requests\":0", with: "\"requests\":true"),
        "requests is not a count"
      ),
      (good.replacingOccurrences(of: "\"format\":1", with: "\"format\":true"), "it has no format"),
      (
        good.replacingOccurrences(of: "\"start\":1800000000", with: "\"start\":true"),
        "start is not an instant in seconds since 1970"
      ),
      (
        good.replacingOccurrences(of: "\"port\":40000", with: "\"port\":true"),
        "client is not an address and a port"
      ),
      (
        good.replacingOccurrences(
          of: "\"clientHandshake\":\"established\"",
          with: "\"clientHandshake\":\"failed\",\"clientHandshake\":\"established\""),
        "it names a key twice"
      ),
    ]
    for (bad, reason) in cases {
      XCTAssertNotEqual(bad, good, reason)
      XCTAssertThrowsError(try InspectionLog.parse(Data((bad + "\n").utf8)), reason) {
        XCTAssertEqual($0 as? InspectionLog.Problem, InspectionLog.Problem(line: 1, reason: reason))
      }
    }
  }
}
