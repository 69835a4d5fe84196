import Audit
import AuditWording
import FlowStore
import Foundation
import TestSupport
import XCTest

/// `export --ip-database`: where the sample's addresses are registered, in flows.json, flows.csv,
/// session.json, the sheet and the report, checked with PyPI's maxminddb and Python's csv.
final class AddressRegistrationCommandTests: XCTestCase {
  static let python = VenvPython.path

  /// The sample's servers: 198.51.100.0/24 registered in the US, 203.0.113.0/25 in Germany.
  static let writer = """
    import sys
    from mmdb_writer import MMDBWriter, MmdbU32
    from netaddr import IPSet
    w = MMDBWriter(ip_version=6, ipv4_compatible=True, database_type="Test-Country-ASN",
                   languages=["en"], description="test")
    w.insert_network(IPSet(["198.51.100.0/24"]), {"country": {"iso_code": "US"},
                     "autonomous_system_number": MmdbU32(64500),
                     "autonomous_system_organization": "Example Net"})
    w.insert_network(IPSet(["203.0.113.0/25"]), {"country": {"iso_code": "DE"},
                     "autonomous_system_number": MmdbU32(64501),
                     "autonomous_system_organization": "Beispiel GmbH"})
    w.to_db_file(sys.argv[1])
    """

  /// Every peer of flows.json against maxminddb's reading of its address, and every row of
  /// flows.csv against its flow: prints the count of peers checked, or what differs.
  static let checker = """
    import sys, json, csv, io, zipfile, maxminddb
    bundle = zipfile.ZipFile(sys.argv[1])
    reader = maxminddb.open_database(sys.argv[2]) if len(sys.argv) > 2 else None
    flows = json.loads(bundle.read("flows.json"))["flows"]
    rows = list(csv.DictReader(io.StringIO(bundle.read("flows.csv").decode("utf-8"))))
    assert len(rows) == len(flows), "rows"
    checked = 0
    for flow, row in zip(flows, rows):
        for peer, column in zip(flow["peers"], ["peerA", "peerB"]):
            r = reader.get(peer["address"]) if reader else None
            expected = None if not r else {"asn": r["autonomous_system_number"],
                "country": r["country"]["iso_code"],
                "organisation": r["autonomous_system_organization"]}
            if peer["registration"] != expected:
                print("flows.json", peer, expected); sys.exit(1)
            stated = peer["registration"] or {}
            cells = [row[column + k] for k in ("Country", "ASN", "Organisation")]
            wanted = [str(stated.get(k) or "") for k in ("country", "asn", "organisation")]
            if cells != wanted:
                print("flows.csv", cells, wanted); sys.exit(1)
            checked += 1
    print(checked)
    """

  func requirePython() throws {
    guard VenvPython.isThere else {
      if ProcessInfo.processInfo.environment["CI"] == "true" {
        XCTFail("CI makes .venv (scripts/setup.sh)")
      }
      throw XCTSkip(VenvPython.missing)
    }
  }

  func sessionJSON(_ bundle: String) throws -> [String: Any] {
    let run = try XCTUnwrap(ExternalTool.run("unzip", ["-p", bundle, "session.json"]))
    return try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
  }

