import Foundation
import TestSupport
import XCTest

/// Real TLS servers (openssl s_server, one configuration each) and real clients (openssl
/// s_client), on the loopback of a namespace of the test's own, captured with tcpdump: what
/// import reads of each handshake equals what tshark reads, each parameter is judged as
/// TR-02102-2's tables say in the session's year (the capture shifted to 2024 and 2030 with
/// editcap), and each ClientHello's JA4 equals the ja4plus package's.
final class TLSParameterTests: XCTestCase {
  static let root = MitmproxyInspectionTests.root
  static let ja4plus = root.appendingPathComponent(".venv/bin/ja4plus").path

  /// One server: its port and name, its key, its s_server options and the client's.
  struct Server {
    let port: Int
    let name: String
    let key: String
    let options: [String]
    var client: [String] = []
    /// The kinds its connection is found for, in a session of 2026.
    let kinds: Set<String>
  }

  static let servers: [Server] = [
    Server(
      port: 47601, name: "a.lab.test", key: "rsa2048",
      options: ["-tls1_2", "-cipher", "AES128-SHA", "-no_etm"], client: ["-tls1_2"],
      kinds: [
        "cipherSuiteNotRecommended", "keyBelowMinimum", "signatureNotRecommended",
        "extensionMissing",
      ]),
    Server(
      port: 47602, name: "b.lab.test", key: "p256",
      options: ["-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-GCM-SHA256", "-groups", "P-256"],
      client: ["-tls1_2"], kinds: []),
    Server(
      port: 47603, name: "c.lab.test", key: "rsa3072",
      options: [
        "-tls1_2", "-cipher", "DHE-RSA-AES128-GCM-SHA256", "-dhparam", "dh2048.pem", "-sigalgs",
        "RSA+SHA256",
      ], client: ["-tls1_2", "-cipher", "DHE-RSA-AES128-GCM-SHA256@SECLEVEL=0"],
      kinds: ["signatureNotRecommended", "keyBelowMinimum"]),
    Server(
      port: 47604, name: "d.lab.test", key: "p256",
      options: ["-ciphersuites", "TLS_CHACHA20_POLY1305_SHA256", "-groups", "X25519"],
      kinds: ["cipherSuiteNotRecommended", "groupNotRecommended"]),
    Server(
      port: 47605, name: "e.lab.test", key: "bp256",
      options: [
        "-tls1_2", "-cipher", "ECDHE-ECDSA-AES256-GCM-SHA384", "-groups", "brainpoolP256r1",
      ], client: ["-tls1_2", "-groups", "brainpoolP256r1:P-256"], kinds: []),
    Server(
      port: 47606, name: "f.lab.test", key: "p384",
      options: [
        "-tls1_2", "-cipher", "ECDHE-ECDSA-AES256-GCM-SHA384", "-groups", "P-384", "-sigalgs",
        "ECDSA+SHA384",
      ], client: ["-tls1_2"], kinds: []),
    Server(
      port: 47607, name: "g.lab.test", key: "rsa3072",
      options: ["-ciphersuites", "TLS_AES_128_GCM_SHA256", "-groups", "P-256"], kinds: []),
    // A server that requires a client certificate (the client's own, trusted), and one that asks
    // for one and goes on without: mutual authentication read from the handshake.
    Server(
      port: 47608, name: "h.lab.test", key: "p256",
      options: [
        "-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-GCM-SHA256", "-groups", "P-256", "-Verify", "1",
        "-CAfile", "p256.pem",
      ], client: ["-tls1_2", "-cert", "p256.pem", "-key", "p256.key"], kinds: []),
    Server(
      port: 47609, name: "i.lab.test", key: "p256",
      options: [
        "-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-GCM-SHA256", "-groups", "P-256", "-verify", "1",
      ], client: ["-tls1_2"], kinds: []),
  ]
  static let ports = 47601...47609

