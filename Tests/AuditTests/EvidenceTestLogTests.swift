import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Foundation
import TestSupport
import XCTest

/// The test log (TR-03161-1 §4.2), pure: the steps in the order they happened, every tool with
/// the version it stated, an unknown one null, and the exporter's libraries read back as stated.
final class EvidenceTestLogTests: XCTestCase {
  let catalogue = try! RequirementCatalogueLibrary.catalogue(identifier: "tr-03161-1_3.0")
  let project = AuditProject(
    id: 1, name: "Example Health", bundleIdentifier: "de.example.health", catalogueVersion: nil,
    allowlist: [AllowlistEntry(pattern: try! DomainPattern(parsing: "*.example.com"), note: nil)],
    createdAt: FlowFixture.epoch)

  func session(source: CaptureSource? = nil) -> AuditSession {
    AuditSession(
      id: 3, projectID: 1, kind: .audit(AppRelease(version: "2.4.0", build: "187")),
      environment: FlowFixture.environment,
      inspection: InspectionConditions(inspectionEnabled: true, scenario: .systemTrust),
      startedAt: FlowFixture.at(0), endedAt: FlowFixture.at(600), notes: "", source: source)
  }

  /// Two runs: the first began before the session and vanished inside it; the second, with a
  /// filter and a proxy, was stopped before the session ended.
  let runs = [
    RecorderRun(
      id: 1, source: "eth0", isLive: true, processID: 41, startedAt: FlowFixture.at(-60),
      aliveAt: FlowFixture.at(200), endedAt: FlowFixture.at(200), end: .vanished,
      libpcap: "libpcap version 1.10.3 (with TPACKET_V3)"),
    RecorderRun(
      id: 2, source: "eth0", isLive: true, processID: 42, startedAt: FlowFixture.at(210),
      aliveAt: FlowFixture.at(550), endedAt: FlowFixture.at(550), end: .interrupted,
      inspectionLog: "inspection.jsonl", inspectionLogState: .read, inspectionLinesUnreadable: 2,
      filter: "host 10.0.0.2", libpcap: "libpcap version 1.10.3 (with TPACKET_V3)",
      proxies: [
        RecorderRun.ProxyRun(
          tool: "mitmproxy", version: "11.0.2", options: ["listen_port": "8080", "mode": "regular"])
      ]),
  ]

  func bundle(session: AuditSession? = nil, runs: [RecorderRun]? = nil) throws -> EvidenceBundle {
    var bundle = try EvidenceBundle(
      project: project, session: session ?? self.session(),
      markers: [
        SessionMarker(id: 1, sessionID: 3, date: FlowFixture.at(100), kind: .consentGiven),
        SessionMarker(id: 2, sessionID: 3, date: FlowFixture.at(300), kind: .loggedIn),
      ],
      flows: [FlowFixture.tcp(id: 7, at: 10, sni: "api.example.com")], catalogue: catalogue,
      exportedWith: "tunnelvision 0.1.0", exportedAt: FlowFixture.at(3600),
      runs: runs ?? self.runs,
      publicSuffixList: PublicSuffixListIdentity(
        path: "/usr/share/publicsuffix/public_suffix_list.dafsa", sha256: "ab", date: "2023-02-09"))
    bundle.exportLibraries = [
      EvidenceTestLog.Tool(name: "Cairo", version: "1.16.0", stage: .libraries, use: "drew"),
      EvidenceTestLog.Tool(name: "OpenSSL", version: nil, stage: .libraries, use: "digests"),
    ]
    return bundle
  }

  func testTheStepsAreInTheOrderTheyHappenedEachWithItsTime() throws {
    let log = try bundle().testLog
    XCTAssertEqual(
      log.steps.map(\.kind),
      [
        .recorderStarted, .sessionStarted, .markerPlaced, .recorderEnded, .recorderStarted,
        .markerPlaced, .recorderEnded, .sessionEnded, .exported,
      ])
    XCTAssertEqual(
      log.steps.map(\.at),
      [-60, 0, 100, 200, 210, 300, 550, 600, 3600].map { Optional(FlowFixture.at($0)) })
    XCTAssertEqual(
      log.steps[4].statement,
      "Recorder run 2 started (pid 42): live on the interface eth0, keeping packets the filter ‘host 10.0.0.2’ matches, following the inspection log inspection.jsonl."
    )
    XCTAssertTrue(log.steps[3].statement.contains("ended without stopping"), log.steps[3].statement)
    XCTAssertEqual(
      log.steps[6].statement,
      "Recorder run 2 ended: it was stopped (Ctrl-C or SIGTERM); its inspection log inspection.jsonl was read, 2 lines of it could not be read."
    )
    XCTAssertTrue(
      log.steps[1].statement.contains("certificate scenario: the proxy's CA trusted by the system"))
    XCTAssertTrue(log.steps[8].statement.contains("allowlist of 1 pattern "))
  }

