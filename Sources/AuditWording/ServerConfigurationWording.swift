import Audit
import AuditRules
import Foundation

/// What is said of a server's scanned configuration: what it offered at the scan's instant, as
/// the TLS document stands on it. "Offered", never "chosen" or "weak"; a suite the tables do not
/// list is "not among the suites … recommends", as BSI itself words it.
public enum ServerConfigurationWording {
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
    if observations.isEmpty, !versions.isEmpty {
      lines.append(
        "  Offers only versions from \(minimum.name) on and only suites \(document.isEmpty ? "the TLS document" : document) recommends."
      )
    }
    lines += observations.map { "  " + statement($0, minimum: minimum) }
    return lines
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
