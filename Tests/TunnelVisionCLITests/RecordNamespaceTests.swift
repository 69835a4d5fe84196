import Audit
import Foundation
import Record
import TestSupport
import XCTest

/// The recorder as an assessor runs it: a phone namespace behind a gateway namespace over a veth
/// pair, `record --interface` on the gateway with `--device`. Root only; the namespaces are the
/// test's own and are removed after it.
final class RecordNamespaceTests: XCTestCase {
  static let phoneScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Traffic/phone.py").path

  /// Two namespaces joined by a veth pair: the phone 10.77.1.2 (and a stray host 10.77.1.3 on
  /// the same link), the gateway 10.77.1.1.
  struct Link {
    let phone: String, gateway: String

    init() throws {
      let tag = String(getpid() % 100_000)
      phone = "tvphone\(tag)"
      gateway = "tvgw\(tag)"
      for command in [
        ["netns", "add", phone], ["netns", "add", gateway],
        ["link", "add", "tvp\(tag)", "type", "veth", "peer", "name", "tvg\(tag)"],
        ["link", "set", "tvp\(tag)", "netns", phone],
        ["link", "set", "tvg\(tag)", "netns", gateway],
        ["-n", phone, "addr", "add", "10.77.1.2/24", "dev", "tvp\(tag)"],
        ["-n", phone, "addr", "add", "10.77.1.3/24", "dev", "tvp\(tag)"],
        ["-n", gateway, "addr", "add", "10.77.1.1/24", "dev", "tvg\(tag)"],
        ["-n", phone, "link", "set", "tvp\(tag)", "up"], ["-n", phone, "link", "set", "lo", "up"],
        ["-n", gateway, "link", "set", "tvg\(tag)", "up"],
        ["-n", gateway, "link", "set", "lo", "up"],
      ] {
        let run = try XCTUnwrap(ExternalTool.run("ip", command))
        guard run.status == 0 else {
          remove()
          throw XCTSkip("ip \(command.joined(separator: " ")): \(run.error)")
        }
      }
    }

    var interface: String { "tvg\(String(getpid() % 100_000))" }

    func remove() {
      _ = try? ExternalTool.run("ip", ["netns", "del", phone])
      _ = try? ExternalTool.run("ip", ["netns", "del", gateway])
    }

    func run(in namespace: String, _ arguments: [String]) throws -> (
      status: Int32, output: String, error: String
    ) {
      try XCTUnwrap(ExternalTool.run("ip", ["netns", "exec", namespace] + arguments))
    }

    func start(in namespace: String, _ arguments: [String]) throws -> RunningProcess {
      try RunningProcess(
        try XCTUnwrap(ExternalTool.which("ip")), ["netns", "exec", namespace] + arguments)
    }
  }

  struct World {
    let link: Link
    let binary: String
    let store: String
    let dir: TemporaryDirectory
    let server: RunningProcess

    func tv(_ words: String...) throws -> (status: Int32, output: String, error: String) {
      try XCTUnwrap(ExternalTool.run(binary, words + ["--store", store]))
    }

    func recorder(_ more: String...) throws -> RunningProcess {
      let recorder = try link.start(
        in: link.gateway,
        [
          binary, "record", "-i", link.interface, "--device", "10.77.1.2", "--quiet", "--store",
          store,
        ] + more)
      // The capture is open before the lock is taken.
      try Readiness.wait("the recorder holding its lock") {
        guard recorder.process.isRunning else {
          throw Readiness.NotReady(
            description: "the recorder ended before it started: \(recorder.outputSoFar.error)")
        }
        return RecorderLock.running(storeDirectory: URL(fileURLWithPath: store)) != nil
      }
      return recorder
    }

    /// Waits until `sql`, a count over the store, is at least `count`: what the recorder has
    /// written so far.
    func waitForStore(_ what: String, _ sql: String, atLeast count: Int = 1) throws {
      try StoreCount.wait(what, store, sql, atLeast: count)
    }

    func phone(_ seconds: Double) throws -> RunningProcess {
      try link.start(
        in: link.phone,
        ["python3", RecordNamespaceTests.phoneScript, "client", String(seconds), "tracker.example"])
    }

    func stray() throws {
      XCTAssertEqual(
        try link.run(in: link.phone, ["python3", RecordNamespaceTests.phoneScript, "stray"]).status,
        0)
    }

