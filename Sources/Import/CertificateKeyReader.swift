import Audit
import CCrypto
import Foundation

/// The public key and signature algorithm of a certificate, read from its DER by OpenSSL; nil
/// when the bytes are not a certificate OpenSSL reads.
enum CertificateKeyReader {
  static func read(_ der: Data, source: TLSReadingSource) -> CertificateKeyReading? {
    der.withUnsafeBytes { raw -> CertificateKeyReading? in
      guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return nil }
      var pointer: UnsafePointer<UInt8>? = base
      guard let certificate = d2i_X509(nil, &pointer, raw.count) else { return nil }
      defer { X509_free(certificate) }
      guard let key = X509_get0_pubkey(certificate) else { return nil }
      let signature = longName(X509_get_signature_nid(certificate)) ?? "unknown"
      let bits = Int(EVP_PKEY_get_bits(key))
      let algorithm: String
      var curve: String?
      switch EVP_PKEY_get_base_id(key) {
      case EVP_PKEY_RSA, EVP_PKEY_RSA_PSS: algorithm = "RSA"
      case EVP_PKEY_EC:
        algorithm = "EC"
        var name = [CChar](repeating: 0, count: 80)
        var length = 0
        if EVP_PKEY_get_utf8_string_param(key, "group", &name, name.count, &length) == 1 {
          curve = String(
            decoding: name.prefix(min(length, name.count)).prefix { $0 != 0 }.map {
              UInt8(bitPattern: $0)
            },
            as: UTF8.self)
        }
      case EVP_PKEY_DSA: algorithm = "DSA"
      case EVP_PKEY_ED25519: algorithm = "Ed25519"
      case EVP_PKEY_ED448: algorithm = "Ed448"
      case let other: algorithm = longName(other) ?? "unknown"
      }
      return CertificateKeyReading(
        algorithm: algorithm, bits: bits, curve: curve, signature: signature, source: source)
    }
  }

  private static func longName(_ nid: Int32) -> String? {
    guard nid != NID_undef, let name = OBJ_nid2ln(nid) else { return nil }
    return String(cString: name)
  }
}
