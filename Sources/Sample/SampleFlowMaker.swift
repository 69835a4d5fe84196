import Audit
import AuditRules
import AuditWording
import Bytes
import Capture
import Foundation
import Import

/// Makes flows whose readings and packets agree: a ClientHello whose SNI is the flow's, a
/// ServerHello with the version the flow records, an HTTP request where the flow says so.
struct SampleFlowMaker {
  var random: SampleRandom
  let device4 = "10.0.0.2"
  let device6 = "fd00:0:0:1::2"
  private var nextPort: UInt16 = 40_000

  init(seed: UInt64) { random = SampleRandom(seed: seed) }

  /// A stable server address per name: TEST-NET-3 / 198.51.100.0/24, or 2001:db8::/32.
  func serverAddress(_ name: String, v6: Bool = false) -> String {
    var hash: UInt32 = 2_166_136_261
    for byte in name.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
    if v6 { return "2001:db8::\(String(hash & 0xffff, radix: 16))" }
    return (hash & 1 == 0 ? "203.0.113." : "198.51.100.") + String(1 + (hash >> 1) % 254)
  }

  mutating func ephemeralPort() -> UInt16 {
    nextPort = nextPort >= 60_999 ? 40_000 : nextPort + 1
    return nextPort
  }

  func base(
    _ proto: IPProtocolNumber, server: String, port: UInt16, devicePort: UInt16, start: Date,
    v6: Bool,
    status: TLSInspectionStatus
  ) -> (StoredFlow, FlowEndpoint) {
    let device = FlowEndpoint(address: v6 ? device6 : device4, port: devicePort)
    let flow = StoredFlow(
      ipProtocol: proto, peers: FlowPeers(device, FlowEndpoint(address: server, port: port)),
      firstSeen: start, lastSeen: start, tlsStatus: status)
    return (flow, device)
  }

  static func handshake(_ t: TimeInterval = 0) -> [SamplePacket] {
    [
      SamplePacket(
        offset: t, outbound: true, tcpFlags: DatagramBuilder.TCPFlags.syn, payload: .none),
      SamplePacket(
        offset: t + 0.021, outbound: false,
        tcpFlags: DatagramBuilder.TCPFlags.syn | DatagramBuilder.TCPFlags.ack, payload: .none),
      SamplePacket(
        offset: t + 0.022, outbound: true, tcpFlags: DatagramBuilder.TCPFlags.ack, payload: .none),
    ]
  }

  static let pushAck = DatagramBuilder.TCPFlags.psh | DatagramBuilder.TCPFlags.ack

  mutating func applicationData(after t: TimeInterval, exchanges: Int, size: Int = 600)
    -> [SamplePacket]
  {
    var packets: [SamplePacket] = []
    var clock = t
    for _ in 0..<exchanges {
      clock += 0.05 + Double(random.below(200)) / 1000
      packets.append(
        SamplePacket(
          offset: clock, outbound: true, tcpFlags: Self.pushAck,
          payload: .tlsRecord(size / 3 + random.below(size / 2))))
      clock += 0.03
      packets.append(
        SamplePacket(
          offset: clock, outbound: false, tcpFlags: Self.pushAck,
          payload: .tlsRecord(size / 2 + random.below(size))))
    }
    return packets
  }

  static func close(_ t: TimeInterval) -> [SamplePacket] {
    [
      SamplePacket(
        offset: t, outbound: true,
        tcpFlags: DatagramBuilder.TCPFlags.fin | DatagramBuilder.TCPFlags.ack, payload: .none),
      SamplePacket(
        offset: t + 0.02, outbound: false,
        tcpFlags: DatagramBuilder.TCPFlags.fin | DatagramBuilder.TCPFlags.ack, payload: .none),
    ]
  }

  enum Answer {
    case serverHello(
      TLSProtocolVersion, cipher: UInt16 = 0x1301, hrr: Bool = false, certificate: [Data]? = nil)
    case alert(UInt8)
    /// The version was read from the inspecting proxy's own connection: the app's connection shows a TLS 1.3 answer.
    case upstream(TLSProtocolVersion)
    case nothing
  }

