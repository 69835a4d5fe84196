import Audit
import FlowStore
import Foundation
import TestSupport
import XCTest

/// `scan`: a real `openssl s_server` in a network namespace of the test's own (testssl.sh's
/// hundreds of handshakes stay off the machine's loopback, which other tests capture), offering
/// TLS 1.0 beside 1.2 with a suite the tables do not list and asking for a client certificate,
/// scanned by Debian's testssl.sh, kept with the session, judged; and testssl.sh's real scan of a
/// server offering only what TR-02102-2 recommends (an `s_server` with an ECDSA P-256
/// certificate, ECDHE-ECDSA AES-GCM suites, P-256 and P-384; AuditTests/Fixtures), read with
/// --from. One server is scanned live: its scan takes some 14 s of CPU.
final class ServerScanCommandTests: XCTestCase {
  static let port: UInt16 = 8443
  static let recommended = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent(
      "AuditTests/Fixtures/testssl-3.0.8-recommended-pretty.json")

  func requireTestsslAndRoot() throws {
    let ci = ProcessInfo.processInfo.environment["CI"] == "true"
    guard ExternalTool.which("testssl") != nil else {
      if ci { XCTFail("CI installs testssl.sh (scripts/setup.sh)") }
      throw XCTSkip("testssl.sh is not installed")
    }
    guard getuid() == 0 else {
      if ci { XCTFail("CI runs as root") }
      throw XCTSkip("a network namespace needs root")
    }
  }

  /// The server, and a session of a project allowing its name whose connections went to it
  /// and to a host outside the allowlist (not scanned).
  func scene(_ cli: CLIHarness, in ns: NetworkNamespace) throws -> (
    session: Int64, server: RunningProcess
  ) {
    let dir = cli.directory.url.path
    let made = try XCTUnwrap(
      ExternalTool.run(
        "openssl",
        [
          "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "\(dir)/legacy.key", "-out",
          "\(dir)/legacy.pem", "-days", "30", "-subj", "/CN=legacy.test",
        ]))
    XCTAssertEqual(made.status, 0, made.error)
    let server = try ns.start([
      "openssl", "s_server", "-accept", "127.0.0.1:\(Self.port)", "-cert", "\(dir)/legacy.pem",
      "-key", "\(dir)/legacy.key", "-www", "-quiet", "-cipher",
      // Two suites, one the tables list and one they do not: testssl.sh's handshakes per version
      // grow with what is offered (thirty suites took it 23 s of CPU, these two 14 s).
      "ECDHE-RSA-AES128-GCM-SHA256:AES128-SHA:@SECLEVEL=0",
      "-min_protocol", "TLSv1", "-no_tls1_1", "-no_tls1_3", "-verify", "1",
    ])
    try Readiness.wait("s_server on \(Self.port)") {
      Readiness.isListening(process: server.id, port: Self.port)
    }
    let store = try FlowStore(directory: URL(fileURLWithPath: cli.storePath))
    let project = try store.createAuditProject(
      AuditProjectDraft(
        name: "Scanned",
        allowlist: [AllowlistEntry(pattern: try DomainPattern(parsing: "legacy.test"))]),
      at: FlowFixture.at(0))
    let session = try store.startAuditSession(
      FlowFixture.sessionDraft(project: project.id), at: FlowFixture.at(1))
    let capture = try store.beginCaptureSession(at: FlowFixture.at(1))
    for (index, name) in ["legacy.test", "elsewhere.test"].enumerated() {
      var flow = FlowFixture.tcp(
        port: Self.port, at: Double(2 + index), sni: name, serverAddress: "127.0.0.1",
        sourcePort: 60_000 + UInt16(index))
      flow.captureSessionID = capture
      // Connections without packets: the bundle's capture then agrees with flows.json.
      flow.packetCount = 0
      try store.upsertFlow(flow)
    }
    _ = try store.endAuditSession(id: session.id, at: FlowFixture.at(10))
    return (session.id, server)
  }