  func testAnImportIsTheStepAfterTheSessionStartedWithoutATimeOfItsOwn() throws {
    let source = CaptureSource(
      fileName: "phone.pcapng", sha256: String(repeating: "c", count: 64),
      application: "Dumpcap (Wireshark) 4.0.17", host: nil)
    var imported = try bundle(session: session(source: source), runs: [])
    imported.importProxies = runs[1].proxies
    let log = imported.testLog
    XCTAssertEqual(log.steps.map(\.kind)[0...1], [.sessionStarted, .captureImported])
    XCTAssertNil(log.steps[1].at)
    XCTAssertTrue(log.steps[1].statement.contains(String(repeating: "c", count: 64)))
    XCTAssertEqual(
      log.tools.prefix(2).map(\.name), ["capture writer", "tunnelvision"])
    XCTAssertEqual(log.tools[0].version, "Dumpcap (Wireshark) 4.0.17")
    XCTAssertEqual(log.tools[1].stage, .importing)
    XCTAssertEqual(log.tools[2].name, "mitmproxy")
    XCTAssertEqual(log.tools[2].stage, .inspection)
    let text = imported.sessionDocument.serialized()
    XCTAssertEqual(try EvidenceSessionRecord(Data(text.utf8)).importProxies, runs[1].proxies)
    let broken = text.replacingOccurrences(of: "\"11.0.2\"", with: "11")
    XCTAssertNotEqual(broken, text)
    XCTAssertThrowsError(try EvidenceSessionRecord(Data(broken.utf8))) {
      XCTAssertTrue("\($0)".contains("session.capture.proxies[].version"), "\($0)")
    }
  }

  func testEveryToolOfTheChainIsNamedAndAnUnknownVersionIsNull() throws {
    var old = runs[0]
    old.libpcap = nil
    let log = try bundle(runs: [old, runs[1]]).testLog
    let rows = log.tools.map { "\($0.stage.rawValue) \($0.name) \($0.version ?? "null")" }
    XCTAssertEqual(
      rows,
      [
        "recording tunnelvision 0.1.0", "recording libpcap null",
        "recording libpcap libpcap version 1.10.3 (with TPACKET_V3)",
        "inspection mitmproxy 11.0.2", "judging tunnelvision 0.1.0",
        "judging BSI TR-03161-1 3.0", "judging BSI TR-02102-2 2025-01",
        "judging public suffix list 2023-02-09", "libraries Cairo 1.16.0", "libraries OpenSSL null",
      ])
    XCTAssertEqual(log.tools[1].use, "read the packets of recorder run 1")
    XCTAssertEqual(log.tools[3].options, ["listen_port": "8080", "mode": "regular"])
    XCTAssertTrue(log.tools[5].use.contains(try XCTUnwrap(catalogue.source.sha256)))
  }

  func testARunThatFollowedALogWithoutAStartLineNamesTheProxyAsUnknown() throws {
    var run = runs[1]
    run.proxies = []
    let tool = try XCTUnwrap(
      try bundle(runs: [run]).testLog.tools.first { $0.stage == .inspection })
    XCTAssertEqual(tool.name, "inspecting proxy")
    XCTAssertNil(tool.version)
  }

  func testSessionJSONCarriesTheLogAndGivesTheLibrariesBackAsStated() throws {
    let b = try bundle()
    let text = b.sessionDocument.serialized()
    let root = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    let log = try XCTUnwrap(root["testLog"] as? [String: Any])
    XCTAssertEqual((log["steps"] as? [Any])?.count, 9)
    let tools = try XCTUnwrap(log["tools"] as? [[String: Any]])
    XCTAssertEqual(tools.count, b.testLog.tools.count)
    XCTAssertTrue(tools.last?["version"] as? NSNull != nil, "an unknown version is null")
    XCTAssertEqual(EvidenceTestLog.statedLibraries(log), b.exportLibraries)
    var broken = log
    broken["tools"] = [["tool": "Cairo", "stage": "libraries", "use": "drew", "version": 1]]
    XCTAssertNil(EvidenceTestLog.statedLibraries(broken), "a version that is not text")

    let record = try EvidenceSessionRecord(Data(text.utf8))
    XCTAssertEqual(record.exportLibraries, b.exportLibraries)
    XCTAssertEqual(record.runs.map(\.proxies), runs.map(\.proxies))
    XCTAssertEqual(record.runs.map(\.filter), [nil, "host 10.0.0.2"])
    XCTAssertEqual(record.publicSuffixList?.date, "2023-02-09")
  }
}
