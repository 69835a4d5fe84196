import CCrypto
import Foundation

/// Ed25519 signatures through OpenSSL's libcrypto: keys as PEM files (`openssl genpkey -algorithm
/// ed25519`, `openssl pkey -pubout`), signatures and public keys as their 64 and 32 raw bytes.
public enum Ed25519Signature {
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
  }

  /// The signature of `message` by the private key in `pem`, and that key's public half.
  public static func sign(_ message: Data, privateKeyPEM pem: Data) throws -> (
    signature: Data, publicKey: Data
  ) {
    guard let key = read(pem, private: true) else {
      throw Failure(description: "it is not an Ed25519 private key in PEM")
    }
    defer { EVP_PKEY_free(key) }
    guard let ctx = EVP_MD_CTX_new() else {
      throw Failure(description: "OpenSSL ran out of memory")
    }
    defer { EVP_MD_CTX_free(ctx) }
    var signature = [UInt8](repeating: 0, count: 64)
    var length = 64
    let signed = message.withUnsafeBytes { raw in
      EVP_DigestSignInit(ctx, nil, nil, nil, key) == 1
        && EVP_DigestSign(
          ctx, &signature, &length, raw.bindMemory(to: UInt8.self).baseAddress, raw.count) == 1
    }
    guard signed, length == 64, let publicKey = raw(key) else {
      throw Failure(description: "OpenSSL could not sign with it")
    }
    return (Data(signature), publicKey)
  }

  /// Whether `signature` is that of `message` by the 32-byte public key.
  public static func verify(_ signature: Data, of message: Data, publicKey: Data) -> Bool {
    guard signature.count == 64, publicKey.count == 32,
      let key = publicKey.withUnsafeBytes({
        EVP_PKEY_new_raw_public_key(
          EVP_PKEY_ED25519, nil, $0.bindMemory(to: UInt8.self).baseAddress, 32)
      })
    else { return false }
    defer { EVP_PKEY_free(key) }
    guard let ctx = EVP_MD_CTX_new() else { return false }
    defer { EVP_MD_CTX_free(ctx) }
    return signature.withUnsafeBytes { s in
      message.withUnsafeBytes { m in
        EVP_DigestVerifyInit(ctx, nil, nil, nil, key) == 1
          && EVP_DigestVerify(
            ctx, s.bindMemory(to: UInt8.self).baseAddress, 64,
            m.bindMemory(to: UInt8.self).baseAddress, m.count) == 1
      }
    }
  }

  /// The raw public key of a PEM public (or private) key.
  public static func publicKey(pem: Data) -> Data? {
    guard let key = read(pem, private: false) ?? read(pem, private: true) else { return nil }
    defer { EVP_PKEY_free(key) }
    return raw(key)
  }

  /// Whether the PEM holds a private key encrypted with a pass phrase (never asked for: a prompt
  /// would stop a scripted export on a terminal).
  public static func isEncrypted(pem: Data) -> Bool {
    let text = String(decoding: pem.prefix(4096), as: UTF8.self)
    return text.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----")
      || text.contains("Proc-Type: 4,ENCRYPTED")
  }

  /// Whether the PEM holds an Ed25519 private key (not only its public half).
  public static func isPrivateKey(pem: Data) -> Bool {
    guard let key = read(pem, private: true) else { return false }
    EVP_PKEY_free(key)
    return true
  }

  /// "SHA256:…" of the raw public key, as a person compares keys.
  public static func fingerprint(_ publicKey: Data) -> String {
    let digest = SHA256Digest()
    digest.update(publicKey)
    return "SHA256:" + digest.finalHex()
  }

  private static func read(_ pem: Data, private isPrivate: Bool) -> OpaquePointer? {
    pem.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> OpaquePointer? in
      guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return nil }
      // A key that does not read leaves OpenSSL's errors on the thread's queue, where a later
      // call would find them as its own: cleared.
      defer {
        BIO_free(bio)
        ERR_clear_error()
      }
      let key =
        isPrivate
        ? PEM_read_bio_PrivateKey(bio, nil, noPassPhrase, nil)
        : PEM_read_bio_PUBKEY(bio, nil, noPassPhrase, nil)
      guard let key, EVP_PKEY_get_id(key) == EVP_PKEY_ED25519 else {
        if let key { EVP_PKEY_free(key) }
        return nil
      }
      return key
    }
  }

  private static func raw(_ key: OpaquePointer) -> Data? {
    var bytes = [UInt8](repeating: 0, count: 32)
    var length = 32
    guard EVP_PKEY_get_raw_public_key(key, &bytes, &length) == 1, length == 32 else { return nil }
    return Data(bytes)
  }
}

/// OpenSSL's pass-phrase callback that gives none: an encrypted key does not read, and no prompt
/// waits on a terminal.
func noPassPhrase(
  _ buffer: UnsafeMutablePointer<CChar>?, _ size: Int32, _ writing: Int32,
  _ data: UnsafeMutableRawPointer?
) -> Int32 { 0 }