  func testEachAllowlistedServerIsScannedKeptAndJudgedAsOffered() throws {
    try requireTestsslAndRoot()
    let cli = CLIHarness()
    let ns = try NetworkNamespace("scan")
    let (session, server) = try scene(cli, in: ns)
    defer { server.end(SIGTERM) }
    let binary = try TunnelVisionExecutable.url()
    let scan = try ns.run([
      binary.path, "--store", cli.storePath, "scan", String(session), "--timeout", "120",
    ])
    XCTAssertEqual(scan.status, 0, scan.output + scan.error)
    XCTAssertTrue(scan.error.contains("Scanning legacy.test (127.0.0.1:"), scan.error)
    XCTAssertTrue(scan.error.contains(", 1 of 1…"), scan.error)
    XCTAssertFalse(scan.error.contains("elsewhere.test"), "outside the allowlist: not scanned")
    XCTAssertTrue(scan.output.hasSuffix("1 of 1 server scanned and kept.\n"), scan.output)
    XCTAssertTrue(scan.output.contains("Scanned with testssl.sh 3."), scan.output)
    XCTAssertTrue(
      scan.output.contains("  TLS 1.0 offered: below the catalogue's TLS minimum, TLS 1.2"),
      scan.output)
    XCTAssertTrue(
      scan.output.contains(
        "offered in TLS 1.2: not among the suites BSI TR-02102-2 (2025-01) recommends (Tables 2, 3, 4)."
      ), scan.output)
    XCTAssertFalse(scan.output.contains("TLS 1.1 offered"), scan.output)
    XCTAssertFalse(scan.output.contains("chosen"))
    XCTAssertTrue(
      scan.output.contains(
        "  Did not require a client certificate: the handshake completed without one."),
      scan.output)
    XCTAssertTrue(
      scan.output.contains("  Its HTTP answer did not carry Strict-Transport-Security (HSTS)."),
      scan.output)

    // What the server offers is a finding on each connection that reached it, against O.Ntwk_2:
    // the one to a name outside the allowlist went to the same address and port, so it too.
    let findings = cli.run("findings", String(session))
    XCTAssertEqual(findings.status, 0, findings.error)
    XCTAssertTrue(
      findings.output.contains(
        "TLS 1.0 offered: below the catalogue's TLS minimum, TLS 1.2 (BSI TR-02102-2 (2025-01)). Found by the scan of 127.0.0.1:\(Self.port) at "
      ), findings.output)
    XCTAssertTrue(
      findings.output.contains(
        "Server configuration: 2 behind a finding, 0 looked at with nothing to report, 0 not assessed, 0 not applicable"
      ), findings.output)
    let json = try XCTUnwrap(
      try JSONSerialization.jsonObject(
        with: Data(cli.run("findings", String(session), "--json").output.utf8)) as? [String: Any])
    let verdicts = (json["requirements"] as? [[String: Any]] ?? []).filter {
      $0["id"] as? String == "O.Ntwk_2"
    }
    XCTAssertEqual(verdicts.map { $0["verdict"] as? String }, ["contradicted"])

    // Kept whole: the file's bytes with their SHA-256, read and judged again.
    let store = try FlowStore(directory: URL(fileURLWithPath: cli.storePath))
    let kept = try store.serverScans(ofSession: session)
    XCTAssertEqual(kept.count, 1)
    let file = cli.directory.url.appendingPathComponent("kept.json")
    try kept[0].output.write(to: file)
    let sum = try XCTUnwrap(ExternalTool.run("sha256sum", [file.path]))
    XCTAssertEqual(kept[0].sha256, String(sum.output.prefix(64)))
    let list = cli.run("scan", String(session), "--list")
    XCTAssertEqual(list.status, 0, list.error)
    XCTAssertEqual(list.output, scan.output.components(separatedBy: "1 of 1 server").first)

    // A scan made elsewhere is read the same way; a file that is not one is refused, unkept.
    let again = cli.run("scan", String(session), "--from", file.path)
    XCTAssertEqual(again.status, 0, again.error)
    XCTAssertFalse(again.error.contains("Note:"), "the session's own server: \(again.error)")
    let recommended = cli.run("scan", String(session), "--from", Self.recommended.path)
    XCTAssertEqual(recommended.status, 0, recommended.error)
    XCTAssertTrue(
      recommended.output.contains(
        "  Offers only versions from TLS 1.2 on and only suites BSI TR-02102-2 (2025-01) recommends."
      ), recommended.output)
    XCTAssertEqual(try store.serverScans(ofSession: session).count, 3)
    let text = cli.directory.url.appendingPathComponent("notes.json")
    try Data("{\"scan\": true}".utf8).write(to: text)
    let refused = cli.run("scan", String(session), "--from", text.path)
    XCTAssertEqual(refused.status, 1)
    XCTAssertTrue(
      refused.error.contains("is not read as testssl.sh's or sslyze's JSON: it is neither"),
      refused.error)
    XCTAssertEqual(try store.serverScans(ofSession: session).count, 3)
    try checkTheBundleCarriesTheScans(cli, session: session, kept: kept[0])
  }

