import Audit
import AuditRules
import Foundation
import TestSupport
import XCTest

/// A connection first seen mid-stream continues the row an earlier recorder run left of it.
final class ConnectionContinuationTests: XCTestCase {
  /// The earlier run's row: named by its ClientHello, its handshake read, refused the proxy.
  func earlier(id: Int64 = 38, lastAt seconds: Double = 10) -> StoredFlow {
    var f = FlowFixture.tcp(id: id, at: seconds - 1, sni: "api.lab-health.test")
    f.streamOpening = .tlsHandshake
    f.serverTLS = .negotiated(
      version: .tls13, cipherSuite: 0x1301, fromHelloRetryRequest: false, source: .serverHello)
    f.tlsStatus = .notInspectable
    f.tlsStatusBasis = .inspection
    f.serverCertificate = .encryptedInHandshake
    return f
  }

  /// The restarted run's first sight of it: no SYN, nothing read, the port's status.
  func midstream(at seconds: Double = 12) -> StoredFlow {
    var f = FlowFixture.tcp(id: 39, at: seconds)
    f.beganBeforeCapture = true
    f.tlsStatusBasis = .port
    f.captureSessionID = 2
    return f
  }

  func testTheLatestRowWithTheSameEndsWithinTheIdleTimeIsContinued() {
    let rows = [earlier(id: 30, lastAt: 5), earlier(id: 38, lastAt: 10)]
    XCTAssertEqual(ConnectionContinuation.predecessor(of: midstream(), among: rows)?.id, 38)
  }

  func testNoRowIsContinuedAcrossTheIdleTimeOtherEndsOrByAConnectionWhoseOpeningWasSeen() {
    let idle = Double(ReadingLimits.connectionIdleMicroseconds) / 1_000_000
    XCTAssertNil(
      ConnectionContinuation.predecessor(of: midstream(at: 10 + idle + 1), among: [earlier()]))
    var otherPort = earlier()
    otherPort.peers = FlowPeers(
      FlowEndpoint(address: "10.0.0.2", port: 50001),
      FlowEndpoint(address: "93.184.216.34", port: 443))
    XCTAssertNil(ConnectionContinuation.predecessor(of: midstream(), among: [otherPort]))
    var opened = midstream()
    opened.beganBeforeCapture = false
    XCTAssertNil(ConnectionContinuation.predecessor(of: opened, among: [earlier()]))
    XCTAssertNil(
      ConnectionContinuation.predecessor(of: midstream(at: 8), among: [earlier()]),
      "a row whose last packet came after this one's first is another connection")
  }

  func testTheContinuationCarriesTheEarlierReadingsAndKeepsItsOwnCounts() {
    let continued = ConnectionContinuation.inheriting(earlier(), into: midstream())
    XCTAssertEqual(continued.name?.text, "api.lab-health.test")
    XCTAssertEqual(continued.streamOpening, .tlsHandshake)
    XCTAssertEqual(continued.tlsStatus, .notInspectable)
    XCTAssertEqual(continued.tlsStatusBasis, .inspection)
    XCTAssertEqual(continued.serverCertificate, .encryptedInHandshake)
    XCTAssertFalse(continued.beganBeforeCapture, "the earlier row holds its opening")
    XCTAssertEqual(continued.id, 39)
    XCTAssertEqual(continued.captureSessionID, 2)
    XCTAssertEqual(continued.firstSeen, midstream().firstSeen)
    // The earlier row's readings come first; the new run's own fill what it lacks.
    var readAgain = midstream()
    readAgain.streamOpening = .unrecognised
    readAgain.httpHost = "late.example"
    let merged = ConnectionContinuation.inheriting(earlier(), into: readAgain)
    XCTAssertEqual(merged.streamOpening, .tlsHandshake, "mid-stream bytes are no opening")
    XCTAssertEqual(merged.httpHost, "late.example")
  }
}
