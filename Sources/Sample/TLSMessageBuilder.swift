import Bytes
import Foundation

/// TLS records as they travel: ClientHello, ServerHello (or HelloRetryRequest), Certificate,
/// Alert. For the sample store and for tests of what reads them.
public enum TLSMessageBuilder {
  public static let helloRetryRequestRandom: [UInt8] = [
    0xCF, 0x21, 0xAD, 0x74, 0xE5, 0x9A, 0x61, 0x11, 0xBE, 0x1D, 0x8C, 0x02, 0x1E, 0x65, 0xB8, 0x91,
    0xC2, 0xA2, 0x11, 0x16, 0x7A, 0xBB, 0x8C, 0x5E, 0x07, 0x9E, 0x09, 0xE2, 0xC8, 0xA8, 0x33, 0x9C,
  ]

  static func extensionBlock(_ type: UInt16, _ body: Data) -> Data {
    var d = Data()
    d.appendInteger(type)
    d.appendInteger(UInt16(body.count))
    d.append(body)
    return d
  }

  static func record(_ contentType: UInt8, _ body: Data, legacy: UInt16 = 0x0301) -> Data {
    var d = Data([contentType])
    d.appendInteger(legacy)
    d.appendInteger(UInt16(body.count))
    d.append(body)
    return d
  }

  static func handshake(_ type: UInt8, _ body: Data) -> Data {
    var d = Data([type])
    d.append(UInt8(body.count >> 16))
    d.append(UInt8(body.count >> 8 & 0xff))
    d.append(UInt8(body.count & 0xff))
    d.append(body)
    return d
  }

  /// A ClientHello record. `versions` nil: no supported_versions (the legacy version is the offer).
  public static func clientHello(
    serverName: String?, legacyVersion: UInt16 = 0x0303, versions: [UInt16]?,
    alpn: [String] = [], encryptedClientHello: Bool = false,
    random: [UInt8] = Array(repeating: 0x42, count: 32),
    grease: Bool = true, cipherSuites: [UInt16] = [0x1301, 0x1302, 0xc02f, 0xc030, 0x009c]
  ) -> Data {
    var body = Data()
    body.appendInteger(legacyVersion)
    body.append(contentsOf: random.prefix(32))
    body.append(32)
    body.append(contentsOf: Array(repeating: 0x11, count: 32))
    let suites: [UInt16] = (grease ? [0x0a0a] : []) + cipherSuites
    body.appendInteger(UInt16(suites.count * 2))
    for s in suites { body.appendInteger(s) }
    body.append(1)
    body.append(0)
    var extensions = Data()
    if grease { extensions.append(extensionBlock(0x1a1a, Data())) }
    if let serverName {
      var list = Data()
      list.append(0)
      list.appendInteger(UInt16(serverName.utf8.count))
      list.append(contentsOf: Array(serverName.utf8))
      var sni = Data()
      sni.appendInteger(UInt16(list.count))
      sni.append(list)
      extensions.append(extensionBlock(0x0000, sni))
    }
    if !alpn.isEmpty {
      var list = Data()
      for p in alpn {
        list.append(UInt8(p.utf8.count))
        list.append(contentsOf: Array(p.utf8))
      }
      var body = Data()
      body.appendInteger(UInt16(list.count))
      body.append(list)
      extensions.append(extensionBlock(0x0010, body))
    }
    if let versions {
      let all = (grease ? [UInt16(0x2a2a)] : []) + versions
      var body = Data([UInt8(all.count * 2)])
      for v in all { body.appendInteger(v) }
      extensions.append(extensionBlock(0x002b, body))
    }
    if encryptedClientHello {
      extensions.append(extensionBlock(0xfe0d, Data([0, 0, 1, 0, 1, 0x2a, 0, 0])))
    }
    var groups = Data()
    groups.appendInteger(UInt16(4))
    groups.appendInteger(UInt16(0x001d))
    groups.appendInteger(UInt16(0x0017))
    extensions.append(extensionBlock(0x000a, groups))
    var schemes = Data()
    schemes.appendInteger(UInt16(6))
    for scheme: UInt16 in [0x0403, 0x0804, 0x0401] { schemes.appendInteger(scheme) }
    extensions.append(extensionBlock(0x000d, schemes))
    extensions.append(extensionBlock(0x0017, Data()))
    extensions.append(extensionBlock(0xff01, Data([0])))
    body.appendInteger(UInt16(extensions.count))
    body.append(extensions)
    return record(22, handshake(1, body))
  }

