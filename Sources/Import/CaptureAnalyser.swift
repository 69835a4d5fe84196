import Audit
import AuditRules
import AuditWording
import Bytes
import Capture
import Crypto
import Foundation

/// Reads packets into flows with their readings, one packet at a time: the importer's first pass
/// and the recorder's reading. Nothing here looks back at an earlier packet, so a flow over
/// (`FlowAssignment.isOver`) can be written and let go.
struct CaptureAnalyser {
  var analysis = CaptureAnalysis()
  var assignment = FlowAssignment()
  /// Each flow's readings, by the same slot as `assignment.flows`.
  var flows: [TrackedFlow] = []
  /// The names DNS gave each address so far, the latest first.
  var names = DNSNames()
  let devices: Set<String>
  /// Device addresses of the flows between two hosts so far, and how many flows each had.
  var deviceCount: [String: Int] = [:]

  init(devices: [String]) { self.devices = Set(devices) }

  /// The frame's packet, if it is one to import (read whole, and taken at a time the history can
  /// hold: from 1970 to 2262, which covers any capture), else why not.
  static func importable(_ frame: DecodedFrame) -> DissectResult {
    let result = PacketDissector.dissect([UInt8](frame.data), linkType: frame.linkType)
    guard case .packet = result, !Instant.storableMicroseconds.contains(frame.microseconds) else {
      return result
    }
    return .unparseable("timestamp out of range")
  }

  /// A packet read into its flow.
  struct Added {
    let slot: Int
    let opened: Bool
    let packet: DissectedPacket
  }

  @discardableResult
  mutating func add(_ frame: DecodedFrame) -> Added? {
    analysis.frames += 1
    let packet: DissectedPacket
    switch Self.importable(frame) {
    case .unparseable(let reason):
      analysis.unparseable[reason, default: 0] += 1
      return nil
    case .packet(let p): packet = p
    }
    let micros = frame.microseconds
    if analysis.firstMicroseconds == nil || micros < analysis.firstMicroseconds! {
      analysis.firstMicroseconds = micros
    }
    if analysis.lastMicroseconds == nil || micros > analysis.lastMicroseconds! {
      analysis.lastMicroseconds = micros
    }
    let (slot, opened) = assignment.assign(packet, at: micros)
    if opened {
      let tracked = TrackedFlow()
      if slot == flows.count { flows.append(tracked) } else { flows[slot] = tracked }
      opening(slot, tracked)
    }
    let flow = flows[slot]
    let fromOpener = packet.source == assignment.flows[slot].opener
    if fromOpener {
      flow.bytesFromOpener += UInt64(packet.datagram.count)
    } else {
      flow.bytesToOpener += UInt64(packet.datagram.count)
    }
    analysis.packetCount += 1
    switch packet.ipProtocol {
    case .tcp: readTCP(flow, packet, fromOpener: fromOpener)
    case .udp: readUDP(flow, packet, fromOpener: fromOpener, at: micros)
    default: break
    }
    return Added(slot: slot, opened: opened, packet: packet)
  }

  /// What is settled when a flow opens: its device end between two hosts, and the names DNS had
  /// given its ends before it began.
  private mutating func opening(_ slot: Int, _ tracked: TrackedFlow) {
    let seen = assignment.flows[slot]
    tracked.device = Self.deviceEnd(of: seen, devices: devices)
    if let device = tracked.device { deviceCount[device.address, default: 0] += 1 }
    tracked.namesOfA = names.of(seen.peers.a.address)
    tracked.namesOfB = names.of(seen.peers.b.address)
  }

  /// The device's end of a flow between two hosts; nil for a flow to a group (multicast,
  /// broadcast), which `groupDeviceEnd` settles.
  static func deviceEnd(of flow: FlowAssignment.Flow, devices: Set<String>) -> FlowEndpoint? {
    let a = flow.peers.a
    let b = flow.peers.b
    guard !AddressKind.isGroup(a.address), !AddressKind.isGroup(b.address) else { return nil }
    if !devices.isEmpty {
      if devices.contains(a.address) != devices.contains(b.address) {
        return devices.contains(a.address) ? a : b
      }
    } else if !flow.openedExplicitly,
      AddressKind.isPrivate(a.address) != AddressKind.isPrivate(b.address)
    {
      return AddressKind.isPrivate(a.address) ? a : b
    }
    return flow.opener
  }

