import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Crypto
import Evidence
import FlowStore
import Foundation
import Sample
import TestSupport
import XCTest

@testable import Capture
@testable import Import

final class CaptureImportTests: XCTestCase {
  let t0: Int64 = 1_791_540_000_000_000
  let device = ("10.0.0.2", UInt16(50_123))
  let server = ("203.0.113.7", UInt16(443))

  /// A TLS connection: ClientHello (split in three segments, out of order, one retransmitted), a
  /// ServerHello, a Certificate.
  func tlsConversation(
    at micros: Int64, sni: String = "api.example-health.de", version: UInt16 = 0x0303,
    chain: [Data] = []
  ) -> [CaptureBuilder.Frame] {
    var c = Conversation(client: device, server: server, at: micros)
    c.handshake()
    let hello = TLSMessageBuilder.clientHello(
      serverName: sni, versions: [0x0304, 0x0303], alpn: ["h2", "http/1.1"],
      encryptedClientHello: true)
    let base = c.clientSeq
    let parts = [hello.prefix(40), hello.dropFirst(40).prefix(60), hello.dropFirst(100)]
    c.packet(fromClient: true, flags: 0x18, Data(parts[1]), sequence: base &+ 40)
    c.packet(fromClient: true, flags: 0x18, Data(parts[0]), sequence: base)
    c.packet(fromClient: true, flags: 0x18, Data(parts[1]), sequence: base &+ 40)  // retransmitted
    c.packet(fromClient: true, flags: 0x18, Data(parts[2]), sequence: base &+ 100)
    c.clientSeq = base &+ UInt32(hello.count)
    var answer = TLSMessageBuilder.serverHello(
      legacyVersion: 0x0303, supportedVersion: version == 0x0304 ? 0x0304 : nil, cipherSuite: 0xc02f
    )
    if !chain.isEmpty { answer += TLSMessageBuilder.certificate(chain: chain) }
    c.packet(fromClient: false, flags: 0x18, answer)
    c.packet(
      fromClient: true, flags: 0x18,
      TLSMessageBuilder.applicationData(Data(repeating: 7, count: 100)))
    c.close()
    return c.frames
  }

  func analyse(_ data: Data, devices: [String] = []) throws -> CaptureAnalysis {
    let dir = TemporaryDirectory("import")
    return try CaptureImporter.analyse(
      CaptureBuilder.write(data, dir.url, "capture"), devices: devices)
  }

