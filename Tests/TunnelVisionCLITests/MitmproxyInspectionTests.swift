import Foundation
import TestSupport
import XCTest

/// A real mitmdump with the addon, in a network namespace of the test's own (its hosts file lets
/// the proxy resolve the test's names to its loopback), an upstream TLS server, and three real
/// clients through the proxy: one trusting the proxy's CA and sending a request, one not trusting
/// it, one trusting it and closing after the handshake (curl --pinnedpubkey). The capture of the
/// device leg, joined to the log, gives each its outcome.
final class MitmproxyInspectionTests: XCTestCase {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static let mitmdump = root.appendingPathComponent(".venv/bin/mitmdump").path

  func requireMitmdump() throws { try Self.requireMitmdump() }

  static func requireMitmdump() throws {
    guard FileManager.default.isExecutableFile(atPath: Self.mitmdump) else {
      if ProcessInfo.processInfo.environment["CI"] == "true" {
        XCTFail("CI installs mitmproxy into .venv (scripts/setup.sh): it must be tested there")
      }
      throw XCTSkip("mitmproxy is not installed in .venv (make test installs it)")
    }
  }

  static let names = [
    "api.example-health.de", "refuse.example-health.de", "pinned.example-health.de",
  ]

  /// The upstream server's certificate for `names`, and the addon, written into `path`.
  static func certificateAndAddon(_ path: String, binary: URL, names: [String]) throws {
    XCTAssertEqual(
      try ExternalTool.run(
        "openssl",
        [
          "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", path + "/up.key", "-out",
          path + "/up.pem", "-days", "2", "-subj", "/CN=\(names[0])", "-addext",
          "subjectAltName=" + names.map { "DNS:" + $0 }.joined(separator: ","),
        ])?.status, 0)
    XCTAssertEqual(
      try ExternalTool.run(binary.path, ["mitmproxy-addon", "-o", path + "/addon.py"])?.status, 0)
  }

  /// The upstream TLS server on `accept` and mitmdump with the addon (`proxy`: its mode and
  /// listening arguments, `proxyPort` the port it listens on), both run in `namespace`; returned
  /// once both listen, with the path of the proxy's CA.
  func serverAndProxy(
    _ path: String, in namespace: NetworkNamespace, accept: String, proxy: [String],
    proxyPort: UInt16
  ) throws -> (RunningProcess, RunningProcess, String) {
    let server = try namespace.start([
      "openssl", "s_server", "-accept", accept, "-cert", path + "/up.pem", "-key",
      path + "/up.key", "-www", "-quiet",
    ])
    let mitmdump = try namespace.start(
      [Self.mitmdump] + proxy + [
        "--set", "confdir=\(path)/mitmproxy", "--ssl-insecure", "-s", path + "/addon.py", "--set",
        "tunnelvision_log=\(path)/inspection.jsonl", "-q",
      ])
    try server.waitForListening(on: try XCTUnwrap(UInt16(accept.split(separator: ":").last ?? "")))
    try mitmdump.waitForListening(on: proxyPort)
    return (server, mitmdump, path + "/mitmproxy/mitmproxy-ca-cert.pem")
  }

  /// The scene: the namespace, the upstream server and the proxy with the addon; `capture`
  /// (started inside the namespace) once they listen, then `started`, the three clients, and the
  /// capture ended with SIGINT once the proxy has logged them and the capture holds their ends:
  /// its result.
  func throughTheProxy(
    _ path: String, binary: URL, capture: (NetworkNamespace) throws -> LabCapture,
    started: () throws -> Void = {}
  ) throws -> (status: Int32, output: String, error: String) {
    let names = Self.names
    let ns = try NetworkNamespace(
      "tv-inspect", hosts: "127.0.0.1 localhost " + names.joined(separator: " ") + "\n")
    try Self.certificateAndAddon(path, binary: binary, names: names)
    let ip = try XCTUnwrap(ExternalTool.which("ip"))
    let (upstream, proxy, ca) = try serverAndProxy(
      path, in: ns, accept: "127.0.0.1:47445",
      proxy: ["--listen-host", "127.0.0.1", "-p", "47480"], proxyPort: 47480)
    defer {
      upstream.end(SIGTERM)
      proxy.end(SIGTERM)
    }
    let capturing = try capture(ns)
    try started()

    func curl(_ arguments: [String]) throws -> Int32 {
      try XCTUnwrap(
        ExternalTool.run(
          ip,
          ns.exec(
            [
              "curl", "-s", "-o", "/dev/null", "--max-time", "10", "--proxy",
              "http://127.0.0.1:47480",
            ] + arguments))
      ).status
    }
    XCTAssertEqual(try curl(["--cacert", ca, "https://api.example-health.de:47445/"]), 0)
    XCTAssertEqual(try curl(["https://refuse.example-health.de:47445/"]), 60, "unknown CA")
    XCTAssertEqual(
      try curl([
        "--cacert", ca, "--pinnedpubkey", "sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
        "https://pinned.example-health.de:47445/",
      ]), 90, "the pin fails after the handshake")
    try Readiness.waitForLines(
      3, containing: Readiness.connectionLine, in: path + "/inspection.jsonl")
    return try capturing.end(afterClosing: 3)
  }

