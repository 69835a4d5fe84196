import Foundation

/// What a scanner (testssl.sh) found one server to offer: evidence of the instant of the scan,
/// not of the recorded session.
public struct ServerScan: Sendable, Hashable {
  /// The name the scanner was given, the address it reached and the port.
  public var host: String
  public var address: String
  public var port: UInt16
  /// Each version the scan tried, SSL 3.0 to TLS 1.3, and whether the server offered it.
  public var protocols: [TLSProtocolVersion: Bool] = [:]
  /// The cipher suites the server offered in each version, in the scanner's order.
  public var cipherSuites: [TLSProtocolVersion: [UInt16]] = [:]
  /// Suites the scanner named that the registry of IANA's names does not hold: not judged, said.
  public var unknownCipherSuites: [String] = []
  /// The key exchange groups it offered (elliptic curves and finite-field groups), as codes.
  public var groups: [UInt16] = []
  /// Its certificate's key ("RSA", "ECDSA") and size, and its signature as OpenSSL names it
  /// ("sha256WithRSAEncryption"), or as the scanner does when OpenSSL's name is not known.
  public var certificateKey: (algorithm: String, bits: Int)? {
    get { certificateKeyAlgorithm.map { ($0, certificateKeyBits ?? 0) } }
    set {
      certificateKeyAlgorithm = newValue?.algorithm
      certificateKeyBits = newValue?.bits
    }
  }
  public var certificateKeyAlgorithm: String?
  public var certificateKeyBits: Int?
  public var certificateSignature: String?
  public var ocspStapling: Bool?
  /// Whether it renegotiates only as RFC 5746 says (secure renegotiation); nil: not tested.
  public var secureRenegotiation: Bool?
  /// Whether it accepted a renegotiation the client began; nil: not tested.
  public var clientRenegotiationAccepted: Bool?
  /// Whether it offered TLS compression; nil: not tested.
  public var compression: Bool?
  /// Whether it asked for a client certificate; nil: not read.
  public var clientCertificateRequested: Bool?
  /// Whether its HTTP answer carried Strict-Transport-Security; nil: not tested.
  public var hsts: Bool?

  public init(host: String, address: String, port: UInt16) {
    self.host = host
    self.address = address
    self.port = port
  }

  /// The versions offered, oldest first.
  public var offeredVersions: [TLSProtocolVersion] {
    protocols.filter(\.value).map(\.key).sorted()
  }
}

/// One run of the scanner: its version, the OpenSSL it used, when, and each server's scan.
public struct ServerScanRun: Sendable, Hashable {
  public var tool: String
  /// As the tool states them; nil when its output does not (testssl.sh's flat JSON).
  public var toolVersion: String?
  public var opensslVersion: String?
  public var startedAt: Date?
  public var scans: [ServerScan]

  public init(
    tool: String, toolVersion: String?, opensslVersion: String?, startedAt: Date?,
    scans: [ServerScan]
  ) {
    self.tool = tool
    self.toolVersion = toolVersion
    self.opensslVersion = opensslVersion
    self.startedAt = startedAt
    self.scans = scans
  }
}

/// A scanner's output kept with an audit session: the file whole, as the tool wrote it, with
/// its SHA-256 and when it was kept. What it says is read from the bytes each time.
public struct StoredServerScan: Sendable, Hashable {
  public let id: Int64
  public let sessionID: Int64
  public let storedAt: Date
  public let tool: String
  /// The file's name as given (`--from`), or the one the scan was written to.
  public let fileName: String
  public let sha256: String
  public let output: Data

  public init(
    id: Int64 = 0, sessionID: Int64, storedAt: Date, tool: String, fileName: String,
    sha256: String, output: Data
  ) {
    self.id = id
    self.sessionID = sessionID
    self.storedAt = storedAt
    self.tool = tool
    self.fileName = fileName
    self.sha256 = sha256
    self.output = output
  }
}