  /// The keys, the DH group, each server in turn with its client, all captured: the capture.
  func lab(_ path: String) throws -> String {
    let ns = try NetworkNamespace("tv-tls")
    // The clients' own ports kept out of the servers' range (in this namespace only): a client
    // given 47606 had its server's Certificate read as one sent to the lab's server 47606.
    let ports = try ns.run([
      "sh", "-c", "echo 50000 60999 > /proc/sys/net/ipv4/ip_local_port_range",
    ])
    XCTAssertEqual(ports.status, 0, ports.error)
    let ip = try XCTUnwrap(ExternalTool.which("ip"))
    func openssl(_ arguments: [String]) throws {
      let result = try XCTUnwrap(ExternalTool.run("openssl", arguments))
      XCTAssertEqual(result.status, 0, result.error)
    }
    for (key, spec) in [
      ("rsa2048", ["rsa:2048"]), ("rsa3072", ["rsa:3072"]),
      ("p256", ["ec", "-pkeyopt", "ec_paramgen_curve:P-256"]),
      ("p384", ["ec", "-pkeyopt", "ec_paramgen_curve:P-384"]),
      ("bp256", ["ec", "-pkeyopt", "ec_paramgen_curve:brainpoolP256r1"]),
    ] {
      try openssl(
        ["req", "-x509", "-newkey"] + spec + [
          "-nodes", "-keyout", "\(path)/\(key).key", "-out", "\(path)/\(key).pem", "-days", "2",
          "-subj", "/CN=\(key).lab.test",
        ])
    }
    try openssl([
      "genpkey", "-genparam", "-algorithm", "DH", "-pkeyopt", "group:ffdhe2048", "-out",
      "\(path)/dh2048.pem",
    ])
    // The files an option names are the lab's.
    func inLab(_ word: String) -> String {
      word.hasSuffix(".pem") || word.hasSuffix(".key") ? path + "/" + word : word
    }
    let capture = path + "/lab.pcap"
    let tcpdump = try LabCapture.tcpdump(
      in: ns, to: capture, filter: "tcp portrange 47601-47609")
    for server in Self.servers {
      let running = try ns.start(
        [
          "openssl", "s_server", "-accept", "127.0.0.1:\(server.port)", "-cert",
          "\(path)/\(server.key).pem", "-key", "\(path)/\(server.key).key", "-www", "-quiet",
        ] + server.options.map(inLab))
      try running.waitForListening(on: UInt16(server.port))
      let client = try XCTUnwrap(
        ExternalTool.run(
          ip,
          ns.exec(
            [
              "timeout", "10", "openssl", "s_client", "-connect", "127.0.0.1:\(server.port)",
              "-servername", server.name, "-quiet",
            ] + server.client.map(inLab)), input: Data("GET / HTTP/1.0\r\n\r\n".utf8)))
      XCTAssertEqual(client.status, 0, "\(server.name): \(client.error)")
      running.end(SIGTERM)
    }
    XCTAssertEqual(try tcpdump.end(afterClosing: Self.servers.count).status, 0)
    return capture
  }

  /// A run of the binary against the test's store.
  struct Tool {
    let binary: URL
    let store: String
    @discardableResult
    func callAsFunction(_ words: String...) throws -> (status: Int32, output: String, error: String)
    {
      let result = try XCTUnwrap(ExternalTool.run(binary.path, ["--store", store] + words))
      XCTAssertEqual(result.status, 0, "\(words.joined(separator: " ")): \(result.error)")
      return result
    }

    /// The session's bundle, exported: its flows.json and findings.json.
    func documents(_ session: Int, in path: String) throws -> (
      flows: [[String: Any]], findings: [[String: Any]]
    ) {
      let zip = "\(path)/bundle-\(session).zip"
      try self("export", String(session), "-o", zip, "--force", "--no-report")
      func member(_ name: String) throws -> [String: Any] {
        let text = try XCTUnwrap(ExternalTool.run("unzip", ["-p", zip, name])).output
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
      }
      return (
        try XCTUnwrap(member("flows.json")["flows"] as? [[String: Any]]),
        try XCTUnwrap(member("findings.json")["findings"] as? [[String: Any]])
      )
    }
  }

  /// The server's port of a flow (the peer that is one of the lab's servers).
  static func serverPort(_ flow: [String: Any]) -> Int? {
    let ports = (flow["peers"] as? [[String: Any]] ?? []).compactMap { $0["port"] as? Int }
    return ports.first { Self.ports.contains($0) }
  }

  /// tshark's fields of the capture, by the server port of each handshake message's stream.
  func tshark(_ capture: String, _ filter: String, _ fields: [String]) throws -> [Int: [String]] {
    let result = try XCTUnwrap(
      ExternalTool.run(
        "tshark",
        // The lab's ports read as TLS outright, not left to tshark's guess at each stream.
        [
          "-r", capture, "-d", "tcp.port==\(Self.ports.lowerBound)-\(Self.ports.upperBound),tls",
          "-Y", filter, "-T", "fields", "-e", "tcp.srcport",
        ] + fields.flatMap { ["-e", $0] }))
    XCTAssertEqual(result.status, 0, result.error)
    var byPort: [Int: [String]] = [:]
    for line in result.output.split(separator: "\n") {
      let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      if let port = Int(cells[0]) { byPort[port] = Array(cells.dropFirst()) }
    }
    return byPort
  }

