import Audit
import AuditRules
import Foundation

/// What is said of a server's scanned configuration: what it offered at the scan's instant, as
/// the TLS document stands on it. "Offered", never "chosen" or "weak"; a suite the tables do not
/// list is "not among the suites … recommends", as BSI itself words it. The server configuration
/// check's findings say the same sentences.
public enum ServerConfigurationWording: CheckWording {
  public typealias Rule = ServerConfigurationCheck
  public static let name = "Server configuration"

  public static func statement(_ evidence: FindingEvidence, minimum: TLSProtocolVersion) -> String {
    guard let offer = evidence.offer else { return "" }
    let when = offer.scannedAt.map { " at \(Instant.rfc3339ToTheSecond($0))" } ?? ""
    return statement(offer.observation, minimum: minimum)
      + " Found by the scan of \(offer.server.text)\(when): what the server offered then, besides what the connection used."
  }

  public static func shortStatement(_ evidence: FindingEvidence) -> String {
    guard let o = evidence.offer?.observation else { return name }
    switch (o.item, o.standing) {
    case (.versionOffered, _): return "Server offers a TLS version below the minimum"
    case (.noVersionAtMinimum, _): return "Server offers no TLS version from the minimum on"
    case (.certificateKey, .belowMinimum):
      return "Server certificate key below the recommended length"
    case (.certificateKey, .notListed):
      return "Server certificate key type without a recommended length"
    case (.insecureRenegotiation, _): return "Server renegotiates without RFC 5746"
    case (.clientRenegotiationAccepted, _): return "Server accepts renegotiation the client begins"
    case (.compression, _): return "Server offers TLS compression"
    case (_, .recommendedUntil):
      return "Server offers a \(singular(o.item)) past its recommended years"
    default: return "Server offers a \(singular(o.item)) not recommended"
    }
  }

  public static func subject(_ evidence: FindingEvidence) -> String? {
    guard let offer = evidence.offer else { return evidence.host }
    return [
      itemText(offer.observation.item),
      server(host: evidence.host ?? offer.server.address, offer.server),
    ].joined(separator: ", ")
  }

  public static func reason(_ gap: ServerConfigurationGap) -> String {
    switch gap {
    case .notScanned:
      return
        "No scan of the server is kept with the session (tunnelvision scan), so what else it offers is not known."
    }
  }

  /// An offered item as a person reads it.
  public static func itemText(_ item: ServerConfigurationObservation.Item) -> String {
    switch item {
    case .versionOffered(let version): return version.name
    case .noVersionAtMinimum(let version): return "no version from \(version.name) on"
    case .cipherSuite(let suite, let version):
      return "\(TLSRegistry.cipherSuiteText(suite)) in \(version.name)"
    case .group(let group): return TLSRegistry.groupText(group)
    case .certificateKey(let algorithm, let bits): return "\(algorithm) key of \(bits) bits"
    case .certificateSignature(let name, _): return "certificate signature \(name)"
    case .insecureRenegotiation: return "renegotiation without RFC 5746"
    case .clientRenegotiationAccepted: return "renegotiation begun by the client"
    case .compression: return "TLS compression"
    }
  }

  static func singular(_ item: ServerConfigurationObservation.Item) -> String {
    switch item {
    case .cipherSuite: return "cipher suite"
    case .group: return "key exchange group"
    case .certificateSignature: return "certificate signature"
    case .certificateKey: return "certificate key"
    default: return "setting"
    }
  }

  /// "api.example.de (203.0.113.5:443)"; the end alone when the scan named no host.
  public static func server(_ scan: ServerScan) -> String {
    server(host: scan.host, FlowEndpoint(address: scan.address, port: scan.port))
  }

  public static func server(host: String, _ end: FlowEndpoint) -> String {
    host == end.address ? end.text : "\(host) (\(end.text))"
  }

  /// "Scanned with testssl.sh 3.0.8 (OpenSSL 3.0.19) at 2026-12-03T17:00:00Z: what the server
  /// offered then, not what the app used in the session."
  public static func provenance(_ run: ServerScanRun) -> String {
    var tool = run.tool
    if let version = run.toolVersion { tool += " \(version)" }
    if let openssl = run.opensslVersion { tool += " (\(openssl))" }
    let when = run.startedAt.map { " at \(Instant.rfc3339ToTheSecond($0))" } ?? ""
    return
      "Scanned with \(tool)\(when): what the server offered at that instant, not what the app used in the session."
  }

