import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Crypto
import FlowStore
import Foundation
import TestSupport
import XCTest

/// The history in the terminal, on the sample store and on an imported real capture, checked
/// against the store, the bundle's documents and tshark.
final class HistoryCommandsTests: XCTestCase {
  struct Sample {
    let binary: URL
    let dir: TemporaryDirectory
    let store: String
    func tv(_ words: String...) throws -> (status: Int32, output: String, error: String) {
      try XCTUnwrap(ExternalTool.run(binary.path, words + ["--store", store]))
    }
    func json(_ words: String...) throws -> Any {
      let run = try XCTUnwrap(ExternalTool.run(binary.path, words + ["--json", "--store", store]))
      XCTAssertEqual(run.status, 0, run.error)
      return try JSONSerialization.jsonObject(with: Data(run.output.utf8))
    }
    var flowStore: FlowStore {
      get throws { try FlowStore(directory: URL(fileURLWithPath: store), reading: true) }
    }
  }

  func sample(_ name: String) throws -> Sample {
    let s = Sample(
      binary: try TunnelVisionExecutable.url(), dir: TemporaryDirectory(name),
      store: TemporaryDirectory(name).url.appendingPathComponent("store").path)
    XCTAssertEqual(try s.tv("sample").status, 0)
    return s
  }

  func ids(_ value: Any) throws -> [Int] {
    try XCTUnwrap((value as? [String: Any])?["flows"] as? [[String: Any]]).compactMap {
      $0["id"] as? Int
    }
  }

  func testTheTimelineCountsWhatTheStoreHoldsAndItsCriteriaCombine() throws {
    let s = try sample("flows")
    let store = try s.flowStore
    let all = try store.allFlows()
    XCTAssertEqual(try ids(s.json("flows", "--all")).count, all.count)
    XCTAssertEqual(try ids(s.json("flows")).count, min(50, all.count))
    XCTAssertEqual(
      try ids(s.json("flows", "--all")),
      all.sorted { ($0.firstSeen, $0.id) > ($1.firstSeen, $1.id) }.map { Int($0.id) },
      "newest first")
    XCTAssertEqual(
      try ids(s.json("flows", "--all", "--oldest-first")),
      all.sorted { ($0.firstSeen, $0.id) < ($1.firstSeen, $1.id) }.map { Int($0.id) })
    XCTAssertEqual(
      Set(try ids(s.json("flows", "2", "--all"))),
      Set(try store.flows(inAuditSession: 2).map { Int($0.id) }))
    // Pages of three, through the cursor, give the same rows as one.
    XCTAssertEqual(
      try ids(s.json("flows", "--limit", "3")), Array(try ids(s.json("flows", "--all")).prefix(3)))
    let combined = try ids(
      s.json(
        "flows", "--all", "--status", "inspected", "--protocol", "tcp", "--host", "EXAMPLE-HEALTH"))
    let expected = all.filter {
      $0.tlsStatus == .inspected && $0.ipProtocol == .tcp
        && ([$0.sni, $0.dnsName, $0.connectHost].compactMap { $0 } + $0.dnsOtherNames + [
          $0.peers.a.address, $0.peers.b.address,
        ]).contains { $0.lowercased().contains("example-health") }
    }
    XCTAssertFalse(expected.isEmpty)
    XCTAssertEqual(Set(combined), Set(expected.map { Int($0.id) }))
    // A finding's connections are the ones findings.json says it cites.
    let findings = try XCTUnwrap(
      (s.json("findings", "2") as? [String: Any])?["findings"] as? [[String: Any]])
    let first = try XCTUnwrap(findings.first)
    XCTAssertEqual(
      Set(
        try ids(s.json("flows", "2", "--all", "--finding", try XCTUnwrap(first["id"] as? String)))),
      Set(try XCTUnwrap(first["flowIDs"] as? [Int])))
    let text = try s.tv("flows", "--limit", "5").output
    XCTAssertTrue(text.contains("no filter applies to this line"), text)
    // Each row begins with the id that `flow` and `packet` take, newest first.
    let newest = try ids(s.json("flows", "--limit", "5"))
    let rows = text.split(separator: "\n").filter { $0.first == " " || $0.first?.isNumber == true }
      .compactMap { Int($0.split(separator: " ").first ?? "") }
    XCTAssertEqual(rows, newest, text)
    XCTAssertTrue(text.contains("More connections follow"), text)
    XCTAssertEqual(try s.tv("flows", "--status", "sideways").status, 2)
    XCTAssertEqual(try s.tv("flows", "--finding", "F1").status, 2, "a finding needs its session")
    // #41.8: a status is one word, in the Timeline's row and in the connection's own lines alike.
    var words: [String: TLSInspectionStatus] = [:]
    for status in TLSInspectionStatus.allCases {
      guard let flow = all.first(where: { $0.tlsStatus == status }) else { continue }
      let rows = try s.tv("flows", "--all", "--status", status.name).output
      let row = try XCTUnwrap(
        rows.split(separator: "\n").first { $0.split(separator: " ").first == "\(flow.id)" }, rows)
      let shown = try s.tv("flow", String(flow.id)).output
      let line = try XCTUnwrap(
        shown.split(separator: "\n").first { $0.hasPrefix("  Status") }, shown)
      let word =
        line.dropFirst("  Status".count).trimmingCharacters(in: .whitespaces)
        .split(separator: ",").first.map(String.init) ?? ""
      XCTAssertFalse(word.isEmpty, shown)
      XCTAssertTrue(row.contains(word), "\(status): “\(word)” in `flow`, not in `flows`: \(row)")
      XCTAssertNil(words.updateValue(status, forKey: word), "two statuses said as \(word)")
    }
    XCTAssertGreaterThanOrEqual(words.count, 4, "\(words)")
  }

