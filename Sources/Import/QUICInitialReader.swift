import Bytes
import CCrypto
import Foundation

/// Reads the Initial packets of QUIC v1 and v2 (RFC 9000, 9001, 9369): removes header
/// protection and decrypts with the keys every observer can derive from the client's first
/// Destination Connection ID, and gathers the CRYPTO frames that carry the ClientHello and the
/// ServerHello.
enum QUICInitialReader {
  static let saltV1: [UInt8] = [
    0x38, 0x76, 0x2c, 0xf7, 0xf5, 0x59, 0x34, 0xb3, 0x4d, 0x17, 0x9a, 0xe6, 0xa4, 0xc8, 0x0c, 0xad,
    0xcc, 0xbb, 0x7f, 0x0a,
  ]
  static let saltV2: [UInt8] = [
    0x0d, 0xed, 0xe3, 0xde, 0xf7, 0x00, 0xa6, 0xdb, 0x81, 0x93, 0x81, 0xbe, 0x6e, 0x26, 0x9d, 0xcb,
    0xf9, 0xbd, 0x2e, 0xd9,
  ]

  struct LongHeader {
    let version: UInt32
    let destinationID: [UInt8]
    let isInitial: Bool
  }

  /// Whether a version is one that exists (RFC 9000, RFC 9369, the IETF drafts, Google's QUIC
  /// with IETF headers): a reserved or greased version is only ever listed in a version
  /// negotiation, never a long header's own.
  static func exists(_ version: UInt32) -> Bool {
    switch version {
    case 0x0000_0001, 0x6b33_43cf: return true
    case 0xff00_0001...0xff00_0022: return true
    case 0x5130_3436, 0x5130_3530, 0x5430_3530, 0x5430_3531: return true  // Q046, Q050, T050, T051
    default: return false
    }
  }

  /// The version and connection id of a long-header packet; nil for anything that is not one:
  /// a short header, a version negotiation, the fixed bit clear, a version that does not exist,
  /// connection ids longer than 20 bytes (a DNS query whose id has its top bit set is none).
  static func longHeader(_ packet: ArraySlice<UInt8>) -> LongHeader? {
    var r = ByteReader(packet)
    guard let first = r.u8(), first & 0xc0 == 0xc0, let version = r.u32(), exists(version),
      let dcidLength = r.u8(), dcidLength <= 20, let dcid = r.take(Int(dcidLength)),
      let scidLength = r.u8(), scidLength <= 20, r.skip(Int(scidLength))
    else { return nil }
    let type = (first >> 4) & 0x03
    let initial = version == 0x6b33_43cf ? type == 0b01 : type == 0b00
    return LongHeader(version: version, destinationID: Array(dcid), isInitial: initial)
  }