  /// A ServerHello record; `supportedVersion` nil writes none (TLS ≤ 1.2 style).
  public static func serverHello(
    legacyVersion: UInt16 = 0x0303, supportedVersion: UInt16?, cipherSuite: UInt16,
    helloRetryRequest: Bool = false, group: UInt16 = 23
  ) -> Data {
    var body = Data()
    body.appendInteger(legacyVersion)
    body.append(
      contentsOf: helloRetryRequest ? helloRetryRequestRandom : Array(repeating: 0x24, count: 32))
    body.append(32)
    body.append(contentsOf: Array(repeating: 0x11, count: 32))
    body.appendInteger(cipherSuite)
    body.append(0)
    var extensions = Data()
    if let supportedVersion {
      var v = Data()
      v.appendInteger(supportedVersion)
      extensions.append(extensionBlock(0x002b, v))
      // key_share: the group, and a key of its size (a HelloRetryRequest names the group alone).
      var share = Data()
      share.appendInteger(group)
      if !helloRetryRequest {
        share.appendInteger(UInt16(32))
        share.append(contentsOf: Array(repeating: 0x5a, count: 32))
      }
      extensions.append(extensionBlock(0x0033, share))
    } else {
      // What a TLS 1.2 server answers a client offering them: secure renegotiation (empty) and
      // the extended master secret.
      extensions.append(extensionBlock(0xff01, Data([0])))
      extensions.append(extensionBlock(0x0017, Data()))
    }
    body.appendInteger(UInt16(extensions.count))
    body.append(extensions)
    return record(22, handshake(2, body), legacy: 0x0303)
  }

  /// A Certificate handshake record (TLS ≤ 1.2, in the clear).
  public static func certificate(chain: [Data]) -> Data {
    var list = Data()
    for der in chain {
      list.append(UInt8(der.count >> 16))
      list.append(UInt8(der.count >> 8 & 0xff))
      list.append(UInt8(der.count & 0xff))
      list.append(der)
    }
    var body = Data()
    body.append(UInt8(list.count >> 16))
    body.append(UInt8(list.count >> 8 & 0xff))
    body.append(UInt8(list.count & 0xff))
    body.append(list)
    return record(22, handshake(11, body), legacy: 0x0303)
  }

  public static func alert(level: UInt8 = 2, description: UInt8) -> Data {
    record(21, Data([level, description]), legacy: 0x0303)
  }

  /// Application data of a given length (its bytes are the caller's).
  public static func applicationData(_ payload: Data) -> Data {
    record(23, payload, legacy: 0x0303)
  }
}

/// DNS messages (RFC 1035): a query and its answer with A/AAAA/CNAME records.
public enum DNSMessageBuilder {
  public enum Answer: Sendable, Hashable {
    case a(String)
    case aaaa(String)
    case cname(String)
  }

  static func name(_ text: String) -> Data {
    var d = Data()
    for label in text.split(separator: ".") {
      d.append(UInt8(label.utf8.count))
      d.append(contentsOf: Array(label.utf8))
    }
    d.append(0)
    return d
  }

  public static func query(id: UInt16, name: String, type: UInt16 = 1) -> Data {
    var d = Data()
    d.appendInteger(id)
    d.appendInteger(UInt16(0x0100))
    d.appendInteger(UInt16(1))
    d.appendInteger(UInt16(0))
    d.appendInteger(UInt16(0))
    d.appendInteger(UInt16(0))
    d.append(self.name(name))
    d.appendInteger(type)
    d.appendInteger(UInt16(1))
    return d
  }

  /// A response to `name` whose answers chain from it: each CNAME names the owner of the next record.
  public static func response(
    id: UInt16, name: String, type: UInt16 = 1, answers: [Answer], rcode: UInt8 = 0
  ) -> Data {
    var d = Data()
    d.appendInteger(id)
    d.appendInteger(UInt16(0x8180) | UInt16(rcode))
    d.appendInteger(UInt16(1))
    d.appendInteger(UInt16(answers.count))
    d.appendInteger(UInt16(0))
    d.appendInteger(UInt16(0))
    d.append(self.name(name))
    d.appendInteger(type)
    d.appendInteger(UInt16(1))
    var owner = name
    for answer in answers {
      d.append(self.name(owner))
      switch answer {
      case .a(let address):
        d.appendInteger(UInt16(1))
        d.appendInteger(UInt16(1))
        d.appendInteger(UInt32(300))
        let bytes = DatagramBuilder.addressBytes(address) ?? [0, 0, 0, 0]
        d.appendInteger(UInt16(bytes.count))
        d.append(contentsOf: bytes)
      case .aaaa(let address):
        d.appendInteger(UInt16(28))
        d.appendInteger(UInt16(1))
        d.appendInteger(UInt32(300))
        let bytes = DatagramBuilder.addressBytes(address) ?? Array(repeating: 0, count: 16)
        d.appendInteger(UInt16(bytes.count))
        d.append(contentsOf: bytes)
      case .cname(let target):
        d.appendInteger(UInt16(5))
        d.appendInteger(UInt16(1))
        d.appendInteger(UInt32(300))
        let encoded = self.name(target)
        d.appendInteger(UInt16(encoded.count))
        d.append(encoded)
        owner = target
      }
    }
    return d
  }
}
