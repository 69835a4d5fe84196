import Foundation
import TestSupport
import XCTest

/// Each certificate scenario with a real mitmdump and real clients, in a network namespace of the
/// test's own: one client that validates (curl with the CA it is meant to trust, or none) and
/// one that does not (curl -k, or Python's ssl checking the chain but not the name). The capture
/// of the device's leg, imported with the proxy's log under the scenario, gives each client's
/// answer as a finding.
final class CertificateScenarioTests: XCTestCase {
  static let names = ["valid.example-health.de", "lax.example-health.de"]
  static let proxyPort = "47482"
  static let upstream = "127.0.0.1:47447"

  struct Scene {
    let binary: URL
    let path: String
    let store: String

    func tv(_ words: String...) throws -> (status: Int32, output: String, error: String) {
      try XCTUnwrap(ExternalTool.run(binary.path, words + ["--store", store]))
    }
    func json(_ words: String...) throws -> [String: Any] {
      let run = try XCTUnwrap(ExternalTool.run(binary.path, words + ["--json", "--store", store]))
      XCTAssertEqual(run.status, 0, run.error)
      return try XCTUnwrap(
        JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
    }
  }

  /// What each client's curl (or Python) exit status was, and the capture and log made.
  struct Run {
    let validating: Int32
    let lax: Int32
    let capture: String
    let log: String
  }

  /// mitmdump serving `scenario` (a certificate of `tunnelvision mitmproxy-scenario` for
  /// wrong-host and expired), the upstream server, a capture of the proxy's port, and the two
  /// clients: `validating` to the first name, `lax` to the second.
  func run(
    _ scenario: String, tag: String, scene s: Scene, validating: [String], lax: [String],
    laxByPython: Bool = false, recording: Bool = false
  ) throws -> Run {
    let ns = try NetworkNamespace(
      hosts: "127.0.0.1 localhost " + Self.names.joined(separator: " ") + "\n")
    let ip = try XCTUnwrap(ExternalTool.which("ip"))
    let confdir = s.path + "/mitmproxy"
    let log = s.path + "/\(tag).jsonl"
    let capture = s.path + "/\(tag).pcap"
    let server = try ns.start([
      "openssl", "s_server", "-accept", Self.upstream, "-cert", s.path + "/up.pem", "-key",
      s.path + "/up.key", "-www", "-quiet",
    ])
    defer { server.end(SIGTERM) }
    func proxy(_ more: [String]) throws -> RunningProcess {
      let proxy = try ns.start(
        [
          MitmproxyInspectionTests.mitmdump, "--listen-host", "127.0.0.1", "-p", Self.proxyPort,
          "--set", "confdir=\(confdir)", "--ssl-insecure", "-s", s.path + "/addon.py", "--set",
          "tunnelvision_log=\(log)", "--set", "tunnelvision_scenario=\(scenario)", "-q",
        ] + more)
      try proxy.waitForListening(on: try XCTUnwrap(UInt16(Self.proxyPort)))
      return proxy
    }
    var extra: [String] = []
    if scenario == "wrongHost" || scenario == "expired" {
      if !FileManager.default.fileExists(atPath: confdir + "/mitmproxy-ca.pem") {
        try proxy([]).end(SIGTERM)  // once, for its CA
      }
      let word = scenario == "wrongHost" ? "wrong-host" : "expired"
      let hosts = scenario == "expired" ? Self.names.flatMap { ["--host", $0] } : []
      let made = try XCTUnwrap(
        ExternalTool.run(
          s.binary.path, ["mitmproxy-scenario", word, "--confdir", confdir] + hosts))
      XCTAssertEqual(made.status, 0, made.error)
      let certificate = confdir + "/tunnelvision-\(word).pem"
      XCTAssertTrue(made.output.contains("--certs '*=\(certificate)'"), made.output)
      extra = ["--certs", "*=\(certificate)"]
    }
    let mitmdump = try proxy(extra)
    defer { mitmdump.end(SIGTERM) }
    try server.waitForListening(on: try XCTUnwrap(UInt16(Self.upstream.split(separator: ":")[1])))
    // Captured by tcpdump for an import, or recorded live following the log.
    let capturing =
      recording
      ? try LabCapture.recorder(
        in: ns, binary: s.binary,
        [
          "-i", "lo", "--filter", "tcp port \(Self.proxyPort)", "--inspection-log", log,
          "--quiet",
        ], store: s.store)
      : try LabCapture.tcpdump(in: ns, to: capture, filter: "tcp port \(Self.proxyPort)")
    let ca = confdir + "/mitmproxy-ca-cert.pem"
    func curl(_ arguments: [String], _ name: String) throws -> Int32 {
      try XCTUnwrap(
        ExternalTool.run(
          ip,
          ns.exec(
            [
              "curl", "-s", "-o", "/dev/null", "--max-time", "10", "--proxy",
              "http://127.0.0.1:\(Self.proxyPort)",
            ] + arguments.map { $0 == "CA" ? ca : $0 }
              + ["https://\(name):\(Self.upstream.split(separator: ":")[1])/"]))
      ).status
    }
    let validatingStatus = try curl(validating, Self.names[0])
    let laxStatus: Int32
    if laxByPython {
      // Checks the chain against the CA, not the name: through the proxy by CONNECT.
      let script = """
        import socket, ssl, sys
        ca, host, port = sys.argv[1], sys.argv[2], sys.argv[3]
        s = socket.create_connection(("127.0.0.1", \(Self.proxyPort)))
        s.sendall(f"CONNECT {host}:{port} HTTP/1.1\\r\\nHost: {host}:{port}\\r\\n\\r\\n".encode())
        head = b""
        while b"\\r\\n\\r\\n" not in head:
            head += s.recv(1)
        context = ssl.create_default_context(cafile=ca)
        context.check_hostname = False
        t = context.wrap_socket(s, server_hostname=host)
        t.sendall(f"GET / HTTP/1.1\\r\\nHost: {host}\\r\\nConnection: close\\r\\n\\r\\n".encode())
        while t.recv(4096):
            pass
        """
      laxStatus = try XCTUnwrap(
        ExternalTool.run(
          ip,
          ns.exec([
            "python3", "-c", script, ca, Self.names[1],
            String(Self.upstream.split(separator: ":")[1]),
          ]))
      ).status
    } else {
      laxStatus = try curl(lax, Self.names[1])
    }
    // Each client's connection to the proxy is one line of its log when it closes.
    try Readiness.waitForLines(2, containing: Readiness.connectionLine, in: log)
    try capturing.end(afterClosing: 2)
    mitmdump.end(SIGTERM)
    return Run(validating: validatingStatus, lax: laxStatus, capture: capture, log: log)
  }