  func requireTools() throws {
    try requireRoot("tcpdump on a network namespace's loopback")
    for tool in ["tshark", "editcap", "openssl", "tcpdump"] where ExternalTool.which(tool) == nil {
      throw XCTSkip("\(tool) is not installed (make test installs it)")
    }
  }

  func testEachServersChoicesAreReadAsTsharkReadsThemAndJudgedAsTheTablesSayInTheSessionsYear()
    throws
  {
    try requireTools()
    let dir = TemporaryDirectory("tls-parameters")
    let path = dir.url.path
    let capture = try lab(path)
    let tv = Tool(binary: try TunnelVisionExecutable.url(), store: path + "/store")
    try tv("project", "new", "Lab")
    try tv(
      "import", capture, "--project", "Lab", "--version", "1", "--build", "1", "--device",
      "127.0.0.1")
    let (flows, findings) = try tv.documents(1, in: path)
    XCTAssertEqual(flows.count, Self.servers.count)

    // The readings, against tshark's of the same capture.
    let hello = try tshark(
      capture, "tls.handshake.type == 2",
      [
        "tls.handshake.ciphersuite", "tls.handshake.extensions_key_share_group",
        "tls.handshake.extension.type", "tls.handshake.comp_method",
      ])
    let exchange = try tshark(
      capture, "tls.handshake.type == 12",
      ["tls.handshake.server_named_curve", "tls.handshake.sig_hash_alg", "tls.handshake.p_len"])
    let certificate = try tshark(
      capture, "tls.handshake.type == 11", ["pkcs1.modulus", "pkcs1.namedCurve"])
    let curveBits = [
      "1.2.840.10045.3.1.7": 256, "1.3.132.0.34": 384, "1.3.36.3.3.2.8.1.1.7": 256,
    ]
    for flow in flows {
      let port = try XCTUnwrap(Self.serverPort(flow))
      let server = try XCTUnwrap(flow["serverTLS"] as? [String: Any])
      let read = try XCTUnwrap(hello[port], "tshark read no ServerHello from \(port)")
      XCTAssertEqual((server["cipherSuite"] as? String)?.lowercased(), read[0], "\(port)")
      let extensions = (server["extensions"] as? [Int] ?? []).map(String.init)
      XCTAssertEqual(extensions.joined(separator: ","), read[2], "\(port)")
      XCTAssertEqual((server["compressionMethod"] as? Int).map(String.init), read[3], "\(port)")
      if let group = Int(read[1]) {
        XCTAssertEqual(server["group"] as? Int, group, "\(port): the key_share group")
      }
      if let kx = exchange[port] {
        if let curve = Int(kx[0].dropFirst(2), radix: 16), kx[0].hasPrefix("0x") {
          XCTAssertEqual(server["group"] as? Int, curve, "\(port): the named curve")
        }
        // A CertificateRequest in the same packet lists its schemes after the key exchange's.
        XCTAssertEqual(
          (server["signatureScheme"] as? String)?.lowercased(),
          kx[1].split(separator: ",").first.map(String.init), "\(port): the signature")
        if let bytes = Int(kx[2]) {
          XCTAssertEqual(server["dhPrimeBits"] as? Int, bytes * 8, "\(port): the DH prime")
        }
      }
      let key = flow["serverKey"] as? [String: Any]
      if let cert = certificate[port] {
        if !cert[0].isEmpty {
          // The modulus as tshark prints it, its leading zero octet dropped.
          let digits = cert[0].replacingOccurrences(of: ":", with: "").drop { $0 == "0" }
          XCTAssertEqual(key?["algorithm"] as? String, "RSA")
          XCTAssertEqual(key?["bits"] as? Int, (digits.count + 1) / 2 * 8, "\(port): the modulus")
        } else {
          XCTAssertEqual(key?["algorithm"] as? String, "EC")
          XCTAssertEqual(key?["bits"] as? Int, curveBits[cert[1]], "\(port): the curve \(cert[1])")
        }
      } else {
        XCTAssertNil(key, "\(port): TLS 1.3 encrypts the certificate")
      }
    }

    // Whether the server asked for a client certificate and the client sent one, as tshark reads
    // the CertificateRequest and the client's Certificate message; TLS 1.3 encrypts both.
    let requested = try tshark(capture, "tls.handshake.type == 13", ["tls.handshake.type"])
    let sent = try tshark(
      capture, "tls.handshake.type == 11 && tcp.dstport >= 47601 && tcp.dstport <= 47609",
      ["tcp.dstport", "tls.handshake.certificates_length"])
    let sentByServer = Dictionary(
      sent.values.map { (Int($0[0]) ?? 0, (Int($0[1]) ?? 0) > 0) }, uniquingKeysWith: { a, _ in a })
    XCTAssertEqual(Set(requested.keys), [47608, 47609], "tshark: the servers that asked")
    XCTAssertEqual(sentByServer, [47608: true, 47609: false], "tshark: the clients' answers")
    for flow in flows {
      let port = try XCTUnwrap(Self.serverPort(flow))
      let expected: String? =
        switch port {
        case 47604, 47607: nil
        case 47608: "requestedSent"
        case 47609: "requestedNoneSent"
        default: "notRequested"
        }
      XCTAssertEqual(flow["clientAuthentication"] as? String, expected, "\(port)")
      XCTAssertTrue(flow.keys.contains("clientAuthentication"), "\(port)")
    }
    XCTAssertEqual(
      findings.filter { $0["kind"] as? String == "clientCertificateSent" }.map {
        $0["host"] as? String
      }, ["h.lab.test"])

    // The judgement in 2026: each server's kinds, and none "weak".
    XCTAssertEqual(kinds(findings), expected(year: 2026))
    let statements = findings.compactMap { $0["statement"] as? String }.joined(separator: " ")
    for word in ["weak", "insecure", "passed", "compliant"] {
      XCTAssertFalse(statements.lowercased().contains(word), word)
    }
    XCTAssertTrue(
      statements.contains(
        "TLS_RSA_WITH_AES_128_CBC_SHA (0x002F) is not among the cipher suites BSI TR-02102-2 (2025-01) recommends for TLS 1.2 (Tables 2, 3, 4)."
      ), statements)

    // The same capture in 2024, before the PKCS #1 signatures' year ended, and in 2030, after the
    // DHE suites' (2029).
    for (session, years) in [(2, -2), (3, 4)] {
      let shifted = "\(path)/lab\(years).pcap"
      let editcap = try XCTUnwrap(
        ExternalTool.run("editcap", ["-t", String(years * 365 * 86_400), capture, shifted]))
      XCTAssertEqual(editcap.status, 0, editcap.error)
      try tv(
        "import", shifted, "--project", "Lab", "--version", "1", "--build", "\(session)",
        "--device", "127.0.0.1")
      XCTAssertEqual(
        kinds(try tv.documents(session, in: path).findings), expected(year: 2026 + years),
        "\(2026 + years)")
    }

    // Each ClientHello's JA4 equals ja4plus's.
    let fingerprints = try ja4plus(capture)
    for flow in flows {
      let port = try XCTUnwrap(Self.serverPort(flow))
      XCTAssertEqual(
        (flow["clientTLS"] as? [String: Any])?["ja4"] as? String,
        fingerprints.first { $0.server == port }?.ja4, "\(port)")
    }
  }

