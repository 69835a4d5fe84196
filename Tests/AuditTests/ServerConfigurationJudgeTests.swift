import Audit
import AuditRules
import AuditWording
import Foundation
import XCTest

/// testssl.sh 3.0.8's own JSON (Fixtures: a scan of an `openssl s_server` offering TLS 1.0 and
/// 1.1 beside 1.2 and 1.3, in the --jsonfile-pretty form; one of a server offering 1.2 and 1.3,
/// in the flat --jsonfile form; one of a server offering only what the tables list) read and
/// judged against TR-03161's catalogue in 2026.
final class ServerConfigurationJudgeTests: XCTestCase {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

  func run(_ name: String) throws -> ServerScanRun {
    try ServerScanReport.read(Data(contentsOf: Self.fixtures.appendingPathComponent(name)))
  }

  var judge: ServerConfigurationJudge {
    get throws {
      let catalogue = try RequirementCatalogueLibrary.catalogue(identifier: "tr-03161-1_3.0")
      return ServerConfigurationJudge(policy: catalogue.policy, year: 2026)
    }
  }

  func testThePrettyReportNamesTheToolItsOpenSSLAndWhatTheServerOffered() throws {
    let run = try run("testssl-3.0.8-legacy-pretty.json")
    XCTAssertEqual(run.toolVersion, "3.0.8")
    XCTAssertEqual(run.opensslVersion?.hasPrefix("OpenSSL 3.0."), true, "\(run)")
    XCTAssertEqual(run.startedAt, Date(timeIntervalSince1970: 1_796_317_173))
    let scan = try XCTUnwrap(run.scans.first)
    XCTAssertEqual(run.scans.count, 1)
    XCTAssertEqual([scan.address, String(scan.port)], ["127.0.0.1", "18444"])
    XCTAssertEqual(scan.offeredVersions, [.tls10, .tls11, .tls12, .tls13])
    XCTAssertEqual(scan.protocols[.ssl3], false)
    XCTAssertEqual(scan.cipherSuites[.tls10]?.count, 6)
    XCTAssertEqual(scan.cipherSuites[.tls12]?.first, 0xC030)
    XCTAssertEqual(scan.cipherSuites[.tls13], [0x1302, 0x1303, 0x1301])
    XCTAssertEqual(scan.groups, [23, 24, 25, 29, 30, 256, 257, 258, 259, 260])
    XCTAssertEqual(scan.certificateKeyAlgorithm, "RSA")
    XCTAssertEqual(scan.certificateKeyBits, 2048)
    XCTAssertEqual(scan.certificateSignature, "sha256WithRSAEncryption")
    XCTAssertEqual(scan.ocspStapling, false)
  }

  func testTheFlatListReadsAsTheSameKindOfScanWithoutTheToolsVersion() throws {
    let run = try run("testssl-3.0.8-modern-flat.json")
    XCTAssertNil(run.toolVersion)
    let scan = try XCTUnwrap(run.scans.first)
    XCTAssertEqual(run.scans.count, 1, "the tool's own problem names no server")
    XCTAssertEqual(scan.offeredVersions, [.tls12, .tls13])
    XCTAssertEqual(scan.cipherSuites[.tls12]?.count, 20)
  }

  func testVersionsBelowTheMinimumAndUnlistedSuitesAreOfferedNeverChosen() throws {
    let run = try run("testssl-3.0.8-legacy-pretty.json")
    let scan = try XCTUnwrap(run.scans.first)
    let judge = try judge
    let found = judge.judge(scan)
    let versions: [TLSProtocolVersion] = found.compactMap {
      guard case .versionOffered(let version) = $0.item else { return nil }
      return version
    }
    XCTAssertEqual(versions, [.tls10, .tls11])
    let suites: [UInt16] = found.compactMap {
      guard case .cipherSuite(let suite, _) = $0.item else { return nil }
      return suite
    }
    XCTAssertTrue(suites.contains(0x009C), "TLS_RSA_WITH_AES_128_GCM_SHA256: no forward secrecy")
    XCTAssertFalse(suites.contains(0xC02F), "ECDHE_RSA_WITH_AES_128_GCM_SHA256 is in Table 2")
    let lines = ServerConfigurationWording.lines(
      scan, observations: found, minimum: judge.policy.minimumTLSVersion,
      document: judge.policy.tlsDocument)
    XCTAssertTrue(
      lines.contains(
        "  TLS_RSA_WITH_AES_128_GCM_SHA256 (0x009C) offered in TLS 1.2: not among the suites BSI TR-02102-2 (2025-01) recommends (Tables 2, 3, 4)."
      ), lines.joined(separator: "\n"))
    XCTAssertTrue(
      lines.contains(
        "  TLS 1.0 offered: below the catalogue's TLS minimum, TLS 1.2 (BSI TR-02102-2 (2025-01))."),
      lines.joined(separator: "\n"))
    for line in lines {
      for word in ["chose", "chosen", "negotiated", "weak", "insecure", "passed", "compliant"] {
        XCTAssertFalse(line.lowercased().contains(word), line)
      }
    }
  }

