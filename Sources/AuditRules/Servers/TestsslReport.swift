import Audit
import Foundation

/// testssl.sh's JSON (`--jsonfile`, a flat list of results; `--jsonfile-pretty`, the same results
/// under each scanned server with the tool's and OpenSSL's versions) as server scans. Pure:
/// `ServerScanReport` parses the file. Results it does not use are passed over; a document that
/// is not testssl.sh's is refused with what is missing.
public enum TestsslReport {
  public typealias Failure = ServerScanReport.Failure

  public static let tool = "testssl.sh"

  static func read(_ root: Any?) throws(Failure) -> ServerScanRun {
    if let flat = root as? [[String: Any]] {
      return ServerScanRun(
        tool: tool, toolVersion: nil, opensslVersion: nil, startedAt: nil,
        scans: try scans(flatResults: flat))
    }
    guard let pretty = root as? [String: Any], let servers = pretty["scanResult"] as? [Any] else {
      throw Failure(
        description:
          "it is neither testssl.sh's list of results (--jsonfile), its report with a scanResult (--jsonfile-pretty), nor sslyze's with server_scan_results (--json_out)"
      )
    }
    var scans: [ServerScan] = []
    for (index, element) in servers.enumerated() {
      guard let server = element as? [String: Any] else {
        throw Failure(description: "scanResult[\(index)] is not an object")
      }
      let host = server["targetHost"] as? String ?? ""
      guard let address = server["ip"] as? String, let port = port(server["port"]) else {
        throw Failure(description: "scanResult[\(index)] names no ip and port")
      }
      var scan = ServerScan(host: host.isEmpty ? address : host, address: address, port: port)
      for value in server.values {
        for result in value as? [[String: Any]] ?? [] { take(result, into: &scan) }
      }
      // The pretty report states the service beside the server, not as a result.
      if let service = server["service"] as? String {
        take(["id": "service", "finding": service], into: &scan)
      }
      scans.append(scan)
    }
    return ServerScanRun(
      tool: tool, toolVersion: (pretty["version"] as? String).map(trimmed),
      opensslVersion: (pretty["openssl"] as? String).map(trimmed),
      startedAt: (pretty["startTime"] as? String).flatMap(TimeInterval.init).map {
        Date(timeIntervalSince1970: $0)
      }, scans: scans)
  }

  /// The flat list: results of every server one after the other, each naming its "host/address"
  /// and port.
  static func scans(flatResults: [[String: Any]]) throws(Failure) -> [ServerScan] {
    var scans: [ServerScan] = []
    for result in flatResults {
      guard let ip = result["ip"] as? String, let port = port(result["port"]),
        let slash = ip.firstIndex(of: "/")
      else { continue }
      let host = String(ip[..<slash])
      let address = String(ip[ip.index(after: slash)...])
      // The tool's own problems ("engine_problem") name no server ("/").
      guard !address.isEmpty else { continue }
      if scans.last.map({ $0.address != address || $0.port != port }) ?? true {
        scans.append(ServerScan(host: host.isEmpty ? address : host, address: address, port: port))
      }
      take(result, into: &scans[scans.count - 1])
    }
    guard !scans.isEmpty else {
      throw Failure(description: "it holds no result of a server (an ip and a port)")
    }
    return scans
  }

  static func port(_ value: Any?) -> UInt16? {
    if let text = value as? String { return UInt16(text) }
    return (value as? NSNumber).flatMap { UInt16(exactly: $0.intValue) }
  }

  /// "3.0.8  from " → "3.0.8"; "OpenSSL 3.0.19 from Apr  3 …" → "OpenSSL 3.0.19".
  static func trimmed(_ text: String) -> String {
    let head = text.range(of: " from").map { String(text[..<$0.lowerBound]) } ?? text
    return head.trimmingCharacters(in: .whitespaces)
  }

  /// The versions by testssl.sh's identifiers, in its results and its cipher results' names.
  static let versions: [String: TLSProtocolVersion] = [
    "SSLv2": .ssl2, "SSLv3": .ssl3, "TLS1": .tls10, "TLS1_1": .tls11, "TLS1_2": .tls12,
    "TLS1_3": .tls13,
    "ssl3": .ssl3, "tls1": .tls10, "tls1_1": .tls11, "tls1_2": .tls12, "tls1_3": .tls13,
  ]