  static func hmac(_ key: [UInt8], _ data: [UInt8]) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: 32)
    var length: UInt32 = 0
    _ = HMAC(EVP_sha256(), key, Int32(key.count), data, data.count, &out, &length)
    return out
  }

  /// HKDF-Expand-Label (RFC 8446 § 7.1) with an empty context, for outputs up to 32 bytes.
  static func expandLabel(_ secret: [UInt8], _ label: String, _ length: Int) -> [UInt8] {
    let full = Array(("tls13 " + label).utf8)
    let info = [UInt8(length >> 8), UInt8(length & 0xff), UInt8(full.count)] + full + [0]
    return Array(hmac(secret, info + [1]).prefix(length))
  }

  struct Keys {
    let key: [UInt8]
    let iv: [UInt8]
    let hp: [UInt8]
  }

  /// Which end's Initial packets: each is protected with keys of its own.
  enum End { case client, server }

  static func initialKeys(version: UInt32, destinationID: [UInt8], end: End) -> Keys? {
    let v2 = version == 0x6b33_43cf
    guard v2 || version == 1 else { return nil }
    let initial = hmac(v2 ? saltV2 : saltV1, destinationID)
    let client = expandLabel(initial, end == .client ? "client in" : "server in", 32)
    let prefix = v2 ? "quicv2 " : "quic "
    return Keys(
      key: expandLabel(client, prefix + "key", 16), iv: expandLabel(client, prefix + "iv", 12),
      hp: expandLabel(client, prefix + "hp", 16))
  }

  static func aesECB(_ key: [UInt8], _ block: [UInt8]) -> [UInt8]? {
    guard let ctx = EVP_CIPHER_CTX_new() else { return nil }
    defer { EVP_CIPHER_CTX_free(ctx) }
    var out = [UInt8](repeating: 0, count: 32)
    var length: Int32 = 0
    guard EVP_EncryptInit_ex(ctx, EVP_aes_128_ecb(), nil, key, nil) == 1 else { return nil }
    EVP_CIPHER_CTX_set_padding(ctx, 0)
    guard EVP_EncryptUpdate(ctx, &out, &length, block, Int32(block.count)) == 1 else { return nil }
    return Array(out.prefix(16))
  }

  static func aesGCMOpen(key: [UInt8], nonce: [UInt8], aad: [UInt8], sealed: [UInt8]) -> [UInt8]? {
    guard sealed.count >= 16, let ctx = EVP_CIPHER_CTX_new() else { return nil }
    defer { EVP_CIPHER_CTX_free(ctx) }
    let ciphertext = Array(sealed.dropLast(16))
    var tag = Array(sealed.suffix(16))
    var out = [UInt8](repeating: 0, count: ciphertext.count + 16)
    var length: Int32 = 0
    guard EVP_DecryptInit_ex(ctx, EVP_aes_128_gcm(), nil, nil, nil) == 1,
      EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, Int32(nonce.count), nil) == 1,
      EVP_DecryptInit_ex(ctx, nil, nil, key, nonce) == 1,
      EVP_DecryptUpdate(ctx, nil, &length, aad, Int32(aad.count)) == 1,
      EVP_DecryptUpdate(ctx, &out, &length, ciphertext, Int32(ciphertext.count)) == 1
    else { return nil }
    let produced = Int(length)
    guard EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, &tag) == 1 else {
      return nil
    }
    var final: Int32 = 0
    guard
      out.withUnsafeMutableBufferPointer({
        EVP_DecryptFinal_ex(ctx, $0.baseAddress! + produced, &final)
      }) == 1
    else { return nil }
    return Array(out.prefix(produced + Int(final)))
  }

  /// The CRYPTO frames of one Initial packet of `end`, decrypted with the keys of the client's
  /// first Destination Connection ID: (offset, data) each. nil when these keys do not open it.
  static func cryptoFrames(_ packet: ArraySlice<UInt8>, destinationID: [UInt8], end: End) -> [(
    UInt64, [UInt8]
  )]? {
    guard let header = longHeader(packet), header.isInitial,
      let keys = initialKeys(version: header.version, destinationID: destinationID, end: end)
    else { return nil }
    var r = ByteReader(packet)
    guard r.skip(5), let dl = r.u8(), r.skip(Int(dl)), let sl = r.u8(), r.skip(Int(sl)),
      let tokenLength = r.varint(), r.skip(Int(tokenLength)), let length = r.varint()
    else { return nil }
    let pnOffset = packet.count - r.remaining
    guard length >= 20, Int(length) <= r.remaining, pnOffset + 4 + 16 <= packet.count else {
      return nil
    }
    let bytes = Array(packet)
    let sample = Array(bytes[(pnOffset + 4)..<(pnOffset + 20)])
    guard let mask = aesECB(keys.hp, sample) else { return nil }
    let header0 = bytes[0] ^ (mask[0] & 0x0f)
    let pnLength = Int(header0 & 0x03) + 1
    var pn: UInt64 = 0
    var headerBytes = Array(bytes[0..<(pnOffset + pnLength)])
    headerBytes[0] = header0
    for i in 0..<pnLength {
      headerBytes[pnOffset + i] = bytes[pnOffset + i] ^ mask[1 + i]
      pn = pn << 8 | UInt64(headerBytes[pnOffset + i])
    }
    var nonce = keys.iv
    for i in 0..<8 { nonce[11 - i] ^= UInt8(truncatingIfNeeded: pn >> (8 * UInt64(i))) }
    let payloadEnd = pnOffset + Int(length)
    guard payloadEnd <= bytes.count,
      let plain = aesGCMOpen(
        key: keys.key, nonce: nonce, aad: headerBytes,
        sealed: Array(bytes[(pnOffset + pnLength)..<payloadEnd]))
    else { return nil }
    var frames = ByteReader(plain[...])
    var crypto: [(UInt64, [UInt8])] = []
    while let type = frames.varint() {
      switch type {
      case 0x00, 0x01: continue
      case 0x02, 0x03:
        guard frames.varint() != nil, frames.varint() != nil, let ranges = frames.varint(),
          frames.varint() != nil
        else { return crypto }
        for _ in 0..<min(ranges, 256) {
          guard frames.varint() != nil, frames.varint() != nil else { return crypto }
        }
        if type == 0x03 { for _ in 0..<3 { guard frames.varint() != nil else { return crypto } } }
      case 0x06:
        guard let offset = frames.varint(), let n = frames.varint(), let data = frames.take(Int(n))
        else { return crypto }
        crypto.append((offset, Array(data)))
      default:
        return crypto
      }
    }
    return crypto
  }
}