  /// Each server's finding kinds, by its name.
  func kinds(_ findings: [[String: Any]]) -> [String: Set<String>] {
    var byHost: [String: Set<String>] = [:]
    for server in Self.servers { byHost[server.name] = [] }
    for finding in findings where finding["parameter"] is [String: Any] {
      guard let host = finding["host"] as? String, let kind = finding["kind"] as? String else {
        continue
      }
      byHost[host, default: []].insert(kind)
    }
    return byHost
  }

  func expected(year: Int) -> [String: Set<String>] {
    var byHost = Dictionary(uniqueKeysWithValues: Self.servers.map { ($0.name, $0.kinds) })
    if year <= 2025 {
      // rsa_pkcs1 signatures (the certificates', c's ServerKeyExchange) until 2025.
      byHost["a.lab.test"]?.remove("signatureNotRecommended")
      byHost["c.lab.test"]?.remove("signatureNotRecommended")
    }
    if year > 2029 { byHost["c.lab.test"]?.insert("cipherSuiteNotRecommended") }
    return byHost
  }

  /// ja4plus's fingerprints of a capture: each ClientHello's client end ("address|port"), server
  /// port and JA4.
  func ja4plus(_ capture: String) throws -> [(client: String, server: Int, ja4: String)] {
    try XCTUnwrap(try ja4plus([capture])[capture])
  }

