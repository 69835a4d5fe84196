import Audit
import AuditRules
import AuditWording
import Bytes
import Crypto
import Foundation

/// What a ClientHello offered.
struct ClientHelloReading: Equatable {
  var serverName: String?
  var offer: ClientTLSOffer
  /// legacy_session_id: what a TLS ≤ 1.2 server echoes when it resumes that session.
  var sessionID: [UInt8] = []
}

/// What a ServerHello (or HelloRetryRequest) said.
struct ServerHelloReading: Equatable {
  var version: TLSProtocolVersion
  var cipherSuite: UInt16
  /// A HelloRetryRequest: the server asks for another ClientHello.
  var isRetry: Bool
  /// legacy_session_id_echo.
  var sessionID: [UInt8] = []
  /// Its extensions, compression method and key_share group (the rest is filled in from the
  /// ServerKeyExchange).
  var parameters = ServerTLSParameters()
}

/// What the server answered.
enum ServerAnswerReading: Equatable {
  case hello(ServerHelloReading)
  case alert(UInt8)

  var hello: ServerHelloReading? {
    if case .hello(let hello) = self { return hello }
    return nil
  }
}

/// Reads TLS records and handshake messages (RFC 8446, RFC 5246) from one direction's bytes.
enum TLSHandshakeReader {
  static let maximumALPN = 16

  /// The handshake messages in a stream of records: type and body. Stops at application data,
  /// at bytes that are not a record, or where a message is not complete yet.
  static func handshakeMessages(_ stream: [UInt8]) -> (
    messages: [(UInt8, ArraySlice<UInt8>)], alert: UInt8?
  ) {
    var handshake: [UInt8] = []
    var alert: UInt8?
    var at = 0
    while at + 5 <= stream.count {
      let type = stream[at]
      let major = stream[at + 1]
      let length = Int(stream.integer(at: at + 3, as: UInt16.self)!)
      guard major == 3, [20, 21, 22, 23].contains(type), length <= 18_432 else { break }
      guard at + 5 + length <= stream.count else {
        if type == 22 { handshake += stream[(at + 5)...] }
        break
      }
      let body = stream[(at + 5)..<(at + 5 + length)]
      if type == 22 { handshake += body }
      if type == 21, body.count >= 2, alert == nil { alert = body[body.startIndex + 1] }
      if type == 23 { break }
      at += 5 + length
    }
    var messages: [(UInt8, ArraySlice<UInt8>)] = []
    var m = 0
    while m + 4 <= handshake.count {
      let length = Int(handshake.uint24(at: m + 1)!)
      guard m + 4 + length <= handshake.count else { break }
      messages.append((handshake[m], handshake[(m + 4)..<(m + 4 + length)]))
      m += 4 + length
    }
    return (messages, alert)
  }

  static func isGREASE(_ value: UInt16) -> Bool {
    value & 0x0f0f == 0x0a0a && value >> 8 == value & 0xff
  }

