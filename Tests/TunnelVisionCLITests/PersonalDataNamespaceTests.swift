import Audit
import AuditWording
import Foundation
import TestSupport
import XCTest

/// Two releases of an app, played by real clients (curl and Python) in a network namespace of the
/// test's own: through a real mitmdump with the addon to HTTPS servers in the namespace, and in
/// the clear straight to a plain HTTP server. What the test account's values did is found in the
/// proxy's log and in the capture, and nowhere else: what each request carried is written down by
/// the test as it builds the request, not read from the tool.
final class PersonalDataNamespaceTests: XCTestCase {
  static let backend = "api.example-health.de"
  static let tracker = "collect.tracker-lab.test"
  static let tlsPort: UInt16 = 47446
  static let plainPort: UInt16 = 47081
  static let proxyPort: UInt16 = 47481

  /// The test account, as planted with `project data`.
  static let values: [(label: String, value: String, category: String)] = [
    ("e-mail", "lea.tester@example.org", "contact"),
    ("diagnosis", "E11.9 Diabetes mellitus Typ 2", "health"),
    ("advertising ID", "38400000-8cf0-11bd-b23e-10b96e40000d", "device"),
    ("insurance number", "A123456780", "identifier"),
  ]
  static func value(_ label: String) -> String { values.first { $0.label == label }!.value }

  /// A request the test sends, and what it put in it of the test account's values: "label form
  /// place name", as exchanges.json states a match.
  struct Sent {
    let host: String
    let path: String
    let carries: Set<String>
  }

  /// Near misses of every value (one character off, a prefix): sent, and never found.
  static var nearMisses: String {
    [
      "email=" + "lea.tester@example.or", "mail2=lea.tester@exbmple.org",
      "dx=E11.9 Diabetes mellitus Typ 3", "ins=A12345678",
      "adid=38400000-8cf0-11bd-b23e-10b96e40000e",
    ].map { $0.replacingOccurrences(of: " ", with: "+").replacingOccurrences(of: "@", with: "%40") }
      .joined(separator: "&")
  }

  final class Scene {
    let ns: NetworkNamespace
    let path: String
    let ip: String
    let binary: URL
    var ca = ""
    var servers: [RunningProcess] = []

    init(path: String, binary: URL) throws {
      self.path = path
      self.binary = binary
      ip = try XCTUnwrap(ExternalTool.which("ip"))
      ns = try NetworkNamespace(
        "tv-content",
        hosts:
          "127.0.0.1 localhost \(PersonalDataNamespaceTests.backend) \(PersonalDataNamespaceTests.tracker)\n"
      )
      try MitmproxyInspectionTests.certificateAndAddon(
        path, binary: binary,
        names: [PersonalDataNamespaceTests.backend, PersonalDataNamespaceTests.tracker])
      let script = MitmproxyInspectionTests.root
        .appendingPathComponent("Tests/TunnelVisionCLITests/Traffic/backend.py").path
      let (tlsPort, plainPort) = (
        PersonalDataNamespaceTests.tlsPort, PersonalDataNamespaceTests.plainPort
      )
      let tls = try ns.start([
        "python3", script, "127.0.0.1", "\(tlsPort)", path + "/up.pem", path + "/up.key",
      ])
      let plain = try ns.start(["python3", script, "127.0.0.1", "\(plainPort)"])
      servers = [tls, plain]
      try tls.waitForListening(on: tlsPort)
      try plain.waitForListening(on: plainPort)
    }

    deinit { for server in servers { _ = server.end(SIGTERM) } }