  func testAConnectionShowsWhatFlowsJSONHasAndItsPacketsBytesAreTsharks() throws {
    let s = try sample("flow")
    let bundle = s.dir.url.appendingPathComponent("b.zip").path
    XCTAssertEqual(try s.tv("export", "3", "-o", bundle, "--no-report").status, 0)
    let flowsJSON = try XCTUnwrap(ExternalTool.run("unzip", ["-p", bundle, "flows.json"])).output
    let records = try XCTUnwrap(
      (JSONSerialization.jsonObject(with: Data(flowsJSON.utf8)) as? [String: Any])?["flows"]
        as? [[String: Any]])
    XCTAssertFalse(records.isEmpty)
    for record in records.prefix(6) {
      let id = try XCTUnwrap(record["id"] as? Int)
      let shown = try XCTUnwrap(s.json("flow", String(id)) as? [String: Any])
      XCTAssertEqual(
        NSDictionary(dictionary: shown), NSDictionary(dictionary: record), "flow \(id)")
      XCTAssertEqual(try s.tv("flow", String(id)).status, 0)
    }
    // Packet 2 of a flow: the bytes of the second frame tshark reads with that flow's comment.
    let id = try XCTUnwrap(records.first?["id"] as? Int)
    let packet = try XCTUnwrap(s.json("packet", String(id), "2") as? [String: Any])
    let capture = s.dir.url.appendingPathComponent("capture.pcapng").path
    XCTAssertEqual(
      try ExternalTool.run(
        "sh", ["-c", "unzip -p \"$0\" capture.pcapng > \"$1\"", bundle, capture])?
        .status, 0)
    let tshark = try XCTUnwrap(
      ExternalTool.run(
        "tshark",
        [
          "-r", capture, "-Y",
          "frame.comment == \"flow=\(id)\" || frame.comment contains \"flow=\(id) \"", "-T",
          "fields", "-e", "frame.number",
        ]))
    let frames = tshark.output.split(separator: "\n")
    XCTAssertGreaterThan(frames.count, 1, tshark.error)
    let dump = try XCTUnwrap(
      ExternalTool.run("tshark", ["-r", capture, "-Y", "frame.number == \(frames[1])", "-x"])
    ).output
    let hex = dump.split(separator: "\n").compactMap { line -> String? in
      let parts = line.split(separator: " ", maxSplits: 1)
      guard parts.count == 2, parts[0].count == 4, parts[0].allSatisfy(\.isHexDigit) else {
        return nil
      }
      return parts[1].prefix(48).split(separator: " ").joined()
    }.joined()
    XCTAssertEqual(packet["bytes"] as? String, hex)
    XCTAssertTrue(try s.tv("packet", String(id), "2").output.contains("IP   version"))

    // A deleted capture file is said, not crashed on.
    let sequence = try XCTUnwrap(
      try s.flowStore.packets(forFlow: Int64(id)).first?.location.fileSequence)
    try FileManager.default.removeItem(
      atPath: s.store + "/captures/" + CaptureFileName.of(sequence: sequence))
    let gone = try s.tv("packet", String(id), "2")
    XCTAssertEqual(gone.status, 0, gone.error)
    XCTAssertTrue(gone.output.contains("which was deleted"), gone.output)
  }

