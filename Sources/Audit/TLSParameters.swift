/// What a server's handshake settled besides its version and cipher suite, as read; nil where a
/// field was not read (a hello from the proxy's log, a message not seen).
public struct ServerTLSParameters: Sendable, Hashable {
  /// The key exchange group: TLS 1.3's key_share (or a HelloRetryRequest's), TLS 1.2's
  /// ServerKeyExchange named curve.
  public var group: UInt16?
  /// TLS 1.2 DHE with explicit parameters: the prime's size in bits.
  public var dhPrimeBits: Int?
  /// The scheme of TLS 1.2's ServerKeyExchange signature.
  public var signatureScheme: UInt16?
  /// The ServerHello's extensions in the order sent.
  public var extensions: [UInt16]?
  public var compressionMethod: UInt8?

  public init(
    group: UInt16? = nil, dhPrimeBits: Int? = nil, signatureScheme: UInt16? = nil,
    extensions: [UInt16]? = nil, compressionMethod: UInt8? = nil
  ) {
    self.group = group
    self.dhPrimeBits = dhPrimeBits
    self.signatureScheme = signatureScheme
    self.extensions = extensions
    self.compressionMethod = compressionMethod
  }
}

/// The public key of the server's own certificate and how the certificate was signed.
public struct CertificateKeyReading: Sendable, Hashable {
  /// Behind one reference, as a client's offer is (`ClientTLSOffer`).
  private struct Fields: Sendable, Hashable {
    let algorithm: String
    let bits: Int
    let curve: String?
    let signature: String
    let source: TLSReadingSource
  }
  private let fields: Indirect<Fields>

  /// "RSA", "EC", "DSA", "Ed25519", "Ed448", or the algorithm's object identifier.
  public var algorithm: String { fields.value.algorithm }
  /// The key's size: an RSA or DSA modulus, an EC curve's order.
  public var bits: Int { fields.value.bits }
  /// An EC key's named curve ("prime256v1", "brainpoolP256r1"), as OpenSSL names it.
  public var curve: String? { fields.value.curve }
  /// The certificate's signature algorithm, as OpenSSL names it ("sha256WithRSAEncryption").
  public var signature: String { fields.value.signature }
  /// Which connection's certificate it is.
  public var source: TLSReadingSource { fields.value.source }

  public init(
    algorithm: String, bits: Int, curve: String? = nil, signature: String,
    source: TLSReadingSource
  ) {
    fields = Indirect(
      Fields(algorithm: algorithm, bits: bits, curve: curve, signature: signature, source: source))
  }
}