  /// A flow to a group is the device's when its sender is a device address: otherwise another
  /// host on the link sent it, and it reached the device (its packets are inbound).
  static func groupDeviceEnd(of flow: FlowAssignment.Flow, known: Set<String>) -> FlowEndpoint {
    let sender = flow.opener
    let group = flow.peers.a == sender ? flow.peers.b : flow.peers.a
    return known.contains(sender.address) ? sender : group
  }

  /// Device addresses: those given, else those inferred so far, the most connections first.
  var deviceAddresses: [String] {
    devices.isEmpty
      ? deviceCount.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map(\.key) : devices.sorted()
  }

  /// The device addresses known so far: those given, else those inferred.
  var knownDevices: Set<String> { devices.isEmpty ? Set(deviceCount.keys) : devices }

  /// The device end of the flow in `slot`, group flows settled by the devices known now.
  func device(of slot: Int) -> FlowEndpoint {
    flows[slot].device
      ?? Self.groupDeviceEnd(of: assignment.flows[slot], known: knownDevices)
  }

  func readTCP(_ flow: TrackedFlow, _ packet: DissectedPacket, fromOpener: Bool) {
    let syn = packet.tcpFlags & 0x02 != 0
    if syn {
      if fromOpener {
        flow.client.start(at: packet.tcpSequence &+ 1)
      } else {
        flow.server.start(at: packet.tcpSequence &+ 1)
      }
      return
    }
    guard !packet.payload.isEmpty else { return }
    if fromOpener {
      // Once the opening is known and, for TLS (directly or in a CONNECT's tunnel), the
      // ClientHello read, the client's bytes say no more.
      if let opening = flow.opening,
        flow.clientHello != nil || flow.tunnelNotTLS
          || (opening != .tlsHandshake && opening != .httpConnect)
      {
        if !flow.client.contiguous.isEmpty {
          flow.client = StreamReassembly(base: flow.client.base)
        }
        return
      }
      guard flow.client.add(sequence: packet.tcpSequence, packet.payload) else { return }
      let stream = flow.client.contiguous
      if flow.opening == nil { flow.opening = StreamOpeningReader.opening(stream) }
      if flow.opening == .httpConnect, flow.clientTunnel == nil,
        let (host, start) = StreamOpeningReader.connectRequest(stream)
      {
        flow.connectHost = host
        flow.clientTunnel = start
      }
      let start = flow.opening == .tlsHandshake ? 0 : flow.clientTunnel
      if let start, stream.count > start, flow.clientHello == nil {
        guard stream[start] == 0x16 else {
          flow.tunnelNotTLS = true
          return
        }
        if let hello = TLSHandshakeReader.handshakeMessages(Array(stream[start...])).messages.first(
          where: { $0.0 == 1 })
        {
          flow.clientHello = TLSHandshakeReader.clientHello(hello.1)
        }
      }
    } else {
      // The answer read (and, below TLS 1.3, the certificate or its absence settled): the server's bytes say no more.
      if let answer = flow.answer {
        var settled = !flow.chain.isEmpty || flow.resumed
        if let hello = answer.hello, hello.version >= .tls13, !hello.isRetry {
          settled = true
        }
        if case .alert = answer { settled = true }
        if settled || flow.server.contiguous.count >= TrackedFlow.streamLimit {
          if !flow.server.contiguous.isEmpty {
            flow.server = StreamReassembly(base: flow.server.base)
          }
          return
        }
      }
      guard flow.server.add(sequence: packet.tcpSequence, packet.payload) else { return }
      // Through a proxy, the server's TLS begins after the proxy's 2xx answer to the CONNECT.
      var serverStream = flow.server.contiguous
      if flow.opening == .httpConnect {
        if flow.serverTunnel == nil {
          flow.serverTunnel = StreamOpeningReader.connectAnswer(serverStream)
        }
        guard let start = flow.serverTunnel, serverStream.count > start else { return }
        serverStream = Array(serverStream[start...])
      }
      let (messages, alert) = TLSHandshakeReader.handshakeMessages(serverStream)
      var retry = false
      var answer: ServerAnswerReading?
      for (type, body) in messages {
        if type == 2, var hello = TLSHandshakeReader.serverHello(body) {
          if hello.isRetry {
            retry = true
            hello.sessionID = []
            answer = answer ?? .hello(hello)
          } else {
            answer = .hello(hello)
          }
        }
        if type == 11, flow.chain.isEmpty { flow.chain = TLSHandshakeReader.certificates(body) }
      }
      flow.sawRetry = flow.sawRetry || retry
      if let answer {
        flow.answer = answer
        // Below TLS 1.3 a server that echoes the session id the client offered resumes that
        // session (RFC 5246 § 7.4.1.3): it sends no certificate. TLS 1.3 echoes it always.
        if let hello = answer.hello, !hello.isRetry, hello.version < .tls13,
          !hello.sessionID.isEmpty, hello.sessionID == flow.clientHello?.sessionID
        {
          flow.resumed = true
        }
      } else if let alert, messages.allSatisfy({ $0.0 != 2 }) {
        flow.answer = .alert(alert)
      }
    }
  }