    /// One release: mitmdump with its own log, tcpdump on the device's side of both the proxy and
    /// the plain server, `play` (the clients), then both ended once the log and the capture hold
    /// every connection's end.
    func release(_ name: String, connections: Int, exchanges: Int, play: () throws -> Void) throws {
      let log = "\(path)/\(name).jsonl"
      let (proxyPort, plainPort) = (
        PersonalDataNamespaceTests.proxyPort, PersonalDataNamespaceTests.plainPort
      )
      let proxy = try ns.start([
        MitmproxyInspectionTests.mitmdump, "--listen-host", "127.0.0.1", "-p", "\(proxyPort)",
        "--set", "confdir=\(path)/mitmproxy", "--set", "connection_strategy=lazy", "--ssl-insecure",
        "-s", path + "/addon.py", "--set", "tunnelvision_log=\(log)", "-q",
      ])
      defer { _ = proxy.end(SIGTERM) }
      try proxy.waitForListening(on: proxyPort)
      ca = path + "/mitmproxy/mitmproxy-ca-cert.pem"
      let capture = try LabCapture.tcpdump(
        in: ns, to: "\(path)/\(name).pcap",
        filter: "tcp port \(proxyPort) or tcp port \(plainPort)")
      try play()
      try Readiness.waitForLines(exchanges, containing: "\"type\": \"exchange\"", in: log)
      try Readiness.waitForLines(connections - 1, containing: Readiness.connectionLine, in: log)
      try capture.end(afterClosing: connections)
    }

    func curl(_ arguments: [String]) throws {
      let result = try XCTUnwrap(
        ExternalTool.run(
          ip,
          ns.exec(["curl", "-sS", "-o", "/dev/null", "--fail", "--max-time", "10"] + arguments)))
      XCTAssertEqual(result.status, 0, "curl \(arguments): \(result.error)")
    }

    func throughProxy(_ arguments: [String]) throws {
      try curl(
        ["--proxy", "http://127.0.0.1:\(PersonalDataNamespaceTests.proxyPort)", "--cacert", ca]
          + arguments)
    }

    func python(_ source: String, _ arguments: [String]) throws {
      let result = try XCTUnwrap(
        ExternalTool.run(ip, ns.exec(["python3", "-c", source] + arguments)))
      XCTAssertEqual(result.status, 0, result.error)
    }
  }