    func json(_ words: String...) throws -> [String: Any] {
      let run = try XCTUnwrap(ExternalTool.run(binary, words + ["--json", "--store", store]))
      XCTAssertEqual(run.status, 0, run.error)
      return try XCTUnwrap(
        JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
    }

    func member(_ bundle: String, _ name: String) throws -> [String: Any] {
      let unzip = try XCTUnwrap(ExternalTool.run("unzip", ["-p", bundle, name]))
      return try XCTUnwrap(
        JSONSerialization.jsonObject(with: Data(unzip.output.utf8)) as? [String: Any])
    }
  }

  func world(_ name: String) throws -> World {
    try requireRoot("network namespaces")
    guard ExternalTool.which("ip") != nil else { throw XCTSkip("no ip(8)") }
    let link = try Link()
    addTeardownBlock { link.remove() }
    let dir = TemporaryDirectory(name)
    let server = try link.start(
      in: link.gateway, ["python3", Self.phoneScript, "serve"])
    addTeardownBlock { server.end(SIGKILL) }
    let world = World(
      link: link, binary: try TunnelVisionExecutable.url().path,
      store: dir.url.appendingPathComponent("store").path, dir: dir, server: server)
    XCTAssertEqual(
      try world.tv("project", "new", "P", "--allow", "api.example-health.de").status, 0)
    try server.waitForOutput(containing: "ready")
    return world
  }

  func flows(_ bundle: String, _ w: World) throws -> [[String: Any]] {
    try XCTUnwrap(try w.member(bundle, "flows.json")["flows"] as? [[String: Any]])
  }