  /// A self-signed certificate shape: SEQUENCE { SEQUENCE { [0] v3, serial, alg, issuer, validity, subject } }.
  func certificate(issuer: String, subject: String) -> Data {
    func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] { [tag, UInt8(content.count)] + content }
    let name = { (cn: String) in
      tlv(0x30, tlv(0x31, tlv(0x30, [0x06, 0x03, 0x55, 0x04, 0x03] + tlv(0x0c, Array(cn.utf8)))))
    }
    let tbs =
      tlv(0xa0, tlv(0x02, [2])) + tlv(0x02, [1]) + tlv(0x30, [0x06, 0x01, 0x01]) + name(issuer)
      + tlv(0x30, []) + name(subject)
    return Data(tlv(0x30, tlv(0x30, tbs)))
  }

  // MARK: Files and link types

  func testEveryLinkTypeAndFileFormatGivesTheSameFlow() throws {
    let frames = tlsConversation(at: t0)
    var variants: [(String, Data)] = []
    for linkType: UInt32 in [1, 101, 0, 113, 276] {
      variants.append(
        (
          "pcap link \(linkType)",
          CaptureBuilder.pcap(
            frames.map { .init(micros: $0.micros, bytes: CaptureBuilder.link($0.bytes, linkType)) },
            linkType: linkType)
        ))
    }
    variants.append(
      (
        "ethernet with VLAN",
        CaptureBuilder.pcap(
          frames.map {
            .init(micros: $0.micros, bytes: CaptureBuilder.link($0.bytes, 1, vlan: true))
          }, linkType: 1)
      ))
    variants.append(
      (
        "big-endian nanoseconds",
        CaptureBuilder.pcap(frames, linkType: 101, bigEndian: true, nanoseconds: true)
      ))
    var ng = CaptureBuilder.sectionHeader(
      hardware: "Pixel 8", os: "Android 15", application: "PCAPdroid 1.7")
    ng += CaptureBuilder.interface(linkType: 1)
    ng += CaptureBuilder.interface(linkType: 101, resolution: 9)
    for (i, f) in frames.enumerated() {
      ng +=
        i % 2 == 0
        ? CaptureBuilder.enhanced(
          .init(micros: f.micros, bytes: CaptureBuilder.link(f.bytes, 1)), interface: 0)
        : CaptureBuilder.enhanced(f, interface: 1, ticksPerSecond: 1_000_000_000)
    }
    variants.append(("pcapng, two interfaces, ns resolution", Data(ng)))
    for (name, data) in variants {
      let a = try analyse(data)
      XCTAssertEqual(a.flows.count, 1, name)
      XCTAssertEqual(a.packetCount, frames.count, name)
      let flow = try XCTUnwrap(a.flows.first?.flow, name)
      XCTAssertEqual(flow.sni, "api.example-health.de", name)
      XCTAssertEqual(flow.firstSeen, Instant.date(microseconds: frames[0].micros), name)
      XCTAssertEqual(a.flows[0].device, FlowEndpoint(address: "10.0.0.2", port: 50_123), name)
    }
    let withSection = try analyse(Data(ng))
    XCTAssertEqual(
      withSection.sections.first,
      CaptureSectionInfo(hardware: "Pixel 8", os: "Android 15", application: "PCAPdroid 1.7"))
  }

  func testASimplePacketBlockIsReadToo() throws {
    let frames = tlsConversation(at: t0)
    let ng =
      CaptureBuilder.sectionHeader() + CaptureBuilder.interface(linkType: 101)
      + frames.flatMap { CaptureBuilder.simple($0) }
    XCTAssertEqual(try analyse(Data(ng)).packetCount, frames.count)
  }

  // MARK: TLS

  func testTheClientHelloIsReassembledAcrossOutOfOrderAndRetransmittedSegments() throws {
    let flow = try XCTUnwrap(
      analyse(CaptureBuilder.pcap(tlsConversation(at: t0), linkType: 101)).flows.first?.flow)
    XCTAssertEqual(flow.streamOpening, .tlsHandshake)
    let offer = try XCTUnwrap(flow.clientTLS)
    XCTAssertEqual(offer.versionsForm, .listed)
    XCTAssertEqual(offer.versions, [.tls13, .tls12], "GREASE values are not versions")
    XCTAssertEqual(offer.alpn, ["h2", "http/1.1"])
    XCTAssertTrue(offer.encryptedClientHello)
    XCTAssertEqual(offer.cipherSuites, [0x1301, 0x1302, 0xc02f, 0xc030, 0x009c], "GREASE left out")
    XCTAssertEqual(offer.extensions, [0, 16, 43, 0xfe0d, 10, 13, 23, 0xff01], "GREASE left out")
    XCTAssertEqual(
      offer.ja4?.prefix(11), "t13d0508h2_", "TCP, TLS 1.3, a name, 5 suites, 8 extensions")
    XCTAssertEqual(
      flow.serverTLS,
      .negotiated(
        version: .tls12, cipherSuite: 0xc02f, fromHelloRetryRequest: false, source: .serverHello,
        parameters: ServerTLSParameters(extensions: [0xff01, 23], compressionMethod: 0)))
    XCTAssertEqual(flow.tlsStatus, .encrypted)
    // handshake 3, ClientHello 4 (one retransmitted), answer, data, FIN 2
    XCTAssertEqual(flow.packetCount, 11)
  }

  func testAServerHelloWithSupportedVersionsAHelloRetryRequestAndAnAlertAreRead() throws {
    var c = Conversation(client: device, server: server, at: t0)
    c.handshake()
    c.packet(
      fromClient: true, flags: 0x18,
      TLSMessageBuilder.clientHello(serverName: "a.example.com", versions: [0x0304]))
    c.packet(
      fromClient: false, flags: 0x18,
      TLSMessageBuilder.serverHello(
        supportedVersion: 0x0304, cipherSuite: 0x1301, helloRetryRequest: true))
    c.packet(
      fromClient: true, flags: 0x18,
      TLSMessageBuilder.clientHello(serverName: "a.example.com", versions: [0x0304]))
    c.packet(
      fromClient: false, flags: 0x18,
      TLSMessageBuilder.serverHello(supportedVersion: 0x0304, cipherSuite: 0x1302))
    var refused = Conversation(client: ("10.0.0.2", 50_200), server: server, at: t0 + 5_000_000)
    refused.handshake()
    refused.packet(
      fromClient: true, flags: 0x18,
      TLSMessageBuilder.clientHello(
        serverName: "old.example.com", legacyVersion: 0x0301, versions: nil))
    refused.packet(fromClient: false, flags: 0x18, TLSMessageBuilder.alert(description: 70))
    let flows = try analyse(CaptureBuilder.pcap(c.frames + refused.frames, linkType: 101)).flows
      .map(\.flow)
    XCTAssertEqual(
      flows[0].serverTLS,
      .negotiated(
        version: .tls13, cipherSuite: 0x1302, fromHelloRetryRequest: true, source: .serverHello,
        parameters: ServerTLSParameters(group: 23, extensions: [43, 51], compressionMethod: 0)))
    XCTAssertEqual(flows[0].serverCertificate, .encryptedInHandshake)
    XCTAssertEqual(flows[1].serverTLS, .refused(alert: 70))
    XCTAssertEqual(flows[1].clientTLS?.versionsForm, .upTo)
    XCTAssertEqual(flows[1].clientTLS?.versions, [.tls10])
    XCTAssertEqual(flows[1].serverCertificate, .noNegotiation)
  }

  func testACertificateChainSentInTheClearIsKeptAndItsCompletenessRead() throws {
    let leaf = certificate(issuer: "Example CA", subject: "api.example-health.de")
    let root = certificate(issuer: "Example CA", subject: "Example CA")
    let complete = try analyse(
      CaptureBuilder.pcap(tlsConversation(at: t0, chain: [leaf, root]), linkType: 101)
    ).flows[0].flow
    XCTAssertEqual(
      complete.serverCertificate, .presented(chain: [leaf, root], chainIsComplete: true))
    let partial = try analyse(
      CaptureBuilder.pcap(tlsConversation(at: t0, chain: [leaf]), linkType: 101)
    ).flows[0].flow
    XCTAssertEqual(partial.serverCertificate, .presented(chain: [leaf], chainIsComplete: false))
  }

  func testHTTPAndUnrecognisedOpeningsAreToldApart() throws {
    var http = Conversation(client: device, server: ("203.0.113.8", 80), at: t0)
    http.handshake()
    http.packet(
      fromClient: true, flags: 0x18,
      Data("GET /v1/steps HTTP/1.1\r\nHost: legacy.example-health.de\r\n\r\n".utf8))
    var other = Conversation(
      client: ("10.0.0.2", 50_300), server: ("203.0.113.9", 5223), at: t0 + 1_000_000)
    other.handshake()
    other.packet(fromClient: true, flags: 0x18, Data("<stream:stream to='x'>".utf8))
    var nearly = Conversation(
      client: ("10.0.0.2", 50_301), server: ("203.0.113.9", 80), at: t0 + 2_000_000)
    nearly.handshake()
    nearly.packet(fromClient: true, flags: 0x18, Data("GET /no-version\r\n\r\n".utf8))
    let flows = try analyse(
      CaptureBuilder.pcap(http.frames + other.frames + nearly.frames, linkType: 101)
    ).flows.map(\.flow)
    XCTAssertEqual(flows.map(\.streamOpening), [.httpRequest, .unrecognised, .unrecognised])
    XCTAssertEqual(flows[0].tlsStatus, .plaintext)
  }

  // MARK: QUIC

  func testInitialKeysAreThoseOfRFC9001AndRFC9369() {
    let dcid: [UInt8] = [0x83, 0x94, 0xc8, 0xf0, 0x3e, 0x51, 0x57, 0x08]
    let v1 = QUICInitialReader.initialKeys(version: 1, destinationID: dcid, end: .client)!
    XCTAssertEqual(SHA256Digest.hex(v1.key), "1f369613dd76d5467730efcbe3b1a22d")
    XCTAssertEqual(SHA256Digest.hex(v1.iv), "fa044b2f42a3fd3b46fb255c")
    XCTAssertEqual(SHA256Digest.hex(v1.hp), "9f50449e04a0e810283a1e9933adedd2")
    // The server's, of the same connection id (RFC 9001 § A.1).
    let server = QUICInitialReader.initialKeys(version: 1, destinationID: dcid, end: .server)!
    XCTAssertEqual(SHA256Digest.hex(server.key), "cf3a5331653c364c88f0f379b6067e37")
    XCTAssertEqual(SHA256Digest.hex(server.iv), "0ac1493ca1905853b0bba03e")
    XCTAssertEqual(SHA256Digest.hex(server.hp), "c206b8d9b9f0f37644430b490eeaa314")
    let v2 = QUICInitialReader.initialKeys(version: 0x6b33_43cf, destinationID: dcid, end: .client)!
    XCTAssertEqual(SHA256Digest.hex(v2.key), "8b1a0bc121284290a29e0971b5cd045d")
    XCTAssertEqual(SHA256Digest.hex(v2.iv), "91f73e2351d8fa91660e909f")
    XCTAssertEqual(SHA256Digest.hex(v2.hp), "45b95e15235d6f45a6b19cbcb0294ba9")
    XCTAssertNil(
      QUICInitialReader.initialKeys(version: 0xff00_001d, destinationID: dcid, end: .client))
  }

  func testTheQUICVersionIsReadFromEitherEnd() throws {
    func datagram(
      _ from: (String, UInt16), _ to: (String, UInt16), first: UInt8, version: UInt32, micros: Int64
    ) -> CaptureBuilder.Frame {
      var payload =
        Data([first]) + Data(CaptureBuilder.be(version)) + Data([8]) + Data(repeating: 1, count: 8)
        + Data([0])
      payload += Data(repeating: 0x55, count: 60)
      return .init(
        micros: micros,
        bytes: DatagramBuilder.datagram(from: from, to: to, transport: .udp, payload: payload))
    }
    let quicServer = ("203.0.113.20", UInt16(443))
    let frames = [
      datagram(device, quicServer, first: 0xc3, version: 0x6b33_43cf, micros: t0),
      datagram(quicServer, device, first: 0xc1, version: 0x6b33_43cf, micros: t0 + 100),
      datagram(("10.0.0.2", 50_999), quicServer, first: 0xc3, version: 1, micros: t0 + 200),
    ]
    let flows = try analyse(CaptureBuilder.pcap(frames, linkType: 101)).flows.map(\.flow)
    XCTAssertEqual(flows[0].quic, QUICReading(version: 0x6b33_43cf, end: .server))
    XCTAssertEqual(flows[1].quic, QUICReading(version: 1, end: .client))
    XCTAssertEqual(flows[0].tlsStatus, .encrypted)
  }

  // MARK: DNS, flows, devices

  func testDNSAnswersNameLaterFlowsWithTheAddressesOtherNamesAsCandidates() throws {
    let resolver = ("10.0.0.1", UInt16(53))
    func answer(_ name: String, _ records: [DNSMessageBuilder.Answer], _ micros: Int64)
      -> CaptureBuilder.Frame
    {
      .init(
        micros: micros,
        bytes: DatagramBuilder.datagram(
          from: resolver, to: ("10.0.0.2", 40_000), transport: .udp,
          payload: DNSMessageBuilder.response(id: 1, name: name, answers: records)))
    }
    var before = Conversation(client: ("10.0.0.2", 50_500), server: ("203.0.113.7", 443), at: t0)
    before.handshake()
    var after = Conversation(
      client: ("10.0.0.2", 50_501), server: ("203.0.113.7", 443), at: t0 + 3_000_000)
    after.handshake()
    let frames =
      before.frames + [
        answer("cdn.example.net", [.a("203.0.113.7")], t0 + 1_000_000),
        answer(
          "api.example-health.de", [.cname("edge.example.net"), .a("203.0.113.7")], t0 + 2_000_000),
      ] + after.frames
    let a = try analyse(CaptureBuilder.pcap(frames, linkType: 101))
    let flows = a.flows.map(\.flow).filter { $0.ipProtocol == .tcp }
    XCTAssertNil(flows[0].dnsName, "a flow is named only by answers that came before it")
    XCTAssertEqual(flows[1].dnsName, "api.example-health.de")
    XCTAssertEqual(flows[1].dnsOtherNames, ["cdn.example.net"])
    XCTAssertEqual(a.namesFromDNS, 1)
  }

  func testAReusedFiveTupleIsANewFlowAfterFINOrAnIdleGap() throws {
    var first = Conversation(client: device, server: server, at: t0)
    first.handshake()
    first.close()
    var second = Conversation(client: device, server: server, at: t0 + 10_000_000)
    second.handshake()
    var third = Conversation(client: device, server: server, at: t0 + 400_000_000)
    third.packet(fromClient: true, flags: 0x18, Data("x".utf8))
    let flows = try analyse(
      CaptureBuilder.pcap(first.frames + second.frames + third.frames, linkType: 101)
    ).flows
    XCTAssertEqual(flows.count, 3)
    XCTAssertEqual(flows.map(\.flow.packetCount), [5, 3, 1])
  }

  func testAConnectionWhoseOpeningWasNotCapturedSaysItBeganBeforeTheCapture() throws {
    var opened = Conversation(client: device, server: server, at: t0)
    opened.handshake()
    opened.packet(fromClient: true, flags: 0x18, Data("x".utf8))
    var answered = Conversation(client: ("10.0.0.2", 50_124), server: server, at: t0 + 50_000)
    answered.packet(fromClient: false, flags: 0x12)
    answered.packet(fromClient: true, flags: 0x10)
    var midstream = Conversation(client: ("10.0.0.2", 50_125), server: server, at: t0 + 90_000)
    midstream.packet(fromClient: true, flags: 0x18, Data("y".utf8))
    midstream.packet(fromClient: false, flags: 0x10)
    let flows = try analyse(
      CaptureBuilder.pcap(opened.frames + answered.frames + midstream.frames, linkType: 101)
    ).flows.map(\.flow)
    XCTAssertEqual(flows.map(\.beganBeforeCapture), [false, false, true])
    // Listed, not held against the app as a connection without a name.
    let project = AuditProject(
      id: 1, name: "P", bundleIdentifier: nil, catalogueVersion: nil,
      allowlist: [AllowlistEntry(pattern: try DomainPattern(parsing: "*.example.com"))],
      createdAt: FlowFixture.epoch)
    XCTAssertEqual(
      HostAssessment(of: flows[2], project: project), .notAssessed(.beganBeforeCapture))
    XCTAssertEqual(
      HostAssessment(of: flows[1], project: project), .unnamed(.noClientHelloRead))
  }

  func testTheDeviceSideIsTheOpenerPrivateOverPublicOrAsGiven() throws {
    // A connection whose opening was not captured: the private side is the device.
    let midstream = DatagramBuilder.datagram(
      from: ("198.51.100.4", 443), to: ("192.168.1.20", 51_000),
      transport: .tcp(sequence: 1, acknowledgement: 1, flags: 0x18), payload: Data([1, 2, 3]))
    let a = try analyse(CaptureBuilder.pcap([.init(micros: t0, bytes: midstream)], linkType: 101))
    XCTAssertEqual(a.flows[0].device.address, "192.168.1.20")
    XCTAssertEqual(a.flows[0].flow.bytesIn, UInt64(midstream.count))
    XCTAssertEqual(a.flows[0].flow.tlsStatus, .encrypted)
    let given = try analyse(
      CaptureBuilder.pcap([.init(micros: t0, bytes: midstream)], linkType: 101),
      devices: ["198.51.100.4"])
    XCTAssertEqual(given.flows[0].device.address, "198.51.100.4")
    XCTAssertFalse(given.devicesInferred)
  }

  // MARK: Writing the session

  func testAnImportIsASessionOverTheCapturesWindowWithItsPacketsInTheStoresCaptures() throws {
    let dir = TemporaryDirectory("import-store")
    let store = try FlowStore(directory: dir.url.appendingPathComponent("store"))
    let project = try store.createAuditProject(
      AuditProjectDraft(
        name: "P",
        allowlist: [AllowlistEntry(pattern: try DomainPattern(parsing: "*.example-health.de"))]),
      at: Date())
    let frames =
      tlsConversation(at: t0) + tlsConversation(at: t0 + 60_000_000, sni: "tracker.example.net")
    let url = try CaptureBuilder.write(
      CaptureBuilder.pcap(
        frames.map { .init(micros: $0.micros, bytes: CaptureBuilder.link($0.bytes, 1)) },
        linkType: 1), dir.url, "c.pcap")
    let analysis = try CaptureImporter.analyse(url)
    let consent = Instant.date(microseconds: t0 + 30_000_000)
    XCTAssertThrowsError(
      try CaptureImporter.write(
        analysis, from: url,
        request: CaptureImportRequest(
          projectID: project.id, kind: .baseline,
          markers: [(.consentGiven, Instant.date(microseconds: t0 - 1))], toolVersion: "t"),
        into: store)
    ) {
      guard case .markerOutsideCapture? = $0 as? CaptureImportError else { return XCTFail("\($0)") }
    }
    XCTAssertEqual(
      try store.auditSessions(forProject: project.id), [], "a refused import leaves nothing")
    let session = try CaptureImporter.write(
      analysis, from: url,
      request: CaptureImportRequest(
        projectID: project.id, kind: .audit(AppRelease(version: "1.0", build: "1")),
        markers: [(.consentGiven, consent)], toolVersion: "t"), into: store)
    XCTAssertEqual(session.startedAt, Instant.date(microseconds: frames.first!.micros))
    XCTAssertEqual(session.endedAt, Instant.date(microseconds: frames.last!.micros))
    XCTAssertTrue(session.notes.contains("Device side inferred"), session.notes)
    let flows = try store.flows(inAuditSession: session.id)
    XCTAssertEqual(flows.map(\.sni), ["api.example-health.de", "tracker.example.net"])
    // Every packet's record in the store's captures is its IP datagram.
    let library = CaptureLibrary(directory: store.capturesDirectory)
    var index = 0
    for flow in flows {
      for packet in try store.packets(forFlow: flow.id) {
        XCTAssertEqual(try library.record(at: packet.location).bytes, frames[index].bytes)
        index += 1
      }
    }
    XCTAssertEqual(index, frames.count)
    // Written without SQLite's checks of references, every row's references hold.
    let check = try XCTUnwrap(
      ExternalTool.run(
        "sqlite3", [store.databaseURL.path, "PRAGMA foreign_key_check"]))
    XCTAssertEqual(check.status, 0, check.error)
    XCTAssertEqual(check.output, "", "rows whose references do not hold")
    // An import into a project that is not there is refused, inside its transaction.
    XCTAssertThrowsError(
      try CaptureImporter.write(
        analysis, from: url,
        request: CaptureImportRequest(projectID: project.id + 1, kind: .baseline, toolVersion: "t"),
        into: store)
    ) { XCTAssertEqual($0 as? AuditStoreError, .projectNotFound(project.id + 1)) }
    // A second import while a session records is refused.
    _ = try store.startAuditSession(
      AuditSessionDraft(
        projectID: project.id, kind: .baseline,
        environment: AuditEnvironment(deviceModel: "", osVersion: "", toolVersion: ""),
        inspection: .off), at: Date())
    XCTAssertThrowsError(
      try CaptureImporter.write(
        analysis, from: url,
        request: CaptureImportRequest(projectID: project.id, kind: .baseline, toolVersion: "t"),
        into: store))
    // The imported session exports and verifies like any other.
    let findings = SessionAssessment(
      catalogue: try RequirementCatalogueLibrary.catalogue(identifier: "tr-03161-1_3.0"),
      flows: flows, project: project,
      session: session, markers: try store.markers(forSession: session.id))
    XCTAssertTrue(
      findings.findings.findings.contains {
        $0.evidence == .hostNotInAllowlist(host: "tracker.example.net")
      })
  }

  func testEveryPacketsDirectionIsSeenFromTheDeviceWhetherOrNotItOpenedTheFlow() throws {
    let dir = TemporaryDirectory("import-directions")
    let store = try FlowStore(directory: dir.url.appendingPathComponent("store"))
    let project = try store.createAuditProject(AuditProjectDraft(name: "P"), at: Date())
    // Opened by the device (a SYN), and one whose opening was not captured, seen first from the
    // public server: the private side is the device, not the first sender.
    let server = ("198.51.100.4", UInt16(443))
    let phone = ("192.168.1.20", UInt16(51_000))
    func segment(_ from: (String, UInt16), _ to: (String, UInt16), _ micros: Int64)
      -> CaptureBuilder.Frame
    {
      .init(
        micros: micros,
        bytes: DatagramBuilder.datagram(
          from: from, to: to, transport: .tcp(sequence: 1, acknowledgement: 1, flags: 0x18),
          payload: Data([1, 2, 3])))
    }
    var opened = Conversation(client: device, server: self.server, at: t0)
    opened.handshake()
    let frames =
      opened.frames + [
        segment(server, phone, t0 + 1_000), segment(phone, server, t0 + 2_000),
        segment(server, phone, t0 + 3_000),
      ]
    let url = try CaptureBuilder.write(
      CaptureBuilder.pcap(frames, linkType: 101), dir.url, "c.pcap")
    for (devices, midstreamDirections) in [
      ([String](), [PacketDirection.inbound, .outbound, .inbound]),
      (["198.51.100.4", device.0], [.outbound, .inbound, .outbound]),
    ] {
      let session = try CaptureImporter.write(
        try CaptureImporter.analyse(url, devices: devices), from: url,
        request: CaptureImportRequest(
          projectID: project.id, kind: .baseline, devices: devices, toolVersion: "t"), into: store)
      let flows = try store.flows(inAuditSession: session.id).sorted { $0.firstSeen < $1.firstSeen }
      XCTAssertEqual(flows.count, 2)
      XCTAssertEqual(
        try store.packets(forFlow: flows[0].id).map(\.direction), [.outbound, .inbound, .outbound],
        "the device opened it")
      XCTAssertEqual(
        try store.packets(forFlow: flows[1].id).map(\.direction), midstreamDirections,
        "devices \(devices)")
    }
  }

  func testACaptureThatReadsOtherwiseOnTheSecondPassIsRefusedAndLeavesNothing() throws {
    let dir = TemporaryDirectory("import-changed")
    let store = try FlowStore(directory: dir.url.appendingPathComponent("store"))
    let project = try store.createAuditProject(AuditProjectDraft(name: "P"), at: Date())
    let url = try CaptureBuilder.write(
      CaptureBuilder.pcap(tlsConversation(at: t0), linkType: 101), dir.url, "c.pcap")
    let analysis = try CaptureImporter.analyse(url)
    // The same file rewritten between the passes: one flow more, one packet fewer, and the same
    // packets a second later (as many flows and packets, at other times).
    let later = tlsConversation(at: t0 + 1_000_000)
    for frames in [
      tlsConversation(at: t0) + tlsConversation(at: t0 + 1_000_000, sni: "b.example"),
      Array(tlsConversation(at: t0).dropLast()), later,
    ] {
      _ = try CaptureBuilder.write(CaptureBuilder.pcap(frames, linkType: 101), dir.url, "c.pcap")
      XCTAssertThrowsError(
        try CaptureImporter.write(
          analysis, from: url,
          request: CaptureImportRequest(projectID: project.id, kind: .baseline, toolVersion: "t"),
          into: store)
      ) {
        XCTAssertEqual(
          ($0 as? CaptureImportError)?.description,
          "\(url.path) cannot be imported: it changed while it was being imported.")
      }
      XCTAssertEqual(try store.auditSessions(forProject: project.id), [])
      XCTAssertEqual(
        try FileManager.default.contentsOfDirectory(atPath: store.capturesDirectory.path).filter {
          $0.hasSuffix(".pcap")
        }, [])
    }
  }

  // MARK: Bad input

  func testBadFilesAreRefusedWithASentenceNamingTheOffset() throws {
    let good = Data(
      CaptureBuilder.sectionHeader() + CaptureBuilder.interface(linkType: 101)
        + tlsConversation(at: t0).flatMap { CaptureBuilder.enhanced($0) })
    var lying = good
    lying[4] = 0xff
    lying[5] = 0xff
    lying[6] = 0xff
    lying[7] = 0x7f
    var odd = good
    odd[28 + 4] = 13  // the interface block's length is not a multiple of 4
    let cases: [(String, Data, String)] = [
      ("empty", Data(), "at byte 0: the file is empty"),
      (
        "garbage", Data("this is not a capture at all, only text".utf8),
        "at byte 0: this is neither a pcap nor a pcapng file"
      ),
      ("a section header that lies about its size", lying, "at byte 0: a block claims"),
      (
        "a block length that no block can have", odd,
        "at byte 28: a block claims a length of 13 bytes"
      ),
      (
        "an absurd pcap record",
        CaptureBuilder.pcap([.init(micros: t0, bytes: Data(count: 10))], linkType: 101).replacing(
          at: 24 + 8, with: [0xff, 0xff, 0xff, 0x0f]),
        "at byte 24: a record claims"
      ),
    ]
    for (name, data, expected) in cases {
      XCTAssertThrowsError(try analyse(data), name) { error in
        guard case .unreadable(_, let reason)? = error as? CaptureImportError else {
          return XCTFail("\(name): \(error)")
        }
        XCTAssertTrue(reason.hasPrefix(expected), "\(name): \(reason)")
      }
    }
  }

  func testTicksOfAnyResolutionBecomeExactMicrosecondsAndAHugeTimeNeverOverflows() {
    let second: Int64 = 1_791_540_000
    // Decimal resolutions, and binary ones that no power of ten divides.
    XCTAssertEqual(
      CaptureFileDecoder.microseconds(second * 1_000_000_000 + 123_456_789, 1_000_000_000),
      second * 1_000_000 + 123_456)
    XCTAssertEqual(
      CaptureFileDecoder.microseconds(second * 1_000 + 5, 1_000), second * 1_000_000 + 5_000)
    XCTAssertEqual(
      CaptureFileDecoder.microseconds(second << 20 | 1 << 19, 1 << 20),
      second * 1_000_000 + 500_000, "2^20 ticks a second")
    XCTAssertEqual(
      CaptureFileDecoder.microseconds(second << 10 | 1, 1 << 10), second * 1_000_000 + 976,
      "2^10 ticks a second: 976.5625 µs")
    XCTAssertEqual(
      CaptureFileDecoder.microseconds(second << 30 | 1 << 29, 1 << 30), second * 1_000_000 + 500_000
    )
    // Whole seconds as ticks, and times beyond 64 bits of microseconds: the largest there is, not a trap.
    XCTAssertEqual(CaptureFileDecoder.microseconds(second, 1), second * 1_000_000)
    XCTAssertEqual(CaptureFileDecoder.microseconds(.max, 1), .max)
    XCTAssertEqual(CaptureFileDecoder.microseconds(.min, 1), .min)
    XCTAssertEqual(
      CaptureFileDecoder.microseconds(Int64.max / 1_000, 1_000), Int64.max / 1_000 * 1_000,
      "the last milliseconds that fit")
    XCTAssertEqual(CaptureFileDecoder.microseconds(Int64.max / 100, 1_000), .max)
    XCTAssertEqual(
      CaptureFileDecoder.microseconds(.max, 1 << 62), Int64.max / (1 << 62) * 1_000_000 + 999_999)
  }

  /// The history keeps instants as 64-bit nanoseconds, which end in 2262: a packet dated later is
  /// not imported (it was once imported as far as the flow's row, where the conversion trapped).
  func testAPacketDatedLaterThanTheHistoryCanHoldIsLeftOutAndTheRestImported() throws {
    let dir = TemporaryDirectory("import-far")
    let store = try FlowStore(directory: dir.url.appendingPathComponent("store"))
    let project = try store.createAuditProject(AuditProjectDraft(name: "P"), at: Date())
    // 2262-02-01, still within 64-bit nanoseconds; 2300, only in microseconds.
    let conversation = tlsConversation(at: t0)
    func file(_ late: Int64, ticksPerSecond: Int64) -> ([CaptureBuilder.Frame], Data) {
      let frames = conversation + [.init(micros: late, bytes: conversation[0].bytes)]
      let resolution: UInt8? = ticksPerSecond == 1_000_000 ? nil : 9
      return (
        frames,
        Data(
          CaptureBuilder.sectionHeader()
            + CaptureBuilder.interface(linkType: 101, resolution: resolution)
            + frames.flatMap { CaptureBuilder.enhanced($0, ticksPerSecond: ticksPerSecond) })
      )
    }
    for (name, (frames, data)) in [
      ("in nanoseconds", file(9_217_324_800 * 1_000_000, ticksPerSecond: 1_000_000_000)),
      ("in microseconds", file(10_413_792_000 * 1_000_000, ticksPerSecond: 1_000_000)),
    ] {
      let url = try CaptureBuilder.write(data, dir.url, name)
      let analysis = try CaptureImporter.analyse(url)
      XCTAssertEqual(analysis.unparseable, ["timestamp out of range": 1], name)
      XCTAssertEqual(analysis.packetCount, frames.count - 1, name)
      let session = try CaptureImporter.write(
        analysis, from: url,
        request: CaptureImportRequest(
          projectID: project.id, kind: .audit(AppRelease(version: "1", build: name)), markers: [],
          toolVersion: "t"), into: store)
      XCTAssertEqual(
        session.endedAt, Instant.date(microseconds: frames[frames.count - 2].micros), name)
      XCTAssertEqual(
        try store.flows(inAuditSession: session.id).map(\.packetCount).reduce(0, +),
        frames.count - 1, name)
    }
  }

  /// #44.4: a packet block naming an undeclared interface, in the middle of a file, was reported as
  /// "1 record at the end of the file was cut short".
  func testABadRecordInTheMiddleIsSaidAsWhatAndWhereAndTheRestIsRead() throws {
    let frames = tlsConversation(at: t0)
    var file = CaptureBuilder.sectionHeader() + CaptureBuilder.interface(linkType: 101)
    var badOffset = 0
    for (index, frame) in frames.enumerated() {
      if index == 3 { badOffset = file.count }
      file += CaptureBuilder.enhanced(frame, interface: index == 3 ? 3 : 0)
    }
    let a = try analyse(Data(file))
    XCTAssertEqual(a.damagedRecords, 1)
    XCTAssertEqual(a.packetCount, frames.count - 1, "the records after it are read")
    XCTAssertEqual(
      a.damaged,
      [
        DamagedRecord(
          offset: badOffset,
          reason: "a packet block names interface 3, and its section declares only interface 0")
      ])
    let lines = ImportPresentation.damagedLines(a.summary)
    XCTAssertEqual(
      lines,
      [
        "1 record could not be read and was skipped, the file read on past it: at byte \(Quantity.grouped(badOffset)), a packet block names interface 3, and its section declares only interface 0."
      ])
    XCTAssertFalse(lines.joined().contains("at the end of the file"))
  }

  func testARecordCutShortAtTheEndIsCountedAndTheRestIsRead() throws {
    let frames = tlsConversation(at: t0)
    let pcap = CaptureBuilder.pcap(frames, linkType: 101)
    let a = try analyse(pcap.dropLast(5))
    XCTAssertEqual(a.damagedRecords, 1)
    XCTAssertEqual(
      ImportPresentation.damagedLines(a.summary),
      ["1 record at the end of the file was cut short and not read."])
    XCTAssertEqual(a.packetCount, frames.count - 1)
    let frame = DatagramBuilder.datagram(
      from: device, to: server, transport: .tcp(sequence: 1, acknowledgement: 1, flags: 0x10),
      payload: Data())
    let odd = try analyse(
      CaptureBuilder.pcap(
        [
          .init(micros: t0, bytes: Data([0x99]) + frame.dropFirst()),
          .init(micros: t0 + 1, bytes: frame),
        ], linkType: 101))
    XCTAssertEqual(odd.unparseable, ["IP version 9": 1])
    XCTAssertEqual(odd.packetCount, 1)
  }

  /// A seeded random mutator over valid captures: whatever the bytes, a sentence or an analysis, never a crash.
  /// A smoke test of the readers under mutation: FuzzCapture (make fuzz, and CI's bounded run)
  /// is where millions of inputs go.
  func testThreeHundredMutatedCapturesNeverCrashTheReaders() throws {
    let frames = tlsConversation(at: t0, chain: [certificate(issuer: "A", subject: "B")])
    let seeds = [
      CaptureBuilder.pcap(frames, linkType: 101),
      Data(
        CaptureBuilder.sectionHeader(hardware: "h")
          + CaptureBuilder.interface(linkType: 1, resolution: 9)
          + frames.flatMap {
            CaptureBuilder.enhanced(
              .init(micros: $0.micros, bytes: CaptureBuilder.link($0.bytes, 1)))
          }),
    ]
    var random = SampleRandom(seed: 42)
    let dir = TemporaryDirectory("fuzz")
    var refused = 0
    var analysed = 0
    let count = 300
    for i in 0..<count {
      var data = seeds[i % seeds.count]
      for _ in 0..<(1 + random.next() % 8) {
        let at = Int(random.next() % UInt64(data.count))
        switch random.next() % 4 {
        case 0: data[at] = UInt8(truncatingIfNeeded: random.next())
        case 1: data[at] ^= 0x80
        case 2: data = data.prefix(at)
        default: data.insert(UInt8(truncatingIfNeeded: random.next()), at: at)
        }
        if data.isEmpty { break }
      }
      let url = dir.url.appendingPathComponent("f")
      try data.write(to: url)
      do {
        _ = try CaptureImporter.analyse(url)
        analysed += 1
      } catch is CaptureImportError { refused += 1 }
    }
    XCTAssertEqual(refused + analysed, count)
    XCTAssertGreaterThan(refused, count / 100)
    XCTAssertGreaterThan(analysed, count / 100)
  }

  // MARK: Real captures nobody here wrote

  func testRealCapturesAgreeWithTshark() throws {
    let root = Golden.directory().deletingLastPathComponent().deletingLastPathComponent()
    let captures = root.deletingLastPathComponent().appendingPathComponent("shared/captures")
    guard ExternalTool.which("tshark") != nil else {
      throw XCTSkip("tshark is not installed (make test installs it)")
    }
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: captures.path) else {
      throw XCTSkip("shared/captures is not beside the repository")
    }
    let ours = RealTrafficImportTests.captures
    let made = try FileManager.default.contentsOfDirectory(atPath: ours.path).sorted().map {
      ours.appendingPathComponent($0).path
    }
    let files =
      names.filter { $0.hasSuffix(".pcap") || $0.hasSuffix(".pcapng") }.sorted().map {
        captures.appendingPathComponent($0).path
      } + made
    var binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    while !FileManager.default.isExecutableFile(
      atPath: binary.appendingPathComponent("tunnelvision").path), binary.path != "/"
    { binary.deleteLastPathComponent() }
    let result = try XCTUnwrap(
      ExternalTool.run(
        "python3",
        [
          root.appendingPathComponent("scripts/compare-with-tshark.py").path,
          binary.appendingPathComponent("tunnelvision").path,
        ] + files))
    XCTAssertEqual(result.status, 0, result.output + result.error)
    XCTAssertTrue(
      result.output.contains("tls-sni.pcapng: 79 TLS/QUIC flows compared"), result.output)
    // TLS 1.2 and 1.3, a resumption, a retried handshake, QUIC with its server's answer, DNS.
    XCTAssertTrue(
      result.output.contains("real-traffic.pcapng: 5 TLS/QUIC flows compared, 8 DNS"), result.output
    )
    XCTAssertTrue(result.output.hasSuffix("0 disagreements\n"), result.output)
  }
}

extension Data {
  func replacing(at offset: Int, with bytes: [UInt8]) -> Data {
    var copy = self
    copy.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
    return copy
  }
}