  func testTheCaptureLibraryAndTheHistoryExport() throws {
    let s = try sample("captures")
    let rows = try XCTUnwrap(s.json("captures") as? [[String: Any]])
    let files = try FileManager.default.contentsOfDirectory(atPath: s.store + "/captures")
      .filter { $0.hasSuffix(".pcap") }
    XCTAssertEqual(rows.count, files.count)
    let evidence = try XCTUnwrap(rows.first { !($0["evidenceOfSessions"] as? [Int] ?? []).isEmpty })
    let sequence = String(try XCTUnwrap(evidence["sequence"] as? Int))
    let refused = try s.tv("captures", "delete", sequence)
    XCTAssertEqual(refused.status, 1)
    XCTAssertTrue(refused.error.contains("holds evidence of session"), refused.error)
    let copy = s.dir.url.appendingPathComponent("copy.pcap").path
    XCTAssertEqual(try s.tv("captures", "export", sequence, "-o", copy).status, 0)
    let count = try XCTUnwrap(
      ExternalTool.run("tshark", ["-r", copy, "-T", "fields", "-e", "frame.number"])
    ).output.split(separator: "\n").count
    XCTAssertEqual(count, evidence["packets"] as? Int)

    let export = s.dir.url.appendingPathComponent("history.json").path
    XCTAssertEqual(try s.tv("history", "export", "-o", export).status, 0)
    let parsed = try XCTUnwrap(
      ExternalTool.run(
        "python3",
        [
          "-c",
          "import json,sys; d=json.load(open(sys.argv[1])); print(d['totalCount'], len(d['flows']), d['truncated'])",
          export,
        ]))
    XCTAssertEqual(
      parsed.output,
      "\(try s.flowStore.historyFlowCount()) \(try s.flowStore.historyFlowCount()) False\n",
      parsed.error)
    XCTAssertEqual(try s.tv("history", "export", "-o", export).status, 1, "no --force")
  }

  /// A file's modification time is its last write, not its start: "created" is what the store
  /// recorded when it claimed the file's sequence, whatever the file system says later.
  func testACaptureFileIsCreatedWhenTheStoreStartedItNotWhenItWasLastTouched() throws {
    let s = try sample("captures-created")
    let database = s.store + "/history.sqlite"
    let started = try XCTUnwrap(
      ExternalTool.run("sqlite3", [database, "SELECT sequence, created_at FROM capture_files"])
    ).output.split(separator: "\n").map { $0.split(separator: "|").map(String.init) }
    XCTAssertFalse(started.isEmpty)
    for file in try FileManager.default.contentsOfDirectory(atPath: s.store + "/captures") {
      _ = try ExternalTool.run(
        "touch", ["-d", "2031-05-05T05:05:05Z", s.store + "/captures/" + file])
    }
    let rows = try XCTUnwrap(s.json("captures") as? [[String: Any]])
    for row in rows {
      let sequence = try XCTUnwrap(row["sequence"] as? Int)
      let claimed = try XCTUnwrap(started.first { $0.first == String(sequence) })
      let nanoseconds = try XCTUnwrap(Int64(claimed[1]))
      XCTAssertEqual(
        row["createdAt"] as? String, Instant.rfc3339(Instant.date(nanoseconds: nanoseconds)))
      XCTAssertFalse((row["createdAt"] as? String ?? "").hasPrefix("2031"))
    }
  }