  func testTheSamplesAddressesAreStatedAsTheDatabaseRegistersThemEverywhereTheBundleSaysThem()
    throws
  {
    try requirePython()
    let cli = CLIHarness()
    XCTAssertEqual(cli.run("sample").status, 0)
    let database = cli.directory.url.appendingPathComponent("test.mmdb").path
    let made = try XCTUnwrap(ExternalTool.run(Self.python, ["-c", Self.writer, database]))
    XCTAssertEqual(made.status, 0, made.error)
    let bundle = cli.directory.url.appendingPathComponent("b.zip").path
    let export = cli.run(
      "export", "2", "-o", bundle, "--at", "2026-10-09T10:00:00Z", "--ip-database", database)
    XCTAssertEqual(export.status, 0, export.error)

    let checked = try XCTUnwrap(
      ExternalTool.run(Self.python, ["-c", Self.checker, bundle, database]))
    XCTAssertEqual(checked.status, 0, checked.output + checked.error)
    XCTAssertGreaterThan(
      Int(checked.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, 20)

    let databases = try XCTUnwrap(try sessionJSON(bundle)["addressDatabases"] as? [[String: Any]])
    let sum = try XCTUnwrap(ExternalTool.run("sha256sum", [database]))
    XCTAssertEqual(databases.count, 1)
    XCTAssertEqual(databases.first?["sha256"] as? String, String(sum.output.prefix(64)))
    XCTAssertEqual(databases.first?["name"] as? String, "Test-Country-ASN")

    // The sheet names each address registered outside the EU/EEA, and only those.
    XCTAssertTrue(export.output.contains("Registered outside the EU/EEA:"), export.output)
    let outside = export.output.split(separator: "\n").filter { $0.hasSuffix("outside the EU/EEA") }
    XCTAssertFalse(outside.isEmpty)
    for line in outside {
      XCTAssertTrue(line.contains(": address registered in US (AS64500 Example Net)"), "\(line)")
    }
    XCTAssertFalse(export.output.contains("203.0.113."), "registered in Germany: not listed")
    XCTAssertFalse(export.output.contains("processed in"))

    // `flow ID` says the same of one connection, on the terminal and in its JSON.
    let flows = try XCTUnwrap(ExternalTool.run("unzip", ["-p", bundle, "flows.json"]))
    let first = try XCTUnwrap(
      ((try JSONSerialization.jsonObject(with: Data(flows.output.utf8)) as? [String: Any])?[
        "flows"] as? [[String: Any]])?.first)
    let id = try XCTUnwrap(first["id"] as? Int)
    let server = try XCTUnwrap((first["peers"] as? [[String: Any]])?.last?["address"] as? String)
    let flow = cli.run("flow", String(id), "--ip-database", database)
    XCTAssertEqual(flow.status, 0, flow.error)
    XCTAssertTrue(
      flow.output.contains("\(server): address registered in US (AS64500 Example Net)"),
      flow.output)
    let flowJSON = cli.run("flow", String(id), "--ip-database", database, "--json")
    let record = try XCTUnwrap(
      try JSONSerialization.jsonObject(with: Data(flowJSON.output.utf8)) as? [String: Any])
    let registration = (record["peers"] as? [[String: Any]])?.last?["registration"]
    XCTAssertEqual((registration as? [String: Any])?["country"] as? String, "US", "\(record)")
    XCTAssertFalse(cli.run("flow", String(id)).output.contains("Registered"))

    let verify = cli.run("verify", bundle)
    XCTAssertEqual(verify.status, 0, verify.output + verify.error)
    let text = try BundleReportText.of(bundle: bundle, scratch: cli.directory.url)
    XCTAssertTrue(text.contains("Where the addresses are registered"), text)
    XCTAssertTrue(text.contains("address registered in DE (AS64501 Beispiel GmbH)"), text)
    // The host inventory has its column: each host's registrations, said without the phrase.
    let hosts = try XCTUnwrap(Self.hostsSection(text)).split(whereSeparator: \.isWhitespace)
      .joined(separator: " ")
    XCTAssertTrue(hosts.contains("Registered"), hosts)
    // pdftotext sets a wrapped cell's lines apart: the parts of each registration, as read.
    for part in ["DE (AS64501", "Beispiel GmbH)", "US (AS64500", "Example Net)", "not in the"] {
      XCTAssertTrue(hosts.contains(part), "\(part): \(hosts)")
    }
    XCTAssertFalse(hosts.contains("address registered in"), hosts)
  }

  /// The report's host inventory, as pdftotext reads it.
  static func hostsSection(_ text: String) -> String? {
    // A page begins after a form feed.
    guard
      let start = ["\nHosts contacted\n", "\u{0C}Hosts contacted\n"].lazy.compactMap({
        text.range(of: $0)
      }).first
    else { return nil }
    let rest = text[start.upperBound...]
    return String(rest[..<(rest.range(of: "\nPersonal data\n")?.lowerBound ?? rest.endIndex)])
  }

  func testWithoutADatabaseNothingIsStatedAndThatIsSaidOnce() throws {
    try requirePython()
    let cli = CLIHarness()
    XCTAssertEqual(cli.run("sample").status, 0)
    let bundle = cli.directory.url.appendingPathComponent("b.zip").path
    let export = cli.run("export", "2", "-o", bundle, "--at", "2026-10-09T10:00:00Z")
    XCTAssertEqual(export.status, 0, export.error)
    XCTAssertEqual(
      export.output.components(separatedBy: AddressRegistrationWording.noDatabase).count, 2,
      export.output)
    XCTAssertEqual((try sessionJSON(bundle)["addressDatabases"] as? [Any])?.count, 0)
    let checked = try XCTUnwrap(ExternalTool.run(Self.python, ["-c", Self.checker, bundle]))
    XCTAssertEqual(checked.status, 0, "every registration null: \(checked.output)")
    let text = try BundleReportText.of(bundle: bundle, scratch: cli.directory.url)
    let hosts = try XCTUnwrap(Self.hostsSection(text), text)
    XCTAssertTrue(hosts.contains("api.example-health.de"), hosts)
    XCTAssertFalse(hosts.contains("Registered"), "no database: no column, \(hosts)")
  }

  func testAFileThatIsNotADatabaseIsRefusedAndNothingIsWritten() throws {
    let cli = CLIHarness()
    XCTAssertEqual(cli.run("sample").status, 0)
    let notADatabase = cli.directory.url.appendingPathComponent("list.txt").path
    try Data("0.0.0.0 tracker.example\n".utf8).write(to: URL(fileURLWithPath: notADatabase))
    let bundle = cli.directory.url.appendingPathComponent("b.zip").path
    let export = cli.run("export", "2", "-o", bundle, "--ip-database", notADatabase)
    XCTAssertNotEqual(export.status, 0)
    XCTAssertTrue(
      export.error.contains("The address database \(notADatabase) is not a MaxMind DB file"),
      export.error)
    XCTAssertFalse(FileManager.default.fileExists(atPath: bundle))
  }

  /// `compare --ip-database`: a host whose server moved from a network registered in the US to
  /// one registered in Germany is named with both; one that stayed is not; without a database,
  /// compare says nothing of registrations.
  func testCompareNamesAHostWhoseAddressesAreRegisteredInAnotherCountryNow() throws {
    try requirePython()
    let cli = CLIHarness()
    let database = cli.directory.url.appendingPathComponent("test.mmdb").path
    let made = try XCTUnwrap(ExternalTool.run(Self.python, ["-c", Self.writer, database]))
    XCTAssertEqual(made.status, 0, made.error)
    let store = try FlowStore(directory: URL(fileURLWithPath: cli.storePath))
    let project = try store.createAuditProject(
      AuditProjectDraft(
        name: "Moved",
        allowlist: [AllowlistEntry(pattern: try DomainPattern(parsing: "*.lab.test"))]),
      at: FlowFixture.at(0))
    var sessions: [Int64] = []
    for (index, (version, apiAddress)) in [("1.0", "198.51.100.7"), ("1.1", "203.0.113.9")]
      .enumerated()
    {
      let start = Double(index * 100)
      let session = try store.startAuditSession(
        FlowFixture.sessionDraft(
          project: project.id, kind: .audit(AppRelease(version: version, build: "1"))),
        at: FlowFixture.at(start + 1))
      let capture = try store.beginCaptureSession(at: FlowFixture.at(start + 1))
      for (offset, (name, address)) in [
        ("api.lab.test", apiAddress), ("same.lab.test", "203.0.113.10"),
      ]
      .enumerated() {
        var flow = FlowFixture.tcp(
          at: start + 2 + Double(offset), sni: name, serverAddress: address,
          sourcePort: 50_000 + UInt16(index * 10 + offset))
        flow.captureSessionID = capture
        flow.packetCount = 0
        try store.upsertFlow(flow)
      }
      _ = try store.endAuditSession(id: session.id, at: FlowFixture.at(start + 50))
      sessions.append(session.id)
    }
    let compare = cli.run(
      "compare", String(sessions[0]), String(sessions[1]), "--ip-database", database)
    XCTAssertEqual(compare.status, 0, compare.error)
    let part = try XCTUnwrap(
      compare.output.components(separatedBy: "Where the addresses are registered\n").last)
    XCTAssertEqual(
      part,
      """
        api.lab.test
          earlier: US (AS64500 Example Net)
          now: DE (AS64501 Beispiel GmbH)
        \(AddressRegistrationWording.notProcessing)

      """)
    let json = try XCTUnwrap(
      try JSONSerialization.jsonObject(
        with: Data(
          cli.run(
            "compare", String(sessions[0]), String(sessions[1]), "--ip-database", database,
            "--json"
          ).output.utf8)) as? [String: Any])
    XCTAssertEqual(
      json["addressRegistration"] as? [String],
      part.split(separator: "\n").map { String($0.dropFirst(2)) })
    let without = cli.run("compare", String(sessions[0]), String(sessions[1]))
    XCTAssertEqual(without.status, 0, without.error)
    XCTAssertFalse(without.output.contains("registered"), without.output)
  }
}