  /// One sentence per observation.
  public static func statement(_ o: ServerConfigurationObservation, minimum: TLSProtocolVersion)
    -> String
  {
    switch (o.item, o.standing) {
    case (.versionOffered(let version), _):
      return
        "\(version.name) offered: below the catalogue's TLS minimum, \(minimum.name)\(cited(o.document))."
    case (.noVersionAtMinimum(let least), _):
      return "No version from \(least.name) on offered\(cited(o.document))."
    case (.cipherSuite(let suite, let version), .notListed):
      return
        "\(TLSRegistry.cipherSuiteText(suite)) offered in \(version.name): not among the suites \(o.document) recommends (\(TLSParameterWording.tables(o.reference)))."
    case (.cipherSuite(let suite, let version), .recommendedUntil(let year)):
      return
        "\(TLSRegistry.cipherSuiteText(suite)) offered in \(version.name): recommended by \(o.document) only until \(year) (\(TLSParameterWording.tables(o.reference)))."
    case (.group(let group), .notListed):
      return
        "Key exchange group \(TLSRegistry.groupText(group)) offered: not among the groups \(o.document) recommends (\(TLSParameterWording.tables(o.reference)))."
    case (.group(let group), .recommendedUntil(let year)):
      return
        "Key exchange group \(TLSRegistry.groupText(group)) offered: recommended by \(o.document) only until \(year) (\(TLSParameterWording.tables(o.reference)))."
    case (.certificateKey(let algorithm, let bits), .belowMinimum(let least)):
      return
        "The certificate's \(algorithm) key of \(bits) bits is shorter than the \(least) bits \(o.document) recommends (Table \(o.reference))."
    case (.certificateKey(let algorithm, _), .notListed):
      return
        "The certificate's key is of type \(algorithm), for which \(o.document) gives no recommended length (\(TLSParameterWording.tables(o.reference)))."
    case (.certificateSignature(let name, _), .notListed):
      return
        "The certificate's signature \(name) is not among the certificate signature schemes \(o.document) recommends (\(TLSParameterWording.tables(o.reference)))."
    case (.certificateKey(let algorithm, let bits), .recommendedUntil(let year)):
      return
        "The certificate's \(algorithm) key of \(bits) bits is recommended by \(o.document) only until \(year) (Table \(o.reference))."
    case (.certificateSignature(let name, _), .recommendedUntil(let year)):
      return
        "The certificate's signature \(name) is recommended by \(o.document) only until \(year) (\(TLSParameterWording.tables(o.reference)))."
    case (.certificateSignature(let name, _), _):
      return
        "The certificate's signature \(name): \(o.document) (\(TLSParameterWording.tables(o.reference)))."
    case (.insecureRenegotiation, _):
      return
        "Renegotiation not as RFC 5746 specifies it (no secure renegotiation), the only kind \(o.document) recommends (\(o.reference))."
    case (.clientRenegotiationAccepted, _):
      return
        "A renegotiation the client began was accepted; \(o.document) says the server should refuse it (\(o.reference))."
    case (.compression, _):
      return "TLS compression offered, which \(o.document) recommends against (\(o.reference))."
    case (.cipherSuite(let suite, let version), _):
      return "\(TLSRegistry.cipherSuiteText(suite)) offered in \(version.name)."
    case (.group(let group), _):
      return "Key exchange group \(TLSRegistry.groupText(group)) offered."
    case (.certificateKey(let algorithm, let bits), _):
      return "The certificate's \(algorithm) key of \(bits) bits."
    }
  }

  static func cited(_ document: String) -> String { document.isEmpty ? "" : " (\(document))" }

  /// The lines said of one server: what it offered, then each observation, or that it offers
  /// only what the document recommends.
  public static func lines(
    _ scan: ServerScan, observations: [ServerConfigurationObservation],
    minimum: TLSProtocolVersion, document: String
  ) -> [String] {
    var lines = [server(scan)]
    let versions = scan.offeredVersions
    lines.append(
      versions.isEmpty
        ? "  No TLS version offered in the scan."
        : "  Offered: \(versions.map(\.name).joined(separator: ", ")); \(Quantity.count(scan.cipherSuites.values.reduce(0) { $0 + $1.count }, "cipher suite"))."
    )
    if !scan.unknownCipherSuites.isEmpty {
      lines.append(
        "  Not judged: \(Quantity.count(scan.unknownCipherSuites.count, "cipher suite")) the scanner named that this tool's table of IANA's names does not hold (\(scan.unknownCipherSuites.joined(separator: ", ")))."
      )
    }
    if observations.isEmpty, !versions.isEmpty, scan.unknownCipherSuites.isEmpty {
      lines.append(
        "  Offers only versions from \(minimum.name) on and only suites \(document.isEmpty ? "the TLS document" : document) recommends."
      )
    }
    lines += observations.map { "  " + statement($0, minimum: minimum) }
    lines += unjudged(scan, document: document).map { "  " + $0 }
    return lines
  }

  /// What the scan read that the TLS document makes no recommendation on: said as read, not
  /// judged; a test the scan did not make is left unsaid.
  static func unjudged(_ scan: ServerScan, document: String) -> [String] {
    var facts: [String] = []
    if let requested = scan.clientCertificateRequested {
      facts.append(
        requested
          ? "Asked for a client certificate and ended the handshake without one (mutual authentication)."
          : "Did not require a client certificate: the handshake completed without one.")
    }
    if let stapling = scan.ocspStapling {
      facts.append("OCSP stapling \(stapling ? "offered" : "not offered").")
    }
    if let hsts = scan.hsts {
      facts.append(
        "Its HTTP answer \(hsts ? "carried" : "did not carry") Strict-Transport-Security (HSTS).")
    }
    guard !facts.isEmpty else { return [] }
    return facts + [
      "Not judged: \(document.isEmpty ? "the TLS document" : document) makes no recommendation on these."
    ]
  }

  /// What `compare` says of the servers scanned in both sessions; nothing when neither was
  /// scanned.
  public static func comparison(
    _ changes: [ServerScanChange], scanned: (earlier: Bool, later: Bool),
    minimum: TLSProtocolVersion
  ) -> [String] {
    guard scanned.earlier || scanned.later else { return [] }
    guard scanned.earlier && scanned.later else {
      return [
        "Only the \(scanned.earlier ? "earlier" : "later") session has server scans: nothing to compare."
      ]
    }
    guard !changes.isEmpty else {
      return ["Each server scanned in both sessions is judged alike in both."]
    }
    var lines: [String] = []
    for change in changes {
      lines.append("\(change.host):\(change.port)")
      lines += change.added.map { "  now: " + statement($0, minimum: minimum) }
      lines += change.removed.map { "  no longer: " + statement($0, minimum: minimum) }
    }
    return lines
  }
}