  mutating func readUDP(
    _ flow: TrackedFlow, _ packet: DissectedPacket, fromOpener: Bool, at micros: Int64
  ) {
    let ports = (packet.source.port, packet.destination.port)
    if DatagramPorts.isDNS(ports.0) || DatagramPorts.isDNS(ports.1) {
      if flow.opening == nil, DNSReader.isMessage(packet.payload) { flow.opening = .dnsMessage }
      if DatagramPorts.isDNS(ports.0), let answer = DNSReader.response(packet.payload) {
        for address in answer.addresses { names.add(answer.name, for: address) }
      }
      return
    }
    // A port whose protocol is known is never QUIC, however its first byte looks.
    guard !DatagramPorts.isKnownOtherThanQUIC(ports.0),
      !DatagramPorts.isKnownOtherThanQUIC(ports.1),
      let header = QUICInitialReader.longHeader(packet.payload)
    else { return }
    if fromOpener {
      flow.quicClientVersion = flow.quicClientVersion ?? header.version
      if header.isInitial {
        if flow.quicDestinationID == nil { flow.quicDestinationID = header.destinationID }
        if flow.quicOffer == nil,
          let frames = QUICInitialReader.cryptoFrames(
            packet.payload, destinationID: flow.quicDestinationID!, end: .client)
        {
          for (offset, data) in frames where offset < UInt64(TrackedFlow.streamLimit) {
            flow.quicCrypto[offset] = data
          }
          if let hello = Self.handshakeMessage(1, in: flow.quicCrypto) {
            flow.quicOffer = TLSHandshakeReader.clientHello(hello)
          }
        }
      }
    } else {
      flow.quicServerVersion = flow.quicServerVersion ?? header.version
      // The server's Initial packets are protected with keys of the client's first Destination
      // Connection ID too (RFC 9001 § 5.2): its ServerHello can be read like the ClientHello.
      if header.isInitial, flow.answer == nil, let id = flow.quicDestinationID,
        let frames = QUICInitialReader.cryptoFrames(packet.payload, destinationID: id, end: .server)
      {
        for (offset, data) in frames where offset < UInt64(TrackedFlow.streamLimit) {
          flow.quicServerCrypto[offset] = data
        }
        if let hello = Self.handshakeMessage(2, in: flow.quicServerCrypto),
          let answer = TLSHandshakeReader.serverHello(hello)
        {
          flow.answer = .hello(answer)
        }
      }
    }
  }

  /// The first handshake message of CRYPTO frames gathered by offset, once it is whole and of
  /// the type asked for.
  static func handshakeMessage(_ type: UInt8, in frames: [UInt64: [UInt8]]) -> ArraySlice<UInt8>? {
    var stream: [UInt8] = []
    while let next = frames.first(where: {
      $0.key <= UInt64(stream.count) && $0.key + UInt64($0.value.count) > UInt64(stream.count)
    }) {
      stream += next.value[Int(UInt64(stream.count) - next.key)...]
    }
    guard stream.first == type, let length = stream.uint24(at: 1).map(Int.init),
      stream.count >= 4 + length
    else { return nil }
    return stream[4..<(4 + length)]
  }