  func testAConnectionAcrossASessionsEndIsSealedInEachAndOnlyTheDevicesTrafficIsTagged() throws {
    let w = try world("netns-seal")
    let recorder = try w.recorder()
    defer { recorder.end() }
    XCTAssertEqual(try w.tv("session", "start", "P", "--version", "1", "--build", "1").status, 0)
    let phone = try w.phone(4)
    try w.stray()
    // The lookup, the keep-alive connection with a few of its lines, and the stray datagram
    // written in the session.
    try w.waitForStore(
      "the keep-alive connection's lines in session 1",
      "SELECT count(*) FROM packets JOIN flows ON flows.id = flow_id WHERE audit_session_id = 1 AND 8080 IN (port_a, port_b)",
      atLeast: 8)
    try w.waitForStore(
      "the stray datagram", "SELECT count(*) FROM flows WHERE 9999 IN (port_a, port_b)")
    XCTAssertEqual(try w.tv("session", "end").status, 0)
    let at = "2030-01-01T00:00:00Z"
    let first = w.dir.url.appendingPathComponent("first.zip").path
    let again = w.dir.url.appendingPathComponent("again.zip").path
    // Exported as soon as it ended, then again once the connection has gone on: the same bytes.
    XCTAssertEqual(try w.tv("export", "1", "-o", first, "--no-report", "--at", at).status, 0)
    XCTAssertEqual(try w.tv("session", "start", "P", "--version", "2", "--build", "2").status, 0)
    XCTAssertEqual(phone.end(0).status, 0, "the phone's client")
    // Its end, both ways, written in session 2.
    try w.waitForStore(
      "the keep-alive connection's end", StoreCount.closedConnections(inSession: 2))
    XCTAssertEqual(try w.tv("session", "end").status, 0)
    let exported = try w.tv("export", "1", "-o", again, "--no-report", "--at", at)
    XCTAssertEqual(exported.status, 0, exported.error)
    XCTAssertEqual(
      try ExternalTool.run("cmp", [first, again])?.status, 0,
      "an ended session's evidence does not change however much traffic follows")

    let second = w.dir.url.appendingPathComponent("second.zip").path
    XCTAssertEqual(try w.tv("export", "2", "-o", second).status, 0)
    XCTAssertEqual(try w.tv("verify", first).status, 0)
    XCTAssertEqual(try w.tv("verify", second).status, 0)

    // The keep-alive connection: in session 1 up to its end, continued in session 2.
    let keepAlive = { (flow: [String: Any]) -> Bool in
      ((flow["peers"] as? [[String: Any]]) ?? []).contains { $0["port"] as? Int == 8080 }
    }
    let inFirst = try flows(first, w).filter(keepAlive)
    let inSecond = try flows(second, w).filter(keepAlive)
    XCTAssertEqual(inFirst.count, 1, "\(inFirst)")
    XCTAssertEqual(inSecond.count, 1, "\(inSecond)")
    XCTAssertNotNil(inSecond.first?["continuedFrom"] as? Int, "it says it continues a row")
    XCTAssertNil(inFirst.first?["continuedFrom"] as? Int)
    // #41.4: session 2's findings about it say its name and opening were read in session 1.
    let continued = try XCTUnwrap(inSecond.first?["id"] as? Int)
    let earlierRow = try XCTUnwrap(inFirst.first?["id"] as? Int)
    XCTAssertEqual(
      inSecond.first?["openedIn"] as? [String: Int], ["flowID": earlierRow, "session": 1])
    let secondFindings = try XCTUnwrap(
      try w.member(second, "findings.json")["findings"] as? [[String: Any]])
    let citing = secondFindings.filter { ($0["flowIDs"] as? [Int] ?? []).contains(continued) }
    XCTAssertFalse(citing.isEmpty, "\(secondFindings)")
    for finding in citing {
      let readings = try XCTUnwrap(finding["earlierReadings"] as? [[String: Any]])
      XCTAssertEqual(readings.count, 1, "\(finding)")
      XCTAssertEqual(readings.first?["flowID"] as? Int, continued)
      XCTAssertEqual(readings.first?["openedIn"] as? Int, earlierRow)
      XCTAssertEqual(readings.first?["session"] as? Int, 1)
    }
    XCTAssertTrue(
      secondFindings.filter { !($0["flowIDs"] as? [Int] ?? []).contains(continued) }.allSatisfy {
        ($0["earlierReadings"] as? [Any])?.isEmpty == true
      })
    // Its packets name those findings as resting on packets read earlier, as tshark reads them.
    if ExternalTool.which("tshark") != nil {
      let comments = try XCTUnwrap(
        ExternalTool.run(
          "sh",
          [
            "-c",
            "unzip -p '\(second)' capture.pcapng > '\(w.dir.url.path)/c.pcapng' && tshark -r '\(w.dir.url.path)/c.pcapng' -T fields -e frame.comment",
          ])
      ).output.split(separator: "\n").filter { $0.hasPrefix("flow=\(continued) ") }
      let cited = citing.compactMap { $0["id"] as? String }.joined(separator: ",")
      XCTAssertFalse(comments.isEmpty)
      XCTAssertTrue(
        comments.allSatisfy {
          $0 == "flow=\(continued) findings= readEarlier=\(cited) openedIn=\(earlierRow) session=1"
        }, "\(comments)")
    }
    let said =
      "flow \(continued) continues the connection that opened in flow \(earlierRow) of session 1"
    XCTAssertTrue(try w.tv("findings", "2").output.contains(said))
    let reportText = try XCTUnwrap(
      ExternalTool.run("sh", ["-c", "unzip -p '\(second)' report.pdf | pdftotext - -"])
    ).output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    XCTAssertTrue(reportText.contains(said), reportText)
    for bundle in [first, second] {
      let capture = try w.member(bundle, "capture.json")
      XCTAssertEqual(
        capture["writtenOutsideSession"] as? [String: Int], ["beforeStart": 0, "afterEnd": 0],
        "every packet of \(bundle) falls inside its session")
    }
    let compared = try w.tv("compare", "1", "2")
    XCTAssertFalse(compared.output.contains("tracker.example"), compared.output)

    // Only the device's connections are tagged; its lookups and the stray host are not hosts.
    let rows = try XCTUnwrap(
      ExternalTool.run(
        "sqlite3",
        [
          w.store + "/history.sqlite",
          "SELECT addr_a, addr_b FROM flows WHERE audit_session_id = 1",
        ]
      )
    ).output.split(separator: "\n")
    XCTAssertFalse(rows.isEmpty)
    XCTAssertTrue(rows.allSatisfy { $0.contains("10.77.1.2") }, "\(rows)")
    let dns = try flows(first, w).filter {
      ((($0["dnsQuestions"] as? [String]) ?? []).contains("tracker.example"))
    }
    XCTAssertEqual(dns.count, 1, "the lookup is stored with the name it asked for")
    let findings = try XCTUnwrap(
      try w.member(first, "findings.json")["findings"] as? [[String: Any]])
    XCTAssertTrue(
      findings.allSatisfy { ($0["kind"] as? String) != "unnamedFlow" },
      "no lookup or neighbour message is an unnamed host: \(findings)")
    XCTAssertEqual(
      findings.filter { ($0["kind"] as? String) == "hostNotInAllowlist" }.compactMap {
        $0["host"] as? String
      }, ["tracker.example"], "the one host the phone contacted")
    // Page 1 of session 2's report: no requirement counts more hosts than the phone's one.
    if ExternalTool.which("pdftotext") != nil {
      XCTAssertEqual(
        try ExternalTool.run("unzip", ["-o", second, "report.pdf", "-d", w.dir.url.path])?.status,
        0)
      let page = try XCTUnwrap(
        ExternalTool.run(
          "pdftotext", ["-layout", "-f", "1", "-l", "1", w.dir.url.path + "/report.pdf", "-"])
      ).output
      let counts = page.split(separator: "\n").filter {
        $0.trimmingCharacters(in: .whitespaces).hasPrefix("O.")
      }.compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }
      XCTAssertFalse(counts.isEmpty, page)
      XCTAssertEqual(counts.max(), 1, "the phone contacted one host: \(page)")
    }
    let session = try XCTUnwrap(try w.member(first, "session.json")["session"] as? [String: Any])
    let recording = try XCTUnwrap(session["recording"] as? [String: Any])
    XCTAssertEqual((recording["gaps"] as? [Any])?.count, 0, "\(recording)")
    XCTAssertEqual(
      recording["statement"] as? String,
      "Recorded throughout: a recorder ran from the session's start to its end.")
  }