  /// The bundle carries each scan whole, session.json names it, the report judges it; a scan
  /// changed with the manifest recomputed is caught.
  func checkTheBundleCarriesTheScans(_ cli: CLIHarness, session: Int64, kept: StoredServerScan)
    throws
  {
    let bundle = cli.directory.url.appendingPathComponent("b.zip").path
    let export = cli.run("export", String(session), "-o", bundle, "--at", "2026-10-09T10:00:00Z")
    XCTAssertEqual(export.status, 0, export.error)
    let carried = try XCTUnwrap(
      ExternalTool.run("sh", ["-c", "unzip -p '\(bundle)' server-scan-1.json | sha256sum"]))
    XCTAssertEqual(String(carried.output.prefix(64)), kept.sha256)
    let sessionJSON = try XCTUnwrap(ExternalTool.run("unzip", ["-p", bundle, "session.json"]))
    let listed = try XCTUnwrap(
      (try JSONSerialization.jsonObject(with: Data(sessionJSON.output.utf8)) as? [String: Any])?[
        "serverScans"] as? [[String: Any]])
    XCTAssertEqual(
      listed.map { $0["file"] as? String },
      ["server-scan-1.json", "server-scan-2.json", "server-scan-3.json"])
    let verified = cli.run("verify", bundle)
    XCTAssertEqual(verified.status, 0, verified.output)
    let text = try BundleReportText.of(bundle: bundle, scratch: cli.directory.url)
    XCTAssertTrue(text.contains("Server configuration"), text)
    XCTAssertTrue(text.contains("TLS 1.0 offered: below the catalogue's TLS minimum"), text)

    let tampered = cli.directory.url.appendingPathComponent("t.zip").path
    let rebuild = """
      import sys, zipfile, json, hashlib
      src, dst = sys.argv[1], sys.argv[2]
      entries = [(i, zipfile.ZipFile(src).read(i.filename)) for i in zipfile.ZipFile(src).infolist()]
      files = dict((i.filename, d) for i, d in entries)
      files["server-scan-1.json"] = files["server-scan-1.json"].replace(b"TLS1_1", b"TLS1_9", 1)
      manifest = json.loads(files["manifest.json"])
      for f in manifest["files"]:
          f["byteCount"] = len(files[f["name"]]); f["sha256"] = hashlib.sha256(files[f["name"]]).hexdigest()
      files["manifest.json"] = (json.dumps(manifest, indent=2) + "\\n").encode()
      with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as out:
          for i, _ in entries: out.writestr(i.filename, files[i.filename])
      """
    let rebuilt = try XCTUnwrap(ExternalTool.run("python3", ["-c", rebuild, bundle, tampered]))
    XCTAssertEqual(rebuilt.status, 0, rebuilt.error)
    let verify = cli.run("verify", tampered)
    XCTAssertNotEqual(verify.status, 0)
    XCTAssertTrue(
      verify.output.contains(
        "server-scan-1.json is not the scan session.json names: its SHA-256 differs"),
      verify.output)
  }

  /// A server that accepts and never answers: the scan is stopped at its time limit, and at
  /// Ctrl-C, each time with nothing kept, testssl.sh and its openssl children ended with it.
  func testAServerThatNeverAnswersIsGivenUpAtItsLimitAndAtCtrlCNothingIsKept() throws {
    try requireTestsslAndRoot()
    let cli = CLIHarness()
    let ns = try NetworkNamespace("scan-silent")
    let silent = try ns.start([
      "python3", "-c",
      "import socket, time\ns = socket.socket()\ns.bind(('127.0.0.1', \(Self.port)))\ns.listen(8)\nheld = []\nwhile True:\n    held.append(s.accept())",
    ])
    defer { silent.end(SIGTERM) }
    try silent.waitForListening(on: Self.port)
    let store = try FlowStore(directory: URL(fileURLWithPath: cli.storePath))
    let project = try store.createAuditProject(
      AuditProjectDraft(
        name: "Silent",
        allowlist: [AllowlistEntry(pattern: try DomainPattern(parsing: "silent.test"))]),
      at: FlowFixture.at(0))
    let session = try store.startAuditSession(
      FlowFixture.sessionDraft(project: project.id), at: FlowFixture.at(1))
    var flow = FlowFixture.tcp(
      port: Self.port, at: 2, sni: "silent.test", serverAddress: "127.0.0.1")
    flow.captureSessionID = try store.beginCaptureSession(at: FlowFixture.at(1))
    flow.packetCount = 0
    try store.upsertFlow(flow)
    _ = try store.endAuditSession(id: session.id, at: FlowFixture.at(10))
    let binary = try TunnelVisionExecutable.url().path

    let limited = try ns.run([
      binary, "--store", cli.storePath, "scan", String(session.id), "--timeout", "2",
    ])
    XCTAssertEqual(limited.status, 1, limited.output + limited.error)
    XCTAssertTrue(
      limited.error.contains(
        "silent.test (127.0.0.1:\(Self.port)): not finished after 2 s, stopped; nothing kept for it"
      ),
      limited.error)
    XCTAssertTrue(limited.error.contains("0 of 1 server scanned and kept."), limited.error)

    let running = try ns.start([binary, "--store", cli.storePath, "scan", String(session.id)])
    try running.waitForOutput(containing: "Scanning silent.test")
    try Readiness.wait("testssl.sh running") { Self.testsslProcesses().count > 0 }
    let stopped = running.end(SIGINT)
    XCTAssertEqual(stopped.status, 1, stopped.output + stopped.error)
    XCTAssertTrue(
      stopped.error.contains("0 of 1 server scanned and kept; stopped at Ctrl-C"), stopped.error)
    try Readiness.wait("testssl.sh and its children ended", timeout: 10) {
      Self.testsslProcesses().isEmpty
    }
    XCTAssertEqual(try store.serverScans(ofSession: session.id).count, 0)
  }

