import CCrypto
import Foundation

/// SHA-256 through OpenSSL's EVP interface (`EVP_DigestInit_ex` / `Update` / `Final_ex`).
public final class SHA256Digest {
  private let context: OpaquePointer

  /// Fetched from the provider once: `EVP_sha256()` is fetched again at every init (a JA4
  /// fingerprint hashes twice per connection). A fetched method is immutable and may be used by
  /// any thread.
  nonisolated(unsafe) private static let algorithm: OpaquePointer? = EVP_MD_fetch(
    nil, "SHA256", nil)

  public init() {
    context = EVP_MD_CTX_new()
    EVP_DigestInit_ex(context, Self.algorithm ?? EVP_sha256(), nil)
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
    String(unsafeUninitializedCapacity: bytes.count * 2) { out in
      var at = 0
      for byte in bytes {
        out[at] = hexDigit(byte >> 4)
        out[at + 1] = hexDigit(byte & 0x0f)
        at += 2
      }
      return at
    }
  }

  private static func hexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
  }

  public static func hex(of data: Data) -> String {
    let digest = SHA256Digest()
    digest.update(data)
    return digest.finalHex()
  }

  /// The digest of the file at `url`, read a piece at a time: a file of megabytes is not held.
  /// `alongside` is given each piece too, in order.
  public static func hex(
    ofFileAt url: URL, pieceSize: Int = 256 * 1024,
    alongside: (UnsafeRawBufferPointer) -> Void = { _ in }
  ) throws -> String {
    let handle = try FileHandle(forReadingFrom: url)
    defer { try? handle.close() }
    let digest = SHA256Digest()
    while let piece = try handle.read(upToCount: pieceSize), !piece.isEmpty {
      piece.withUnsafeBytes {
        digest.update($0)
        alongside($0)
      }
    }
    return digest.finalHex()
  }
}