  /// #41.3: a recorder killed mid-connection and started again continues the connection's row:
  /// named as before, never a connection without a name.
  func testARecorderStartedAgainMidConnectionContinuesItsRow() throws {
    let w = try world("netns-restart")
    let first = try w.recorder()
    XCTAssertEqual(try w.tv("session", "start", "P", "--version", "1", "--build", "1").status, 0)
    let phone = try w.phone(3)
    let keepAlive =
      "SELECT count(*) FROM packets JOIN flows ON flows.id = flow_id WHERE audit_session_id = 1 AND 8080 IN (port_a, port_b)"
    try w.waitForStore("the keep-alive connection's first lines", keepAlive, atLeast: 6)
    _ = first.end(SIGKILL)
    let second = try w.recorder()
    try w.waitForStore(
      "the connection's lines read by the second recorder",
      "SELECT count(*) FROM flows WHERE 8080 IN (port_a, port_b) AND session = 2")
    XCTAssertEqual(phone.end(0).status, 0, "the phone's client")
    try w.waitForStore("the connection's end", StoreCount.closedConnections(inSession: 1))
    XCTAssertEqual(second.end().status, 0)
    XCTAssertEqual(try w.tv("session", "end").status, 0)
    let bundle = w.dir.url.appendingPathComponent("b.zip").path
    let exported = try w.tv("export", "1", "-o", bundle)
    XCTAssertEqual(exported.status, 0, exported.error)
    let rows = try flows(bundle, w).filter {
      ((($0["peers"] as? [[String: Any]]) ?? []).contains { $0["port"] as? Int == 8080 })
    }
    XCTAssertEqual(rows.count, 2, "one row a recorder run: \(rows)")
    XCTAssertEqual(rows.map { $0["captureRun"] as? Int }, [1, 2])
    XCTAssertEqual(rows[1]["continuedFrom"] as? Int, rows[0]["id"] as? Int, "\(rows)")
    for row in rows {
      XCTAssertEqual((row["name"] as? [String: Any])?["text"] as? String, "tracker.example")
      XCTAssertEqual(row["beganBeforeCapture"] as? Bool, false, "\(row)")
    }
    let findings = try XCTUnwrap(
      try w.member(bundle, "findings.json")["findings"] as? [[String: Any]])
    XCTAssertFalse(
      findings.contains { ($0["kind"] as? String) == "unnamedFlow" }, "\(findings)")
    let host = try XCTUnwrap(
      findings.first { ($0["kind"] as? String) == "hostNotInAllowlist" }, "\(findings)")
    XCTAssertEqual(
      Set(host["flowIDs"] as? [Int] ?? []), Set(rows.compactMap { $0["id"] as? Int }),
      "the host's finding cites both pieces of the connection")
    let verified = try w.tv("verify", bundle)
    XCTAssertEqual(verified.status, 0, verified.output)
  }