  func imported(
    _ run: Run, scenario: String, version: String, scene s: Scene
  ) throws -> [String: Any] {
    let imported = try s.tv(
      "import", run.capture, "--project", "P", "--version", version, "--build", version,
      "--inspection-log", run.log, "--ca", scenario)
    XCTAssertEqual(imported.status, 0, imported.error)
    let sessions = try XCTUnwrap(
      try XCTUnwrap(
        JSONSerialization.jsonObject(
          with: Data(try s.tv("session", "list", "P", "--json").output.utf8)) as? [[String: Any]]))
    let id = try XCTUnwrap(sessions.compactMap { $0["id"] as? Int }.max())
    return try s.json("findings", String(id))
  }

  /// Each finding's kind by host (but the TLS parameters', whose test is TLSParameterTests: the
  /// upstream server's RSA-2048 certificate is one), and each requirement's verdict.
  func read(_ findings: [String: Any]) throws -> (
    kinds: [String: String], verdicts: [String: String]
  ) {
    let list = try XCTUnwrap(findings["findings"] as? [[String: Any]])
    var kinds: [String: String] = [:]
    for finding in list {
      guard let kind = finding["kind"] as? String, let host = finding["host"] as? String,
        kind != "hostNotInAllowlist", finding["parameter"] is NSNull
      else { continue }
      kinds[host + " " + kind] = kind
    }
    let requirements = try XCTUnwrap(findings["requirements"] as? [[String: Any]])
    let verdicts = Dictionary(
      uniqueKeysWithValues: requirements.map {
        ($0["id"] as? String ?? "", $0["verdict"] as? String ?? "")
      })
    return (kinds, verdicts)
  }

