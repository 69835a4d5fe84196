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
    let b =
      hello.cipherSuites.isEmpty
      ? zero : truncatedHash(hello.cipherSuites.sorted().map(hex).joined(separator: ","))
    let hashed = hello.extensions.filter { $0 != 0x0000 && $0 != 0x0010 }.sorted()
    var text = hashed.map(hex).joined(separator: ",")
    if !hello.signatureAlgorithms.isEmpty {
      text += "_" + hello.signatureAlgorithms.map(hex).joined(separator: ",")
    }
    let c = text.isEmpty ? zero : truncatedHash(text)
    return a + "_" + b + "_" + c
  }

  private static let zero = "000000000000"

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

  static func hex(_ value: UInt16) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 4 - digits.count) + digits
  }

  static func truncatedHash(_ text: String) -> String {
    String(SHA256Digest.hex(of: Data(text.utf8)).prefix(12))
  }
}