  /// #41.6: a recorder killed with SIGKILL loses at most a tenth of a second of what the device
  /// sent, and its last sign of life is where what it kept ends.
  func testAKilledRecorderLosesAtMostATenthOfASecond() throws {
    let w = try world("netns-loss")
    let recorder = try w.recorder()
    XCTAssertEqual(try w.tv("session", "start", "P", "--version", "1", "--build", "1").status, 0)
    let beat = try w.link.start(in: w.link.phone, ["python3", Self.phoneScript, "beat", "3"])
    let beats =
      "SELECT count(*) FROM packets JOIN flows ON flows.id = flow_id WHERE 9999 IN (port_a, port_b)"
    try w.waitForStore("a second of the device's datagrams", beats, atLeast: 80)
    let killedAt = Date()
    _ = recorder.end(SIGKILL)
    XCTAssertEqual(beat.end(0).status, 0)
    func value(_ sql: String) throws -> Double {
      let run = try XCTUnwrap(ExternalTool.run("sqlite3", [w.store + "/history.sqlite", sql]))
      return try XCTUnwrap(Double(run.output.trimmingCharacters(in: .whitespacesAndNewlines)))
    }
    let lastKept =
      try value(
        "SELECT max(ts) FROM packets JOIN flows ON flows.id = flow_id WHERE 9999 IN (port_a, port_b)"
      ) / 1e9
    let aliveAt = try value("SELECT alive_at FROM capture_sessions WHERE id = 1") / 1e9
    // What the device sent before the kill, by the instants it printed.
    let sent = beat.outputSoFar.output.split(separator: "\n").compactMap { Double($0) }
      .filter { $0 < killedAt.timeIntervalSince1970 }
    let lastSent = try XCTUnwrap(sent.last)
    XCTAssertLessThan(
      lastSent - lastKept, 0.1, "sent until \(lastSent), kept until \(lastKept)")
    XCTAssertGreaterThanOrEqual(aliveAt, lastKept - 1e-6, "the run covered what it kept")
    XCTAssertLessThan(aliveAt - lastKept, 0.1, "its last sign of life is where what it kept ends")
  }