  /// The scene of one test: its directory, the upstream server's certificate, the addon and a
  /// project allowing the test's names.
  func scene(_ label: String) throws -> (Scene, TemporaryDirectory) {
    try requireRoot("a network namespace for the proxy")
    try MitmproxyInspectionTests.requireMitmdump()
    let binary = try TunnelVisionExecutable.url()
    let dir = TemporaryDirectory(label)
    let s = Scene(binary: binary, path: dir.url.path, store: dir.url.path + "/store")
    try MitmproxyInspectionTests.certificateAndAddon(s.path, binary: binary, names: Self.names)
    XCTAssertEqual(try s.tv("project", "new", "P", "--allow", "*.example-health.de").status, 0)
    return (s, dir)
  }

  func testACANotInstalledIsRefusedByAValidatingClientAndAcceptedByALaxOne() throws {
    let (s, dir) = try scene("scenario-not-installed")
    defer { _ = dir }
    let lax = Self.names[1]
    let valid = Self.names[0]

    // Release 1, the CA not installed: both clients validate.
    let first = try run(
      "notInstalled", tag: "r1", scene: s, validating: [], lax: [])
    XCTAssertEqual([first.validating, first.lax], [60, 60], "no trusted CA issued it")
    let r1 = try read(try imported(first, scenario: "not-installed", version: "1", scene: s))
    XCTAssertEqual(
      Set(r1.kinds.keys),
      ["\(valid) certificateValidationObserved", "\(lax) certificateValidationObserved"])
    XCTAssertEqual(r1.verdicts["O.Ntwk_5"], "observedWithoutContradiction")

    // Release 2, the same scenario: one client accepts anything (curl -k).
    let second = try run(
      "notInstalled", tag: "r2", scene: s, validating: [], lax: ["-k"])
    XCTAssertEqual([second.validating, second.lax], [60, 0])
    let r2 = try read(try imported(second, scenario: "not-installed", version: "2", scene: s))
    XCTAssertEqual(
      Set(r2.kinds.keys),
      ["\(valid) certificateValidationObserved", "\(lax) certificateNotValidated"])
    XCTAssertEqual(r2.verdicts["O.Ntwk_5"], "contradicted")
    XCTAssertEqual(r2.verdicts["O.Ntwk_4"], "contradicted", "nothing pinned either")
    let compared = try s.tv("compare", "1", "2")
    XCTAssertTrue(compared.output.contains("Certificate validation lost"), compared.output)
    XCTAssertTrue(compared.output.contains("\(lax): its connections refused"), compared.output)

    // A log of one scenario is not joined into a session stating another.
    let other = try s.tv(
      "import", second.capture, "--project", "P", "--version", "2b", "--build", "2b",
      "--inspection-log", second.log, "--ca", "expired", "--again")
    XCTAssertEqual(other.status, 0, other.error)
    XCTAssertTrue(
      other.output.contains(
        "2 lines named another certificate scenario than the session states (2 notInstalled)"),
      other.output)

    // Page 1 states the scenario beside the verdicts.
    let bundle = s.path + "/r2.zip"
    XCTAssertEqual(try s.tv("export", "2", "-o", bundle).status, 0)
    let page = try XCTUnwrap(
      ExternalTool.run("sh", ["-c", "unzip -p \"$0\" report.pdf | pdftotext -l 1 - -", bundle])
    ).output.replacingOccurrences(of: "\n", with: " ")
    XCTAssertTrue(page.contains("the proxy's CA not installed on the device"), page)
    XCTAssertEqual(try s.tv("verify", bundle).status, 0)

    // #41.1: release 4 under another scenario (expired), where the lax client accepts: against
    // release 1 that is not comparable, never a regression.
    let fourth = try run(
      "expired", tag: "r4", scene: s, validating: ["--cacert", "CA"], lax: ["-k"])
    XCTAssertEqual([fourth.validating, fourth.lax], [60, 0])
    _ = try imported(fourth, scenario: "expired", version: "4", scene: s)
    let across = try s.tv("compare", "1", "4")
    XCTAssertEqual(across.status, 0, across.error)
    XCTAssertFalse(across.output.contains("regression"), across.output)
    XCTAssertFalse(across.output.contains("Certificate validation lost"), across.output)
    XCTAssertTrue(across.output.contains("Certificate validation not comparable"), across.output)
    XCTAssertTrue(
      across.output.contains(
        "\(lax): refused the proxy's certificate in the earlier release and accepted it in the later, but the earlier was recorded with the proxy's CA not installed on the device and the later with an expired certificate"
      ), across.output)
  }