  func testAnImportedRealCaptureIsListedAsTheStoreHoldsIt() throws {
    let binary = try TunnelVisionExecutable.url()
    let dir = TemporaryDirectory("flows-real")
    let s = Sample(binary: binary, dir: dir, store: dir.url.appendingPathComponent("store").path)
    XCTAssertEqual(try s.tv("project", "new", "P").status, 0)
    XCTAssertEqual(
      try s.tv("import", RecordCommandTests.realCapture.path, "--project", "P", "--baseline")
        .status, 0)
    let store = try s.flowStore
    XCTAssertEqual(
      try ids(s.json("flows", "1", "--all")).count, try store.flowCount(inAuditSession: 1))
    XCTAssertEqual(
      try ids(s.json("flows", "--all", "--protocol", "udp")).count,
      try store.allFlows().filter { $0.ipProtocol == .udp }.count)
  }

  func testPagesThroughTheCursorGiveEveryFlowOnceInOrder() throws {
    let s = try sample("cursor")
    let store = try s.flowStore
    for oldestFirst in [false, true] {
      var query = HistoryQuery()
      query.oldestFirst = oldestFirst
      var seen: [Int64] = []
      var cursor: HistoryCursor?
      repeat {
        let page = try store.historyPage(query, after: cursor, limit: 4)
        XCTAssertLessThanOrEqual(page.flows.count, 4)
        seen += page.flows.map(\.id)
        cursor = page.next
      } while cursor != nil
      let all = try store.allFlows()
      let order = all.sorted {
        oldestFirst
          ? ($0.firstSeen, $0.id) < ($1.firstSeen, $1.id)
          : ($0.firstSeen, $0.id) > ($1.firstSeen, $1.id)
      }
      XCTAssertEqual(seen, order.map(\.id))
    }
  }
}

extension HistoryCommandsTests {
  func testFollowingPrintsEachConnectionTheRecorderWrites() throws {
    let binary = try TunnelVisionExecutable.url()
    let dir = TemporaryDirectory("follow")
    let store = dir.url.appendingPathComponent("store").path
    XCTAssertEqual(
      try ExternalTool.run(binary.path, ["project", "new", "P", "--store", store])?.status, 0)
    let follow = try RunningProcess(
      binary.path, ["flows", "--follow", "--json", "--store", store])
    // It says so once it follows.
    try follow.waitForOutput(containing: "Nothing is recording on this store")
    let recorded = try XCTUnwrap(
      ExternalTool.run(
        binary.path, ["record", "--read", "-", "--quiet", "--store", store],
        input: try Data(contentsOf: RecordCommandTests.realCapture)))
    XCTAssertEqual(recorded.status, 0, recorded.error)
    let written = try StoreCount.of(store, "SELECT count(*) FROM flows")
    try Readiness.wait("the follower printing \(written) connections") {
      follow.outputSoFar.output.split(separator: "\n").count >= written
    }
    let followed = follow.end(SIGINT)
    let lines = followed.output.split(separator: "\n")
    let ids = try lines.map {
      try XCTUnwrap(
        (JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["id"] as? Int)
    }
    let all = try FlowStore(directory: URL(fileURLWithPath: store), reading: true).allFlows()
    XCTAssertGreaterThan(all.count, 0)
    XCTAssertEqual(ids.sorted(), all.map { Int($0.id) }.sorted(), "each new connection, once")
    XCTAssertTrue(followed.error.contains("Nothing is recording on this store"), followed.error)
  }
}