  func testMitmproxysOutcomesBecomeThePinningFindings() throws {
    try requireRoot("a network namespace for the proxy")
    try requireMitmdump()
    let binary = try TunnelVisionExecutable.url()
    let dir = TemporaryDirectory("mitmproxy")
    let path = dir.url.path
    let store = path + "/store"
    func tv(_ words: String...) throws -> (status: Int32, output: String, error: String) {
      try XCTUnwrap(ExternalTool.run(binary.path, words + ["--store", store]))
    }
    let names = Self.names
    _ = try throughTheProxy(path, binary: binary) {
      try LabCapture.tcpdump(in: $0, to: path + "/device.pcap", filter: "tcp port 47480")
    }

    XCTAssertEqual(try tv("project", "new", "P", "--allow", "*.example-health.de").status, 0)
    let imported = try tv(
      "import", path + "/device.pcap", "--project", "P", "--version", "1", "--build", "1",
      "--inspection-log", path + "/inspection.jsonl", "--ca-trusted")
    XCTAssertEqual(imported.status, 0, imported.error)
    XCTAssertTrue(
      imported.output.contains(
        "Inspection log: 3 lines joined to a connection, of 3; 1 accepted the proxy's certificate, 1 refused it, 1 closed after the handshake without a request."
      ), imported.output)

    let findings = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(try tv("findings", "1", "--json").output.utf8))
        as? [String: Any])
    let list = try XCTUnwrap(findings["findings"] as? [[String: Any]])
    let byKind = Dictionary(grouping: list) { $0["kind"] as? String ?? "" }
    XCTAssertEqual(byKind["pinningAbsent"]?.compactMap { $0["host"] as? String }, [names[0]])
    XCTAssertEqual(byKind["pinningObserved"]?.compactMap { $0["host"] as? String }, [names[1]])
    XCTAssertNil(byKind["cleartextTraffic"], "a CONNECT is not cleartext: \(list)")
    XCTAssertNil(byKind["unnamedFlow"], "each CONNECT names its host: \(list)")
    let requirements = try XCTUnwrap(findings["requirements"] as? [[String: Any]])
    let pinning = try XCTUnwrap(requirements.first { $0["id"] as? String == "O.Ntwk_4" })
    XCTAssertEqual(pinning["verdict"] as? String, "contradicted", "\(pinning)")

    // The flows: each named by its CONNECT and its SNI, its status the proxy's outcome, the
    // server's answer the real server's to the proxy.
    let bundle = path + "/bundle.zip"
    XCTAssertEqual(try tv("export", "1", "-o", bundle).status, 0)
    let flows = try XCTUnwrap(
      (JSONSerialization.jsonObject(
        with: Data(
          try XCTUnwrap(ExternalTool.run("unzip", ["-p", bundle, "flows.json"])).output.utf8))
        as? [String: Any])?["flows"] as? [[String: Any]])
    let status = Dictionary(
      uniqueKeysWithValues: flows.map {
        ($0["connectHost"] as? String ?? "", $0["tlsStatus"] as? String ?? "")
      })
    XCTAssertEqual(
      status,
      [names[0]: "inspected", names[1]: "notInspectable", names[2]: "closedAfterHandshake"])
    for flow in flows {
      XCTAssertEqual(flow["sni"] as? String, flow["connectHost"] as? String)
      XCTAssertEqual(flow["streamOpening"] as? String, "httpConnect")
      let server = try XCTUnwrap(flow["serverTLS"] as? [String: Any])
      XCTAssertEqual(server["source"] as? String, "upstreamConnection")
      XCTAssertEqual(server["version"] as? String, "TLS 1.3")
    }
    let findingsJSON = try XCTUnwrap(ExternalTool.run("unzip", ["-p", bundle, "findings.json"]))
      .output
    XCTAssertTrue(findingsJSON.contains("closedAfterHandshake"), findingsJSON)
    let report = try XCTUnwrap(
      ExternalTool.run("sh", ["-c", "unzip -p \"$0\" report.pdf | pdftotext - -", bundle]))
    // The report says why the third is not assessed, and that the log showed it.
    let text = report.output.replacingOccurrences(of: "\n", with: " ")
    XCTAssertTrue(text.contains("then closed without sending a request"), text)
    XCTAssertTrue(text.contains("1 completed the handshake and closed without a request"), text)
    XCTAssertEqual(try tv("verify", bundle).status, 0)

    // The import kept what the proxy said of itself: the test log names its version.
    let session = try XCTUnwrap(ExternalTool.run("unzip", ["-p", bundle, "session.json"])).output
    let root = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(session.utf8)) as? [String: Any])
    let tools = try XCTUnwrap(
      (root["testLog"] as? [String: Any])?["tools"] as? [[String: Any]])
    let proxy = try XCTUnwrap(tools.first { $0["stage"] as? String == "inspection" }, "\(tools)")
    let stated = try XCTUnwrap(ExternalTool.run(Self.mitmdump, ["--version"])).output
    XCTAssertEqual(
      "Mitmproxy: \(try XCTUnwrap(proxy["version"] as? String))",
      stated.split(separator: "\n").first.map(String.init))
    XCTAssertEqual(proxy["tool"] as? String, "mitmproxy")
  }

  func testTheAddonIsPythonAndABadLogIsRefusedByItsLine() throws {
    let binary = try TunnelVisionExecutable.url()
    let dir = TemporaryDirectory("addon")
    let path = dir.url.path
    let store = path + "/store"
    func tv(_ words: String...) throws -> (status: Int32, output: String, error: String) {
      try XCTUnwrap(ExternalTool.run(binary.path, words + ["--store", store]))
    }
    XCTAssertEqual(try tv("mitmproxy-addon", "-o", path + "/addon.py").status, 0)
    let compiled = try XCTUnwrap(
      ExternalTool.run(
        "python3",
        [
          "-c",
          "import ast,sys; t=open(sys.argv[1]).read(); ast.parse(t); print('FORMAT = 2' in t)",
          path + "/addon.py",
        ]))
    XCTAssertEqual(compiled.output, "True\n", compiled.error)
    XCTAssertEqual(try tv("mitmproxy-addon", "-o", path + "/addon.py").status, 1, "no --force")

    XCTAssertEqual(try tv("project", "new", "P").status, 0)
    let capture = RecordCommandTests.realCapture.path
    let alone = try tv(
      "import", capture, "--project", "P", "--baseline", "--ca-trusted")
    XCTAssertEqual(alone.status, 2)
    XCTAssertTrue(alone.error.contains("give --inspection-log too"), alone.error)
    try "{\"format\": 1}\nnot json\n".write(
      toFile: path + "/bad.jsonl", atomically: true, encoding: .utf8)
    let bad = try tv(
      "import", capture, "--project", "P", "--baseline", "--inspection-log", path + "/bad.jsonl")
    XCTAssertEqual(bad.status, 1)
    XCTAssertTrue(
      bad.error.contains(
        "bad.jsonl cannot be read: line 1: it has no start. Nothing was imported."),
      bad.error)
    XCTAssertTrue(try tv("session", "list", "P").output.contains("no sessions yet"))
  }

  func testARecordingFollowsTheLogAsItGrows() throws {
    try requireRoot("a network namespace for the proxy")
    try requireMitmdump()
    let binary = try TunnelVisionExecutable.url()
    let dir = TemporaryDirectory("mitmproxy-record")
    let path = dir.url.path
    let store = path + "/store"
    func tv(_ words: String...) throws -> (status: Int32, output: String, error: String) {
      try XCTUnwrap(ExternalTool.run(binary.path, words + ["--store", store]))
    }
    XCTAssertEqual(try tv("project", "new", "P", "--allow", "*.example-health.de").status, 0)
    let recorder: (NetworkNamespace) throws -> LabCapture = {
      try LabCapture.recorder(
        in: $0, binary: binary,
        [
          "--interface", "lo", "--filter", "tcp port 47480", "--inspection-log",
          path + "/inspection.jsonl", "--quiet", "--json",
        ], store: store)
    }
    let recorded = try throughTheProxy(path, binary: binary, capture: recorder) {
      let start = try tv(
        "session", "start", "P", "--version", "1", "--build", "1", "--inspection", "--ca-trusted")
      XCTAssertTrue(start.output.contains("Recording on lo"), start.output)
    }
    XCTAssertEqual(recorded.status, 0, recorded.error)
    let summary = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(recorded.output.utf8)) as? [String: Any])
    let log = try XCTUnwrap(summary["inspection"] as? [String: Int], "\(summary)")
    XCTAssertEqual(log["joined"], 3, "\(log)")
    XCTAssertEqual(
      [log["accepted"], log["refused"], log["closedAfterHandshake"]], [1, 1, 1], "\(log)")
    XCTAssertEqual(try tv("session", "end").status, 0)
    let findings = try tv("findings", "1", "--json").output
    let list = try XCTUnwrap(
      (JSONSerialization.jsonObject(with: Data(findings.utf8)) as? [String: Any])?["findings"]
        as? [[String: Any]])
    XCTAssertEqual(
      list.filter { $0["kind"] as? String == "pinningAbsent" }.compactMap { $0["host"] as? String },
      [Self.names[0]])
    XCTAssertEqual(
      list.filter { $0["kind"] as? String == "pinningObserved" }.compactMap {
        $0["host"] as? String
      },
      [Self.names[1]])
    let shown = try tv("session", "show", "1").output
    XCTAssertTrue(shown.contains("are read from"), shown)
    XCTAssertFalse(shown.contains("joined as its lines"), "never says joined of what it has not")
    try assertTestLogNamesTheChain(path: path, tv: tv)
  }

  /// The bundle's test log names the proxy's and libpcap's versions as the tools themselves
  /// state them (`mitmdump --version`, `tcpdump --version`), the filter and the options.
  func assertTestLogNamesTheChain(
    path: String, tv: (String...) throws -> (status: Int32, output: String, error: String)
  ) throws {
    let bundle = path + "/bundle.zip"
    XCTAssertEqual(try tv("export", "1", "-o", bundle).status, 0)
    let session = try XCTUnwrap(ExternalTool.run("unzip", ["-p", bundle, "session.json"])).output
    let root = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(session.utf8)) as? [String: Any])
    let log = try XCTUnwrap(root["testLog"] as? [String: Any])
    let tools = try XCTUnwrap(log["tools"] as? [[String: Any]])
    let proxy = try XCTUnwrap(tools.first { $0["tool"] as? String == "mitmproxy" }, "\(tools)")
    let stated = try XCTUnwrap(ExternalTool.run(Self.mitmdump, ["--version"])).output
    XCTAssertEqual(
      "Mitmproxy: \(try XCTUnwrap(proxy["version"] as? String))",
      stated.split(separator: "\n").first.map(String.init))
    let options = try XCTUnwrap(proxy["options"] as? [String: Any])
    XCTAssertEqual(options["tunnelvision_log"] as? String, path + "/inspection.jsonl")
    let pcap = try XCTUnwrap(tools.first { $0["tool"] as? String == "libpcap" })
    if let tcpdump = ExternalTool.which("tcpdump") {
      let version = try XCTUnwrap(ExternalTool.run(tcpdump, ["--version"]))
      XCTAssertTrue(
        (version.output + version.error).contains(try XCTUnwrap(pcap["version"] as? String)),
        "\(pcap) against \(version)")
    }
    let steps = try XCTUnwrap(log["steps"] as? [[String: Any]])
    let started = try XCTUnwrap(steps.first { $0["step"] as? String == "recorderStarted" })
    XCTAssertTrue(
      (started["statement"] as? String ?? "").contains("the filter ‘tcp port 47480’"), "\(started)")
    let text = try XCTUnwrap(
      ExternalTool.run("sh", ["-c", "unzip -p \"$0\" report.pdf | pdftotext - -", bundle])
    ).output
    XCTAssertTrue(text.contains("Tools and versions"), text)
    XCTAssertTrue(text.contains(try XCTUnwrap(proxy["version"] as? String)), text)
  }

  /// Transparent mode: a phone's namespace routed through a router's, where port 443 is
  /// redirected to `mitmdump --mode transparent`; the capture on the router's side of the link
  /// sees phone ↔ server, and the log's lines join it by the client and the server.
  func testATransparentProxysOutcomesJoinACaptureOfPhoneAndServer() throws {
    try requireRoot("network namespaces and iptables for a transparent proxy")
    try requireMitmdump()
    guard ExternalTool.which("iptables") != nil else {
      if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("CI installs iptables") }
      throw XCTSkip("iptables is not installed (make test installs it)")
    }
    let binary = try TunnelVisionExecutable.url()
    let dir = TemporaryDirectory("mitmproxy-transparent")
    let path = dir.url.path
    let store = path + "/store"
    func tv(_ words: String...) throws -> (status: Int32, output: String, error: String) {
      try XCTUnwrap(ExternalTool.run(binary.path, words + ["--store", store]))
    }
    let ip = try XCTUnwrap(ExternalTool.which("ip"))
    let phoneNamespace = try NetworkNamespace("tvp")
    let routerNamespace = try NetworkNamespace("tvr")
    let (phone, router) = (phoneNamespace.name, routerNamespace.name)
    func run(_ arguments: [String]) throws {
      let r = try XCTUnwrap(ExternalTool.run(arguments[0], Array(arguments.dropFirst())))
      XCTAssertEqual(r.status, 0, "\(arguments): \(r.error)")
    }
    // Interface names are at most 15 bytes, and unique in the machine while they live.
    let (a, b) = ("tvt0-\(getpid() % 100000)", "tvt1-\(getpid() % 100000)")
    for step in [
      [ip, "link", "add", a, "type", "veth", "peer", "name", b],
      [ip, "link", "set", a, "netns", phone], [ip, "link", "set", b, "netns", router],
      [ip, "-n", phone, "addr", "add", "10.99.1.2/24", "dev", a],
      [ip, "-n", router, "addr", "add", "10.99.1.1/24", "dev", b],
      [ip, "-n", router, "addr", "add", "10.99.2.1/32", "dev", "lo"],
      [ip, "-n", phone, "link", "set", a, "up"], [ip, "-n", router, "link", "set", b, "up"],
      [ip, "-n", phone, "route", "add", "default", "via", "10.99.1.1"],
      [ip, "netns", "exec", router, "sysctl", "-qw", "net.ipv4.ip_forward=1"],
      [
        ip, "netns", "exec", router, "iptables", "-t", "nat", "-A", "PREROUTING", "-i", b, "-p",
        "tcp", "--dport", "443", "-j", "REDIRECT", "--to-port", "8080",
      ],
    ] { try run(step) }
    try Self.certificateAndAddon(path, binary: binary, names: ["api.example-health.de"])
    let (server, proxy, ca) = try serverAndProxy(
      path, in: routerNamespace, accept: "10.99.2.1:443",
      proxy: ["--mode", "transparent", "--listen-host", "0.0.0.0", "-p", "8080"], proxyPort: 8080)
    defer {
      server.end(SIGTERM)
      proxy.end(SIGTERM)
    }
    let capture = try LabCapture.tcpdump(
      in: routerNamespace, interface: b, to: path + "/phone.pcap", filter: "tcp port 443")
    func curl(_ arguments: [String]) throws -> Int32 {
      try XCTUnwrap(
        ExternalTool.run(
          ip,
          [
            "netns", "exec", phone, "curl", "-s", "-o", "/dev/null", "--max-time", "10",
            "--resolve", "api.example-health.de:443:10.99.2.1",
          ] + arguments)
      ).status
    }
    XCTAssertEqual(try curl(["--cacert", ca, "https://api.example-health.de/"]), 0)
    XCTAssertEqual(try curl(["https://api.example-health.de/"]), 60)
    try Readiness.waitForLines(
      2, containing: Readiness.connectionLine, in: path + "/inspection.jsonl")
    try capture.end(afterClosing: 2)
    XCTAssertEqual(try tv("project", "new", "P", "--allow", "*.example-health.de").status, 0)
    let imported = try tv(
      "import", path + "/phone.pcap", "--project", "P", "--version", "1", "--build", "1",
      "--inspection-log", path + "/inspection.jsonl", "--ca-trusted")
    XCTAssertEqual(imported.status, 0, imported.error)
    XCTAssertTrue(
      imported.output.contains("Inspection log: 2 lines joined to a connection, of 2;"),
      imported.output)
    let findings = try XCTUnwrap(
      (JSONSerialization.jsonObject(with: Data(try tv("findings", "1", "--json").output.utf8))
        as? [String: Any])?["findings"] as? [[String: Any]])
    XCTAssertEqual(
      Set(findings.compactMap { $0["kind"] as? String }),
      ["pinningAbsent", "pinningObserved", "keyBelowMinimum", "signatureNotRecommended"])
    // The upstream server's certificate (RSA 2048), read from the proxy's log: the proxy's leg.
    let key = try XCTUnwrap(findings.first { $0["kind"] as? String == "keyBelowMinimum" })
    let parameter = try XCTUnwrap(key["parameter"] as? [String: Any])
    XCTAssertEqual(parameter["leg"] as? String, "proxyConnection")
    XCTAssertEqual((parameter["item"] as? [String: Any])?["bits"] as? Int, 2048)
  }
}