  /// Flows as the store holds them: the device side settled, DNS names given, readings set.
  mutating func finish() -> CaptureAnalysis {
    var result = analysis
    result.devicesInferred = devices.isEmpty
    result.deviceAddresses = deviceAddresses
    // At its size: grown by doubling, 20 000 flows held their last two copies at once (13 MB).
    result.flows.reserveCapacity(flows.count)
    for slot in flows.indices {
      let tracked = flows[slot]
      let device = device(of: slot)
      let stored = stored(slot, device: device)
      if tracked.clientHello?.serverName != nil {
        result.namesFromSNI += 1
      } else if tracked.clientHello == nil, tracked.quicOffer?.serverName != nil {
        result.namesFromQUIC += 1
      }
      if stored.dnsName != nil, stored.sni == nil { result.namesFromDNS += 1 }
      result.flows.append(CaptureAnalysis.Flow(flow: stored, device: device))
    }
    result.flowCount = result.flows.count
    return result
  }

  /// The flow in `slot` as the store holds it, `device` being its device end: what was read of
  /// it so far.
  func stored(_ slot: Int, device: FlowEndpoint) -> StoredFlow {
    let flow = flows[slot]
    let seen = assignment.flows[slot]
    let server = seen.peers.a == device ? seen.peers.b : seen.peers.a
    let deviceOpened = device == seen.opener
    var stored = StoredFlow(
      ipProtocol: seen.ipProtocol, peers: seen.peers,
      firstSeen: Instant.date(microseconds: seen.first),
      lastSeen: Instant.date(microseconds: seen.last),
      bytesOut: deviceOpened ? flow.bytesFromOpener : flow.bytesToOpener,
      bytesIn: deviceOpened ? flow.bytesToOpener : flow.bytesFromOpener,
      packetCount: seen.packets, tlsStatus: .plaintext)
    stored.streamOpening = flow.opening
    stored.connectHost = flow.connectHost
    if let hello = flow.clientHello {
      stored.sni = hello.serverName
      stored.clientTLS = hello.offer
    } else if let quic = flow.quicOffer {
      stored.sni = quic.serverName
      stored.clientTLS = quic.offer
    }
    switch flow.answer {
    case .hello(let hello)?:
      stored.serverTLS = .negotiated(
        version: hello.version, cipherSuite: hello.cipherSuite,
        fromHelloRetryRequest: flow.sawRetry, source: .serverHello)
    case .alert(let code)?: stored.serverTLS = .refused(alert: code)
    case nil: break
    }
    if let v = flow.quicServerVersion {
      stored.quic = QUICReading(version: v, end: .server)
    } else if let v = flow.quicClientVersion {
      stored.quic = QUICReading(version: v, end: .client)
    }
    (stored.tlsStatus, stored.tlsStatusBasis) = Self.status(of: stored, serverPort: server.port)
    if !flow.chain.isEmpty {
      stored.serverCertificate = .presented(
        chain: flow.chain, chainIsComplete: TLSHandshakeReader.reachesRoot(flow.chain))
    } else if flow.resumed {
      stored.serverCertificate = .notSent(.sessionResumed)
    } else if let hello = flow.answer?.hello, hello.version == .tls13 || stored.quic != nil {
      stored.serverCertificate = .encryptedInHandshake
    } else if case .refused? = stored.serverTLS {
      stored.serverCertificate = .noNegotiation
    } else if stored.quic?.end == .server {
      stored.serverCertificate = .encryptedInHandshake
    }
    // Names DNS gave the server's address before the flow began, the latest first.
    let names = server == seen.peers.a ? flow.namesOfA : flow.namesOfB
    if !(server.port == 53 || server.port == 5353), let first = names.first {
      stored.dnsName = first
      stored.dnsOtherNames = Array(names.dropFirst())
    }
    return stored
  }

  /// The status follows what was read of the flow; only where nothing that tells was read does
  /// it follow the server's port, and the basis says so.
  static func status(of flow: StoredFlow, serverPort: UInt16) -> (
    TLSInspectionStatus, TLSStatusBasis
  ) {
    if let read = TLSStatusBasis.statusRead(of: flow) { return (read, .readings) }
    return (portStatus(flow.ipProtocol, serverPort), .port)
  }

