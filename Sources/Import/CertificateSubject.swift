import CCrypto
import Foundation

/// A certificate's subject as OpenSSL prints it (RFC 2253, UTF-8), from its DER; nil when the
/// bytes are not a certificate OpenSSL reads.
public enum CertificateSubject {
  public static func of(_ der: Data) -> String? {
    der.withUnsafeBytes { raw -> String? in
      guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return nil }
      var pointer: UnsafePointer<UInt8>? = base
      guard let certificate = d2i_X509(nil, &pointer, raw.count) else { return nil }
      defer { X509_free(certificate) }
      guard let name = X509_get_subject_name(certificate), let bio = BIO_new(BIO_s_mem()) else {
        return nil
      }
      defer { BIO_free(bio) }
      guard X509_NAME_print_ex(bio, name, 0, ccrypto_name_flags()) >= 0 else { return nil }
      var bytes: UnsafeMutablePointer<CChar>?
      let length = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &bytes)
      guard let bytes, length > 0 else { return nil }
      return String(
        decoding: UnsafeRawBufferPointer(start: bytes, count: Int(length)), as: UTF8.self)
    }
  }
}
