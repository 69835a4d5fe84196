import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Capture
import Crypto
import FlowStore
import Foundation
import ReportContent
import ReportLayout
import ReportModel
import Sample
import TestSupport
import TrackerRules
import XCTest

@testable import Evidence

/// Exports of the sample store through real files, checked with tools that are not ours.
final class EvidenceExportTests: XCTestCase {
  nonisolated(unsafe) static var sample: TemporaryDirectory!
  static let exportedAt = Date(timeIntervalSince1970: 1_791_370_800)  // 2026-10-07T11:00:00Z

  override class func tearDown() {
    sample = nil
    super.tearDown()
  }

  override class func setUp() {
    sample = TemporaryDirectory("evidence-sample")
    _ = try! SampleWriter.write(
      SampleScenario.plan(SampleOptions()), to: sample.url.appendingPathComponent("store"),
      rotationBytes: 40_000)
  }

  /// A fresh copy of the sample store, for tests that change it.
  func copyOfStore() throws -> (TemporaryDirectory, FlowStore) {
    let dir = TemporaryDirectory("evidence-copy")
    try FileManager.default.copyItem(
      at: Self.sample.url.appendingPathComponent("store"),
      to: dir.url.appendingPathComponent("store"))
    return (dir, try FlowStore(directory: dir.url.appendingPathComponent("store")))
  }

  func laterSession(_ store: FlowStore) throws -> AuditSession {
    let project = try XCTUnwrap(store.auditProjects().first { $0.name == "Example Health" })
    return try XCTUnwrap(
      store.auditSessions(forProject: project.id).first { $0.kind.release?.version == "2.4.0" })
  }

  func export(
    _ store: FlowStore, into dir: TemporaryDirectory, name: String = "bundle.zip",
    session: Int64? = nil
  ) throws -> EvidenceExportResult {
    let exporter = EvidenceExporter(
      store: store, temporaryDirectory: dir.url.appendingPathComponent("tmp"))
    return try exporter.export(
      sessionID: try session ?? laterSession(store).id, exportedWith: "tunnelvision 0.1.0",
      now: Self.exportedAt, destination: dir.url.appendingPathComponent(name))
  }

  func unzip(_ archive: URL, into dir: URL) throws {
    let result = try XCTUnwrap(
      ExternalTool.run(
        "python3",
        [
          "-c", "import zipfile,sys; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])",
          archive.path, dir.path,
        ]))
    XCTAssertEqual(result.status, 0, result.error)
  }

