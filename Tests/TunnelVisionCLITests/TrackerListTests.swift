import Audit
import Foundation
import TestSupport
import XCTest

/// Real connections (openssl s_client to an s_server, in a namespace whose hosts file points the
/// names at its loopback) to two hosts the installed EasyPrivacy names, one only an assessor's
/// hosts file names, one on neither, and a DNS lookup of a listed name; a Consent given marker
/// between the first and the rest. Findings, verdicts, the bundle, verify and page 1 cite each
/// list and rule.
final class TrackerListTests: XCTestCase {
  static let easyPrivacy =
    "/usr/share/mozilla/extensions/{ec8030f7-c20a-464f-9b0e-13a3a9e97384}/uBlock0@raymondhill.net/assets/thirdparties/easylist/easyprivacy.txt"

  /// The first `count` hosts EasyPrivacy names by a plain `||host^` rule.
  func listedHosts(_ count: Int) throws -> [String] {
    guard FileManager.default.isReadableFile(atPath: Self.easyPrivacy) else {
      if ProcessInfo.processInfo.environment["CI"] == "true" {
        XCTFail(
          "CI installs webext-ublock-origin-firefox (scripts/setup.sh): it must be tested there")
      }
      throw XCTSkip("EasyPrivacy is not installed (webext-ublock-origin-firefox)")
    }
    let text = try String(contentsOfFile: Self.easyPrivacy, encoding: .utf8)
    let hosts = text.split(separator: "\n").lazy.filter {
      $0.hasPrefix("||") && $0.hasSuffix("^")
        && !$0.dropFirst(2).dropLast().contains { "/*$^".contains($0) }
    }.map { String($0.dropFirst(2).dropLast()) }
    return Array(hosts.prefix(count))
  }

  /// A DNS query for `name` (RFC 1035: header, one question, type A).
  static func query(_ name: String) -> Data {
    var bytes: [UInt8] = [0x12, 0x34, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0]
    for label in name.split(separator: ".") {
      bytes.append(UInt8(label.utf8.count))
      bytes += Array(label.utf8)
    }
    bytes += [0, 0, 1, 0, 1]
    return Data(bytes)
  }

