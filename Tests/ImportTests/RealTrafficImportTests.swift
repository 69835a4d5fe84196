import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Crypto
import FlowStore
import Foundation
import Sample
import TestSupport
import XCTest

@testable import Capture
@testable import Import

/// Real traffic made for these tests (scripts/make-test-captures.py: servers and clients in two
/// network namespaces, captured with dumpcap) and imported as a new user would.
final class RealTrafficImportTests: XCTestCase {
  static let captures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Captures")
  let realTraffic = captures.appendingPathComponent("real-traffic.pcapng")

  var dir: TemporaryDirectory!
  var store: FlowStore!

  override func setUpWithError() throws {
    dir = TemporaryDirectory("real")
    store = try FlowStore(directory: dir.url.appendingPathComponent("store"))
  }

  override func tearDown() {
    store = nil
    dir = nil
    super.tearDown()
  }

  func imported(_ url: URL, devices: [String] = []) throws -> (AuditSession, [StoredFlow]) {
    let project = try store.createAuditProject(
      AuditProjectDraft(name: "Real \(UUID().uuidString)"), at: Date())
    let analysis = try CaptureImporter.analyse(url, devices: devices)
    let session = try CaptureImporter.write(
      analysis, from: url,
      request: CaptureImportRequest(
        projectID: project.id, kind: .audit(AppRelease(version: "1", build: "1")),
        devices: devices, toolVersion: "test"),
      into: store)
    return (session, try store.flows(inAuditSession: session.id))
  }

  func flow(_ flows: [StoredFlow], port: UInt16, _ p: IPProtocolNumber = .tcp) throws
    -> StoredFlow
  {
    try XCTUnwrap(flows.first { $0.ipProtocol == p && $0.peers.contains(port: port) })
  }

  func testADNSExchangeIsDNSAndNeverQUICWhateverItsQueryID() throws {
    let (_, flows) = try imported(realTraffic)
    let dns = flows.filter { $0.peers.contains(port: 53) }
    XCTAssertEqual(dns.count, 8, "eight queries, six of them with the top bit of their id set")
    for flow in dns {
      XCTAssertNil(flow.quic, "\(flow.peers)")
      XCTAssertEqual(flow.streamOpening, .dnsMessage)
      XCTAssertEqual(flow.tlsStatus, .plaintext)
      XCTAssertEqual(flow.tlsStatusBasis, .readings)
    }
  }

  func testADatagramIsQUICOnlyWhenItsHeaderIsOne() {
    // A DNS query with id 0xC3F2 begins as a long header with the fixed bit would.
    let query: [UInt8] =
      [0xC3, 0xF2, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0, 3] + Array("api".utf8) + [0]
    XCTAssertNil(QUICInitialReader.longHeader(query[...]), "a version 0x01000001 does not exist")
    var v1: [UInt8] = [0xC0, 0, 0, 0, 1, 8] + [UInt8](repeating: 1, count: 8) + [0]
    XCTAssertNotNil(QUICInitialReader.longHeader(v1[...]))
    v1[0] = 0x80
    XCTAssertNil(QUICInitialReader.longHeader(v1[...]), "the fixed bit clear")
    let grease: [UInt8] = [0xC0, 0x1A, 0x2A, 0x3A, 0x4A, 8] + [UInt8](repeating: 1, count: 8) + [0]
    XCTAssertNil(QUICInitialReader.longHeader(grease[...]), "a greased version")
    let longID: [UInt8] = [0xC0, 0, 0, 0, 1, 21] + [UInt8](repeating: 1, count: 21) + [0]
    XCTAssertNil(QUICInitialReader.longHeader(longID[...]), "a connection id of 21 bytes")
    XCTAssertTrue(DatagramPorts.isKnownOtherThanQUIC(123))
    XCTAssertFalse(DatagramPorts.isKnownOtherThanQUIC(443))
  }

  func testTheQUICServersTLSVersionIsReadFromItsInitialPackets() throws {
    let (_, flows) = try imported(realTraffic)
    let quic = try flow(flows, port: 443, .udp)
    XCTAssertEqual(quic.quic, QUICReading(version: QUICReading.version1, end: .server))
    guard let handshake = quic.serverTLS?.handshake, !handshake.fromHelloRetryRequest,
      handshake.source == .serverHello
    else {
      return XCTFail("\(String(describing: quic.serverTLS))")
    }
    XCTAssertEqual(handshake.version, .tls13)
    XCTAssertTrue([0x1301, 0x1302, 0x1303].contains(handshake.cipherSuite), "a TLS 1.3 suite")
    XCTAssertEqual(quic.sni, "quic.example-health.de")
    // The key_share group of the ServerHello in the server's Initial, as tshark (which decrypts
    // Initial packets too) reads it.
    guard ExternalTool.which("tshark") != nil else { return }
    let read = try XCTUnwrap(
      ExternalTool.run(
        "tshark",
        [
          "-r", realTraffic.path, "-Y", "quic && tls.handshake.type == 2", "-T", "fields", "-e",
          "tls.handshake.ciphersuite", "-e", "tls.handshake.extensions_key_share_group",
        ]))
    let cells = read.output.split(separator: "\n").first?.split(separator: "\t") ?? []
    XCTAssertEqual(cells.count, 2, read.output)
    XCTAssertEqual(cells.first.map(String.init), String(format: "0x%04x", handshake.cipherSuite))
    XCTAssertEqual(handshake.parameters.group.map(String.init), cells.last.map(String.init))
  }