  func testAWrongHostAndAnExpiredCertificateTellAClientThatChecksFromOneThatDoesNot() throws {
    let (s, dir) = try scene("scenario-wrong-expired")
    defer { _ = dir }
    let lax = Self.names[1]
    let valid = Self.names[0]

    // Wrong host: curl checks the name; Python checks only the chain.
    let wrong = try run(
      "wrongHost", tag: "wrong", scene: s, validating: ["--cacert", "CA"], lax: [],
      laxByPython: true)
    XCTAssertEqual([wrong.validating, wrong.lax], [60, 0])
    let wrongFindings = try imported(wrong, scenario: "wrong-host", version: "3", scene: s)
    let rw = try read(wrongFindings)
    // curl checks the name after the handshake: it closes without a request, which tells
    // nothing (an app's own pin check closes so too) and stays not assessed, with its reason.
    XCTAssertEqual(Set(rw.kinds.keys), ["\(lax) hostNameNotVerified"])
    let checks = try XCTUnwrap(wrongFindings["checks"] as? [String: [String: Any]])
    let gaps = try XCTUnwrap(checks["certificateValidation"]?["notAssessed"] as? [[String: Any]])
    XCTAssertEqual(gaps.compactMap { $0["reason"] as? String }, ["closedAfterHandshake"])

    // Expired: curl with the CA refuses it, curl -k does not.
    let expired = try run(
      "expired", tag: "expired", scene: s, validating: ["--cacert", "CA"], lax: ["-k"])
    XCTAssertEqual([expired.validating, expired.lax], [60, 0])
    let re = try read(try imported(expired, scenario: "expired", version: "4", scene: s))
    XCTAssertEqual(
      Set(re.kinds.keys), ["\(valid) certificateValidationObserved", "\(lax) expiryNotChecked"])
  }

  func testAUserCAAndTheSameScenesRecordedLiveTellTheirClientsApart() throws {
    let (s, dir) = try scene("scenario-user-live")
    defer { _ = dir }
    let lax = Self.names[1]
    let valid = Self.names[0]

    // A user CA: an app that ignores the user store refuses it, one that opts in accepts it.
    let user = try run(
      "userCA", tag: "user", scene: s, validating: [], lax: ["--cacert", "CA"])
    XCTAssertEqual([user.validating, user.lax], [60, 0])
    let ru = try read(try imported(user, scenario: "user", version: "5", scene: s))
    XCTAssertEqual(
      Set(ru.kinds.keys),
      ["\(valid) userCARefused", "\(lax) userCATrusted", "\(lax) pinningAbsent"])
    XCTAssertEqual(ru.verdicts["O.Ntwk_7"], "contradicted")

    // The not-installed scene live: a session stating the scenario, the recorder following the
    // log.
    XCTAssertEqual(
      try s.tv(
        "session", "start", "P", "--version", "6", "--build", "6", "--inspection", "--ca",
        "not-installed"
      ).status, 0)
    let live = try run(
      "notInstalled", tag: "live", scene: s, validating: [], lax: ["-k"], recording: true)
    XCTAssertEqual([live.validating, live.lax], [60, 0])
    XCTAssertEqual(try s.tv("session", "end").status, 0)
    let rl = try read(try s.json("findings", "2"))
    XCTAssertEqual(
      Set(rl.kinds.keys),
      ["\(valid) certificateValidationObserved", "\(lax) certificateNotValidated"])
  }
}