  /// What the port alone suggests.
  static func portStatus(_ p: IPProtocolNumber, _ port: UInt16) -> TLSInspectionStatus {
    switch (p, port) {
    case (.tcp, 443), (.tcp, 8443), (.tcp, 853), (.tcp, 993), (.tcp, 995), (.tcp, 465),
      (.tcp, 5223), (.udp, 443):
      return .encrypted
    default: return .plaintext
    }
  }
}

enum AddressKind {
  /// A multicast or broadcast address: a group, never one host's.
  static func isGroup(_ address: String) -> Bool {
    if address.contains(":") { return address.lowercased().hasPrefix("ff") }
    let parts = address.split(separator: ".").compactMap { Int($0) }
    guard parts.count == 4 else { return false }
    return (224...239).contains(parts[0]) || parts == [255, 255, 255, 255]
  }

  static func isPrivate(_ address: String) -> Bool {
    if address.contains(":") {
      let lower = address.lowercased()
      return lower.hasPrefix("fc") || lower.hasPrefix("fd") || lower.hasPrefix("fe80")
        || lower == "::1"
    }
    let parts = address.split(separator: ".").compactMap { Int($0) }
    guard parts.count == 4 else { return false }
    return parts[0] == 10 || (parts[0] == 172 && (16...31).contains(parts[1]))
      || (parts[0] == 192 && parts[1] == 168)
      || parts[0] == 127 || (parts[0] == 100 && (64...127).contains(parts[1]))
      || (parts[0] == 169 && parts[1] == 254)
  }
}

enum StreamOpeningReader {
  static let methods = [
    "GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH", "CONNECT", "TRACE",
  ]

  /// How a client stream opened, once enough of it is there to say; nil while it is not.
  static func opening(_ stream: [UInt8]) -> StreamOpening? {
    guard let first = stream.first else { return nil }
    if first == 0x16 {
      return stream.count >= 2 ? (stream[1] == 3 ? .tlsHandshake : .unrecognised) : nil
    }
    let head = String(decoding: stream.prefix(8192), as: UTF8.self)
    let couldBeMethod = methods.contains {
      $0.hasPrefix(head.prefix($0.count)) || head.hasPrefix($0 + " ")
    }
    guard couldBeMethod else { return .unrecognised }
    guard let lineEnd = head.range(of: "\r\n") else {
      return stream.count >= 8192 ? .unrecognised : nil
    }
    let line = head[..<lineEnd.lowerBound]
    let parts = line.split(separator: " ", omittingEmptySubsequences: false)
    if parts.count == 3, methods.contains(String(parts[0])), !parts[1].isEmpty,
      parts[2] == "HTTP/1.1" || parts[2] == "HTTP/1.0"
    {
      return parts[0] == "CONNECT" ? .httpConnect : .httpRequest
    }
    return .unrecognised
  }

  /// A CONNECT request's host (its authority without the port, RFC 9110 § 9.3.6) and where the
  /// tunnel begins: after the request's head. Nil until the head is whole.
  static func connectRequest(_ stream: [UInt8]) -> (host: String, tunnelStart: Int)? {
    guard let end = headEnd(stream) else { return nil }
    let line = String(decoding: stream.prefix(while: { $0 != 0x0d }), as: UTF8.self)
    let parts = line.split(separator: " ")
    guard parts.count == 3, parts[0] == "CONNECT" else { return nil }
    var authority = Substring(parts[1])
    if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
      authority = authority[authority.index(after: authority.startIndex)..<close]
    } else if let colon = authority.lastIndex(of: ":") {
      authority = authority[..<colon]
    }
    guard !authority.isEmpty else { return nil }
    return (DomainPattern.normalised(host: String(authority)), end)
  }

  /// Where the tunnel begins in the proxy's answer: after a 2xx answer's head. Nil while the head
  /// is not whole, or when the proxy refused (no tunnel then).
  static func connectAnswer(_ stream: [UInt8]) -> Int? {
    guard let end = headEnd(stream) else { return nil }
    let line = String(decoding: stream.prefix(while: { $0 != 0x0d }), as: UTF8.self)
    let parts = line.split(separator: " ")
    guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3,
      parts[1].hasPrefix("2")
    else { return Int.max }
    return end
  }

  /// The offset after an HTTP head's blank line, within the first 8 KiB.
  static func headEnd(_ stream: [UInt8]) -> Int? {
    let limit = min(stream.count, 8192)
    guard limit >= 4 else { return nil }
    for i in 0...(limit - 4)
    where stream[i] == 0x0d && stream[i + 1] == 0x0a && stream[i + 2] == 0x0d
      && stream[i + 3] == 0x0a
    {
      return i + 4
    }
    return nil
  }
}