  func testTheArchiveIsAcceptedByUnzipAndEverySizeAndDigestAgreesWithSha256sum() throws {
    let (dir, store) = try copyOfStore()
    let result = try export(store, into: dir)
    XCTAssertEqual(
      result.fileNames,
      [
        "capture.json", "capture.pcapng", "exchanges.json", "findings.json", "flows.csv",
        "flows.json",
        "session.json", "manifest.json",
      ])
    let test = try XCTUnwrap(ExternalTool.run("unzip", ["-t", result.url.path]))
    XCTAssertEqual(test.status, 0, test.output)
    XCTAssertTrue(test.output.contains("No errors detected"), test.output)
    let out = dir.url.appendingPathComponent("out")
    try unzip(result.url, into: out)
    let manifest = try XCTUnwrap(
      JSONSerialization.jsonObject(
        with: Data(contentsOf: out.appendingPathComponent("manifest.json"))) as? [String: Any])
    let files = try XCTUnwrap(manifest["files"] as? [[String: Any]])
    XCTAssertEqual(
      files.map { $0["name"] as? String },
      [
        "capture.json", "capture.pcapng", "exchanges.json", "findings.json", "flows.csv",
        "flows.json",
        "session.json",
      ])
    for file in files {
      let path = out.appendingPathComponent(file["name"] as! String).path
      let sum = try XCTUnwrap(ExternalTool.run("sha256sum", [path]))
      XCTAssertEqual(String(sum.output.prefix(64)), file["sha256"] as? String, path)
      XCTAssertEqual(
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue,
        file["byteCount"] as? Int)
    }
    // Every JSON document parses with an independent parser.
    for name in ["session.json", "flows.json", "findings.json", "capture.json"] {
      XCTAssertNoThrow(
        try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent(name))),
        name)
    }
  }

  func testTheCaptureHoldsExactlyWhatCaptureJSONCountsWithCommentsAndDirections() throws {
    guard ExternalTool.which("tshark") != nil else {
      throw XCTSkip("tshark is not installed (make test installs it)")
    }
    let (dir, store) = try copyOfStore()
    let result = try export(store, into: dir)
    let out = dir.url.appendingPathComponent("out")
    try unzip(result.url, into: out)
    let pcapng = out.appendingPathComponent("capture.pcapng").path
    let doc = try XCTUnwrap(
      JSONSerialization.jsonObject(
        with: Data(contentsOf: out.appendingPathComponent("capture.json"))) as? [String: Any])
    let packetsObject = try XCTUnwrap(doc["packets"] as? [String: Any])
    let packets = packetsObject.compactMapValues { $0 as? Int }
    let without = try XCTUnwrap(packetsObject["withoutBytes"] as? [String: Int])
    XCTAssertEqual(
      packets["recorded"], packets["written"]! + without.values.reduce(0, +),
      "recorded = written + every reason")
    XCTAssertGreaterThan(without["notCaptured"]!, 0)
    XCTAssertGreaterThan(without["captureFileMissing"]!, 0)
    XCTAssertEqual(without["recordUnreadable"], 1)
    XCTAssertEqual(
      (doc["writtenOutsideSession"] as? [String: Int])?["beforeStart"], 0,
      "a connection open before the session is continued in a row from its start")
    let flows = try XCTUnwrap(doc["flows"] as? [[String: Any]])
    XCTAssertEqual(flows.count, result.flowCount, "every flow, also those with no packets")
    let sum = flows.reduce(0) { $0 + (($1["written"] as? Int) ?? 0) }
    XCTAssertEqual(sum, packets["written"])
    let sources = try XCTUnwrap(doc["sourceFiles"] as? [[String: Any]])
    XCTAssertTrue(sources.contains { $0["status"] as? String == "missing" })
    XCTAssertEqual(
      sources.map { $0["sequence"] as! Int }, sources.map { $0["sequence"] as! Int }.sorted())

    let capinfos = try XCTUnwrap(ExternalTool.run("capinfos", ["-c", "-M", pcapng]))
    XCTAssertTrue(
      capinfos.output.contains("Number of packets:   \(packets["written"]!)"), capinfos.output)
    let fields = try XCTUnwrap(
      ExternalTool.run(
        "tshark",
        [
          "-r", pcapng, "-T", "fields", "-e", "frame.comment", "-e", "frame.packet_flags_direction",
          "-e", "ip.src", "-e", "ipv6.src",
        ]))
    XCTAssertEqual(fields.status, 0, fields.error)
    let lines = fields.output.split(separator: "\n").map {
      $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    }
    XCTAssertEqual(lines.count, packets["written"])
    // Each packet names its flow and that flow's findings, and its direction agrees with its
    // source address. A flow whose connection opened in a row outside the bundle (flows.json's
    // openedIn) names them as resting on earlier packets, with that row.
    let flowsDoc = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("flows.json")))
        as? [String: Any])
    let records = flowsDoc["flows"] as! [[String: Any]]
    let held = Set(records.map { $0["id"] as! Int })
    let findingIDs = Dictionary(
      uniqueKeysWithValues: records.map { record -> (Int, String) in
        let ids = (record["findingIDs"] as! [String]).joined(separator: ",")
        guard let opening = record["openedIn"] as? [String: Any],
          let row = opening["flowID"] as? Int, !held.contains(row)
        else { return (record["id"] as! Int, ids) }
        let session = (opening["session"] as? Int).map(String.init) ?? "none"
        return (record["id"] as! Int, " readEarlier=\(ids) openedIn=\(row) session=\(session)")
      })
    XCTAssertTrue(
      findingIDs.values.contains { $0.hasPrefix(" readEarlier=F") }, "the sample has one such flow")
    let devices: Set<String> = ["10.0.0.2", "fd00:0:0:1::2"]
    for line in lines {
      let comment = line[0]
      let parts = comment.split(separator: " ")
      let flow = try XCTUnwrap(Int(parts[0].dropFirst("flow=".count)), comment)
      XCTAssertEqual(
        String(comment.dropFirst("flow=\(flow) findings=".count)), findingIDs[flow], comment)
      let source = line[2].isEmpty ? line[3] : line[2]
      let outbound = devices.contains(source)
      XCTAssertTrue(
        line[1] == (outbound ? "2" : "1") || line[1] == (outbound ? "0x00000002" : "0x00000001"),
        "direction \(line[1]) for \(source)")
    }
  }

  func testTwoExportsWithTheSameInstantAreByteIdentical() throws {
    let (dir, store) = try copyOfStore()
    let a = try Data(contentsOf: export(store, into: dir, name: "a.zip").url)
    let b = try Data(contentsOf: export(store, into: dir, name: "b.zip").url)
    XCTAssertEqual(a, b)
    XCTAssertEqual(SHA256Digest.hex(of: a), SHA256Digest.hex(of: b))
  }

  /// The lists' rules serve the classification only: the export lets them go before it writes
  /// the files, and the findings still cite the list and the rule that matched.
  func testAnExportCitesTheTrackerListsRulesAndLetsTheListsGoOnceItHasClassified() throws {
    let (dir, store) = try copyOfStore()
    let exporter = EvidenceExporter(
      store: store, temporaryDirectory: dir.url.appendingPathComponent("tmp"))
    exporter.trackers = TrackerLists([
      TrackerList(
        identity: TrackerList.Identity(
          name: "Lab list", path: "/lab.txt", sha256: String(repeating: "0", count: 64),
          date: "2026-10-01"), text: "||example-cdn.net^\n")
    ])
    let url = try exporter.export(
      sessionID: try laterSession(store).id, exportedWith: "t", now: Self.exportedAt,
      destination: dir.url.appendingPathComponent("bundle.zip")
    ).url
    XCTAssertTrue(exporter.trackers == nil, "the exporter still holds the lists")
    let archive = try ZipArchiveReader(url: url)
    let findings = try XCTUnwrap(
      JSONSerialization.jsonObject(
        with: archive.data(XCTUnwrap(archive.entries.first { $0.name == "findings.json" })))
        as? [String: Any])
    let cited = (findings["findings"] as? [[String: Any]] ?? []).compactMap {
      $0["tracker"] as? [String: String]
    }
    XCTAssertFalse(cited.isEmpty)
    for tracker in cited {
      XCTAssertEqual(
        tracker, ["list": "Lab list", "date": "2026-10-01", "rule": "||example-cdn.net^"])
    }
  }

  /// An export killed while it wrote leaves its directory under TMPDIR (a bundle's deflated
  /// documents); the next export of the same user removes those whose process is gone.
  func testAnExportsTemporaryDirectoryIsOfItsProcessAndAKilledExportsIsRemovedByTheNext() throws {
    let temporary = TemporaryDirectory("tmpdir")
    let saved = ProcessInfo.processInfo.environment["TMPDIR"]
    setenv("TMPDIR", temporary.url.path, 1)
    defer { if let saved { setenv("TMPDIR", saved, 1) } else { unsetenv("TMPDIR") } }
    let ended = try EndedProcess.id()
    let uid = getuid()
    let names = [
      "tunnelvision-export-\(uid)-\(ended)-6F9725E5-FD2A-49B6-8ADE-DF1541041D14",  // killed: goes
      // running: stays
      "tunnelvision-export-\(uid)-\(getpid())-0F9725E5-FD2A-49B6-8ADE-DF1541041D14",
      // another user's: stays
      "tunnelvision-export-\(uid &+ 1)-\(ended)-1F9725E5-FD2A-49B6-8ADE-DF1541041D14",
      "tunnelvision-export-\(uid)-D1206B7A-2A82-40EC-ADF0-7F3CBDFC6234",
    ]  // no process named: stays
    for name in names {
      try FileManager.default.createDirectory(
        at: temporary.url.appendingPathComponent(name), withIntermediateDirectories: false)
    }
    let fresh = EvidenceExporter.newTemporaryDirectory()
    XCTAssertEqual(
      fresh.deletingLastPathComponent().standardizedFileURL.path,
      temporary.url.standardizedFileURL.path)
    XCTAssertTrue(
      fresh.lastPathComponent.hasPrefix("tunnelvision-export-\(uid)-\(getpid())-"),
      fresh.lastPathComponent)
    XCTAssertEqual(
      Set(try FileManager.default.contentsOfDirectory(atPath: temporary.url.path)),
      Set(names.dropFirst()))
  }

  /// Another version's documents may be worded or laid out otherwise: not re-derived, and said so.
  func testABundleOfAnotherVersionIsNotRederivedAndVerifySaysNotEveryCheckWasMade() throws {
    let (dir, store) = try copyOfStore()
    let exporter = EvidenceExporter(
      store: store, temporaryDirectory: dir.url.appendingPathComponent("tmp"))
    let url = try exporter.export(
      sessionID: try laterSession(store).id, exportedWith: "tunnelvision 0.0.9",
      now: Self.exportedAt, destination: dir.url.appendingPathComponent("old.zip")
    ).url
    let checks = BundleVerifier.verify(url)
    XCTAssertTrue(checks.allSatisfy(\.holds), "\(checks.filter { !$0.holds })")
    XCTAssertEqual(
      checks.filter { !$0.made }.map(\.statement),
      [VerifyWording.notRederived(exportedWith: "tunnelvision 0.0.9")])
    let text = VerifyPresentation.text(path: "old.zip", checks)
    XCTAssertTrue(text.hasSuffix(VerifyPresentation.incomplete + "\n"), text)
    XCTAssertFalse(text.contains("Every check holds."))
    XCTAssertTrue(
      VerifyPresentation.text(
        path: "new.zip", BundleVerifier.verify(try export(store, into: dir).url)
      )
      .hasSuffix("Every check holds.\n"))
  }

  func testVerifyPassesAFreshBundle() throws {
    let (dir, store) = try copyOfStore()
    let checks = BundleVerifier.verify(try export(store, into: dir).url)
    XCTAssertEqual(checks.count, 11)
    XCTAssertTrue(checks.contains { $0.statement == DocumentAgreement.statement })
    XCTAssertTrue(checks.contains { $0.statement == VerifyWording.formStatement })
    XCTAssertTrue(checks.contains { $0.statement.hasPrefix(VerifyWording.rederivedStatement) })
    XCTAssertTrue(checks.allSatisfy(\.holds), "\(checks.filter { !$0.holds })")
  }

  func testVerifyNamesDocumentsThatDisagreeOnTheSessionTheExportOrTheCount() throws {
    let (dir, store) = try copyOfStore()
    let url = try export(store, into: dir).url
    let session = try XCTUnwrap(
      VerifiedSessionFacts.read(
        ZipArchiveReader(url: url).data(
          XCTUnwrap(ZipArchiveReader(url: url).entries.first { $0.name == "session.json" }))))
    let id = try XCTUnwrap(session.sessionID)
    let started = try XCTUnwrap(session.startedAt)
    let exported = try XCTUnwrap(session.exportedAt)
    // Each copy edits one document (the manifest made to agree) as the reliability run did.
    let cases: [(entry: String, mode: String, expected: String)] = [
      (
        "findings.json", "other",
        "findings.json is of session \(id + 1); manifest.json says session \(id)"
      ),
      ("flows.json", "huge", "flows.json has no integer sessionID"),
      ("capture.json", "zero", "capture.json is of session 0; manifest.json says session \(id)"),
      ("flows.json", "count", "flows.json's flowCount is 7; it lists"),
      (
        "session.json", "garbage",
        "session.json has no exportedAt instant in RFC 3339 as export writes it"
      ),
      (
        "session.json", "ends",
        "session.json's session ends at 2000-01-01T00:00:00Z, before it starts at \(started)"
      ),
    ]
    let code = """
      d=json.loads(orig)
      if arg=='other': d['sessionID']+=1
      elif arg=='huge': d['sessionID']=1e308
      elif arg=='zero': d['sessionID']=0
      elif arg=='count': d['flowCount']=7
      elif arg=='garbage': d['exportedAt']='yesterday'
      elif arg=='ends': d['session']['endedAt']='2000-01-01T00:00:00Z'
      data=json.dumps(d, indent=2, sort_keys=True).encode()
      """
    for (entry, mode, expected) in cases {
      let copy = dir.url.appendingPathComponent("\(mode).zip")
      try self.copy(of: url, to: copy, replacing: entry, python: code, argument: mode)
      let failed = BundleVerifier.verify(copy).filter { !$0.holds }
      // The re-derived findings.json and session.json differ too, where those were edited, and
      // an edited capture.json or flows.json is not written as export writes its values.
      XCTAssertEqual(
        failed.map(\.statement).filter {
          !$0.hasPrefix(VerifyWording.rederivedStatement)
            && $0 != VerifyWording.formStatement
        },
        [DocumentAgreement.statement], "\(mode): \(failed)")
      let problems = failed.filter { $0.statement == DocumentAgreement.statement }.flatMap(
        \.problems)
      XCTAssertTrue(problems.contains { $0.hasPrefix(expected) }, "\(mode): \(problems)")
      if mode == "garbage" {
        XCTAssertTrue(
          problems.contains(
            "session.json was exported at yesterday; manifest.json says \(exported)"),
          "\(problems)")
      }
    }
  }

  func testVerifyReDerivesTheFindingsAndVerdictsFromTheFlowsAndTheSession() throws {
    let (dir, store) = try copyOfStore()
    let url = try export(store, into: dir).url
    // Each copy edits one document so that every other check still holds: the manifest made to
    // agree, the citations left as they were.
    let code = """
      d=json.loads(orig)
      if arg=='verdict':
          r=next(r for r in d['requirements'] if r['verdict']=='contradicted'); r['verdict']='observed'
      elif arg=='tls':
          f=next(f for f in d['findings'] if f.get('tls')); f['tls']['version']='TLS 1.3'
      elif arg=='inspection':
          i=d['session']['inspection']; i['certificateScenario']=None if i['certificateScenario'] else 'systemTrust'
      elif arg=='allowlist': d['project']['allowlist']=[]
      elif arg=='coverage': d['session']['recording']['runs'][0]['endedAt']=d['session']['startedAt']
      elif arg=='source': d['catalogue']['source']['sha256']='0'*64
      data=json.dumps(d, indent=2, sort_keys=True, ensure_ascii=False).encode()
      """
    let cases: [(entry: String, mode: String, expected: String)] = [
      (
        "findings.json", "verdict",
        "’s verdict is “observed” in findings.json; the flows give “contradicted”"
      ),
      ("findings.json", "tls", "findings.json is not the document the flows and the session give"),
      ("session.json", "inspection", "the flows give"),
      ("session.json", "allowlist", "the flows give"),
      (
        "session.json", "coverage",
        "session.json is not the document the flows and the session give"
      ),
      ("findings.json", "source", "with a source other than the one this tool carries"),
    ]
    for (entry, mode, expected) in cases {
      let copy = dir.url.appendingPathComponent("rederive-\(mode).zip")
      try self.copy(of: url, to: copy, replacing: entry, python: code, argument: mode)
      let failed = BundleVerifier.verify(copy).filter { !$0.holds }
      XCTAssertEqual(failed.count, 1, "\(mode): \(failed)")
      XCTAssertTrue(
        failed.first?.statement.hasPrefix(VerifyWording.rederivedStatement) == true)
      XCTAssertTrue(
        failed.flatMap(\.problems).contains {
          $0.contains(expected.replacingOccurrences(of: "’", with: "'"))
        },
        "\(mode): \(failed.flatMap(\.problems))")
    }
  }

  func testVerifyRefusesAnArchiveLaidOutOtherwiseThanExportWritesIt() throws {
    let (dir, store) = try copyOfStore()
    let url = try export(store, into: dir).url
    // Each copy departs from the export's layout in one way; the bytes of every entry stay.
    let script = #"""
      import zipfile, sys, shutil
      src, out = sys.argv[1], sys.argv[2]
      def copy(name, change):
          z = zipfile.ZipFile(src); dst = zipfile.ZipFile(out + "/" + name, "w")
          for info in z.infolist(): change(dst, info, z.read(info))
          dst.close()
      def plain(dst, info, data): dst.writestr(info, data)
      def twice(dst, info, data):
          dst.writestr(info, data)
          if info.filename == "session.json": dst.writestr(info, b"{}")
      def executable(dst, info, data):
          if info.filename == "flows.csv": info.external_attr = 0o100755 << 16
          dst.writestr(info, data)
      def link(dst, info, data):
          if info.filename == "session.json": info.external_attr = 0o120777 << 16
          dst.writestr(info, data)
      import warnings; warnings.simplefilter("ignore")
      def zip64(dst, info, data):
          with dst.open(info, "w", force_zip64=info.filename == "session.json") as f: f.write(data)
      def stamp(dst, info, data):
          if info.filename == "flows.json": info.extra = b"UT\x05\x00\x01\x00\x00\x00\x00"
          dst.writestr(info, data)
      copy("twice.zip", twice); copy("executable.zip", executable); copy("link.zip", link)
      copy("zip64.zip", zip64); copy("stamp.zip", stamp)
      shutil.copy(src, out + "/comment.zip")
      z = zipfile.ZipFile(out + "/comment.zip", "a"); z.comment = b"an archive comment"; z.close()
      data = open(src, "rb").read()
      open(out + "/prefix.zip", "wb").write(b"MZ" + bytes(62) + data)
      at = data.index(b"flows.json")
      open(out + "/local-name.zip", "wb").write(data[:at] + b"../evil.sh" + data[at + 10:])
      # The first local header's time, a minute on; the first directory record made by MS-DOS.
      b = bytearray(data); b[10] ^= 0x20; open(out + "/time.zip", "wb").write(bytes(b))
      b = bytearray(data); c = data.index(b"PK\x01\x02"); b[c + 5] = 0
      open(out + "/made-by.zip", "wb").write(bytes(b))
      """#
    let run = try XCTUnwrap(ExternalTool.run("python3", ["-c", script, url.path, dir.url.path]))
    XCTAssertEqual(run.status, 0, run.error)
    for (name, expected) in [
      ("twice.zip", "the entry session.json is there twice"),
      ("executable.zip", "the entry flows.csv would be extracted as mode 100755, not a plain file"),
      ("link.zip", "the entry session.json would be extracted as mode 120777, not a plain file"),
      ("comment.zip", "the archive carries a comment of 18 bytes"),
      ("local-name.zip", "the local header of flows.json names “../evil.sh”"),
      (
        "zip64.zip",
        "the local header of session.json takes ZIP64 sizes for sizes that fit in 32 bits"
      ),
      ("stamp.zip", "the directory record of flows.json carries an extra field of type 0x5455"),
      ("time.zip", "the local header of capture.json differs from its directory record"),
      ("made-by.zip", "the directory record of capture.json carries “made by” 0x2d"),
    ] {
      let checks = BundleVerifier.verify(dir.url.appendingPathComponent(name))
      let problems = checks.flatMap(\.problems)
      XCTAssertTrue(problems.contains(expected), "\(name): \(problems)")
      XCTAssertFalse(checks.allSatisfy(\.holds), name)
    }
    let prefixed = BundleVerifier.verify(dir.url.appendingPathComponent("prefix.zip"))
    XCTAssertFalse(prefixed.allSatisfy(\.holds), "bytes before the archive")
  }

  func testVerifyPassesABundleWhoseNamesASpreadsheetWouldRunAsFormulas() throws {
    let (dir, store) = try copyOfStore()
    let session = try laterSession(store)
    var flow = try XCTUnwrap(store.flows(inAuditSession: session.id).first { $0.sni != nil })
    flow.sni = "=HYPERLINK(\"http://example.invalid\",\"x\")"
    flow.dnsOtherNames = ["@evil", "+1"]
    try store.upsertFlow(flow)
    let bundle = try export(store, into: dir)
    let checks = BundleVerifier.verify(bundle.url)
    XCTAssertTrue(checks.allSatisfy(\.holds), "\(checks.filter { !$0.holds })")
    try unzip(bundle.url, into: dir.url.appendingPathComponent("x"))
    let csv = try String(contentsOf: dir.url.appendingPathComponent("x/flows.csv"), encoding: .utf8)
    XCTAssertTrue(csv.contains(",\"'=HYPERLINK(\"\"http://example.invalid\"\",\"\"x\"\")\","), csv)
    XCTAssertTrue(csv.contains(",'@evil +1,"), csv)
    let json = try String(
      contentsOf: dir.url.appendingPathComponent("x/flows.json"), encoding: .utf8)
    XCTAssertTrue(json.contains("\"sni\": \"=HYPERLINK("), "flows.json keeps the name as it was")
  }

  func testVerifyFailsABundleWithAChangedByteNamingTheFile() throws {
    let (dir, store) = try copyOfStore()
    let url = try export(store, into: dir).url
    var data = try Data(contentsOf: url)
    // A byte in the middle of capture.pcapng's data (stored or deflated, whichever it is here).
    let archive = try ZipArchiveReader(url: url)
    let entry = try XCTUnwrap(archive.entries.first { $0.name == "capture.pcapng" })
    let at =
      Int(entry.localHeaderOffset) + 30 + entry.name.utf8.count + Int(entry.compressedSize / 2)
    data[at] ^= 0xff
    try data.write(to: url)
    let failed = BundleVerifier.verify(url).filter { !$0.holds }
    XCTAssertFalse(failed.isEmpty)
    XCTAssertTrue(
      failed.flatMap(\.problems).contains { $0.hasPrefix("capture.pcapng") }, "\(failed)")
  }

  func testVerifyFailsABundleWithAMissingFileNamingIt() throws {
    let (dir, store) = try copyOfStore()
    let url = try export(store, into: dir).url
    let stripped = dir.url.appendingPathComponent("stripped.zip")
    let script = """
      import zipfile,sys
      src=zipfile.ZipFile(sys.argv[1]); dst=zipfile.ZipFile(sys.argv[2],'w')
      [dst.writestr(i, src.read(i)) for i in src.infolist() if i.filename != 'findings.json']
      dst.close()
      """
    XCTAssertEqual(
      try ExternalTool.run("python3", ["-c", script, url.path, stripped.path])?.status, 0)
    let failed = BundleVerifier.verify(stripped).filter { !$0.holds }
    XCTAssertTrue(
      failed.flatMap(\.problems).contains(
        "findings.json is in the manifest but not in the archive"), "\(failed)")
  }

  /// Copies of the bundle at `url`, one per edit, each with one cell of flows.csv's fourth row
  /// changed and the manifest updated to match, so that only the comparison with flows.json can
  /// tell. An edit without a value appends "9" to the cell (or writes "x" into an empty one).
  func copiesWithAnEditedCSVCell(
    of url: URL, into dir: URL, _ edits: [(file: String, column: String, value: String?)]
  ) throws -> [URL] {
    let script = """
      import zipfile,sys,csv,io,hashlib,json,os,copy
      src=zipfile.ZipFile(sys.argv[1])
      rows=list(csv.reader(io.StringIO(src.read('flows.csv').decode(), newline='')))
      for edit in json.loads(sys.argv[3]):
          col=rows[0].index(edit['column']); edited=[list(r) for r in rows]
          cell=edited[3][col]; edited[3][col]=edit['value'] if edit['value'] is not None else (cell+'9' if cell else 'x')
          out=io.StringIO(); csv.writer(out, lineterminator='\\r\\n').writerows(edited); data=out.getvalue().encode()
          m=json.loads(src.read('manifest.json'))
          for f in m['files']:
              if f['name']=='flows.csv': f['sha256']=hashlib.sha256(data).hexdigest(); f['byteCount']=len(data)
          dst=zipfile.ZipFile(os.path.join(sys.argv[2], edit['file']),'w')
          for i in src.infolist():
              info=copy.copy(i)
              if i.filename=='flows.csv': dst.writestr(info, data)
              elif i.filename=='manifest.json': dst.writestr(info, json.dumps(m))
              else: dst.writestr(info, src.read(i))
          dst.close()
      """
    let list = JSONValue.array(
      edits.map {
        .object([
          "file": .string($0.file), "column": .string($0.column),
          "value": $0.value.map(JSONValue.string) ?? .null,
        ])
      })
    let run = try XCTUnwrap(
      ExternalTool.run("python3", ["-c", script, url.path, dir.path, list.serialized()]))
    XCTAssertEqual(run.status, 0, run.error)
    return edits.map { dir.appendingPathComponent($0.file) }
  }

  /// The later session's bundle with report.pdf drawn, as `export` makes it.
  func exportWithTheReport(_ store: FlowStore, into dir: TemporaryDirectory) throws -> URL {
    let exporter = EvidenceExporter(
      store: store, temporaryDirectory: dir.url.appendingPathComponent("tmp"))
    exporter.report = EvidenceReportRenderer.forExporter
    return try exporter.export(
      sessionID: try laterSession(store).id, exportedWith: "tunnelvision 0.1.0",
      now: Self.exportedAt, destination: dir.url.appendingPathComponent("with-report.zip")
    ).url
  }

  func testVerifyDrawsTheReportAgainAndRefusesOneThatDiffers() throws {
    let (dir, store) = try copyOfStore()
    let url = try exportWithTheReport(store, into: dir)
    XCTAssertTrue(BundleVerifier.verify(url).allSatisfy(\.holds))
    // report.pdf is not JSON: one of its bytes is changed where the report says "Summary".
    let copy = dir.url.appendingPathComponent("report-edited.zip")
    try self.copy(
      of: url, to: copy, replacing: "report.pdf",
      python: "data=orig.replace(b'Summary', b'Summarx', 1)")
    let failed = BundleVerifier.verify(copy).filter { !$0.holds }
    XCTAssertEqual(failed.count, 1, "\(failed)")
    XCTAssertTrue(
      failed.flatMap(\.problems).contains(VerifyWording.documentDiffers("report.pdf")),
      "\(failed)")
  }

  /// Without a report to draw again, capture.json's prose and flows.json's layout are still the
  /// format's: each is written again from the values it holds and must give the same bytes.
  func testVerifyWritesCaptureJSONAndFlowsJSONAgainAndRefusesAnotherForm() throws {
    let (dir, store) = try copyOfStore()
    let url = try export(store, into: dir).url
    XCTAssertTrue(BundleVerifier.verify(url).allSatisfy(\.holds))
    let cases: [(entry: String, code: String)] = [
      ("capture.json", "data = orig.replace(b'sliced from', b'sliced out of', 1)"),
      ("capture.json", "data = orig.replace(b'\\n  ', b'\\n   ', 1)"),
      ("flows.json", "data = orig.replace(b'\\n      ', b'\\n\\t', 1)"),
      (
        "flows.json",
        "d = json.loads(orig); d['flows'][0]['bytesIn'] = float(d['flows'][0]['bytesIn']); data = json.dumps(d, indent=2, sort_keys=True).encode() + b'\\n'"
      ),
      ("capture.json", "data = orig.replace(b'\"status\": \"read\"', b'\"status\": \"Read\"', 1)"),
    ]
    for (index, (entry, code)) in cases.enumerated() {
      let copy = dir.url.appendingPathComponent("form-\(index).zip")
      try self.copy(of: url, to: copy, replacing: entry, python: code)
      let problems = BundleVerifier.verify(copy).filter { !$0.holds }.flatMap(\.problems)
      XCTAssertTrue(
        problems.contains(VerifyWording.formDiffers(entry)), "\(index): \(problems)")
    }
  }

  /// Where a document is JSON but not of the format's form, verify names the key that departs,
  /// from the document's table: a key missing, one the format lacks, a value of another form.
  func testVerifyNamesTheKeyThatDepartsFromTheDocumentsTable() throws {
    let (dir, store) = try copyOfStore()
    let url = try export(store, into: dir).url
    let edit =
      "d = json.loads(orig); {}; data = json.dumps(d, indent=2, sort_keys=True).encode() + b'\\n'"
    let cases: [(entry: String, code: String, named: String)] = [
      ("capture.json", "del d['coverage']", "capture.json's coverage is missing"),
      (
        "capture.json", "d['flows'][1]['written'] = 'all'",
        "capture.json's flows[1].written is not a whole number"
      ),
      (
        "session.json", "d['session']['device']['serial'] = 'R58M'",
        "session.json's session.device.serial is not a key of the format"
      ),
      (
        "findings.json", "d['findings'][0]['tls'] = []",
        "findings.json's findings[0].tls is not an object"
      ),
      (
        "flows.json", "d['flows'][2]['peers'][0]['port'] = '443'",
        "flows.json's flows[2].peers[0].port is not a whole number"
      ),
    ]
    for (index, (entry, code, named)) in cases.enumerated() {
      let copy = dir.url.appendingPathComponent("keys-\(index).zip")
      try self.copy(
        of: url, to: copy, replacing: entry,
        python: edit.replacingOccurrences(of: "{}", with: code))
      let problems = BundleVerifier.verify(copy).filter { !$0.holds }.flatMap(\.problems)
      XCTAssertTrue(problems.contains(named), "\(index): \(problems)")
    }
  }

  /// Page 1 of report.pdf cites the SHA-256 of every other file, as manifest.json lists them; a
  /// packet changed with the manifest recomputed then no longer matches the report verify draws.
  func testTheFirstPageCitesTheManifestsDigestsAndAChangedPacketNoLongerMatchesIt() throws {
    let (dir, store) = try copyOfStore()
    let url = try exportWithTheReport(store, into: dir)
    let out = dir.url.appendingPathComponent("out")
    try unzip(url, into: out)
    guard
      let page = try ExternalTool.run(
        "pdftotext",
        ["-f", "1", "-l", "1", "-layout", out.appendingPathComponent("report.pdf").path, "-"])
    else { throw XCTSkip("pdftotext is not installed (make test installs poppler-utils)") }
    let cited = Dictionary(
      uniqueKeysWithValues: page.output.split(separator: "\n").compactMap {
        line -> (String, String)? in
        let words = line.split(separator: " ")
        guard words.count == 2, words[1].count == 64 else { return nil }
        return (String(words[0]), String(words[1]))
      })
    let listed = try XCTUnwrap(
      ExternalTool.run(
        "python3",
        [
          "-c",
          "import json,sys; print('\\n'.join(f['name']+' '+f['sha256'] for f in json.load(open(sys.argv[1]))['files'] if f['name']!='report.pdf'))",
          out.appendingPathComponent("manifest.json").path,
        ]))
    let manifest = Dictionary(
      uniqueKeysWithValues: listed.output.split(separator: "\n").map {
        let words = $0.split(separator: " ")
        return (String(words[0]), String(words[1]))
      })
    XCTAssertEqual(cited, manifest)
    XCTAssertEqual(Set(cited.keys), Set(EvidenceBundle.reportCitedNames))

    // The last byte of the first packet's data changed, the manifest recomputed.
    let changed = dir.url.appendingPathComponent("packet-changed.zip")
    try copy(
      of: url, to: changed, replacing: "capture.pcapng",
      python: """
        b = bytearray(orig); at = 0
        while True:
            t, n = struct.unpack_from('<II', b, at)
            if t == 6: b[at + 28 + struct.unpack_from('<I', b, at + 20)[0] - 1] ^= 1; break
            at += n
        data = bytes(b)
        """)
    let failed = BundleVerifier.verify(changed).filter { !$0.holds }
    XCTAssertEqual(
      failed.flatMap(\.problems), [VerifyWording.documentDiffers("report.pdf")], "\(failed)")
  }

  /// The sample project has an ended baseline: the bundle cites its hosts, and what flows.json
  /// and findings.json say of them is re-derived from session.json.
  func testTheBaselinesHostsAreCitedAndWhatTheFlowsSayOfThemIsRederived() throws {
    let (dir, store) = try copyOfStore()
    let url = try export(store, into: dir).url
    let read = try XCTUnwrap(
      ExternalTool.run(
        "python3",
        [
          "-c",
          """
          import zipfile,json,sys
          z=zipfile.ZipFile(sys.argv[1])
          s=json.loads(z.read('session.json')); f=json.loads(z.read('flows.json'))
          print(s['baseline']['sessionID'], len(s['baseline']['hosts']),
                sum(1 for x in f['flows'] if x['alsoContactedInBaseline'] is True),
                sum(1 for x in f['flows'] if x['alsoContactedInBaseline'] is None))
          """, url.path,
        ]))
    XCTAssertEqual(read.status, 0, read.error)
    let numbers = read.output.split(separator: " ").compactMap {
      Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    let baseline = try XCTUnwrap(
      store.auditSessions(forProject: try laterSession(store).projectID).first {
        $0.kind == .baseline
      })
    let hosts = Set(
      try store.flows(inAuditSession: baseline.id).compactMap { $0.name?.text.lowercased() })
    XCTAssertEqual(numbers[0], Int(baseline.id))
    XCTAssertEqual(numbers[1], hosts.count)
    XCTAssertGreaterThan(numbers[2], 0, "a flow to a host the baseline contacted")
    XCTAssertTrue(BundleVerifier.verify(url).allSatisfy(\.holds))

    let flipped = dir.url.appendingPathComponent("flipped.zip")
    try copy(
      of: url, to: flipped, replacing: "flows.json",
      python: """
        d = json.loads(orig)
        f = next(x for x in d['flows'] if x['alsoContactedInBaseline'] is True)
        f['alsoContactedInBaseline'] = False
        data = json.dumps(d, indent=2, sort_keys=True, ensure_ascii=False).encode()
        """)
    let problems = BundleVerifier.verify(flipped).filter { !$0.holds }.flatMap(\.problems)
    XCTAssertTrue(
      problems.contains {
        $0.contains("alsoContactedInBaseline is false; session.json's baseline hosts give true")
      },
      "\(problems)")

    let forgotten = dir.url.appendingPathComponent("forgotten.zip")
    try copy(
      of: url, to: forgotten, replacing: "session.json",
      python: """
        d = json.loads(orig); d['baseline']['hosts'] = []
        data = (json.dumps(d, indent=2, sort_keys=True, ensure_ascii=False) + '\\n').encode()
        """)
    let refused = BundleVerifier.verify(forgotten).filter { !$0.holds }.flatMap(\.problems)
    XCTAssertTrue(
      refused.contains(VerifyWording.documentDiffers("findings.json")), "\(refused)")
  }

  func testVerifyCountsThatMustSumAndACaptureFramedOtherwiseThanExportWritesIt() throws {
    let (dir, store) = try copyOfStore()
    let url = try export(store, into: dir).url
    let code = #"""
      import re
      def blocks(b):
          at = 0
          while at + 12 <= len(b):
              t, n = struct.unpack_from('<II', b, at); yield at, t, n; at += n
      if arg == 'lf': data = orig.replace(b'\r\n', b'\n')
      elif arg in ('recorded', 'flowcount'):
          d = json.loads(orig)
          if arg == 'recorded': d['packets']['recorded'] += 1
          else: d['flows'][0]['packetCount'] += 1
          data = json.dumps(d, indent=2, sort_keys=True, ensure_ascii=False).encode()
      else:
          b = bytearray(orig)
          at = next(a for a, t, n in blocks(b) if t == 6)
          n = struct.unpack_from('<I', b, at + 4)[0]
          if arg == 'trailer': struct.pack_into('<I', b, at + n - 4, n + 4)
          elif arg == 'interface': struct.pack_into('<I', b, at + 8, 7)
          elif arg == 'block': b += struct.pack('<III', 5, 16, 0) + struct.pack('<I', 16)
          elif arg == 'comment':
              m = re.search(rb'flow=(\d+) findings=(F\d+),(F\d+)', bytes(b))
              b[m.start():m.end()] = m.group(0)[:m.start(3) - m.start() - 1].ljust(m.end() - m.start(), b' ')
          data = bytes(b)
      """#
    let cases: [(entry: String, mode: String, expected: String)] = [
      ("flows.csv", "lf", "flows.csv ends a line otherwise than with CR LF"),
      ("capture.json", "recorded", "capture.json's packets.recorded is"),
      ("flows.json", "flowcount", "packets in flows.json; capture.json records"),
      ("capture.pcapng", "trailer", "ends with a length other than the"),
      ("capture.pcapng", "interface", "names interface 7, which capture.pcapng does not describe"),
      ("capture.pcapng", "block", "holds a block of type 0x5"),
      ("capture.pcapng", "comment", "carry different comments"),
    ]
    for (entry, mode, expected) in cases {
      let copy = dir.url.appendingPathComponent("counts-\(mode).zip")
      try self.copy(of: url, to: copy, replacing: entry, python: code, argument: mode)
      let problems = BundleVerifier.verify(copy).filter { !$0.holds }.flatMap(\.problems)
      XCTAssertTrue(problems.contains { $0.contains(expected) }, "\(mode): \(problems)")
    }
  }

  func testADocumentLargerThanABundlesIsNotReadAndSaidSo() throws {
    let (dir, store) = try copyOfStore()
    let url = try export(store, into: dir).url
    let copy = dir.url.appendingPathComponent("wide-manifest.zip")
    // A manifest of 40,000 entries (1.7 MB): an export's is about a kilobyte.
    let script = """
      import zipfile, sys
      src = zipfile.ZipFile(sys.argv[1]); out = zipfile.ZipFile(sys.argv[2], 'w')
      wide = '{"files":[' + ','.join('{"name":"x%d","byteCount":1,"sha256":"aa"}' % i for i in range(40000)) + ']}'
      for info in src.infolist():
          out.writestr(info, wide.encode() if info.filename == 'manifest.json' else src.read(info))
      out.close()
      """
    XCTAssertEqual(
      try ExternalTool.run("python3", ["-c", script, url.path, copy.path])?.status, 0)
    let problems = BundleVerifier.verify(copy).filter { !$0.holds }.flatMap(\.problems)
    XCTAssertTrue(
      problems.contains {
        $0.hasPrefix("manifest.json holds more than the ") && $0.hasSuffix("; it is not read")
      }, "\(problems)")
  }

  func testVerifyFailsAnEditedCSVRowNamingTheRowAndTheColumn() throws {
    let (dir, store) = try copyOfStore()
    let url = try export(store, into: dir).url
    let edited = try copiesWithAnEditedCSVCell(
      of: url, into: dir.url, [("edited.zip", "bytesOut", "999999")])[0]
    let failed = BundleVerifier.verify(edited).filter { !$0.holds }
    XCTAssertEqual(failed.count, 1, "\(failed)")
    XCTAssertTrue(
      failed[0].problems.contains {
        $0.hasPrefix("row 4 of flows.csv") && $0.contains("bytesOut “999999”")
      }, "\(failed)")
  }

  func testVerifyComparesEveryColumnOfFlowsCSVWithFlowsJSON() throws {
    let (dir, store) = try copyOfStore()
    let url = try export(store, into: dir).url
    let edits = dir.url.appendingPathComponent("edits")
    try FileManager.default.createDirectory(at: edits, withIntermediateDirectories: true)
    let copies = try copiesWithAnEditedCSVCell(
      of: url, into: edits, EvidenceFlowsCSV.headers.map { ($0 + ".zip", $0, nil) })
    for (column, copy) in zip(EvidenceFlowsCSV.headers, copies) {
      let failed = BundleVerifier.verify(copy).filter { !$0.holds }
      XCTAssertEqual(failed.count, 1, "\(column): \(failed)")
      XCTAssertTrue(
        failed.first?.problems.contains {
          $0.hasPrefix("row 4 of flows.csv") && $0.contains(" has \(column) “")
        } == true,
        "\(column): \(failed)")
    }
  }

  /// A copy of the bundle at `url` in which the entry `name` holds what the Python `code` leaves
  /// in `data` (it finds the entry's bytes in `orig` and `argument` in `arg`), the manifest made
  /// to agree: only the checks beyond the digests can tell.
  func copy(
    of url: URL, to copy: URL, replacing name: String, python code: String, argument: String = ""
  ) throws {
    let script = """
      import zipfile,sys,hashlib,json,copy,struct
      src=zipfile.ZipFile(sys.argv[1]); name=sys.argv[3]; arg=sys.argv[4]; orig=src.read(name)
      \(code)
      m=json.loads(src.read('manifest.json'))
      for f in m['files']:
          if f['name']==name: f['sha256']=hashlib.sha256(data).hexdigest(); f['byteCount']=len(data)
      dst=zipfile.ZipFile(sys.argv[2],'w')
      for i in src.infolist():
          dst.writestr(copy.copy(i), data if i.filename==name else json.dumps(m) if i.filename=='manifest.json' else src.read(i))
      dst.close()
      """
    let run = try XCTUnwrap(
      ExternalTool.run("python3", ["-c", script, url.path, copy.path, name, argument]))
    XCTAssertEqual(run.status, 0, run.error)
  }

  func testVerifyComparesEveryRowOfFlowsCSVWhereverItLiesInTheArchive() throws {
    let (dir, store) = try copyOfStore()
    let url = try export(store, into: dir).url
    let edited = try copiesWithAnEditedCSVCell(
      of: url, into: dir.url, [("edited.zip", "bytesOut", "999999")])[0]
    // The same archives with flows.json moved to the front: flows.csv's rows are pulled from
    // their own entry, wherever it lies.
    let script = """
      import zipfile,sys,copy
      src=zipfile.ZipFile(sys.argv[1]); dst=zipfile.ZipFile(sys.argv[2],'w')
      infos=sorted(src.infolist(), key=lambda i: i.filename!='flows.json')
      for i in infos: dst.writestr(copy.copy(i), src.read(i))
      dst.close()
      """
    for (source, name) in [(url, "moved.zip"), (edited, "moved-edited.zip")] {
      let moved = dir.url.appendingPathComponent(name)
      let run = try XCTUnwrap(ExternalTool.run("python3", ["-c", script, source.path, moved.path]))
      XCTAssertEqual(run.status, 0, run.error)
      XCTAssertEqual(try ZipArchiveReader(url: moved).entries.first?.name, "flows.json")
      // An entry out of the manifest's order is no export's archive: refused as such; the rows
      // of flows.csv are still compared, wherever it lies.
      let problems = BundleVerifier.verify(moved).flatMap(\.problems)
      XCTAssertTrue(
        problems.contains("the archive's entries are not in the order manifest.json lists them"),
        "\(problems)")
      let rowProblem = problems.contains {
        $0.hasPrefix("row 4 of flows.csv") && $0.contains("bytesOut “999999”")
      }
      XCTAssertEqual(rowProblem, source != url, "\(problems)")
      XCTAssertEqual(problems.count, source == url ? 1 : 2, "\(problems)")
    }
  }

  func testVerifyNamesAMissingRowAChangedHeaderAndBytesThatAreNotUTF8InFlowsCSV() throws {
    let (dir, store) = try copyOfStore()
    let url = try export(store, into: dir).url
    // Each copy gets another flows.csv (and a manifest that agrees), so only the CSV check can tell.
    let code = """
      lines=orig.split(b'\\r\\n')
      data={'dropped': b'\\r\\n'.join(lines[:3]+lines[4:]), 'header': orig.replace(b'bytesOut', b'bytes_out', 1),
            'latin1': orig + b'\\xff\\xfe\\r\\n'}[arg]
      """
    func problems(_ mode: String) throws -> [String] {
      let copy = dir.url.appendingPathComponent("\(mode).zip")
      try self.copy(of: url, to: copy, replacing: "flows.csv", python: code, argument: mode)
      let failed = BundleVerifier.verify(copy).filter { !$0.holds }
      XCTAssertEqual(failed.count, 1, "\(mode): \(failed)")
      return failed.flatMap(\.problems)
    }
    let flows = try export(store, into: dir, name: "again.zip").flowCount
    let dropped = try problems("dropped")
    XCTAssertEqual(
      dropped.first, "flows.csv has \(flows - 1) rows; flows.json has \(flows) flows", "\(dropped)")
    XCTAssertTrue(
      dropped.contains { $0.hasPrefix("row 4 of flows.csv") },
      "the rows after the gap no longer match: \(dropped)")
    XCTAssertEqual(
      try problems("header"), ["flows.csv's header row is not the one the format defines"])
    XCTAssertEqual(try problems("latin1"), ["flows.csv is missing or is not UTF-8"])
  }

  func testVerifyNamesEveryIdentifierCitedThatDoesNotResolve() throws {
    let (dir, store) = try copyOfStore()
    let url = try export(store, into: dir).url
    // findings.json edited (the manifest made to agree): a finding cites a flow that is not
    // there, a requirement a finding that is not there, and a finding is renamed, so that
    // its flows cite a name findings.json no longer holds and it cites flows that do not cite it.
    let copy = dir.url.appendingPathComponent("ids.zip")
    try self.copy(
      of: url, to: copy, replacing: "findings.json",
      python: """
        d=json.loads(orig)
        d['findings'][0]['flowIDs'].append(999999)
        r=d['requirements'][0]; r['contraryFindingIDs']=r.get('contraryFindingIDs',[])+['F9999']
        old=d['findings'][1]['id']; d['findings'][1]['id']='FX'
        data=json.dumps(d, indent=2, sort_keys=True).encode()
        """)
    // findings.json edited is also not what the flows give: that check is tested on its own.
    let failed = BundleVerifier.verify(copy).filter {
      !$0.holds && !$0.statement.hasPrefix(VerifyWording.rederivedStatement)
    }
    XCTAssertEqual(failed.map(\.statement).count, 1, "\(failed)")
    let problems = failed.first?.problems ?? []
    XCTAssertTrue(
      failed.first?.statement.hasPrefix("Every flow and finding identifier cited resolves") == true,
      "\(failed)")
    XCTAssertTrue(
      problems.contains { $0.hasPrefix("F1 cites flow 999999, which flows.json does not hold") },
      "\(problems)")
    XCTAssertTrue(
      problems.contains { $0.hasSuffix("cites F9999, which findings.json does not hold") },
      "\(problems)")
    XCTAssertTrue(
      problems.contains {
        $0.hasPrefix("flow ") && $0.hasSuffix("cites F2, which findings.json does not hold")
      }, "\(problems)")
    XCTAssertTrue(
      problems.contains {
        $0.hasPrefix("FX cites flow ") && $0.hasSuffix("which does not cite FX back")
      }, "\(problems)")
  }

  func testVerifyNamesFindingsWhoseIDsOrFlowIDsDoNotReadAndCitationsNotReturned() throws {
    let (dir, store) = try copyOfStore()
    let url = try export(store, into: dir).url
    // Each copy edits findings.json (the manifest made to agree) in one way the reliability run
    // found accepted; only the identifiers check can tell.
    let code = """
      d=json.loads(orig); f=d['findings']
      if arg in ('null','string','huge','empty'):
          f[0]['flowIDs']={'null':None,'string':'1','huge':[1e308],'empty':[]}[arg]
      elif arg=='twice': f[1]['id']=f[0]['id']
      elif arg=='noid': f[0]['id']=7
      elif arg=='oneway': f[0]['flowIDs']=f[0]['flowIDs'][1:]
      data=json.dumps(d, indent=2, sort_keys=True).encode()
      """
    let archive = try ZipArchiveReader(url: url)
    let entry = try XCTUnwrap(archive.entries.first { $0.name == "findings.json" })
    let findings =
      try XCTUnwrap(
        JSONSerialization.jsonObject(with: archive.data(entry)) as? [String: Any])["findings"]
      as? [[String: Any]]
    let first = try XCTUnwrap(findings?.first)
    let firstID = try XCTUnwrap(first["id"] as? String)
    let firstFlows = try XCTUnwrap(first["flowIDs"] as? [Int64])
    XCTAssertGreaterThan(firstFlows.count, 1, "the one-way case drops one of several flows")
    func problems(_ mode: String) throws -> [String] {
      let copy = dir.url.appendingPathComponent("\(mode).zip")
      try self.copy(of: url, to: copy, replacing: "findings.json", python: code, argument: mode)
      let failed = BundleVerifier.verify(copy).filter {
        !$0.holds && !$0.statement.hasPrefix(VerifyWording.rederivedStatement)
      }
      XCTAssertEqual(failed.count, 1, "\(mode): \(failed)")
      XCTAssertTrue(
        failed.first?.statement.hasPrefix("Every flow and finding identifier cited resolves")
          == true, "\(mode): \(failed)")
      return failed.flatMap(\.problems)
    }
    for mode in ["null", "string", "huge", "empty"] {
      let found = try problems(mode)
      XCTAssertTrue(
        found.contains("\(firstID) has flowIDs that are not a non-empty list of flow ids"),
        "\(mode): \(found)")
    }
    XCTAssertTrue(
      try problems("twice").contains("findings.json lists \(firstID) more than once"))
    XCTAssertTrue(
      try problems("noid").contains("finding 1 of findings.json has no string id"))
    let dropped = firstFlows[0]
    XCTAssertEqual(
      try problems("oneway"),
      ["flow \(dropped) cites \(firstID), which does not cite flow \(dropped) back"])
  }

  func testVerifyRefusesATrailingCommaThatFoundationWouldForgive() throws {
    let (dir, store) = try copyOfStore()
    let url = try export(store, into: dir).url
    // A comma before a closing brace in flows.json, the manifest made to agree.
    let copy = dir.url.appendingPathComponent("comma.zip")
    try self.copy(
      of: url, to: copy, replacing: "flows.json",
      python: """
        end=orig.index(b'}', orig.index(b'"port": '))
        data=orig[:end]+b','+orig[end:]
        """)
    let failed = BundleVerifier.verify(copy).filter { !$0.holds }
    XCTAssertEqual(
      failed.map(\.statement),
      [
        // capture.json, exchanges.json, findings.json, flows.json, session.json, manifest.json
        VerifyWording.wellFormed(6),
        VerifyWording.formStatement,
      ],
      "\(failed)")
    XCTAssertTrue(
      failed.first?.problems.first?.hasPrefix("flows.json is not well-formed JSON: ") == true,
      "\(failed)")
  }

  func testVerifyNamesPacketsWhoseCommentIsMissingOrNotUTF8() throws {
    let (dir, store) = try copyOfStore()
    let url = try export(store, into: dir).url
    // The second packet block loses its comment, the third gets one that is not UTF-8; the
    // block lengths and the manifest are made to agree.
    let copy = dir.url.appendingPathComponent("comments.zip")
    try self.copy(
      of: url, to: copy, replacing: "capture.pcapng",
      python: """
        out=bytearray(); at=0; epb=0
        while at < len(orig):
            t,l=struct.unpack('<II', orig[at:at+8]); block=orig[at:at+l]
            if t==6:
                epb+=1
                if epb in (2,3):
                    captured=struct.unpack('<I', block[20:24])[0]
                    head=block[8:28+((captured+3)&~3)]
                    opts=b''; o=28+((captured+3)&~3)
                    while o+4 <= l-4:
                        code,size=struct.unpack('<HH', block[o:o+4])
                        if code==0: break
                        body=block[o+4:o+4+size]
                        if code==1 and epb==3: body=b'\\xff\\xfe flow'
                        if not (code==1 and epb==2): opts+=struct.pack('<HH',code,len(body))+body+b'\\0'*((4-len(body)%4)%4)
                        o+=4+((size+3)&~3)
                    opts+=b'\\0\\0\\0\\0'
                    total=12+len(head)+len(opts)
                    block=struct.pack('<II',6,total)+head+opts+struct.pack('<I',total)
            out+=block; at+=l
        data=bytes(out)
        """)
    let failed = BundleVerifier.verify(copy).filter { !$0.holds }
    let problems = failed.flatMap(\.problems)
    XCTAssertTrue(
      problems.contains("1 packet of capture.pcapng carries no comment naming its flow"),
      "\(problems)")
    XCTAssertTrue(
      problems.contains {
        $0.hasPrefix("the packet comment at offset ") && $0.hasSuffix(" is not UTF-8")
      }, "\(problems)")
  }

  /// The packets' comments against flows.json, each byte count kept: a flow's comment naming
  /// another finding, one naming a flow the bundle does not hold, one whose findings come in
  /// another order than export writes them.
  func testVerifyComparesThePacketCommentsWithTheFlowsTheyName() throws {
    let (dir, store) = try copyOfStore()
    let url = try export(store, into: dir).url
    let copy = dir.url.appendingPathComponent("citations.zip")
    try self.copy(
      of: url, to: copy, replacing: "capture.pcapng",
      python: #"""
        import re
        data=orig
        one=re.search(rb'flow=(\d+) findings=F(\d+)(?![,\d])', data)
        other=one.group(2)[:-1] + b'%d' % ((int(one.group(2)[-1:]) + 1) % 10)
        data=re.sub(rb'flow=' + one.group(1) + rb' findings=F' + one.group(2) + rb'(?![,\d])',
                    b'flow=' + one.group(1) + b' findings=F' + other, data)
        two=re.search(rb'flow=(\d+) findings=(F\d+),(F\d+)(?![,\d])', data)
        data=data.replace(two.group(0), b'flow=' + two.group(1) + b' findings=' + two.group(3) + b',' + two.group(2))
        last=max(int(f) for f in re.findall(rb'flow=(\d+) ', data))
        gone=re.compile(rb'flow=%d findings=' % last)
        data=gone.sub(b'flow=' + b'9' * len(b'%d' % last) + b' findings=', data)
        """#)
    let problems = BundleVerifier.verify(copy).filter { !$0.holds }.flatMap(\.problems)
    XCTAssertTrue(
      problems.contains { $0.hasPrefix("packets of flow ") && $0.contains(" cite findings ") },
      "\(problems)")
    XCTAssertTrue(
      problems.contains {
        $0.hasPrefix("a packet comment cites flow 9")
          && $0.hasSuffix("which flows.json does not hold")
      }, "\(problems)")
    XCTAssertTrue(
      problems.contains { $0.contains("are not commented as flows.json gives") }, "\(problems)")
  }

  func testAForcedZIP64ArchiveIsReadByUnzipAndPython() throws {
    let (dir, store) = try copyOfStore()
    let exporter = EvidenceExporter(
      store: store, temporaryDirectory: dir.url.appendingPathComponent("tmp"))
    exporter.zip64Threshold = 1_000  // every size and offset above a kilobyte takes the ZIP64 path
    let result = try exporter.export(
      sessionID: try laterSession(store).id, exportedWith: "t", now: Self.exportedAt,
      destination: dir.url.appendingPathComponent("z64.zip"))
    XCTAssertEqual(try ExternalTool.run("unzip", ["-t", result.url.path])?.status, 0)
    let py = try XCTUnwrap(
      ExternalTool.run(
        "python3",
        [
          "-c",
          "import zipfile,sys; z=zipfile.ZipFile(sys.argv[1]); print(z.testzip()); print(len(z.namelist()))",
          result.url.path,
        ]))
    XCTAssertEqual(py.output, "None\n8\n", py.error)
    XCTAssertTrue(BundleVerifier.verify(result.url, zip64Threshold: 1_000).allSatisfy(\.holds))
    // Read as an archive of the 4 GiB threshold, its ZIP64 fields are more than its sizes need.
    let strict = BundleVerifier.verify(result.url).filter { !$0.holds }.flatMap(\.problems)
    XCTAssertTrue(
      strict.contains { $0.contains("a ZIP64 value for a size or offset that fits in 32 bits") },
      "\(strict)")
  }

  // MARK: The eight failures, and nothing left behind

  func assertFails(
    _ expected: EvidenceExportError, _ exporter: EvidenceExporter, session: Int64, destination: URL,
    line: UInt = #line
  ) {
    XCTAssertThrowsError(
      try exporter.export(
        sessionID: session, exportedWith: "t", now: Self.exportedAt, destination: destination),
      line: line
    ) {
      XCTAssertEqual($0 as? EvidenceExportError, expected, line: line)
    }
    XCTAssertFalse(
      FileManager.default.fileExists(atPath: destination.path), "no archive left", line: line)
    let leftovers =
      (try? FileManager.default.contentsOfDirectory(atPath: exporter.temporaryDirectory.path)) ?? []
    XCTAssertEqual(leftovers, [], "nothing left in the exporter's directory", line: line)
  }

  func testACommitThatTouchesNothingTheSessionHoldsDoesNotStopAnExport() throws {
    let (dir, store) = try copyOfStore()
    let session = try laterSession(store)
    let undisturbed = try export(store, into: dir, name: "undisturbed.zip")
    let exporter = EvidenceExporter(
      store: store, temporaryDirectory: dir.url.appendingPathComponent("tmp"))
    var committed = false
    exporter.beforeFinalCheck = {
      let elsewhere = try FlowStore(directory: store.databaseURL.deletingLastPathComponent())
      _ = try elsewhere.createAuditProject(
        AuditProjectDraft(name: "Another app"), at: Self.exportedAt)
      committed = true
    }
    let destination = dir.url.appendingPathComponent("disturbed.zip")
    _ = try exporter.export(
      sessionID: session.id, exportedWith: "tunnelvision 0.1.0", now: Self.exportedAt,
      destination: destination)
    XCTAssertTrue(committed)
    XCTAssertEqual(try Data(contentsOf: destination), try Data(contentsOf: undisturbed.url))
  }

  /// A file of the folder goes once it is in the archive (its deflated copy with it): before
  /// the history's last check only those after report.pdf are left, not yet archived.
  func testAFileIsLetGoOnceItIsArchived() throws {
    let (dir, store) = try copyOfStore()
    let session = try laterSession(store)
    let exporter = EvidenceExporter(
      store: store, temporaryDirectory: dir.url.appendingPathComponent("tmp"))
    exporter.report = ReportCalls().hook
    var left: [String] = []
    exporter.beforeFinalCheck = {
      let fm = FileManager.default
      for folder in try fm.contentsOfDirectory(atPath: exporter.temporaryDirectory.path) {
        let url = exporter.temporaryDirectory.appendingPathComponent(folder)
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue
        else { continue }
        left += try fm.contentsOfDirectory(atPath: url.path)
      }
    }
    let result = try exporter.export(
      sessionID: session.id, exportedWith: "t", now: Self.exportedAt,
      destination: dir.url.appendingPathComponent("bundle.zip"))
    XCTAssertEqual(
      left.sorted(),
      ["report.pdf", "report.pdf.deflate", "session.json"], "what is not in the archive yet")
    let out = dir.url.appendingPathComponent("out")
    try unzip(result.url, into: out)
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: out.path).sorted(),
      (EvidenceBundle.reportCitedNames + [EvidenceBundle.reportName, EvidenceBundle.manifestName])
        .sorted())
  }

  func testEveryExportFailureIsReachableAndLeavesNothing() throws {
    let (dir, store) = try copyOfStore()
    let session = try laterSession(store)
    let destination = dir.url.appendingPathComponent("never.zip")
    func exporter() -> EvidenceExporter {
      EvidenceExporter(store: store, temporaryDirectory: dir.url.appendingPathComponent("tmp"))
    }

    assertFails(.sessionNotFound, exporter(), session: 999, destination: destination)

    // A missing directory is found first, before the session is even looked up.
    let nowhere = dir.url.appendingPathComponent("no-such-dir")
    assertFails(
      .destinationDirectoryMissing(nowhere.path), exporter(), session: 999,
      destination: nowhere.appendingPathComponent("b.zip"))
    XCTAssertThrowsError(
      try exporter().report(
        sessionID: 999, exportedWith: "t", now: Self.exportedAt,
        destination: nowhere.appendingPathComponent("r.pdf"))
    ) {
      XCTAssertEqual($0 as? EvidenceExportError, .destinationDirectoryMissing(nowhere.path))
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: nowhere.path))

    let project = try XCTUnwrap(store.auditProject(id: session.projectID))
    let open = try store.startAuditSession(
      AuditSessionDraft(
        projectID: project.id, kind: .baseline, environment: FlowFixture.environment,
        inspection: .off), at: Self.exportedAt)
    assertFails(.sessionStillOpen, exporter(), session: open.id, destination: destination)
    _ = try store.endAuditSession(id: open.id, at: Self.exportedAt)

    var draft = AuditProjectDraft(project)
    draft.catalogueVersion = "tr-03161-1_9.9"
    _ = try store.updateAuditProject(id: project.id, with: draft)
    assertFails(
      .catalogue(.notBundled(identifier: "tr-03161-1_9.9")), exporter(), session: session.id,
      destination: destination)
    draft.catalogueVersion = nil
    _ = try store.updateAuditProject(id: project.id, with: draft)

    let broken = exporter()
    broken.catalogue = { _ throws(RequirementCatalogueLibraryError) in
      throw .unusable(identifier: "tr-03161-1_3.0", .noRequirements)
    }
    assertFails(
      .catalogue(.unusable(identifier: "tr-03161-1_3.0", .noRequirements)), broken,
      session: session.id,
      destination: destination)

    struct NoFonts: Error, CustomStringConvertible { var description: String { "no fonts here" } }
    let undrawable = exporter()
    undrawable.report = { _, _ in throw NoFonts() }
    assertFails(
      .reportNotDrawn("no fonts here"), undrawable, session: session.id, destination: destination)

    let changing = exporter()
    changing.beforeFinalCheck = {
      var flow = try XCTUnwrap(store.flows(inAuditSession: session.id).first)
      flow.bytesIn += 1
      try store.upsertFlow(flow)
    }
    assertFails(
      .historyChangedWhileExporting, changing, session: session.id, destination: destination)

    // The same change through another connection, as another process would make it.
    let changingElsewhere = exporter()
    changingElsewhere.beforeFinalCheck = {
      let elsewhere = try FlowStore(directory: store.databaseURL.deletingLastPathComponent())
      var flow = try XCTUnwrap(elsewhere.flows(inAuditSession: session.id).first)
      flow.bytesOut += 1
      try elsewhere.upsertFlow(flow)
    }
    assertFails(
      .historyChangedWhileExporting, changingElsewhere, session: session.id,
      destination: destination)

    let blocked = EvidenceExporter(
      store: store, temporaryDirectory: dir.url.appendingPathComponent("a-file/tmp"))
    try Data("x".utf8).write(to: dir.url.appendingPathComponent("a-file"))
    XCTAssertThrowsError(
      try blocked.export(
        sessionID: session.id, exportedWith: "t", now: Self.exportedAt, destination: destination)
    ) {
      guard case .writeFailed? = $0 as? EvidenceExportError else { return XCTFail("\($0)") }
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path))

    let captures = store.capturesDirectory
    let aside = dir.url.appendingPathComponent("captures-aside")
    try FileManager.default.moveItem(at: captures, to: aside)
    try Data("not a directory".utf8).write(to: captures)
    guard case .captureDirectoryUnavailable? = Self.error(of: exporter(), session.id, destination)
    else { return XCTFail("capture directory") }
    try FileManager.default.removeItem(at: captures)
    try FileManager.default.moveItem(at: aside, to: captures)

    _ = try ExternalTool.run(
      "sqlite3",
      [
        store.databaseURL.path,
        "DROP INDEX flows_audit_session; ALTER TABLE flows RENAME TO flows_gone;",
      ])
    guard case .historyUnreadable? = Self.error(of: exporter(), session.id, destination) else {
      return XCTFail("history unreadable")
    }
  }

  static func error(of exporter: EvidenceExporter, _ session: Int64, _ destination: URL)
    -> EvidenceExportError?
  {
    do {
      _ = try exporter.export(
        sessionID: session, exportedWith: "t", now: exportedAt, destination: destination)
      return nil
    } catch { return error }
  }

  func testAtMostOneBundleStaysInTheExportersDirectory() throws {
    let (dir, store) = try copyOfStore()
    let exporter = EvidenceExporter(
      store: store, temporaryDirectory: dir.url.appendingPathComponent("tmp"))
    let first = try exporter.export(
      sessionID: try laterSession(store).id, exportedWith: "t", now: Self.exportedAt)
    XCTAssertTrue(FileManager.default.fileExists(atPath: first.url.path))
    let project = try XCTUnwrap(store.auditProjects().first { $0.name == "Example Health" })
    let baseline = try XCTUnwrap(
      store.auditSessions(forProject: project.id).first { $0.kind == .baseline })
    let second = try exporter.export(
      sessionID: baseline.id, exportedWith: "t", now: Self.exportedAt)
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: exporter.temporaryDirectory.path),
      [second.url.lastPathComponent])
  }

  /// A report hook that writes the written-packet count it was given and the digests it cites,
  /// and remembers each call.
  final class ReportCalls: @unchecked Sendable {
    var summaries: [EvidenceCaptureSummary] = []
    /// The summaries of the layouts drawn, in order.
    var drawn: [EvidenceCaptureSummary] = []
    let lock = NSLock()
    var hook: EvidenceReportRendering {
      { _, summary in
        self.lock.lock()
        self.summaries.append(summary)
        self.lock.unlock()
        return { digests, folder in
          self.lock.lock()
          self.drawn.append(summary)
          self.lock.unlock()
          let cited = digests.map { "\($0.name)=\($0.sha256)" }.joined(separator: "\n")
          try Data("written=\(summary.packets.written)\n\(cited)".utf8).write(
            to: folder.appendingPathComponent(EvidenceBundle.reportName))
          return EvidenceReportRenderer.Drawn(timing: .init())
        }
      }
    }
  }

  func exportWithReport(_ store: FlowStore, into dir: TemporaryDirectory, calls: ReportCalls) throws
    -> (EvidenceExportResult, String)
  {
    let exporter = EvidenceExporter(
      store: store, temporaryDirectory: dir.url.appendingPathComponent("tmp"))
    exporter.report = calls.hook
    let result = try exporter.export(
      sessionID: try laterSession(store).id, exportedWith: "t", now: Self.exportedAt,
      destination: dir.url.appendingPathComponent("bundle.zip"))
    let out = dir.url.appendingPathComponent("out")
    try unzip(result.url, into: out)
    let report = try String(
      contentsOf: out.appendingPathComponent(EvidenceBundle.reportName), encoding: .utf8)
    let lines = report.split(separator: "\n").map(String.init)
    // The digests the report was given are those sha256sum reads of the files it cites.
    let sums = try XCTUnwrap(
      ExternalTool.run(
        "sha256sum", EvidenceBundle.reportCitedNames.map { out.appendingPathComponent($0).path }))
    XCTAssertEqual(
      Array(lines.dropFirst()),
      sums.output.split(separator: "\n").map {
        let parts = $0.split(separator: " ", maxSplits: 1)
        return
          "\(URL(fileURLWithPath: String(parts[1].drop { $0 == " " })).lastPathComponent)=\(parts[0])"
      })
    XCTAssertEqual(lines.count, 1 + 7, "capture.json, capture.pcapng and the five documents")
    return (result, lines.first ?? "")
  }

  func testTheForecastOfCaptureJSONIsTheDocumentTheSlicingWrites() throws {
    let (dir, store) = try copyOfStore()
    let exporter = EvidenceExporter(
      store: store, temporaryDirectory: dir.url.appendingPathComponent("tmp"))
    let (bundle, _) = try exporter.bundle(
      sessionID: try laterSession(store).id, exportedWith: "t", now: Self.exportedAt)
    let counts = try EvidenceCaptureWriter.packetCounts(for: bundle, from: store)
    let forecast = try EvidenceCaptureWriter.forecast(
      for: bundle, counts: counts, from: store, captureDirectory: store.capturesDirectory)
    let written = try EvidenceCaptureWriter.write(
      for: bundle, counts: counts, from: store, captureDirectory: store.capturesDirectory,
      into: dir.url, application: "t")
    XCTAssertEqual(
      forecast, written.document,
      "every flow's tally, every source file, the snaplen and the window counts")
    XCTAssertEqual(
      Set(written.document.sourceFiles.map(\.status)), [.read, .missing],
      "the sample has a removed file")
  }

  func testTheFingerprintAndPacketCountsReadAheadOnAnotherThreadAreTheHistorysOwn() throws {
    let (dir, store) = try copyOfStore()
    let exporter = EvidenceExporter(
      store: store, temporaryDirectory: dir.url.appendingPathComponent("tmp"))
    let session = try laterSession(store)
    let (bundle, _) = try exporter.bundle(
      sessionID: session.id, exportedWith: "t", now: Self.exportedAt)
    let counts = try EvidenceCaptureWriter.packetCounts(for: bundle, from: store)
    XCTAssertFalse(counts.isEmpty)
    let ahead = EvidenceCaptureWriter.historyAhead(store: store, session: session).value
    XCTAssertEqual(
      try ahead.counts.get(), counts,
      "per flow and file, dated against the session's window, in the same order")
    XCTAssertEqual(try ahead.fingerprint.get(), try store.auditSessionFingerprint(id: session.id))
    // The same session ending a second after it started: most of its packets come after.
    let shortened = AuditSession(
      id: session.id, projectID: session.projectID, kind: session.kind,
      environment: session.environment, inspection: session.inspection,
      startedAt: session.startedAt, endedAt: session.startedAt.addingTimeInterval(1),
      notes: session.notes)
    let afterEnd = try EvidenceCaptureWriter.historyAhead(store: store, session: shortened)
      .value.counts.get().map(\.afterEnd)
    XCTAssertEqual(counts.map(\.afterEnd).reduce(0, +), 0)
    XCTAssertGreaterThan(afterEnd.reduce(0, +), 0, "dated against the session it is given")
  }

  func testFlowsJSONAndFlowsCSVAreWrittenFromOneReadingOfTheFlowsAsExportWritesThem() throws {
    let (dir, store) = try copyOfStore()
    let exported = try export(store, into: dir)
    let out = dir.url.appendingPathComponent("out")
    try unzip(exported.url, into: out)
    let exporter = EvidenceExporter(
      store: store, temporaryDirectory: dir.url.appendingPathComponent("tmp"))
    var (bundle, _) = try exporter.bundle(
      sessionID: try laterSession(store).id, exportedWith: "tunnelvision 0.1.0",
      now: Self.exportedAt)
    let held = HeldFlows(bundle.takeFlows())
    var readings = 0
    let folder = dir.url.appendingPathComponent("documents")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let files = try EvidenceExporter.writeDocuments(
      [EvidenceBundle.flowsName, EvidenceBundle.flowsCSVName], of: bundle,
      flows: { body in
        readings += 1
        try held.drain(body)
      }, into: folder)
    XCTAssertEqual(readings, 1, "the flows read once for both")
    XCTAssertEqual(
      files.map(\.entry.name), [EvidenceBundle.flowsName, EvidenceBundle.flowsCSVName])
    for name in [EvidenceBundle.flowsName, EvidenceBundle.flowsCSVName] {
      XCTAssertEqual(
        try Data(contentsOf: folder.appendingPathComponent(name)),
        try Data(contentsOf: out.appendingPathComponent(name)), "\(name): the bytes exported")
    }
  }

  func testTheReportIsDrawnOnceFromAForecastThatCountsWhatTheCaptureHolds() throws {
    // The sample has packets never captured, in a removed file, and in a record cut short:
    // the forecast sees each from the history and the files' sizes.
    let (dir, store) = try copyOfStore()
    let calls = ReportCalls()
    let (result, report) = try exportWithReport(store, into: dir, calls: calls)
    XCTAssertEqual(calls.summaries, [result.capture.summary])
    XCTAssertEqual(report, "written=\(result.capture.packets.written)")
    XCTAssertEqual(result.capture.beforeStart, 0)
    for reason in EvidenceMissingReason.allCases {
      XCTAssertGreaterThan(result.capture.packets.withoutBytes[reason] ?? 0, 0, "\(reason)")
    }
  }

  /// A record in the middle of the session's first capture file claims more bytes than the
  /// snaplen: only reading its header shows it, so the forecast counts it as written.
  func spoilARecordHeader(in store: FlowStore) throws {
    let session = try laterSession(store)
    let sequence = try XCTUnwrap(
      store.captureFileSequences(inAuditSession: session.id).sorted().first {
        FileManager.default.fileExists(
          atPath: store.capturesDirectory.appendingPathComponent(CaptureFileName.of(sequence: $0))
            .path)
      })
    let packets = try store.capturedPackets(inAuditSession: session.id, fileSequence: sequence)
    let file = try FileHandle(
      forUpdating: store.capturesDirectory.appendingPathComponent(
        CaptureFileName.of(sequence: sequence)))
    try file.seek(toOffset: packets[packets.count / 2].offset + 8)
    try file.write(contentsOf: Data([0xFF, 0xFF, 0xFF, 0x7F]))
    try file.close()
  }

  func testARecordOnlyItsOwnHeaderShowsUnreadableGetsTheReportDrawnAgainFromTheCapture() throws {
    let (dir, store) = try copyOfStore()
    try spoilARecordHeader(in: store)

    let calls = ReportCalls()
    let (result, report) = try exportWithReport(store, into: dir, calls: calls)
    XCTAssertEqual(
      calls.summaries.count, 2, "laid out from the forecast, then again from the capture")
    XCTAssertEqual(calls.summaries.first?.packets.written, result.capture.packets.written + 1)
    XCTAssertEqual(calls.summaries.last, result.capture.summary)
    XCTAssertEqual(calls.drawn, [result.capture.summary], "drawn once, as the capture counts")
    XCTAssertEqual(
      report, "written=\(result.capture.packets.written)",
      "the bundle carries the report of the capture it holds")
  }

  // MARK: A capture of encrypted traffic, written once straight into the archive

  /// A store whose capture does not shrink when deflated (random payloads, as encrypted traffic).
  func incompressibleStore() throws -> (TemporaryDirectory, FlowStore) {
    let dir = TemporaryDirectory("evidence-streamed")
    _ = try SampleWriter.write(
      SampleScenario.plan(SampleOptions(flows: 120, packets: 3_000, captureBytes: 2_500_000)),
      to: dir.url.appendingPathComponent("store"))
    return (dir, try FlowStore(directory: dir.url.appendingPathComponent("store")))
  }

  func streamedExport(
    _ store: FlowStore, into dir: TemporaryDirectory, name: String,
    zip64Threshold: UInt64 = 0xFFFF_FFFF
  ) throws -> (EvidenceExportResult, [String]) {
    let exporter = EvidenceExporter(
      store: store, temporaryDirectory: dir.url.appendingPathComponent("tmp"))
    exporter.zip64Threshold = zip64Threshold
    let lines = TraceLines()
    exporter.trace = { name, _ in lines.add(name) }
    let result = try exporter.export(
      sessionID: try laterSession(store).id, exportedWith: "t", now: Self.exportedAt,
      destination: dir.url.appendingPathComponent(name))
    return (result, lines.all)
  }

  final class TraceLines: @unchecked Sendable {
    private var lines: [String] = []
    private let lock = NSLock()
    func add(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
  }

  /// The archive's entries in the order their bytes lie in the file, with each method.
  func physicalOrder(_ archive: URL) throws -> String {
    let script =
      "import zipfile,sys; z=zipfile.ZipFile(sys.argv[1]); print(' '.join(f'{i.filename}:{i.compress_type}' for i in sorted(z.infolist(), key=lambda i: i.header_offset)))"
    let result = try XCTUnwrap(ExternalTool.run("python3", ["-c", script, archive.path]))
    XCTAssertEqual(result.status, 0, result.error)
    return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  func testAnIncompressibleCaptureGoesStraightIntoTheArchiveAfterItsForecastCaptureJSON() throws {
    let (dir, store) = try incompressibleStore()
    let (result, trace) = try streamedExport(store, into: dir, name: "s.zip")
    XCTAssertTrue(trace.contains("  capture.pcapng went straight into the archive"), "\(trace)")
    XCTAssertEqual(
      try physicalOrder(result.url),
      "capture.json:8 capture.pcapng:0 exchanges.json:8 findings.json:8 flows.csv:8 flows.json:8 session.json:8 manifest.json:8",
      "the manifest's order in the file, the capture stored")
    XCTAssertEqual(try ExternalTool.run("unzip", ["-t", result.url.path])?.status, 0)
    let checks = BundleVerifier.verify(result.url)
    XCTAssertTrue(checks.allSatisfy(\.holds), "\(checks.filter { !$0.holds })")
    let out = dir.url.appendingPathComponent("out")
    try unzip(result.url, into: out)
    let sum = try XCTUnwrap(
      ExternalTool.run("sha256sum", [out.appendingPathComponent("capture.pcapng").path]))
    XCTAssertEqual(
      String(sum.output.prefix(64)), try manifestDigest(out, "capture.pcapng"),
      "sha256sum agrees with the manifest")
    if ExternalTool.which("capinfos") != nil {
      let capinfos = try XCTUnwrap(
        ExternalTool.run(
          "capinfos", ["-c", "-M", out.appendingPathComponent("capture.pcapng").path]))
      XCTAssertTrue(
        capinfos.output.contains("Number of packets:   \(result.capture.packets.written)"),
        capinfos.output)
    }
    // The same bundle, byte for byte, whatever the archive's size forces: ZIP64 headers read by Info-ZIP and Python.
    let (big, _) = try streamedExport(store, into: dir, name: "z64.zip", zip64Threshold: 1_000)
    XCTAssertEqual(try ExternalTool.run("unzip", ["-t", big.url.path])?.status, 0)
    XCTAssertTrue(BundleVerifier.verify(big.url, zip64Threshold: 1_000).allSatisfy(\.holds))
    let again = dir.url.appendingPathComponent("again")
    try unzip(big.url, into: again)
    XCTAssertEqual(
      try Data(contentsOf: again.appendingPathComponent("capture.pcapng")),
      try Data(contentsOf: out.appendingPathComponent("capture.pcapng")))
  }

  func manifestDigest(_ folder: URL, _ name: String) throws -> String? {
    let manifest = try XCTUnwrap(
      JSONSerialization.jsonObject(
        with: Data(contentsOf: folder.appendingPathComponent("manifest.json"))) as? [String: Any])
    return (manifest["files"] as? [[String: Any]])?.first { $0["name"] as? String == name }?[
      "sha256"] as? String
  }

  func testAStreamedCaptureThatCountsOtherwiseThanForecastGetsTheArchiveBegunAgain() throws {
    let (dir, store) = try incompressibleStore()
    try spoilARecordHeader(in: store)

    let (result, trace) = try streamedExport(store, into: dir, name: "s.zip")
    XCTAssertTrue(
      trace.contains("  the capture counted otherwise than forecast: the archive begun again"),
      "\(trace)")
    XCTAssertEqual(
      try physicalOrder(result.url),
      "capture.json:8 capture.pcapng:0 exchanges.json:8 findings.json:8 flows.csv:8 flows.json:8 session.json:8 manifest.json:8"
    )
    let checks = BundleVerifier.verify(result.url)
    XCTAssertTrue(checks.allSatisfy(\.holds), "\(checks.filter { !$0.holds })")
    let out = dir.url.appendingPathComponent("out")
    try unzip(result.url, into: out)
    let doc = try XCTUnwrap(
      JSONSerialization.jsonObject(
        with: Data(contentsOf: out.appendingPathComponent("capture.json"))) as? [String: Any])
    XCTAssertEqual(
      ((doc["packets"] as? [String: Any])?["withoutBytes"] as? [String: Int])?["recordUnreadable"],
      result.capture.packets.withoutBytes[.recordUnreadable],
      "capture.json counts what the capture holds")
    XCTAssertGreaterThan(result.capture.packets.withoutBytes[.recordUnreadable] ?? 0, 0)
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter {
        $0.hasPrefix(".")
      }, [],
      "the first archive is gone")
  }
}
