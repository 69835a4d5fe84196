import Audit
import Foundation

/// sslyze's JSON (`--json_out`) as server scans: per server, the versions and the suites each
/// accepted, the curves, the leaf certificate's key and signature, renegotiation, compression, a
/// stapled OCSP response, HSTS and whether a client certificate is required. Pure, like
/// `TestsslReport`; what it does not use is passed over.
public enum SslyzeReport {
  public static let tool = "sslyze"

  /// Whether the document is sslyze's: an object with its list of server results.
  static func isSslyze(_ root: Any?) -> Bool {
    ((root as? [String: Any])?["server_scan_results"] as? [Any]) != nil
  }

  static let versions: [(String, TLSProtocolVersion)] = [
    ("ssl_2_0_cipher_suites", .ssl2), ("ssl_3_0_cipher_suites", .ssl3),
    ("tls_1_0_cipher_suites", .tls10), ("tls_1_1_cipher_suites", .tls11),
    ("tls_1_2_cipher_suites", .tls12), ("tls_1_3_cipher_suites", .tls13),
  ]

  static func read(_ root: [String: Any]) throws(ServerScanReport.Failure) -> ServerScanRun {
    guard let servers = root["server_scan_results"] as? [Any] else {
      throw ServerScanReport.Failure(description: "it names no server_scan_results")
    }
    var scans: [ServerScan] = []
    for (index, element) in servers.enumerated() {
      guard let server = element as? [String: Any],
        let location = server["server_location"] as? [String: Any],
        let address = location["ip_address"] as? String,
        let port = TestsslReport.port(location["port"])
      else {
        throw ServerScanReport.Failure(
          description: "server_scan_results[\(index)] names no ip_address and port")
      }
      // A server that could not be reached was not scanned: it says nothing of what it offers.
      guard server["scan_status"] as? String == "COMPLETED",
        let results = server["scan_result"] as? [String: Any]
      else { continue }
      let host = location["hostname"] as? String ?? address
      var scan = ServerScan(host: host.isEmpty ? address : host, address: address, port: port)
      take(results, into: &scan)
      if let connectivity = server["connectivity_result"] as? [String: Any],
        let requirement = connectivity["client_auth_requirement"] as? String
      {
        scan.clientCertificateRequested = requirement == "REQUIRED"
      }
      scans.append(scan)
    }
    guard !scans.isEmpty else {
      throw ServerScanReport.Failure(description: "it holds no completed scan of a server")
    }
    return ServerScanRun(
      tool: tool, toolVersion: root["sslyze_version"] as? String, opensslVersion: nil,
      startedAt: (root["date_scans_started"] as? String).flatMap(Instant.parseRFC3339),
      scans: scans)
  }

  /// The result of a scan command that completed; nil for one not scheduled or that failed.
  static func completed(_ results: [String: Any], _ command: String) -> [String: Any]? {
    guard let attempt = results[command] as? [String: Any],
      attempt["status"] as? String == "COMPLETED"
    else { return nil }
    return attempt["result"] as? [String: Any]
  }

  static func take(_ results: [String: Any], into scan: inout ServerScan) {
    for (command, version) in versions {
      guard let result = completed(results, command),
        let supported = result["is_tls_version_supported"] as? Bool
      else { continue }
      scan.protocols[version] = supported
      for accepted in result["accepted_cipher_suites"] as? [[String: Any]] ?? [] {
        guard let name = (accepted["cipher_suite"] as? [String: Any])?["name"] as? String else {
          continue
        }
        // A name IANA's table (as the registry holds it) does not give stays unjudged, said so.
        guard let code = suiteCodes[name] else {
          scan.unknownCipherSuites.append(name)
          continue
        }
        if !(scan.cipherSuites[version]?.contains(code) ?? false) {
          scan.cipherSuites[version, default: []].append(code)
        }
      }
    }
    if let curves = completed(results, "elliptic_curves") {
      for curve in curves["supported_curves"] as? [[String: Any]] ?? [] {
        if let name = curve["name"] as? String, let code = TestsslReport.group(name),
          !scan.groups.contains(code)
        {
          scan.groups.append(code)
        }
      }
    }
    if let info = completed(results, "certificate_info"),
      let deployment = (info["certificate_deployments"] as? [[String: Any]])?.first
    {
      if let leaf = (deployment["received_certificate_chain"] as? [[String: Any]])?.first {
        if let key = leaf["public_key"] as? [String: Any], let bits = key["key_size"] as? Int,
          let algorithm = key["algorithm"] as? String
        {
          scan.certificateKey = (keyAlgorithms[algorithm] ?? algorithm, bits)
        }
        scan.certificateSignature =
          (leaf["signature_algorithm_oid"] as? [String: Any])?["name"] as? String
      }
      scan.ocspStapling = (deployment["ocsp_response"] as? [String: Any]) != nil
    }
    if let renegotiation = completed(results, "session_renegotiation") {
      scan.secureRenegotiation = renegotiation["supports_secure_renegotiation"] as? Bool
      scan.clientRenegotiationAccepted =
        renegotiation["is_vulnerable_to_client_renegotiation_dos"] as? Bool
    }
    if let compression = completed(results, "tls_compression") {
      scan.compression = compression["supports_compression"] as? Bool
    }
    if let headers = completed(results, "http_headers") {
      scan.hsts = (headers["strict_transport_security_header"] as? [String: Any]) != nil
    }
  }

  /// sslyze's names of key types, as the judgement names them.
  static let keyAlgorithms = [
    "RSAPublicKey": "RSA", "EllipticCurvePublicKey": "ECDSA", "DSAPublicKey": "DSA",
    "Ed25519PublicKey": "Ed25519", "Ed448PublicKey": "Ed448",
  ]

  /// Cipher suites by their IANA names.
  static let suiteCodes: [String: UInt16] = Dictionary(
    TLSRegistry.cipherSuiteNames.map { ($0.value, $0.key) }, uniquingKeysWith: { a, _ in a })
}