  func testTheStatusFollowsWhatWasReadAndThePortOnlyWhereNothingWas() throws {
    let (_, flows) = try imported(realTraffic)
    let tls13 = try flow(flows, port: 9443)
    XCTAssertEqual(tls13.tlsStatus, .encrypted, "TLS 1.3 on a port no list names")
    XCTAssertEqual(tls13.tlsStatusBasis, .readings)
    let http = try flow(flows, port: 443)
    XCTAssertEqual(http.streamOpening, .httpRequest)
    XCTAssertEqual(http.tlsStatus, .plaintext, "plain HTTP on 443")
    XCTAssertEqual(http.tlsStatusBasis, .readings)
    for other in flows where other.ipProtocol == .icmpv6 {
      XCTAssertEqual(other.tlsStatusBasis, .port, "nothing read of it")
    }
  }

  func testAnotherHostsGroupTrafficIsInboundAndItsAddressIsNoDevice() throws {
    let analysis = try CaptureImporter.analyse(realTraffic)
    XCTAssertEqual(analysis.deviceAddresses, ["10.99.0.2"])
    let (_, flows) = try imported(realTraffic)
    let solicitation = try XCTUnwrap(
      flows.first {
        $0.ipProtocol == .icmpv6
          && ($0.peers.a.address == "ff02::2" || $0.peers.b.address == "ff02::2")
      })
    XCTAssertEqual(solicitation.bytesOut, 0, "the server side's Router Solicitation")
    XCTAssertGreaterThan(solicitation.bytesIn, 0)
  }

  func testAResumedSessionSaysSoAndARetriedHandshakeKeepsTheSecondServerHello() throws {
    let (_, flows) = try imported(realTraffic)
    let tls12 = flows.filter { $0.peers.contains(port: 8443) }
    XCTAssertEqual(tls12.count, 2)
    guard case .presented = tls12[0].serverCertificate else {
      return XCTFail("the full handshake shows its certificate")
    }
    XCTAssertEqual(tls12[1].serverCertificate, .notSent(.sessionResumed))
    let retried = try flow(flows, port: 4433)
    guard let handshake = retried.serverTLS?.handshake, handshake.version == .tls13,
      handshake.fromHelloRetryRequest
    else {
      return XCTFail("\(String(describing: retried.serverTLS))")
    }
  }

  func testAnImportedSessionIsRecordedWithWhatWroteTheCaptureNotOnThePhonesBehalf() throws {
    let (session, _) = try imported(realTraffic)
    let source = try XCTUnwrap(session.source)
    XCTAssertTrue(source.application?.hasPrefix("Dumpcap (Wireshark)") == true, "\(source)")
    XCTAssertNotNil(source.host, "the capture host's hardware and system")
    XCTAssertEqual(session.environment.deviceModel, AuditPresentation.notStated)
    XCTAssertEqual(session.environment.osVersion, AuditPresentation.notStated)
    XCTAssertTrue(EvidenceNotes.recordedWith(session).hasPrefix("Dumpcap (Wireshark)"))
    XCTAssertTrue(
      EvidenceNotes.attribution(for: session).contains(
        "imported from a capture file (real-traffic.pcapng)"))
    // The digest is the file's, as sha256sum reads it.
    if let sum = try ExternalTool.run("sha256sum", [realTraffic.path]) {
      XCTAssertEqual(source.sha256, String(sum.output.prefix(64)))
    }
  }

  func testACaptureThatIsNearlyInOrderGivesTheFlowsItWouldInOrder() throws {
    let merged = Self.captures.appendingPathComponent("merged-out-of-order.pcapng")
    let (_, inOrder) = try imported(realTraffic)
    let (_, joined) = try imported(merged)
    func shape(_ f: StoredFlow) -> String {
      "\(f.peers) \(f.packetCount) \(Instant.rfc3339(f.firstSeen)) \(Instant.rfc3339(f.lastSeen))"
    }
    XCTAssertEqual(joined.map(shape), inOrder.map(shape))
  }

  func testAPacketFurtherOutOfOrderThanTheWindowIsRefusedNamingItAndReordercap() throws {
    let t0: Int64 = 1_791_540_000_000_000
    var frames: [CaptureBuilder.Frame] = []
    for n in 0..<(TimeOrderedFrames.window + 10) {
      let datagram = DatagramBuilder.datagram(
        from: ("10.0.0.2", 40_000), to: ("203.0.113.7", 9), transport: .udp,
        payload: Data([UInt8(n & 0xff)]))
      frames.append(CaptureBuilder.Frame(micros: t0 + Int64(n) * 1_000, bytes: datagram))
    }
    frames.append(frames[0])
    let url = try CaptureBuilder.write(CaptureBuilder.pcap(frames, linkType: 101), dir.url, "late")
    XCTAssertThrowsError(try CaptureImporter.analyse(url)) { error in
      let text = "\(error)"
      // The late packet follows the window's packets and the ten after them.
      let late = Quantity.grouped(TimeOrderedFrames.window + 11)
      XCTAssertTrue(text.contains("packet \(late) is dated 2026-10-09T10:00:00Z"), text)
      XCTAssertTrue(text.contains("reordercap"), text)
    }
  }

  func testAnIPv4AddressIsWrittenAsInetNtopWritesIt() {
    func system(_ bytes: [UInt8]) -> String {
      var storage = [CChar](repeating: 0, count: 16)
      _ = bytes.withUnsafeBytes { inet_ntop(AF_INET, $0.baseAddress, &storage, 16) }
      return String(
        decoding: storage.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    var generator = SystemRandomNumberGenerator()
    var cases: [[UInt8]] = [
      [0, 0, 0, 0], [255, 255, 255, 255], [10, 0, 0, 2], [100, 64, 9, 99],
    ]
    for _ in 0..<200_000 {
      cases.append((0..<4).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
    for bytes in cases {
      XCTAssertEqual(PacketDissector.address(bytes[...]), system(bytes))
    }
  }
}
