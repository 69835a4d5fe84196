import CCrypto
import Foundation

/// The digests SDKs hash identifiers with before they send them (MD5, SHA-1, SHA-256), one call
/// over bytes held whole: what a planted value is looked for as.
public enum MessageDigest: String, Sendable, CaseIterable {
  case md5, sha1, sha256

  public func digest(_ bytes: [UInt8]) -> [UInt8] {
    let md: OpaquePointer?
    switch self {
    case .md5: md = EVP_md5()
    case .sha1: md = EVP_sha1()
    case .sha256: md = EVP_sha256()
    }
    var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
    var length: UInt32 = 0
    let ok = bytes.withUnsafeBytes { raw in
      EVP_Digest(raw.baseAddress, raw.count, &out, &length, md, nil)
    }
    precondition(ok == 1, "OpenSSL computes \(rawValue)")
    return Array(out.prefix(Int(length)))
  }
}
