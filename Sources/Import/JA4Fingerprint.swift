import Crypto
import Foundation

/// FoxIO's JA4 fingerprint of a ClientHello (BSD-3-Clause specification): which TLS client made
/// it, in one string `a_b_c`. a: transport, highest version offered, whether a server name was
/// sent, how many cipher suites and extensions, the first ALPN value's first and last character;
/// b: the first 12 hex digits of SHA-256 over the sorted cipher suites; c: the same over the
/// sorted extensions without server_name and ALPN, then the signature algorithms in their order.
/// GREASE values are left out everywhere.
enum JA4Fingerprint {
  enum Transport: Character {
    case tcp = "t"
    case quic = "q"
  }

  /// What the fingerprint reads of a ClientHello, GREASE already left out.
  struct Hello {
    var legacyVersion: UInt16
    var supportedVersions: [UInt16]
    var hasServerName: Bool
    var cipherSuites: [UInt16]
    var extensions: [UInt16]
    var signatureAlgorithms: [UInt16]
    var firstALPN: [UInt8]?
  }

  static func of(_ hello: Hello, transport: Transport) -> String {
    let version = hello.supportedVersions.max() ?? hello.legacyVersion
    let a =
      String(transport.rawValue) + versionText(version) + (hello.hasServerName ? "d" : "i")
      + twoDigits(hello.cipherSuites.count) + twoDigits(hello.extensions.count)
      + alpnText(hello.firstALPN)
    var text: [UInt8] = []
    appendList(hello.cipherSuites.sorted(), to: &text)
    let b = text.isEmpty ? zero : truncatedHash(text)
    text.removeAll(keepingCapacity: true)
    appendList(hello.extensions.filter { $0 != 0x0000 && $0 != 0x0010 }.sorted(), to: &text)
    if !hello.signatureAlgorithms.isEmpty {
      text.append(UInt8(ascii: "_"))
      appendList(hello.signatureAlgorithms, to: &text)
    }
    let c = text.isEmpty ? zero : truncatedHash(text)
    return a + "_" + b + "_" + c
  }

  /// The values as four lower-case hex digits each, comma-separated, as bytes: the text that is
  /// hashed, made without a string per value (a connection's hello holds some forty of them).
  static func appendList(_ values: [UInt16], to text: inout [UInt8]) {
    for (index, value) in values.enumerated() {
      if index > 0 { text.append(UInt8(ascii: ",")) }
      for shift in stride(from: 12, through: 0, by: -4) {
        text.append(digits[Int(value >> UInt16(shift)) & 0xF])
      }
    }
  }

  private static let zero = "000000000000"
  private static let digits = Array("0123456789abcdef".utf8)

  static func versionText(_ version: UInt16) -> String {
    switch version {
    case 0x0304: return "13"
    case 0x0303: return "12"
    case 0x0302: return "11"
    case 0x0301: return "10"
    case 0x0300: return "s3"
    case 0x0002: return "s2"
    case 0xFEFF: return "d1"
    case 0xFEFD: return "d2"
    case 0xFEFC: return "d3"
    default: return "00"
    }
  }

  static func twoDigits(_ count: Int) -> String {
    let n = min(count, 99)
    return n < 10 ? "0\(n)" : "\(n)"
  }

  /// "00" without a value; a printable end as itself, a byte from 0x80 as "9"; a control byte
  /// at either end makes "99".
  static func alpnText(_ value: [UInt8]?) -> String {
    guard let value, let first = value.first, let last = value.last else { return "00" }
    func character(_ byte: UInt8) -> Character? {
      if (0x20...0x7E).contains(byte) { return Character(Unicode.Scalar(byte)) }
      return byte >= 0x80 ? "9" : nil
    }
    guard let a = character(first), let b = character(last) else { return "99" }
    return String([a, b])
  }

  static func truncatedHash(_ text: [UInt8]) -> String {
    let digest = SHA256Digest()
    text.withUnsafeBytes { digest.update($0) }
    return String(digest.finalHex().prefix(12))
  }
}