  func testARecorderKilledMidTrafficLeavesAGapThatEveryDocumentStates() throws {
    let w = try world("netns-killed")
    // Its inspection log is not there yet: said at the start.
    let log = w.dir.url.appendingPathComponent("inspection.jsonl")
    let recorder = try w.recorder("--inspection-log", log.path)
    XCTAssertEqual(try w.tv("session", "start", "P", "--version", "1", "--build", "1").status, 0)
    let phone = try w.phone(3)
    try w.waitForStore(
      "the keep-alive connection's first lines",
      "SELECT count(*) FROM packets JOIN flows ON flows.id = flow_id WHERE audit_session_id = 1 AND 8080 IN (port_a, port_b)",
      atLeast: 6)
    let killed = recorder.end(SIGKILL)
    XCTAssertTrue(killed.error.contains("does not exist yet"), killed.error)
    // #41.7: the killed run's last sign of life is its last commit as well as its last heartbeat:
    // it covers every packet it wrote, whenever the heartbeat last came.
    let covered = try XCTUnwrap(
      ExternalTool.run(
        "sqlite3",
        [
          w.store + "/history.sqlite",
          "SELECT (SELECT alive_at FROM capture_sessions WHERE id = (SELECT session FROM flows WHERE audit_session_id = 1 LIMIT 1)) >= (SELECT max(ts) FROM packets JOIN flows ON flows.id = flow_id WHERE audit_session_id = 1)",
        ]))
    XCTAssertEqual(covered.output, "1\n", covered.error)
    XCTAssertEqual(phone.end(0).status, 0)
    let shown = try w.tv("session", "show", "1")
    XCTAssertTrue(shown.output.contains("Not recorded since"), shown.output)
    XCTAssertTrue(shown.output.contains("ended without stopping"), shown.output)
    // The proxy's line about the keep-alive connection, written once it closed; a recorder
    // started again on the log joins it to the row the killed one wrote.
    let row = try XCTUnwrap(
      ExternalTool.run(
        "sqlite3",
        [
          w.store + "/history.sqlite",
          "SELECT CASE WHEN port_a = 8080 THEN port_b ELSE port_a END, first_seen, last_seen FROM flows WHERE 8080 IN (port_a, port_b) AND audit_session_id = 1",
        ])
    ).output.split(separator: "\n").first?.split(separator: "|").map(String.init)
    let fields = try XCTUnwrap(row)
    let line =
      "{\"format\": 1, \"start\": \(Double(fields[1])! / 1e9), \"end\": \(Double(fields[2])! / 1e9 + 1), \"client\": {\"address\": \"10.77.1.2\", \"port\": \(fields[0])}, \"proxy\": null, \"server\": {\"address\": \"10.77.1.1\", \"port\": 8080, \"peer\": {\"address\": \"10.77.1.1\", \"port\": 8080}}, \"sni\": null, \"clientHandshake\": \"failed\", \"requests\": 0, \"error\": \"client TLS handshake failed\"}\n"
    try Data(line.utf8).write(to: log)
    // Its last reading of the log, when it stops, joins what it has not joined yet.
    let restarted = try w.recorder("--inspection-log", log.path)
    XCTAssertEqual(restarted.end().status, 0)
    let joined = try XCTUnwrap(
      ExternalTool.run(
        "sqlite3",
        [
          w.store + "/history.sqlite",
          "SELECT count(*) FROM flows WHERE 8080 IN (port_a, port_b) AND audit_session_id = 1 AND tls_status_basis = 3",
        ]))
    XCTAssertEqual(joined.output, "1\n", "the killed run's connection took its outcome")
    let ended = try w.tv("session", "end")
    XCTAssertEqual(ended.status, 0, ended.error)
    XCTAssertTrue(ended.output.contains("⚠ Not recorded throughout"), ended.output)
    XCTAssertTrue(ended.output.contains("may be cut short"), ended.output)
    let bundle = w.dir.url.appendingPathComponent("b.zip").path
    let exported = try w.tv("export", "1", "-o", bundle)
    XCTAssertEqual(exported.status, 0, exported.error)
    let session = try XCTUnwrap(try w.member(bundle, "session.json")["session"] as? [String: Any])
    let recording = try XCTUnwrap(session["recording"] as? [String: Any])
    let gaps = try XCTUnwrap(recording["gaps"] as? [[String: Any]])
    // From the killed run's last sign of life to the second's start, and after the second.
    XCTAssertEqual(gaps.count, 2, "\(recording)")
    XCTAssertGreaterThan(gaps.first?["cutConnections"] as? Int ?? 0, 0)
    XCTAssertEqual((recording["notRecorded"] as? [String: Any])?["stretches"] as? Int, 2)
    let runs = try XCTUnwrap(recording["runs"] as? [[String: Any]])
    XCTAssertEqual(runs.map { $0["end"] as? String }, ["vanished", "interrupted"])
    XCTAssertEqual(
      try w.member(bundle, "capture.json")["coverage"] as? [String],
      [recording["statement"] as? String ?? ""] + gaps.compactMap { $0["sentence"] as? String },
      "capture.json says what the capture cannot hold")
    // #41.5: no verdict that found nothing against a requirement stands unqualified by the gaps.
    let requirements = try XCTUnwrap(
      try w.member(bundle, "findings.json")["requirements"] as? [[String: Any]])
    let unopposed = requirements.filter {
      ["observedWithoutContradiction", "notAssessed.nothingObserved"].contains(
        $0["verdict"] as? String)
    }
    XCTAssertFalse(unopposed.isEmpty)
    for r in unopposed {
      let qualified = try XCTUnwrap(r["onlyWhereRecorded"] as? [String: Any], "\(r)")
      XCTAssertEqual(qualified["stretches"] as? Int, 2)
      XCTAssertTrue(
        (r["statement"] as? String ?? "").contains("where the session was recorded (not recorded")
          || (r["statement"] as? String ?? "").contains("where recorded (not recorded"), "\(r)")
    }
    let findings = try w.tv("findings", "1")
    XCTAssertFalse(
      findings.output.contains("Observed without contradiction:"), findings.output)
    let verified = try w.tv("verify", bundle)
    XCTAssertEqual(verified.status, 0, verified.output)
    XCTAssertFalse(verified.output.contains("not re-derived"), verified.output)
    if ExternalTool.which("pdftotext") != nil {
      let unzip = try XCTUnwrap(
        ExternalTool.run("unzip", ["-o", bundle, "report.pdf", "-d", w.dir.url.path]))
      XCTAssertEqual(unzip.status, 0)
      let text = try XCTUnwrap(
        ExternalTool.run(
          "pdftotext", ["-f", "1", "-l", "1", w.dir.url.path + "/report.pdf", "-"])
      ).output
      XCTAssertTrue(text.contains("Not recorded"), text)
      let flat = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
      XCTAssertTrue(flat.contains("observed where recorded"), text)
      // #42: times to the second, though the session's are to the microsecond.
      XCTAssertNil(text.range(of: #"\d\d:\d\d:\d\d\.\d+Z"#, options: .regularExpression), text)
      XCTAssertNotNil(text.range(of: #"\d\d:\d\d:\d\dZ"#, options: .regularExpression), text)
    }
  }
}