  func testAServerOfferingOnlyWhatTheTablesListIsSaidToDoSo() throws {
    let real = try XCTUnwrap(try run("testssl-3.0.8-recommended-pretty.json").scans.first)
    XCTAssertEqual(real.offeredVersions, [.tls12, .tls13])
    XCTAssertEqual(real.certificateSignature, "ecdsa-with-SHA256")
    XCTAssertEqual(try judge.judge(real), [], "an ECDSA P-256 certificate, AES-GCM, P-256, P-384")
    var scan = ServerScan(host: "api.example.de", address: "192.0.2.1", port: 443)
    scan.protocols = [.tls10: false, .tls11: false, .tls12: true, .tls13: true]
    scan.cipherSuites = [.tls12: [0xC02B, 0xC02F], .tls13: [0x1301, 0x1302]]
    scan.groups = [23, 24]
    let judge = try judge
    XCTAssertEqual(judge.judge(scan), [])
    let lines = ServerConfigurationWording.lines(
      scan, observations: [], minimum: .tls12, document: judge.policy.tlsDocument)
    XCTAssertEqual(
      lines,
      [
        "api.example.de (192.0.2.1:443)", "  Offered: TLS 1.2, TLS 1.3; 4 cipher suites.",
        "  Offers only versions from TLS 1.2 on and only suites BSI TR-02102-2 (2025-01) recommends.",
      ])
    scan.protocols[.tls12] = false
    scan.protocols[.tls13] = false
    scan.protocols[.tls11] = true
    XCTAssertEqual(
      judge.judge(scan).map(\.item), [.versionOffered(.tls11), .noVersionAtMinimum(.tls12)])
  }

  func testAFileThatIsNotTestsslsIsRefusedWithWhatIsMissing() {
    for (text, expected) in [
      ("{\"a\": 1}", "neither testssl.sh's list of results"), ("[]", "no result of a server"),
      ("[{\"id\": \"TLS1\"", "it is not JSON"),
    ] {
      XCTAssertThrowsError(try ServerScanReport.read(Data(text.utf8))) {
        XCTAssertTrue("\($0)".contains(expected), "\($0)")
      }
    }
  }

  /// Two real scans with renegotiation, compression and the HTTP headers tested (-R -C -h) of an
  /// `s_server` asking for a client certificate: optionally (-verify 1; the handshake completes
  /// without one, the service is HTTP) and required (-Verify 1).
  func testRenegotiationCompressionHSTSAndTheClientCertificateAreReadAsTheServerAnswered() throws {
    let optional = try XCTUnwrap(try run("testssl-3.0.8-further-pretty.json").scans.first)
    XCTAssertEqual(optional.secureRenegotiation, true)
    XCTAssertEqual(optional.clientRenegotiationAccepted, false)
    XCTAssertEqual(optional.compression, false)
    XCTAssertEqual(optional.hsts, false)
    XCTAssertEqual(optional.clientCertificateRequested, false)
    let required = try XCTUnwrap(
      try run("testssl-3.0.8-client-certificate-pretty.json").scans.first)
    XCTAssertEqual(required.clientCertificateRequested, true)
    XCTAssertNil(
      required.clientRenegotiationAccepted, "the client certificate kept it from testing")
    XCTAssertNil(required.hsts, "no HTTP checks without a client certificate")
    let judge = try judge
    XCTAssertFalse(judge.judge(optional).contains { $0.reference.hasPrefix("§") })
    let text = { (scan: ServerScan) in
      ServerConfigurationWording.lines(
        scan, observations: judge.judge(scan), minimum: .tls12, document: judge.policy.tlsDocument
      ).joined(separator: "\n")
    }
    XCTAssertTrue(
      text(optional).contains(
        """
          Did not require a client certificate: the handshake completed without one.
          OCSP stapling not offered.
          Its HTTP answer did not carry Strict-Transport-Security (HSTS).
          Not judged: BSI TR-02102-2 (2025-01) makes no recommendation on these.
        """), text(optional))
    XCTAssertTrue(
      text(required).contains(
        "  Asked for a client certificate and ended the handshake without one (mutual authentication)."
      ), text(required))
  }