  func testListedHostsAndLookupsAreFindingsCitingTheListAndRuleAndConsentIsRespected() throws {
    try requireRoot("tcpdump on a network namespace's loopback")
    let listed = try listedHosts(2)
    let own = "ads.tracker-lab.test"
    let clean = "api.tracker-lab.test"
    let other = "cdn.other-lab.test"
    let dir = TemporaryDirectory("trackers")
    let path = dir.url.path
    let hostsFile = path + "/lab.hosts"
    try "# an assessor's list\n0.0.0.0 \(own)\n".write(
      toFile: hostsFile, atomically: true, encoding: .utf8)
    let names = listed + [own, clean, other]
    let ns = try NetworkNamespace(
      hosts: "127.0.0.1 localhost " + names.joined(separator: " ") + "\n")
    let ip = try XCTUnwrap(ExternalTool.which("ip"))
    XCTAssertEqual(
      try ExternalTool.run(
        "openssl",
        [
          "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
          "-keyout", path + "/k.pem", "-out", path + "/c.pem", "-days", "2", "-subj", "/CN=lab",
        ])?.status, 0)
    let capture = path + "/lab.pcap"
    let tcpdump = try LabCapture.tcpdump(in: ns, to: capture, filter: "port 47701 or port 53")
    let server = try ns.start([
      "openssl", "s_server", "-accept", "47701", "-cert", path + "/c.pem", "-key",
      path + "/k.pem", "-www", "-quiet",
    ])
    try server.waitForListening(on: 47701)
    func connect(_ name: String) throws {
      let result = try XCTUnwrap(
        ExternalTool.run(
          ip,
          ns.exec([
            "timeout", "10", "openssl", "s_client", "-connect", "\(name):47701", "-servername",
            name, "-quiet",
          ]), input: Data("GET / HTTP/1.0\r\n\r\n".utf8)))
      XCTAssertEqual(result.status, 0, "\(name): \(result.error)")
    }
    // Each client has ended before the instant is taken, and the next starts after it: the
    // markers fall between their packets (microseconds, as captured and as written).
    try connect(listed[0])
    let consent = Instant.rfc3339(Date())
    try connect(listed[1])
    let withdrawn = Instant.rfc3339(Date())
    for name in [own, clean, other] { try connect(name) }
    // A lookup of a listed name: the query alone (no resolver answers in the namespace).
    let lookup = try XCTUnwrap(
      ExternalTool.run(
        ip,
        ns.exec([
          "python3", "-c",
          "import socket,sys,time\ns=socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\nfor _ in range(3):\n    s.sendto(bytes.fromhex(sys.argv[1]), ('127.0.0.1', 53)); time.sleep(0.2)",
          Self.query("cdn." + listed[1]).map { String(format: "%02x", $0) }.joined(),
        ])))
    XCTAssertEqual(lookup.status, 0, lookup.error)
    XCTAssertEqual(try tcpdump.end(afterClosing: 5, datagrams: 3).status, 0)
    server.end(SIGTERM)

    let tv = TLSParameterTests.Tool(
      binary: try TunnelVisionExecutable.url(), store: path + "/store")
    try tv("project", "new", "Lab", "--allow", "*.tracker-lab.test")
    try tv(
      "import", capture, "--project", "Lab", "--version", "1", "--build", "1", "--device",
      "127.0.0.1", "--marker", "consent-given@\(consent)", "--marker",
      "consent-withdrawn@\(withdrawn)")
    let json = try tv("findings", "1", "--tracker-list", hostsFile, "--json").output
    let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let findings = try XCTUnwrap(doc["findings"] as? [[String: Any]])
    var cited: [String: Set<String>] = [:]
    for finding in findings {
      guard let tracker = finding["tracker"] as? [String: Any],
        let host = finding["host"] as? String
      else { continue }
      let kind = finding["kind"] as? String ?? ""
      let list = tracker["list"] as? String ?? ""
      let rule = tracker["rule"] as? String ?? ""
      cited[host, default: []].insert("\(kind) \(list) \(rule)")
    }
    XCTAssertEqual(
      cited,
      [
        listed[0]: [
          "trackerHost EasyPrivacy ||\(listed[0])^",
          "trackerBeforeConsent EasyPrivacy ||\(listed[0])^",
        ],
        listed[1]: ["trackerHost EasyPrivacy ||\(listed[1])^"],
        "cdn." + listed[1]: ["trackerHost EasyPrivacy ||\(listed[1])^"],
        own: [
          "trackerHost lab.hosts 0.0.0.0 \(own)",
          "thirdPartyAfterWithdrawal lab.hosts 0.0.0.0 \(own)",
        ],
      ])
    // After the withdrawal: the tracker, and the host outside the allowlist; not the allowed one.
    let afterWithdrawal = findings.filter { $0["kind"] as? String == "thirdPartyAfterWithdrawal" }
    XCTAssertEqual(
      Set(afterWithdrawal.compactMap { $0["host"] as? String }), [own, other])
    XCTAssertTrue(
      afterWithdrawal.contains {
        $0["statement"] as? String
          == "After the Consent withdrawn marker, a connection went to a host the project's allowlist does not cover."
      })
    let lookupFinding = findings.first { $0["host"] as? String == "cdn." + listed[1] }
    XCTAssertEqual(lookupFinding?["reason"] as? String, "lookup")
    // The name looked up has its registrable domain beside it, as a host connected to does.
    let text = try tv("findings", "1", "--tracker-list", hostsFile).output
    XCTAssertTrue(
      text.contains("cdn.\(listed[1]), registrable domain \(listed[1]), rule ||\(listed[1])^"),
      text)
    let verdicts = Dictionary(
      uniqueKeysWithValues: (doc["requirements"] as? [[String: Any]] ?? []).map {
        ($0["id"] as? String ?? "", $0["verdict"] as? String ?? "")
      })
    XCTAssertEqual(verdicts["O.Purp_7"], "contradicted")
    XCTAssertEqual(verdicts["O.Purp_8"], "contradicted")
    XCTAssertEqual(verdicts["O.Purp_3"], "contradicted")
    XCTAssertEqual(verdicts["O.Purp_5"], "contradicted")

    // The bundle names its lists; verify reads them again, and says so when one changed.
    let zip = path + "/bundle.zip"
    try tv("export", "1", "-o", zip, "--tracker-list", hostsFile)
    let session = try XCTUnwrap(
      JSONSerialization.jsonObject(
        with: Data(
          try XCTUnwrap(ExternalTool.run("unzip", ["-p", zip, "session.json"])).output.utf8))
        as? [String: Any])
    let lists = try XCTUnwrap(session["trackerLists"] as? [[String: Any]])
    XCTAssertEqual(lists.first?["path"] as? String, hostsFile)
    XCTAssertTrue(lists.contains { $0["name"] as? String == "EasyPrivacy" })
    let sha = try XCTUnwrap(ExternalTool.run("sha256sum", [hostsFile])).output.prefix(64)
    XCTAssertEqual(lists.first?["sha256"] as? String, String(sha))
    // Each flow's registrable domain, from the installed public suffix list it names.
    let flows = try XCTUnwrap(
      (JSONSerialization.jsonObject(
        with: Data(try XCTUnwrap(ExternalTool.run("unzip", ["-p", zip, "flows.json"])).output.utf8))
        as? [String: Any])?["flows"] as? [[String: Any]])
    let domains = Dictionary(
      flows.compactMap { flow -> (String, String)? in
        guard let name = (flow["name"] as? [String: Any])?["text"] as? String,
          let domain = flow["registrableDomain"] as? String
        else { return nil }
        return (name, domain)
      }, uniquingKeysWith: { a, _ in a })
    XCTAssertEqual(domains[other], "other-lab.test")
    XCTAssertEqual(domains[listed[0]], listed[0])
    XCTAssertEqual(
      (session["publicSuffixList"] as? [String: Any])?["path"] as? String,
      "/usr/share/publicsuffix/public_suffix_list.dafsa")
    let verified = try tv("verify", zip)
    XCTAssertTrue(verified.output.contains("Every check holds"), verified.output)
    XCTAssertFalse(verified.output.contains("not re-derived"), verified.output)
    let page = try XCTUnwrap(
      ExternalTool.run("sh", ["-c", "unzip -p '\(zip)' report.pdf | pdftotext -l 2 - -"]))
    XCTAssertTrue(page.output.contains("||\(listed[0])^"), page.output)
    try "# an assessor's list\n0.0.0.0 \(own)\n0.0.0.0 more.test\n".write(
      toFile: hostsFile, atomically: true, encoding: .utf8)
    let changed = try tv("verify", zip)
    XCTAssertTrue(
      changed.output.contains("the tracker list \(hostsFile) the bundle was exported with"),
      changed.output)

    // The allowlist extended from the session, by registrable domain; asked, or --yes.
    let asked = try XCTUnwrap(
      ExternalTool.run(
        tv.binary.path, ["--store", tv.store, "project", "allow", "Lab", "--from-session", "1"]))
    XCTAssertEqual(asked.status, 1, "no terminal to ask: nothing added")
    XCTAssertTrue(asked.error.contains("Give --yes"), asked.error)
    let allowed = try tv("project", "allow", "Lab", "--from-session", "1", "--yes").output
    XCTAssertTrue(allowed.contains("  *.other-lab.test  (\(other))"), allowed)
    XCTAssertTrue(allowed.contains("  \(listed[0])  (\(listed[0]))"), allowed)
    XCTAssertFalse(allowed.contains("*.tracker-lab.test  ("), "covered already")
    let again = try tv("project", "allow", "Lab", "--from-session", "1", "--yes").output
    XCTAssertTrue(again.contains("nothing to add"), again)

    // Without any list: said, never silent.
    let none = try XCTUnwrap(
      ExternalTool.run(
        tv.binary.path, ["--store", tv.store, "findings", "1"],
        environment: ["TUNNELVISION_SHARE_DIR": path + "/nothing", "PATH": "/usr/bin:/bin"]))
    XCTAssertTrue(
      none.output.contains("No tracker list is installed or given"), none.output)
  }

