import CCrypto

/// The OpenSSL this program's digests and signatures come from.
public enum CryptoLibrary {
  /// "3.0.19", as the library states it.
  public static var version: String? {
    OpenSSL_version(numericCast(OPENSSL_VERSION_STRING)).map { String(cString: $0) }
  }
}
