import CCrypto
import Foundation

/// A leaf certificate the inspecting proxy serves for a certificate scenario: issued by
/// mitmproxy's CA (its `mitmproxy-ca.pem`, key and certificate), for the host names given, valid
/// over the period given. Made with libcrypto; the result is the PEM of the certificate and its
/// new P-256 key, which mitmdump takes as `--certs '*=FILE'`.
public enum ScenarioCertificate {
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
  }

  public static func make(
    caPEM: Data, hosts: [String], notBefore: Date, notAfter: Date, serial: UInt64
  ) throws -> String {
    guard !hosts.isEmpty else { throw Failure(description: "no host name was given") }
    guard let caCertificate = readCertificate(caPEM) else {
      throw Failure(description: "it holds no PEM certificate")
    }
    defer { X509_free(caCertificate) }
    guard let caKey = readKey(caPEM) else {
      throw Failure(description: "it holds no PEM private key (mitmproxy-ca.pem holds both)")
    }
    defer { EVP_PKEY_free(caKey) }
    guard let key = newKey() else { throw Failure(description: "OpenSSL made no key") }
    defer { EVP_PKEY_free(key) }
    guard let certificate = X509_new() else {
      throw Failure(description: "OpenSSL ran out of memory")
    }
    defer { X509_free(certificate) }
    var made = X509_set_version(certificate, 2) == 1
    made = made && ASN1_INTEGER_set_uint64(X509_get_serialNumber(certificate), serial) == 1
    made =
      made
      && ASN1_TIME_set(X509_getm_notBefore(certificate), time_t(notBefore.timeIntervalSince1970))
        != nil
    made =
      made
      && ASN1_TIME_set(X509_getm_notAfter(certificate), time_t(notAfter.timeIntervalSince1970))
        != nil
    made = made && X509_set_pubkey(certificate, key) == 1
    made =
      made
      && X509_NAME_add_entry_by_txt(
        X509_get_subject_name(certificate), "CN", MBSTRING_ASC, hosts[0], -1, -1, 0) == 1
    made = made && X509_set_issuer_name(certificate, X509_get_subject_name(caCertificate)) == 1
    let extensions = [
      (NID_basic_constraints, "critical,CA:FALSE"),
      (NID_ext_key_usage, "serverAuth"),
      (NID_subject_alt_name, hosts.map { "DNS:" + $0 }.joined(separator: ",")),
    ]
    for (nid, value) in extensions where made {
      guard let ext = X509V3_EXT_conf_nid(nil, nil, nid, value) else {
        made = false
        break
      }
      made = X509_add_ext(certificate, ext, -1) == 1
      X509_EXTENSION_free(ext)
    }
    made = made && X509_sign(certificate, caKey, EVP_sha256()) > 0
    guard made, let certificatePEM = pem({ PEM_write_bio_X509($0, certificate) }),
      let keyPEM = pem({ PEM_write_bio_PrivateKey($0, key, nil, nil, 0, nil, nil) })
    else { throw Failure(description: "OpenSSL could not make the certificate") }
    return certificatePEM + keyPEM
  }

  private static func readCertificate(_ pem: Data) -> OpaquePointer? {
    pem.withUnsafeBytes { raw -> OpaquePointer? in
      guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return nil }
      defer {
        BIO_free(bio)
        ERR_clear_error()
      }
      return PEM_read_bio_X509(bio, nil, nil, nil)
    }
  }

  private static func readKey(_ pem: Data) -> OpaquePointer? {
    pem.withUnsafeBytes { raw -> OpaquePointer? in
      guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return nil }
      defer {
        BIO_free(bio)
        ERR_clear_error()
      }
      return PEM_read_bio_PrivateKey(bio, nil, noPassPhrase, nil)
    }
  }

  private static func newKey() -> OpaquePointer? {
    guard let ctx = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, nil) else { return nil }
    defer { EVP_PKEY_CTX_free(ctx) }
    var key: OpaquePointer?
    guard EVP_PKEY_keygen_init(ctx) == 1,
      EVP_PKEY_CTX_set_ec_paramgen_curve_nid(ctx, NID_X9_62_prime256v1) == 1,
      EVP_PKEY_keygen(ctx, &key) == 1
    else { return nil }
    return key
  }

  /// What a PEM writer writes, as text.
  private static func pem(_ write: (OpaquePointer) -> Int32) -> String? {
    guard let bio = BIO_new(BIO_s_mem()) else { return nil }
    defer { BIO_free(bio) }
    guard write(bio) == 1 else { return nil }
    var bytes = [UInt8](repeating: 0, count: Int(BIO_ctrl_pending(bio)))
    guard BIO_read(bio, &bytes, Int32(bytes.count)) == Int32(bytes.count) else { return nil }
    return String(decoding: bytes, as: UTF8.self)
  }
}
