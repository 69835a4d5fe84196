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
    let result = PacketDissector.dissect(frame.data, linkType: frame.linkType)
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
    case .tcp:
      readTCP(flow, packet, fromOpener: fromOpener)
      if flow.http != nil { readHTTP(flow, packet, fromOpener: fromOpener, slot: slot, at: micros) }
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
      // Asked for a certificate, the client answers in its next flight: read on to its
      // Certificate message.
      if flow.certificateRequested, flow.clientSentCertificate == nil, flow.clientHello != nil {
        readClientCertificate(flow, packet)
        return
      }
      // Once the opening is known and, for TLS (directly or in a CONNECT's tunnel), the
      // ClientHello read, the client's bytes say no more.
      if let opening = flow.opening,
        flow.clientHello != nil || flow.tunnelNotTLS
          || (opening != .tlsHandshake && opening != .httpConnect)
      {
        // What was read stays (a few hundred bytes): a later copy of those bytes that differs
        // is an ambiguous stream, the name read perhaps not the one the server saw.
        flow.client.keepOnlyWhatWasRead()
        flow.client.compare(sequence: packet.tcpSequence, packet.payload)
        return
      }
      guard flow.client.add(sequence: packet.tcpSequence, packet.payload) else { return }
      readOpening(flow)
    } else {
      // The answer read (and, below TLS 1.3, the server's flight to its hello done: the
      // certificate, the key exchange, a certificate request): the server's bytes say no more.
      if let answer = flow.answer {
        var settled = (!flow.chain.isEmpty && flow.helloDone) || flow.resumed
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
      readFlight(flow, serverStream)
    }
  }

  /// The client's stream so far: how it opens (TLS, HTTP, a CONNECT and its tunnel) and its
  /// ClientHello, once whole.
  func readOpening(_ flow: TrackedFlow) {
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
  }

  /// The server's stream so far: its hello (or the HelloRetryRequest before it), certificates,
  /// key exchange, certificate request and hello done, or the alert it answered with.
  func readFlight(_ flow: TrackedFlow, _ serverStream: [UInt8]) {
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
      if type == 12, let suite = answer?.hello?.cipherSuite {
        flow.keyExchange = TLSHandshakeReader.serverKeyExchange(body, cipherSuite: suite)
      }
      if type == 13 { flow.certificateRequested = true }
      if type == 14 { flow.helloDone = true }
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

  /// The client's Certificate message after the server asked for one: whether it held a
  /// certificate. Its bytes from the ClientHello on, bounded as the opening's are.
  func readClientCertificate(_ flow: TrackedFlow, _ packet: DissectedPacket) {
    guard flow.client.add(sequence: packet.tcpSequence, packet.payload) else { return }
    let stream = flow.client.contiguous
    let start = flow.opening == .tlsHandshake ? 0 : (flow.clientTunnel ?? stream.count)
    guard stream.count > start else { return }
    let messages = TLSHandshakeReader.handshakeMessages(Array(stream[start...])).messages
    if let certificate = messages.first(where: { $0.0 == 11 }) {
      flow.clientSentCertificate = !TLSHandshakeReader.certificates(certificate.1).isEmpty
    } else if flow.client.contiguous.count >= TrackedFlow.streamLimit {
      flow.clientSentCertificate = false
    }
  }

  mutating func readUDP(
    _ flow: TrackedFlow, _ packet: DissectedPacket, fromOpener: Bool, at micros: Int64
  ) {
    let ports = (packet.source.port, packet.destination.port)
    if DatagramPorts.isDNS(ports.0) || DatagramPorts.isDNS(ports.1) {
      if flow.opening == nil, DNSReader.isMessage(packet.payload) { flow.opening = .dnsMessage }
      if flow.questions.count < TrackedFlow.questionLimit,
        let question = DNSReader.question(packet.payload), !flow.questions.contains(question)
      {
        flow.questions.append(question)
      }
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
          guard Self.gather(frames, into: &flow.quicCrypto, refused: &flow.quicPiecesRefused)
          else { return }
          if let hello = Self.handshakeMessage(1, in: flow.quicCrypto) {
            flow.quicOffer = TLSHandshakeReader.clientHello(hello, transport: .quic)
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
        guard
          Self.gather(frames, into: &flow.quicServerCrypto, refused: &flow.quicPiecesRefused)
        else { return }
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
  /// Adds a packet's CRYPTO frames to those held, up to `TrackedFlow.pieceLimit` of them (the
  /// rest counted); whether any was added.
  static func gather(
    _ frames: [(UInt64, [UInt8])], into held: inout [UInt64: [UInt8]], refused: inout Int
  ) -> Bool {
    var added = false
    for (offset, data) in frames where offset < UInt64(TrackedFlow.streamLimit) {
      guard held.count < TrackedFlow.pieceLimit || held[offset] != nil else {
        refused += 1
        continue
      }
      held[offset] = data
      added = true
    }
    return added
  }

  static func handshakeMessage(_ type: UInt8, in frames: [UInt64: [UInt8]]) -> ArraySlice<UInt8>? {
    // In offset order, once: each frame that reaches past the bytes so far extends them.
    var stream: [UInt8] = []
    for (offset, data) in frames.sorted(by: { $0.key < $1.key }) {
      guard offset <= UInt64(stream.count) else { break }
      let end = offset + UInt64(data.count)
      if end > UInt64(stream.count) { stream += data[Int(UInt64(stream.count) - offset)...] }
    }
    guard stream.first == type, let length = stream.uint24(at: 1).map(Int.init),
      stream.count >= 4 + length
    else { return nil }
    return stream[4..<(4 + length)]
  }

  /// HTTP/1 in the clear: each direction's bytes in order into its messages, each response
  /// paired with the oldest request not answered. Dropped once the opening is anything else.
  func readHTTP(
    _ flow: TrackedFlow, _ packet: DissectedPacket, fromOpener: Bool, slot: Int, at micros: Int64
  ) {
    guard let http = flow.http else { return }
    if let opening = flow.opening, opening != .httpRequest {
      flow.http = nil
      return
    }
    if packet.tcpFlags & 0x02 != 0 {
      if fromOpener {
        http.fromOpener.start(at: packet.tcpSequence &+ 1)
      } else {
        http.toOpener.start(at: packet.tcpSequence &+ 1)
      }
      return
    }
    let bytes =
      fromOpener
      ? http.fromOpener.add(sequence: packet.tcpSequence, packet.payload)
      : http.toOpener.add(sequence: packet.tcpSequence, packet.payload)
    if !bytes.isEmpty {
      if fromOpener {
        http.requests.feed(bytes, at: micros)
        http.responses.methods = http.requests.methods
      } else {
        http.responses.feed(bytes, at: micros)
      }
    }
    if packet.tcpFlags & 0x05 != 0 {
      // FIN or RST: what that direction sent is all it sends.
      if fromOpener { http.requests.close() } else { http.responses.close() }
    }
    pair(http, slot: slot)
  }

  /// Requests read whole to the list waiting for an answer; each response with the oldest.
  func pair(_ http: HTTPReading, slot: Int) {
    for request in http.requests.take() {
      if http.host == nil {
        http.host = request.headers.first { $0.name.lowercased() == "host" }?.value
      }
      http.unanswered.append(request)
    }
    for response in http.responses.take() {
      if let status = Int(response.startLine[1]), (100..<200).contains(status) { continue }
      guard !http.unanswered.isEmpty else { continue }
      http.exchanges.append(exchange(http.unanswered.removeFirst(), response, slot: slot))
    }
  }

  /// A request read from the capture, with its response when one came.
  func exchange(_ request: HTTP1Stream.Message, _ response: HTTP1Stream.Message?, slot: Int)
    -> HTTPExchange
  {
    let seen = assignment.flows[slot]
    let server = seen.opener == seen.peers.a ? seen.peers.b : seen.peers.a
    let host = request.headers.first { $0.name.lowercased() == "host" }?.value ?? server.address
    func body(_ message: HTTP1Stream.Message) -> HTTPBody? {
      guard message.bodyBytes > 0 || !message.body.isEmpty else { return nil }
      return HTTPBody(
        bytes: Data(message.body), sentByteCount: message.bodyBytes, sha256: "",
        isComplete: message.complete)
    }
    return HTTPExchange(
      source: .capture, start: Instant.date(microseconds: request.start),
      end: response.map { Instant.date(microseconds: $0.end) }, method: request.startLine[0],
      scheme: "http", host: HTTPHost.withoutPort(host), port: server.port,
      target: request.startLine[1], httpVersion: request.startLine[2],
      requestHeaders: request.headers, requestBody: body(request),
      status: response.flatMap { Int($0.startLine[1]) },
      responseHeaders: response?.headers ?? [], responseBody: response.flatMap(body))
  }

  /// The flow's HTTP read to its end: what was begun is kept, a request unanswered is kept alone.
  func closeHTTP(_ flow: TrackedFlow, slot: Int) -> [HTTPExchange] {
    guard let http = flow.http, flow.opening == .httpRequest else { return [] }
    http.requests.close()
    http.responses.methods = http.requests.methods
    http.responses.close()
    pair(http, slot: slot)
    let left = http.unanswered.map { exchange($0, nil, slot: slot) }
    http.unanswered = []
    defer { http.exchanges = [] }
    return http.exchanges + left
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
      result.piecesNotReassembled += tracked.piecesRefused
      let device = device(of: slot)
      let stored = stored(slot, device: device)
      if tracked.clientHello?.serverName != nil {
        result.namesFromSNI += 1
      } else if tracked.clientHello == nil, tracked.quicOffer?.serverName != nil {
        result.namesFromQUIC += 1
      }
      if stored.dnsName != nil, stored.sni == nil { result.namesFromDNS += 1 }
      result.flows.append(CaptureAnalysis.Flow(flow: stored, device: device))
      for exchange in closeHTTP(tracked, slot: slot) {
        result.exchanges.append((exchange, result.flows.count - 1))
      }
    }
    result.flowCount = result.flows.count
    return result
  }

  /// What the handshake showed of the client's authentication: only below TLS 1.3 (which
  /// encrypts the request), once the server's flight was read to its hello done or the request
  /// was seen.
  static func clientAuthentication(_ flow: TrackedFlow) -> ClientAuthentication? {
    guard let hello = flow.answer?.hello, hello.version < .tls13, !flow.resumed else {
      return nil
    }
    guard flow.certificateRequested else { return flow.helloDone ? .notRequested : nil }
    switch flow.clientSentCertificate {
    case true?: return .requestedSent
    case false?: return .requestedNoneSent
    case nil: return .requestedAnswerNotRead
    }
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
    stored.beganBeforeCapture = seen.ipProtocol == .tcp && !seen.openedExplicitly
    stored.streamConflicts = [(flow.client, deviceOpened), (flow.server, !deviceOpened)]
      .compactMap { stream, fromDevice in
        stream.conflict.map {
          StreamConflict(fromDevice: fromDevice, firstByte: $0.first + 1, lastByte: $0.last + 1)
        }
      }
    stored.clientAuthentication = Self.clientAuthentication(flow)
    stored.connectHost = flow.connectHost
    if flow.opening == .httpRequest, let host = flow.http?.host {
      stored.httpHost = DomainPattern.normalised(host: HTTPHost.withoutPort(host))
    }
    stored.dnsQuestions = flow.questions
    if let hello = flow.clientHello {
      stored.sni = hello.serverName
      stored.clientTLS = hello.offer
    } else if let quic = flow.quicOffer {
      stored.sni = quic.serverName
      stored.clientTLS = quic.offer
    }
    switch flow.answer {
    case .hello(let hello)?:
      var parameters = hello.parameters
      if let exchange = flow.keyExchange {
        parameters.group = exchange.group ?? parameters.group
        parameters.dhPrimeBits = exchange.dhPrimeBits
        parameters.signatureScheme = exchange.signatureScheme
      }
      stored.serverTLS = .negotiated(
        version: hello.version, cipherSuite: hello.cipherSuite,
        fromHelloRetryRequest: flow.sawRetry, source: .serverHello, parameters: parameters)
    case .alert(let code)?: stored.serverTLS = .refused(alert: code)
    case nil: break
    }
    if let v = flow.quicServerVersion {
      stored.quic = QUICReading(version: v, end: .server)
    } else if let v = flow.quicClientVersion {
      stored.quic = QUICReading(version: v, end: .client)
    }
    (stored.tlsStatus, stored.tlsStatusBasis) = Self.status(of: stored, serverPort: server.port)
    if let leaf = flow.chain.first {
      if flow.leafKey == nil {
        flow.leafKey = .some(CertificateKeyReader.read(leaf, source: .serverHello))
      }
      stored.serverKey = flow.leafKey ?? nil
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