  /// A TLS connection over TCP.
  mutating func tls(
    sni: String?, dns: String? = nil, dnsOthers: [String] = [], start: Date, port: UInt16 = 443,
    offer: ClientTLSOffer = ClientTLSOffer(
      versionsForm: .listed, versions: [.tls13, .tls12], alpn: ["h2", "http/1.1"]),
    answer: Answer, status: TLSInspectionStatus = .encrypted, v6: Bool = false, exchanges: Int = 2,
    addressName: String? = nil, cipherSuites: [UInt16]? = nil
  ) -> SampleFlow {
    let name = addressName ?? sni ?? dns ?? "unnamed-\(random.below(1_000_000))"
    var (flow, device) = base(
      .tcp, server: serverAddress(name, v6: v6), port: port, devicePort: ephemeralPort(),
      start: start, v6: v6, status: status)
    flow.sni = sni
    flow.dnsName = dns
    flow.dnsOtherNames = dnsOthers
    flow.streamOpening = .tlsHandshake
    let versions: [UInt16]? = offer.versionsForm == .listed ? offer.versions.map(\.rawValue) : nil
    let legacy: UInt16 =
      offer.versionsForm == .upTo ? (offer.versions.first?.rawValue ?? 0x0303) : 0x0303
    let hello = TLSMessageBuilder.clientHello(
      serverName: sni, legacyVersion: legacy, versions: versions, alpn: offer.alpn,
      encryptedClientHello: offer.encryptedClientHello,
      cipherSuites: cipherSuites ?? [0x1301, 0x1302, 0xc02f, 0xc030, 0x009c])
    // The lists and the fingerprint as import reads them from these bytes.
    let read = HandshakeReadings.offer(ofRecord: hello)
    flow.clientTLS = ClientTLSOffer(
      versionsForm: offer.versionsForm, versions: offer.versions, alpn: offer.alpn,
      droppedALPNCount: offer.droppedALPNCount, encryptedClientHello: offer.encryptedClientHello,
      cipherSuites: read?.cipherSuites ?? [], extensions: read?.extensions ?? [], ja4: read?.ja4)
    var packets = Self.handshake()
    packets.append(
      SamplePacket(
        offset: 0.03, outbound: true, tcpFlags: Self.pushAck, payload: .bytes(hello)))
    var t = 0.06
    switch answer {
    case .serverHello(let version, let cipher, let hrr, let certificate):
      let modern = version == .tls13 || !version.isPublished
      var bytes = TLSMessageBuilder.serverHello(
        legacyVersion: modern ? 0x0303 : version.rawValue,
        supportedVersion: modern ? version.rawValue : nil, cipherSuite: cipher,
        helloRetryRequest: hrr)
      flow.serverTLS = .negotiated(
        version: version, cipherSuite: cipher, fromHelloRetryRequest: hrr, source: .serverHello,
        parameters: HandshakeReadings.parameters(ofRecord: bytes) ?? ServerTLSParameters())
      if let certificate, !modern {
        bytes.append(TLSMessageBuilder.certificate(chain: certificate))
        flow.serverCertificate = .presented(
          chain: certificate, chainIsComplete: certificate.count > 1)
      } else {
        flow.serverCertificate = modern ? .encryptedInHandshake : .notSent(.sessionResumed)
      }
      packets.append(
        SamplePacket(offset: t, outbound: false, tcpFlags: Self.pushAck, payload: .bytes(bytes)))
      packets += applicationData(after: t, exchanges: exchanges)
    case .upstream(let version):
      flow.serverTLS = .negotiated(
        version: version, cipherSuite: version == .tls13 ? 0x1301 : 0xc02f,
        fromHelloRetryRequest: false, source: .upstreamConnection)
      flow.serverCertificate = .replacedByInspection
      packets.append(
        SamplePacket(
          offset: t, outbound: false, tcpFlags: Self.pushAck,
          payload: .bytes(
            TLSMessageBuilder.serverHello(supportedVersion: 0x0304, cipherSuite: 0x1301))))
      packets += applicationData(after: t, exchanges: exchanges)
    case .alert(let description):
      flow.serverTLS = .refused(alert: description)
      flow.serverCertificate = .noNegotiation
      packets.append(
        SamplePacket(
          offset: t, outbound: false, tcpFlags: Self.pushAck,
          payload: .bytes(TLSMessageBuilder.alert(description: description))))
    case .nothing:
      packets += applicationData(after: t, exchanges: exchanges)
    }
    t = (packets.last?.offset ?? t) + 0.05
    packets += Self.close(t)
    return SampleFlow(flow: flow, device: device, start: start, packets: packets)
  }