/// UDP ports whose protocol is known: what is sent on them is read as that, never as QUIC.
enum DatagramPorts {
  /// DNS, multicast DNS, LLMNR.
  static func isDNS(_ port: UInt16) -> Bool { port == 53 || port == 5353 || port == 5355 }

  /// DNS's, DHCP, TFTP, NTP, NetBIOS, SNMP, syslog, SSDP.
  static func isKnownOtherThanQUIC(_ port: UInt16) -> Bool {
    switch port {
    case 53, 67, 68, 69, 123, 137, 138, 161, 162, 514, 1900, 5353, 5355: return true
    default: return false
    }
  }
}

enum DNSReader {
  /// Whether a datagram reads as a DNS message: a header and at least one question whose name
  /// reads (a query or a response).
  static func isMessage(_ payload: ArraySlice<UInt8>) -> Bool {
    let message = Array(payload)
    guard let questions = message.integer(at: 4, as: UInt16.self), questions >= 1,
      message[2] & 0x78 == 0, let (_, end) = name(message, 12)
    else { return false }
    return end + 4 <= message.count
  }

  struct Answer {
    let name: String
    let addresses: [String]
  }

  /// A response's question name and the addresses its A/AAAA records give it (following CNAMEs).
  static func response(_ payload: ArraySlice<UInt8>) -> Answer? {
    let message = Array(payload)
    guard message.count >= 12, message[2] & 0x80 != 0, message[3] & 0x0f == 0 else { return nil }
    let questions = Int(message.integer(at: 4, as: UInt16.self)!)
    let answers = Int(message.integer(at: 6, as: UInt16.self)!)
    guard questions >= 1 else { return nil }
    var at = 12
    guard let (question, next) = name(message, at) else { return nil }
    at = next + 4
    for _ in 1..<max(1, questions) {
      guard let (_, n) = name(message, at) else { return nil }
      at = n + 4
    }
    var chain: Set<String> = [question.lowercased()]
    var addresses: [String] = []
    for _ in 0..<min(answers, 64) {
      guard let (owner, n) = name(message, at), n + 10 <= message.count else { break }
      let type = Int(message.integer(at: n, as: UInt16.self)!)
      let length = Int(message.integer(at: n + 8, as: UInt16.self)!)
      let data = n + 10
      guard data + length <= message.count else { break }
      let ownerLower = owner.lowercased()
      if type == 5, chain.contains(ownerLower), let (target, _) = name(message, data) {
        chain.insert(target.lowercased())
      }
      if (type == 1 && length == 4) || (type == 28 && length == 16), chain.contains(ownerLower) {
        addresses.append(PacketDissector.address(message[data..<(data + length)]))
      }
      at = data + length
    }
    return addresses.isEmpty
      ? nil : Answer(name: DomainPattern.normalised(host: question), addresses: addresses)
  }

  /// A name at `start` (labels and compression pointers, jumps bounded); the offset after it.
  static func name(_ m: [UInt8], _ start: Int) -> (String, Int)? {
    var labels: [String] = []
    var at = start
    var end: Int?
    var jumps = 0
    while at < m.count {
      let length = Int(m[at])
      if length == 0 { return (labels.joined(separator: "."), end ?? at + 1) }
      if length & 0xc0 == 0xc0 {
        guard at + 1 < m.count, jumps < 16 else { return nil }
        if end == nil { end = at + 2 }
        at = (length & 0x3f) << 8 | Int(m[at + 1])
        jumps += 1
        continue
      }
      guard length <= 63, at + 1 + length <= m.count else { return nil }
      labels.append(String(decoding: m[(at + 1)..<(at + 1 + length)], as: UTF8.self))
      at += 1 + length
      guard labels.count < 128 else { return nil }
    }
    return nil
  }
}