  /// A ClientHello body (after the 4-byte handshake header), sent over `transport`.
  static func clientHello(_ body: ArraySlice<UInt8>, transport: JA4Fingerprint.Transport = .tcp)
    -> ClientHelloReading?
  {
    var r = ByteReader(body)
    guard let legacy = r.u16(), r.skip(32), let sid = r.u8(), let session = r.take(Int(sid)),
      let suitesLength = r.u16(), var suites = r.take(Int(suitesLength)).map({ ByteReader($0) }),
      let compression = r.u8(), r.skip(Int(compression))
    else { return nil }
    var cipherSuites: [UInt16] = []
    while let suite = suites.u16() {
      if !isGREASE(suite) { cipherSuites.append(suite) }
    }
    var name: String?
    var versions: [TLSProtocolVersion]?
    var alpn: [String] = []
    var firstALPN: [UInt8]?
    var dropped = 0
    var ech = false
    var extensionTypes: [UInt16] = []
    var signatureAlgorithms: [UInt16] = []
    if let total = r.u16(), var extensions = r.take(Int(total)).map({ ByteReader($0) }) {
      while let type = extensions.u16(), let length = extensions.u16(),
        let data = extensions.take(Int(length))
      {
        if !isGREASE(type) { extensionTypes.append(type) }
        var e = ByteReader(data)
        switch type {
        case 0:
          guard e.u16() != nil else { break }
          while let kind = e.u8(), let n = e.u16(), let value = e.take(Int(n)) {
            if kind == 0 { name = String(decoding: value, as: UTF8.self) }
          }
        case 13:
          guard let n = e.u16(), var list = e.take(Int(n)).map({ ByteReader($0) }) else { break }
          while let scheme = list.u16() {
            if !isGREASE(scheme) { signatureAlgorithms.append(scheme) }
          }
        case 16:
          guard e.u16() != nil else { break }
          while let n = e.u8(), let value = e.take(Int(n)) {
            let bytes = Array(value)
            if firstALPN == nil { firstALPN = bytes }
            if bytes.count == 2 && isGREASE(bytes.integer(at: 0, as: UInt16.self)!) { continue }
            if bytes.allSatisfy({ (0x21...0x7e).contains($0) }) && alpn.count < maximumALPN {
              alpn.append(String(decoding: bytes, as: UTF8.self))
            } else {
              dropped += 1
            }
          }
        case 43:
          guard let n = e.u8() else { break }
          var list: [TLSProtocolVersion] = []
          for _ in 0..<(Int(n) / 2) {
            if let v = e.u16(), !isGREASE(v) { list.append(TLSProtocolVersion(rawValue: v)) }
          }
          versions = list
        case 0xfe0d:
          ech = true
        default: break
        }
      }
    }
    let serverName = name.flatMap { $0.isEmpty ? nil : $0 }
    let ja4 = JA4Fingerprint.of(
      JA4Fingerprint.Hello(
        legacyVersion: legacy, supportedVersions: (versions ?? []).map(\.rawValue),
        hasServerName: serverName != nil, cipherSuites: cipherSuites, extensions: extensionTypes,
        signatureAlgorithms: signatureAlgorithms, firstALPN: firstALPN),
      transport: transport)
    let listed = versions.map { (ClientTLSOffer.VersionsForm.listed, $0) }
    let (form, offered) = listed ?? (.upTo, [TLSProtocolVersion(rawValue: legacy)])
    let offer = ClientTLSOffer(
      versionsForm: form, versions: offered, alpn: alpn, droppedALPNCount: dropped,
      encryptedClientHello: ech, cipherSuites: cipherSuites, extensions: extensionTypes, ja4: ja4)
    return ClientHelloReading(serverName: serverName, offer: offer, sessionID: Array(session))
  }

  static let retryRandom: [UInt8] = [
    0xCF, 0x21, 0xAD, 0x74, 0xE5, 0x9A, 0x61, 0x11, 0xBE, 0x1D, 0x8C, 0x02, 0x1E, 0x65, 0xB8, 0x91,
    0xC2, 0xA2, 0x11, 0x16, 0x7A, 0xBB, 0x8C, 0x5E, 0x07, 0x9E, 0x09, 0xE2, 0xC8, 0xA8, 0x33, 0x9C,
  ]

  /// A ServerHello body: the negotiated version (supported_versions, else legacy), cipher, HRR,
  /// compression, extensions and key_share group.
  static func serverHello(_ body: ArraySlice<UInt8>) -> ServerHelloReading? {
    var r = ByteReader(body)
    guard let legacy = r.u16(), let random = r.take(32), let sid = r.u8(),
      let session = r.take(Int(sid)), let cipher = r.u16(), let compression = r.u8()
    else { return nil }
    var version = legacy
    var parameters = ServerTLSParameters(extensions: [], compressionMethod: compression)
    if let total = r.u16(), var extensions = r.take(Int(total)).map({ ByteReader($0) }) {
      while let type = extensions.u16(), let length = extensions.u16(),
        let data = extensions.take(Int(length))
      {
        parameters.extensions?.append(type)
        if type == 43, data.count == 2 {
          version = data.integer(at: 0, as: UInt16.self)!
        }
        // A ServerHello's KeyShareEntry and a HelloRetryRequest's selected_group both begin
        // with the group.
        if type == 51, data.count >= 2 {
          parameters.group = data.integer(at: 0, as: UInt16.self)
        }
      }
    }
    return ServerHelloReading(
      version: TLSProtocolVersion(rawValue: version), cipherSuite: cipher,
      isRetry: Array(random) == retryRandom, sessionID: Array(session), parameters: parameters)
  }