  func testTheTestAccountsValuesAreFoundWhereTheyWereSentAndNowhereElse() throws {
    try requireRoot("a network namespace for the proxy and the servers")
    try MitmproxyInspectionTests.requireMitmdump()
    let binary = try TunnelVisionExecutable.url()
    let dir = TemporaryDirectory("personal-data")
    let path = dir.url.path
    let store = path + "/store"
    func tv(_ words: String...) throws -> (status: Int32, output: String, error: String) {
      try XCTUnwrap(ExternalTool.run(binary.path, words + ["--store", store]))
    }
    let scene = try Scene(path: path, binary: binary)
    let (backend, tracker) = (Self.backend, Self.tracker)
    let https = { (host: String, rest: String) in "https://\(host):\(Self.tlsPort)\(rest)" }

    // Each release sends the diagnosis in the clear to the backend, and near misses to the tracker.
    var sent: [String: [Sent]] = [:]
    func common(_ release: String) throws {
      let diagnosis = #"{"diagnosis":"\#(Self.value("diagnosis"))","steps":8421}"#
      try scene.curl([
        "-H", "Content-Type: application/json", "--data-binary", diagnosis,
        "http://\(backend):\(Self.plainPort)/v1/records",
      ])
      sent[release, default: []].append(
        Sent(host: backend, path: "/v1/records", carries: ["diagnosis asIs body $.diagnosis"]))
      try scene.throughProxy(["--data-binary", Self.nearMisses, https(tracker, "/v1/near")])
      sent[release, default: []].append(Sent(host: tracker, path: "/v1/near", carries: []))
    }
    try scene.release("r1", connections: 2, exchanges: 1) { try common("r1") }

    var consent = Date()
    try scene.release("r2", connections: 5, exchanges: 4) {
      // Before consent: the e-mail in a gzip JSON body (Python), its SHA-256 in a query (curl).
      try scene.python(
        """
        import gzip, json, ssl, sys, urllib.request
        body = gzip.compress(json.dumps({"user": {"email": sys.argv[2]}, "event": "open"}).encode())
        request = urllib.request.Request(sys.argv[1], data=body, method="POST", headers={
            "Content-Type": "application/json", "Content-Encoding": "gzip"})
        opener = urllib.request.build_opener(
            urllib.request.ProxyHandler({"https": sys.argv[3]}),
            urllib.request.HTTPSHandler(context=ssl.create_default_context(cafile=sys.argv[4])))
        opener.open(request, timeout=10).read()
        """,
        [
          https(tracker, "/v1/events"), Self.value("e-mail"), "http://127.0.0.1:\(Self.proxyPort)",
          scene.ca,
        ])
      sent["r2", default: []].append(
        Sent(host: tracker, path: "/v1/events", carries: ["e-mail asIs body $.user.email"]))
      let uid = try XCTUnwrap(
        ExternalTool.run("sha256sum", [], input: Data(Self.value("e-mail").utf8))
      ).output.prefix(64)
      try scene.throughProxy([https(tracker, "/v1/pixel?ev=open&uid=\(uid)")])
      sent["r2", default: []].append(
        Sent(host: tracker, path: "/v1/pixel", carries: ["e-mail sha256 query uid"]))
      consent = Date()
      // After: the advertising ID base64 in a header over HTTP/2.
      let adid = Data(Self.value("advertising ID").utf8).base64EncodedString()
      try scene.throughProxy(["--http2", "-H", "X-Adid: \(adid)", https(tracker, "/v1/ads")])
      sent["r2", default: []].append(
        Sent(host: tracker, path: "/v1/ads", carries: ["advertising ID base64 header x-adid"]))
      try common("r2")
    }

    XCTAssertEqual(try tv("project", "new", "P", "--allow", "*.example-health.de").status, 0)
    for v in Self.values {
      let added = try tv("project", "data", "P", "add", v.label, v.value, "--category", v.category)
      XCTAssertEqual(added.status, 0, added.error)
    }
    for (release, extra) in [
      ("r1", [String]()), ("r2", ["--marker", "consent-given@\(Instant.rfc3339(consent))"]),
    ] {
      let imported = try XCTUnwrap(
        ExternalTool.run(
          binary.path,
          [
            "import", "\(path)/\(release).pcap", "--project", "P", "--version", release,
            "--build", "1", "--inspection-log", "\(path)/\(release).jsonl", "--ca-trusted",
            "--store", store,
          ] + extra))
      XCTAssertEqual(imported.status, 0, imported.error)
    }

    // Every exchange read, and what it sent: exactly what the test put in it.
    for (session, release) in [(1, "r1"), (2, "r2")] {
      let listed = try XCTUnwrap(
        JSONSerialization.jsonObject(
          with: Data(try tv("exchanges", "\(session)", "--json").output.utf8))
          as? [[String: Any]])
      var found: [String: Set<String>] = [:]
      for exchange in listed {
        let key = "\(exchange["host"] as? String ?? "") \(exchange["path"] as? String ?? "")"
        let matches = (exchange["matches"] as? [[String: Any]] ?? []).map { match in
          ["label", "form", "place", "name"].map { match[$0] as? String ?? "" }.joined(
            separator: " ")
        }
        found[key, default: []].formUnion(matches)
        XCTAssertNotNil(exchange["flowID"] as? Int, "joined to its connection: \(exchange)")
      }
      let expected = Dictionary(
        (sent[release] ?? []).map { ("\($0.host) \($0.path)", $0.carries) },
        uniquingKeysWith: { $0.union($1) })
      XCTAssertEqual(found, expected, "session \(session)")
      if release == "r2" {
        let byPath = Dictionary(
          listed.map { ($0["path"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(byPath["/v1/ads"]?["httpVersion"] as? String, "HTTP/2.0")
        let events = byPath["/v1/events"]?["request"] as? [String: Any]
        XCTAssertEqual(events?["encoding"] as? String, "gzip", "\(events ?? [:])")
        XCTAssertEqual(events?["decoding"] as? String, "decoded", "\(events ?? [:])")
      }
      let sources = listed.compactMap { $0["source"] as? String }
      XCTAssertEqual(
        sources.filter { $0 == "capture" }.count, 1, "the plaintext POST, from the capture")
    }

    // Findings: the e-mail before consent and to a third party, the advertising ID to a third
    // party after, the diagnosis in the clear to the backend; never the insurance number.
    let findings = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(try tv("findings", "2", "--json").output.utf8))
        as? [String: Any])
    let list = try XCTUnwrap(findings["findings"] as? [[String: Any]])
    let personal = Set(
      list.compactMap { f -> String? in
        guard let kind = f["kind"] as? String, kind.hasPrefix("personalData") else { return nil }
        let label = (f["testData"] as? [String: Any])?["label"] as? String ?? ""
        return "\(kind) \(label) \(f["host"] as? String ?? "")"
      })
    XCTAssertEqual(
      personal,
      [
        "personalDataBeforeConsent e-mail \(tracker)", "personalDataToThirdParty e-mail \(tracker)",
        "personalDataToThirdParty advertising ID \(tracker)",
        "personalDataInCleartext diagnosis \(backend)",
      ])
    let text = try tv("findings", "2").output
    XCTAssertFalse(text.contains("insurance number as"), "a value never sent is never found")
    let requirements = try XCTUnwrap(findings["requirements"] as? [[String: Any]])
    for id in ["O.Purp_3", "O.Purp_4", "O.Purp_8", "O.TrdP_6", "O.Ntwk_1"] {
      XCTAssertEqual(
        requirements.first { $0["id"] as? String == id }?["verdict"] as? String, "contradicted", id)
    }

    // compare: the later release sent the e-mail and the advertising ID to the tracker anew; the
    // diagnosis went to the backend in both.
    let compared = try tv("compare", "1", "2")
    XCTAssertEqual(compared.status, 0, compared.error)
    for label in ["e-mail", "advertising ID"] {
      XCTAssertTrue(
        compared.output.contains("The test account's \(label) now sent to \(tracker)."),
        compared.output)
    }
    XCTAssertFalse(compared.output.contains("diagnosis now sent"), compared.output)

    // The bundle, with and without the content: verify re-derives the matches either way.
    for withContent in [false, true] {
      let bundle = "\(path)/bundle-\(withContent).zip"
      let export = try XCTUnwrap(
        ExternalTool.run(
          binary.path,
          ["export", "2", "-o", bundle, "--store", store] + (withContent ? ["--with-content"] : []))
      )
      XCTAssertEqual(export.status, 0, export.error)
      // scripts/test-session-report.sh keeps this session's report to draw its pages.
      if !withContent, let keep = ProcessInfo.processInfo.environment["TUNNELVISION_KEEP_REPORT"] {
        let kept = try XCTUnwrap(
          ExternalTool.run("sh", ["-c", "unzip -p \"$0\" report.pdf > \"$1\"", bundle, keep]))
        XCTAssertEqual(kept.status, 0, kept.error)
      }
      let names = try XCTUnwrap(ExternalTool.run("unzip", ["-Z1", bundle])).output
      XCTAssertEqual(names.contains("content.har"), withContent, names)
      XCTAssertTrue(names.contains("exchanges.json"), names)
      let verified = try tv("verify", bundle)
      XCTAssertEqual(verified.status, 0, verified.output + verified.error)
      let page1 = try XCTUnwrap(
        ExternalTool.run(
          "sh", ["-c", "unzip -p \"$0\" report.pdf | pdftotext -f 1 -l 1 - -", bundle])
      ).output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
      // Four planted; three sent (e-mail, advertising ID, diagnosis), two of them to the tracker.
      XCTAssertTrue(
        page1.contains(ContentWording.summaryLine(planted: 4, seen: 3, toThirdParties: 2)), page1)
    }
  }
}