  /// A TCP connection whose bytes were not read by the recorder (no opening, no readings).
  mutating func unreadTCP(name: String?, dns: String? = nil, start: Date, port: UInt16 = 443)
    -> SampleFlow
  {
    var (flow, device) = base(
      .tcp, server: serverAddress(name ?? "unread-\(random.below(1000))"), port: port,
      devicePort: ephemeralPort(), start: start, v6: false,
      status: port == 80 ? .plaintext : .encrypted)
    flow.dnsName = dns
    var packets = Self.handshake()
    packets += applicationData(after: 0.03, exchanges: 2)
    packets += Self.close((packets.last?.offset ?? 0) + 0.05)
    return SampleFlow(flow: flow, device: device, start: start, packets: packets)
  }

  /// A stream that opened with an HTTP request in the clear.
  mutating func http(
    host: String, start: Date, port: UInt16 = 80, path: String = "/v1/measurements"
  ) -> SampleFlow {
    var (flow, device) = base(
      .tcp, server: serverAddress(host), port: port, devicePort: ephemeralPort(), start: start,
      v6: false,
      status: port == 443 ? .encrypted : .plaintext)
    flow.dnsName = host
    flow.streamOpening = .httpRequest
    var packets = Self.handshake()
    let request =
      "POST \(path) HTTP/1.1\r\nHost: \(host)\r\nUser-Agent: ExampleHealth/2.4.0\r\nContent-Type: application/json\r\nContent-Length: 26\r\n\r\n{\"steps\":8421,\"pulse\":72}\n"
    let response = "HTTP/1.1 204 No Content\r\nServer: example\r\n\r\n"
    packets.append(
      SamplePacket(
        offset: 0.03, outbound: true, tcpFlags: Self.pushAck, payload: .bytes(Data(request.utf8))))
    packets.append(
      SamplePacket(
        offset: 0.09, outbound: false, tcpFlags: Self.pushAck, payload: .bytes(Data(response.utf8)))
    )
    packets += Self.close(0.12)
    return SampleFlow(flow: flow, device: device, start: start, packets: packets)
  }

  /// A stream that opened with neither TLS nor HTTP.
  mutating func unrecognised(dns: String, start: Date, port: UInt16 = 5223) -> SampleFlow {
    var (flow, device) = base(
      .tcp, server: serverAddress(dns), port: port, devicePort: ephemeralPort(), start: start,
      v6: false, status: .plaintext)
    flow.dnsName = dns
    flow.streamOpening = .unrecognised
    var packets = Self.handshake()
    packets.append(
      SamplePacket(
        offset: 0.03, outbound: true, tcpFlags: Self.pushAck,
        payload: .bytes(Data("<?xml version='1.0'?><stream:stream to='\(dns)'>".utf8))))
    packets.append(
      SamplePacket(offset: 0.08, outbound: false, tcpFlags: Self.pushAck, payload: .random(180)))
    packets += Self.close(0.2)
    return SampleFlow(flow: flow, device: device, start: start, packets: packets)
  }