  /// A TLS 1.2 ServerKeyExchange body, read as the cipher suite's key exchange lays it out: the
  /// named curve or the DH prime's size, and the signature's scheme.
  static func serverKeyExchange(_ body: ArraySlice<UInt8>, cipherSuite: UInt16)
    -> ServerTLSParameters?
  {
    var r = ByteReader(body)
    var parameters = ServerTLSParameters()
    switch TLSRegistry.keyExchange(ofCipherSuite: cipherSuite) {
    case .ecdhe:
      guard r.u8() == 3, let curve = r.u16(), let n = r.u8(), r.skip(Int(n)) else { return nil }
      parameters.group = curve
    case .dhe:
      guard let n = r.u16(), let prime = r.take(Int(n)), let g = r.u16(), r.skip(Int(g)),
        let y = r.u16(), r.skip(Int(y))
      else { return nil }
      parameters.dhPrimeBits = bitLength(prime)
    case .other:
      return nil
    }
    parameters.signatureScheme = r.u16()
    return parameters
  }

  /// The size in bits of a big-endian unsigned integer.
  static func bitLength(_ bytes: ArraySlice<UInt8>) -> Int {
    guard let first = bytes.firstIndex(where: { $0 != 0 }) else { return 0 }
    return (bytes.endIndex - first - 1) * 8 + (8 - bytes[first].leadingZeroBitCount)
  }

  /// A Certificate body (TLS ≤ 1.2): the DER of each certificate, server first.
  static func certificates(_ body: ArraySlice<UInt8>) -> [Data] {
    var r = ByteReader(body)
    guard let total = r.u24(), var list = r.take(Int(total)).map({ ByteReader($0) }) else {
      return []
    }
    var chain: [Data] = []
    while let n = list.u24(), let der = list.take(Int(n)) { chain.append(Data(der)) }
    return chain
  }

  /// Whether the last certificate of a chain is self-signed (its issuer is its subject): the chain reaches a root.
  static func reachesRoot(_ chain: [Data]) -> Bool {
    guard let last = chain.last else { return false }
    var der = DER(Array(last))
    guard let certificate = der.enter(),
      var tbs = Optional(DER(certificate)).flatMap({ d -> DER? in
        var d = d
        return d.enter().map(DER.init)
      })
    else { return false }
    if tbs.peekTag == 0xa0 { _ = tbs.element() }  // version
    guard tbs.element() != nil, tbs.element() != nil, let issuer = tbs.element(),
      tbs.element() != nil, let subject = tbs.element()
    else { return false }
    return issuer == subject
  }
}

/// Big-endian reading of a byte slice that never reads past its end, in the words of the TLS and
/// QUIC specifications: a cursor over the slice.
typealias ByteReader = ByteCursor<ArraySlice<UInt8>>

extension ByteCursor where Bytes == ArraySlice<UInt8> {
  mutating func u8() -> UInt8? { read(UInt8.self) }
  mutating func u16() -> UInt16? { read(UInt16.self) }
  mutating func u24() -> UInt32? {
    guard let value = bytes.uint24(at: offset) else { return nil }
    offset += 3
    return value
  }
  mutating func u32() -> UInt32? { read(UInt32.self) }
  mutating func take(_ n: Int) -> ArraySlice<UInt8>? { read(count: n) }
  /// A QUIC variable-length integer.
  mutating func varint() -> UInt64? {
    guard let first = u8() else { return nil }
    let length = 1 << Int(first >> 6)
    var value = UInt64(first & 0x3f)
    for _ in 1..<length {
      guard let b = u8() else { return nil }
      value = value << 8 | UInt64(b)
    }
    return value
  }
}

/// Just enough DER to walk a certificate's first fields.
struct DER {
  var bytes: ArraySlice<UInt8>
  init(_ bytes: [UInt8]) { self.bytes = bytes[...] }
  init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }
  var peekTag: UInt8? { bytes.first }
  /// The next element whole (tag, length, content).
  mutating func element() -> ArraySlice<UInt8>? {
    let start = bytes.startIndex
    guard let (header, length) = header(), bytes.count >= header + length else { return nil }
    defer { bytes = bytes.dropFirst(header + length) }
    return bytes[start..<(start + header + length)]
  }
  /// The content of the next element.
  mutating func enter() -> ArraySlice<UInt8>? {
    guard let (header, length) = header(), bytes.count >= header + length else { return nil }
    let content = bytes.dropFirst(header).prefix(length)
    bytes = bytes.dropFirst(header + length)
    return content
  }
  func header() -> (Int, Int)? {
    guard bytes.count >= 2 else { return nil }
    let first = bytes[bytes.startIndex + 1]
    if first < 0x80 { return (2, Int(first)) }
    let n = Int(first & 0x7f)
    guard n >= 1, n <= 3, bytes.count >= 2 + n else { return nil }
    var length = 0
    for i in 0..<n { length = length << 8 | Int(bytes[bytes.startIndex + 2 + i]) }
    return (2 + n, length)
  }
}