  /// The processes whose command line names this test's silent server: testssl.sh's own and
  /// the openssl it runs. testssl.sh's names the scan's report under a tunnelvision-scan
  /// directory: it is told from the scan command by the program run, not by that word (matching
  /// the word left only the openssl children, which a loaded machine's testssl.sh took over 20 s
  /// to reach).
  static func testsslProcesses() -> [String] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.filter { Int32($0) != nil }.compactMap { pid in
      guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else {
        return nil
      }
      let program = String(decoding: data.prefix { $0 != 0 }, as: UTF8.self)
      let line = String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
      guard line.contains("silent.test"), (program as NSString).lastPathComponent != "tunnelvision"
      else { return nil }
      return line
    }
  }

  /// `compare` names a server scanned in both sessions whose later scan is judged otherwise:
  /// the later session's server offering TLS 1.0 as well (the real scan of a server offering
  /// only what the tables list, its TLS 1.0 line changed to "offered").
  func testCompareNamesAServerWhoseLaterScanOffersWhatTheEarlierDidNot() throws {
    let cli = CLIHarness()
    XCTAssertEqual(cli.run("sample").status, 0)
    let recommended = try Data(contentsOf: Self.recommended)
    let text = String(decoding: recommended, as: UTF8.self)
    let marker =
      "\"id\"           : \"TLS1\",\n                                \"severity\"     : \"INFO\",\n                                \"finding\"      : \"not offered\""
    XCTAssertTrue(text.contains(marker))
    let worse = cli.directory.url.appendingPathComponent("worse.json")
    try Data(
      text.replacingOccurrences(
        of: marker,
        with: marker.replacingOccurrences(of: "not offered", with: "offered (deprecated)")
      ).utf8
    ).write(to: worse)

    let elsewhere = cli.run("scan", "3", "--from", worse.path)
    XCTAssertEqual(elsewhere.status, 0, elsewhere.error)
    XCTAssertTrue(
      elsewhere.error.contains(
        "Note: modern.test (127.0.0.1:18445) is not a server session 3's connections reached"),
      elsewhere.error)
    let one = cli.run("compare", "2", "3")
    XCTAssertEqual(one.status, 0, one.error)
    XCTAssertTrue(
      one.output.contains(
        "Server configuration\n  Only the later session has server scans: nothing to compare."),
      one.output)
    XCTAssertEqual(cli.run("scan", "2", "--from", Self.recommended.path).status, 0)
    let both = cli.run("compare", "2", "3")
    XCTAssertTrue(
      both.output.contains(
        "  modern.test:18445\n    now: TLS 1.0 offered: below the catalogue's TLS minimum, TLS 1.2"),
      both.output)
    let json = cli.run("compare", "3", "2", "--json")
    XCTAssertTrue(json.output.contains("now: TLS 1.0 offered"), json.output)
  }

  func testWithoutAnAllowlistNothingIsScannedAndItSaysHowToNameHosts() throws {
    let cli = CLIHarness()
    XCTAssertEqual(cli.run("sample").status, 0)
    let project = cli.run("project", "new", "Bare")
    XCTAssertEqual(project.status, 0, project.error)
    let start = cli.run("session", "start", "Bare", "--version", "1", "--build", "1")
    XCTAssertEqual(start.status, 0, start.error)
    XCTAssertEqual(cli.run("session", "end", advancing: 5).status, 0)
    let sessions = cli.run("session", "list", "Bare", "--json")
    let id = try XCTUnwrap(
      (try JSONSerialization.jsonObject(with: Data(sessions.output.utf8)) as? [[String: Any]])?
        .first?["id"] as? Int)
    let scan = cli.run("scan", String(id))
    XCTAssertEqual(scan.status, 1)
    XCTAssertTrue(scan.error.contains("The project's allowlist is empty"), scan.error)
    XCTAssertTrue(scan.error.contains("--host"), scan.error)
  }
}