  /// The same real scan with the answers a server that renegotiates as RFC 5746 does not, accepts
  /// the client's renegotiation and compresses would have given (testssl.sh's own words).
  func testRenegotiationAndCompressionTheDocumentAdvisesAgainstAreOffered() throws {
    var root = try XCTUnwrap(
      try JSONSerialization.jsonObject(
        with: Data(
          contentsOf: Self.fixtures.appendingPathComponent("testssl-3.0.8-further-pretty.json"))
      ) as? [String: Any])
    var servers = try XCTUnwrap(root["scanResult"] as? [[String: Any]])
    let answers = [
      "secure_renego": "VULNERABLE", "secure_client_renego": "VULNERABLE, DoS threat",
      "CRIME_TLS": "VULNERABLE",
    ]
    servers[0]["vulnerabilities"] = try XCTUnwrap(servers[0]["vulnerabilities"] as? [[String: Any]])
      .map { result in
        var result = result
        if let id = result["id"] as? String, let answer = answers[id] { result["finding"] = answer }
        return result
      }
    root["scanResult"] = servers
    let scan = try XCTUnwrap(
      try ServerScanReport.read(JSONSerialization.data(withJSONObject: root)).scans.first)
    let judge = try judge
    let further = judge.judge(scan).filter { $0.reference.hasPrefix("§") }
    XCTAssertEqual(
      further.map(\.item), [.insecureRenegotiation, .clientRenegotiationAccepted, .compression])
    XCTAssertEqual(further.map(\.reference), ["§3.3.4.1", "§3.3.4.1", "§3.3.4.3"])
    XCTAssertEqual(
      further.map { ServerConfigurationWording.statement($0, minimum: .tls12) },
      [
        "Renegotiation not as RFC 5746 specifies it (no secure renegotiation), the only kind BSI TR-02102-2 (2025-01) recommends (§3.3.4.1).",
        "A renegotiation the client began was accepted; BSI TR-02102-2 (2025-01) says the server should refuse it (§3.3.4.1).",
        "TLS compression offered, which BSI TR-02102-2 (2025-01) recommends against (§3.3.4.3).",
      ])
  }

  /// sslyze 6.3.1's real scan (--json_out) of the same `s_server` testssl.sh 3.0.8 scanned
  /// (TLS 1.0 and 1.2, AES128-SHA and ECDHE-RSA-AES128-GCM-SHA256, a client certificate asked
  /// for, optionally): two tools, one server, the same judgement.
  func testSslyzesScanOfAServerIsJudgedAsTestsslsScanOfItIs() throws {
    let sslyze = try run("sslyze-6.3.1-two-suites.json")
    XCTAssertEqual(sslyze.tool, "sslyze")
    XCTAssertEqual(sslyze.toolVersion, "6.3.1")
    XCTAssertNil(sslyze.opensslVersion, "sslyze does not state its OpenSSL")
    XCTAssertEqual(sslyze.startedAt.map(Instant.rfc3339ToTheSecond), "2026-12-03T20:12:09Z")
    let scan = try XCTUnwrap(sslyze.scans.first)
    XCTAssertEqual(
      [scan.host, scan.address, String(scan.port)], ["legacy.test", "127.0.0.1", "8443"])
    XCTAssertEqual(scan.offeredVersions, [.tls10, .tls12])
    XCTAssertEqual(scan.protocols[.ssl2], false)
    XCTAssertEqual(Set(scan.cipherSuites[.tls12] ?? []), [0x002F, 0xC02F])
    XCTAssertEqual(scan.cipherSuites[.tls10], [0x002F])
    XCTAssertEqual(scan.unknownCipherSuites, [])
    XCTAssertEqual(scan.certificateKeyAlgorithm, "RSA")
    XCTAssertEqual(scan.certificateKeyBits, 2048)
    XCTAssertEqual(scan.certificateSignature, "sha256WithRSAEncryption")
    XCTAssertEqual(scan.secureRenegotiation, true)
    XCTAssertEqual(scan.clientRenegotiationAccepted, false)
    XCTAssertEqual(scan.compression, false)
    XCTAssertEqual(scan.ocspStapling, false)
    XCTAssertEqual(scan.clientCertificateRequested, false, "OPTIONAL: the handshake went on")
    XCTAssertNil(scan.hsts, "sslyze did not schedule its HTTP headers here")

    let testssl = try XCTUnwrap(try run("testssl-3.0.8-two-suites-pretty.json").scans.first)
    XCTAssertEqual(testssl.offeredVersions, scan.offeredVersions)
    XCTAssertEqual(Set(testssl.groups), Set(scan.groups))
    let judge = try judge
    XCTAssertEqual(Set(judge.judge(scan)), Set(judge.judge(testssl)))
    XCTAssertTrue(
      judge.judge(scan).contains { $0.item == .cipherSuite(0x002F, .tls12) }, "not listed")
  }

  /// A suite whose name the registry does not hold is said, and the server is not said to offer
  /// only what the tables recommend.
  func testASuiteWithoutAKnownNameIsSaidAndNotCountedAsRecommended() throws {
    var scan = ServerScan(host: "api.example.de", address: "192.0.2.1", port: 443)
    scan.protocols = [.tls12: true]
    scan.cipherSuites = [.tls12: [0xC02B]]
    scan.unknownCipherSuites = ["TLS_PRIVATE_WITH_SOMETHING"]
    let judge = try judge
    XCTAssertEqual(judge.judge(scan), [])
    let lines = ServerConfigurationWording.lines(
      scan, observations: [], minimum: .tls12, document: judge.policy.tlsDocument)
    XCTAssertFalse(lines.contains { $0.contains("Offers only") }, "\(lines)")
    XCTAssertTrue(
      lines.contains(
        "  Not judged: 1 cipher suite the scanner named that this tool's table of IANA's names does not hold (TLS_PRIVATE_WITH_SOMETHING)."
      ), "\(lines)")
  }
}