  /// ja4plus's fingerprints of each capture, its `analyze` run on each in one Python process
  /// (loading scapy once takes longer than fingerprinting a capture).
  func ja4plus(_ captures: [String]) throws -> [String: [(
    client: String, server: Int, ja4: String
  )]] {
    guard FileManager.default.isExecutableFile(atPath: Self.ja4plus) else {
      if ProcessInfo.processInfo.environment["CI"] == "true" {
        XCTFail("CI installs ja4plus into .venv (scripts/setup.sh): it must be compared there")
      }
      throw XCTSkip("ja4plus is not installed in .venv (make test installs it)")
    }
    let driver = """
      import sys
      from ja4plus.cli import main
      for capture in sys.argv[1:]:
          print("# " + capture, flush=True)
          sys.argv = ["ja4plus", "analyze", capture, "--types", "ja4", "--format", "json"]
          try:
              main()
          except SystemExit as end:
              if end.code:
                  raise
          sys.stdout.flush()
      """
    let python = URL(fileURLWithPath: Self.ja4plus).deletingLastPathComponent()
      .appendingPathComponent("python3").path
    let result = try XCTUnwrap(ExternalTool.run(python, ["-c", driver] + captures))
    XCTAssertEqual(result.status, 0, result.error)
    var found: [String: [(client: String, server: Int, ja4: String)]] = [:]
    var current: String?
    for line in result.output.split(separator: "\n") {
      if line.hasPrefix("# ") {
        current = String(line.dropFirst(2))
        found[current!] = []
        continue
      }
      guard let current,
        let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        let ja4 = o["fingerprint"] as? String, let ip = o["src_ip"] as? String,
        let port = o["src_port"] as? Int, let server = o["dst_port"] as? Int
      else { continue }
      found[current, default: []].append(("\(ip)|\(port)", server, ja4))
    }
    return found
  }

  /// The shared captures and the project's own: every ClientHello's JA4 (TCP and QUIC) as
  /// ja4plus computes it.
  func testEveryClientHellosJA4EqualsJA4plusOnTheSharedAndTheProjectsCaptures() throws {
    let shared = Self.root.deletingLastPathComponent().appendingPathComponent("shared/captures")
    var captures = ["real-traffic.pcapng", "merged-out-of-order.pcapng"].map {
      Self.root.appendingPathComponent("Tests/ImportTests/Captures/" + $0).path
    }
    if let names = try? FileManager.default.contentsOfDirectory(atPath: shared.path) {
      captures += names.filter { $0.hasSuffix(".pcap") || $0.hasSuffix(".pcapng") }.sorted().map {
        shared.appendingPathComponent($0).path
      }
    }
    let dir = TemporaryDirectory("ja4")
    let tv = Tool(binary: try TunnelVisionExecutable.url(), store: dir.url.path + "/store")
    try tv("project", "new", "J")
    var compared = 0
    let fingerprints = try ja4plus(captures)
    for (index, capture) in captures.enumerated() {
      try tv("import", capture, "--project", "J", "--version", "1", "--build", "\(index + 1)")
      let flows = try tv.documents(index + 1, in: dir.url.path).flows
      var ours: [String: String] = [:]
      for flow in flows {
        guard let ja4 = (flow["clientTLS"] as? [String: Any])?["ja4"] as? String else { continue }
        for peer in flow["peers"] as? [[String: Any]] ?? [] {
          if let address = peer["address"] as? String, let port = peer["port"] as? Int {
            ours["\(address)|\(port)"] = ja4
          }
        }
      }
      // A connection's first ClientHello: a second one, after a HelloRetryRequest, is the same
      // client's (without padding, with another key share), and flows.json keeps the first.
      var seen = Set<String>()
      for hello in try XCTUnwrap(fingerprints[capture], capture)
      where seen.insert(hello.client).inserted {
        XCTAssertEqual(ours[hello.client], hello.ja4, "\(capture): \(hello.client)")
        compared += 1
      }
    }
    XCTAssertGreaterThan(compared, 10, "ClientHellos compared")
  }
}