  /// QUIC over UDP 443: `serverAnswers` false leaves only the client's proposed version readable.
  mutating func quic(
    sni: String, start: Date, version: UInt32, serverAnswers: Bool, v6: Bool = false
  ) -> SampleFlow {
    var (flow, device) = base(
      .udp, server: serverAddress(sni, v6: v6), port: 443, devicePort: ephemeralPort(),
      start: start, v6: v6, status: .encrypted)
    flow.sni = sni
    flow.quic = QUICReading(version: version, end: serverAnswers ? .server : .client)
    flow.serverCertificate = .encryptedInHandshake
    func longHeader(_ first: UInt8, length: Int) -> Data {
      var d = Data([first])
      d.appendInteger(version)
      d.append(8)
      d.append(random.bytes(8))
      d.append(8)
      d.append(random.bytes(8))
      d.append(random.bytes(max(0, length - d.count)))
      return d
    }
    var packets = [
      SamplePacket(
        offset: 0, outbound: true, tcpFlags: 0, payload: .bytes(longHeader(0xc3, length: 1200)))
    ]
    if serverAnswers {
      packets.append(
        SamplePacket(
          offset: 0.03, outbound: false, tcpFlags: 0,
          payload: .bytes(longHeader(0xc1, length: 1200))))
    }
    for i in 0..<4 {
      let short = Data([0x40]) + random.bytes(8 + 300 + random.below(600))
      packets.append(
        SamplePacket(
          offset: 0.06 + Double(i) * 0.05, outbound: i % 2 == 1, tcpFlags: 0, payload: .bytes(short)
        ))
    }
    return SampleFlow(flow: flow, device: device, start: start, packets: packets)
  }

  /// Datagrams of a protocol nothing reads (STUN's port, neither QUIC nor DNS).
  mutating func unreadUDP(dns: String, start: Date, port: UInt16 = 3478) -> SampleFlow {
    var (flow, device) = base(
      .udp, server: serverAddress(dns), port: port, devicePort: ephemeralPort(), start: start,
      v6: false, status: .plaintext)
    flow.dnsName = dns
    let packets = (0..<4).map { i in
      SamplePacket(
        offset: Double(i) * 0.02, outbound: i % 2 == 0, tcpFlags: 0,
        payload: .bytes(Data([0x00, 0x01]) + random.bytes(46)))
    }
    return SampleFlow(flow: flow, device: device, start: start, packets: packets)
  }

  /// A DNS query and its answer, over UDP 53 to the resolver.
  mutating func dns(query name: String, answers: [DNSMessageBuilder.Answer], start: Date)
    -> SampleFlow
  {
    let (flow, device) = base(
      .udp, server: "10.0.0.1", port: 53, devicePort: ephemeralPort(), start: start, v6: false,
      status: .plaintext)
    let id = UInt16(truncatingIfNeeded: random.next())
    let packets = [
      SamplePacket(
        offset: 0, outbound: true, tcpFlags: 0,
        payload: .bytes(DNSMessageBuilder.query(id: id, name: name))),
      SamplePacket(
        offset: 0.012, outbound: false, tcpFlags: 0,
        payload: .bytes(DNSMessageBuilder.response(id: id, name: name, answers: answers))),
    ]
    return SampleFlow(flow: flow, device: device, start: start, packets: packets)
  }

  mutating func icmp(to address: String, start: Date) -> SampleFlow {
    var (flow, device) = base(
      .icmp, server: address, port: 0, devicePort: 0, start: start, v6: false, status: .plaintext)
    flow.peers = FlowPeers(
      FlowEndpoint(address: device4, port: 0), FlowEndpoint(address: address, port: 0))
    let packets = [
      SamplePacket(offset: 0, outbound: true, tcpFlags: 0, payload: .random(56)),
      SamplePacket(offset: 0.015, outbound: false, tcpFlags: 0, payload: .random(56)),
    ]
    return SampleFlow(flow: flow, device: device, start: start, packets: packets)
  }

  /// A certificate-shaped DER blob (a SEQUENCE of the given length).
  mutating func certificate(_ length: Int) -> Data {
    var d = Data([0x30, 0x82, UInt8((length >> 8) & 0xff), UInt8(length & 0xff)])
    d.append(random.bytes(length))
    return d
  }
}
