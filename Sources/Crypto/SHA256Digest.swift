import CCrypto
import Foundation

/// SHA-256 through OpenSSL's EVP interface (`EVP_DigestInit_ex` / `Update` / `Final_ex`).
public final class SHA256Digest {
  private let context: OpaquePointer

  public init() {
    context = EVP_MD_CTX_new()
    EVP_DigestInit_ex(context, EVP_sha256(), nil)
  }

  deinit { EVP_MD_CTX_free(context) }

  public func update(_ data: Data) {
    data.withUnsafeBytes { raw in _ = EVP_DigestUpdate(context, raw.baseAddress, raw.count) }
  }

  public func update(_ bytes: UnsafeRawBufferPointer) {
    _ = EVP_DigestUpdate(context, bytes.baseAddress, bytes.count)
  }

  /// Lower-case hex, as `sha256sum` prints it.
  public func finalHex() -> String {
    var digest = [UInt8](repeating: 0, count: 32)
    var length: UInt32 = 0
    EVP_DigestFinal_ex(context, &digest, &length)
    return Self.hex(digest)
  }

  public static func hex<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
    let digits = Array("0123456789abcdef".utf8)
    var out = [UInt8]()
    out.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 0x0f)])
    }
    return String(decoding: out, as: UTF8.self)
  }

  public static func hex(of data: Data) -> String {
    let digest = SHA256Digest()
    digest.update(data)
    return digest.finalHex()
  }
}