  static func take(_ result: [String: Any], into scan: inout ServerScan) {
    guard let id = result["id"] as? String, let finding = result["finding"] as? String else {
      return
    }
    if let version = versions[id], id.first?.isUppercase == true {
      if finding.hasPrefix("not offered") {
        scan.protocols[version] = false
      } else if finding.hasPrefix("offered") {
        scan.protocols[version] = true
      }
      return
    }
    switch id {
    case "PFS_ECDHE_curves", "FS_ECDHE_curves", "DH_groups":
      for name in finding.split(separator: " ") {
        if let code = group(String(name)), !scan.groups.contains(code) { scan.groups.append(code) }
      }
    case "cert_keySize":
      // "RSA 2048 bits", "EC 256 bits (curve P-256)"
      let words = finding.split(separator: " ")
      if words.count >= 2, let bits = Int(words[1]) {
        scan.certificateKey = (words[0] == "EC" ? "ECDSA" : String(words[0]), bits)
      }
    case "cert_signatureAlgorithm":
      scan.certificateSignature = signatures[finding] ?? finding
    case "OCSP_stapling":
      scan.ocspStapling = finding.hasPrefix("offered")
    case "secure_renego":
      // "supported"; "VULNERABLE" when the server does not renegotiate as RFC 5746 says.
      if finding.hasPrefix("supported") || finding.hasPrefix("TLS 1.3 only") {
        scan.secureRenegotiation = true
      } else if finding.hasPrefix("VULNERABLE") {
        scan.secureRenegotiation = false
      }
    case "secure_client_renego":
      if finding.hasPrefix("VULNERABLE") {
        scan.clientRenegotiationAccepted = true
      } else if finding.hasPrefix("not vulnerable") || finding.hasPrefix("likely not vulnerable") {
        scan.clientRenegotiationAccepted = false
      } else if finding.hasPrefix("client x509-based authentication") {
        scan.clientCertificateRequested = true
      }
    case "CRIME_TLS":
      if finding.hasPrefix("VULNERABLE") {
        scan.compression = true
      } else if finding.hasPrefix("not vulnerable") || finding.hasPrefix("TLS 1.3 only") {
        scan.compression = false
      }
    case "service":
      // Service detection is skipped when the server asks for a client certificate, and says so.
      scan.clientCertificateRequested = finding.contains("certificate-based authentication")
    case "HSTS":
      if finding.hasPrefix("not offered") { scan.hsts = false }
    case "HSTS_time":
      // "0. HSTS is disabled": a max-age of 0 takes it back.
      scan.hsts = !finding.hasPrefix("0.")
    default:
      // "cipher-tls1_2_xc030": a suite offered in a version.
      guard id.hasPrefix("cipher-"), let marker = id.range(of: "_x", options: .backwards),
        let version = versions[
          String(id[id.index(id.startIndex, offsetBy: 7)..<marker.lowerBound])],
        let code = UInt16(id[marker.upperBound...], radix: 16)
      else { return }
      if !(scan.cipherSuites[version]?.contains(code) ?? false) {
        scan.cipherSuites[version, default: []].append(code)
      }
    }
  }

  /// A group as testssl.sh names it, as its code.
  static func group(_ name: String) -> UInt16? {
    let lower = name.lowercased()
    if lower == "prime256v1" { return 23 }
    return TLSRegistry.groupNames.first { $0.value.lowercased() == lower }?.key
  }

  /// testssl.sh's names of certificate signatures, as OpenSSL's.
  static let signatures: [String: String] = [
    "SHA1 with RSA": "sha1WithRSAEncryption", "SHA256 with RSA": "sha256WithRSAEncryption",
    "SHA384 with RSA": "sha384WithRSAEncryption", "SHA512 with RSA": "sha512WithRSAEncryption",
    "ECDSA with SHA1": "ecdsa-with-SHA1", "ECDSA with SHA256": "ecdsa-with-SHA256",
    "ECDSA with SHA384": "ecdsa-with-SHA384", "ECDSA with SHA512": "ecdsa-with-SHA512",
    "RSASSA-PSS": "rsassaPss", "Ed25519": "ED25519", "Ed448": "ED448",
  ]
}