  /// The registrable domain beside each host in findings, compare and the report, and a
  /// tracker's rule in compare: the sample store, with the installed public suffix list.
  func testFindingsCompareAndTheReportSayEachHostsRegistrableDomain() throws {
    guard
      FileManager.default.isReadableFile(atPath: "/usr/share/publicsuffix/public_suffix_list.dafsa")
    else {
      if ProcessInfo.processInfo.environment["CI"] == "true" {
        XCTFail("CI installs the publicsuffix package (scripts/setup.sh)")
      }
      throw XCTSkip("the publicsuffix package is not installed")
    }
    let dir = TemporaryDirectory("domains")
    let tv = TLSParameterTests.Tool(
      binary: try TunnelVisionExecutable.url(), store: dir.url.path + "/store")
    try tv("sample")
    let hosts = dir.url.path + "/ads.hosts"
    try "0.0.0.0 blocked.example-ads.net\n".write(toFile: hosts, atomically: true, encoding: .utf8)
    let findings = try tv("findings", "3").output
    XCTAssertTrue(
      findings.contains("telemetry.example-ads.net, registrable domain example-ads.net"), findings)
    let compared = try tv("compare", "2", "3", "--tracker-list", hosts).output
    XCTAssertTrue(
      compared.contains(
        "a tracker: ads.hosts (\(Instant.rfc3339(Date()).prefix(10))), rule 0.0.0.0 blocked.example-ads.net"
      ), compared)
    XCTAssertTrue(
      compared.contains("maps.example-maps.com, registrable domain example-maps.com"), compared)
    let zip = dir.url.path + "/b.zip"
    try tv("export", "3", "-o", zip)
    let report = try XCTUnwrap(
      ExternalTool.run("sh", ["-c", "unzip -p '\(zip)' report.pdf | pdftotext - - | tr '\\n' ' '"]))
    // The host inventory gives each host's registrable domain.
    let words = report.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    XCTAssertTrue(words.contains("Host Registrable domain Party"), words)
    XCTAssertTrue(words.contains("telemetry.example-ads.net example-ads.net third party"), words)
    let verified = try tv("verify", zip).output
    XCTAssertTrue(verified.contains("Every check holds."), verified)
  }
}
