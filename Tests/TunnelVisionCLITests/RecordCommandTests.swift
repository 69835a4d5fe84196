import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Crypto
import FlowStore
import Foundation
import Record
import TestSupport
import XCTest

/// The recorder run for real: live on loopback as root, and on capture streams through a pipe.
final class RecordCommandTests: XCTestCase {
  static let traffic = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Traffic/traffic.py").path
  static let realCapture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("ImportTests/Captures/real-traffic.pcapng")

  struct Setup {
    let binary: URL
    let dir: TemporaryDirectory
    let store: String

    @discardableResult
    func tv(_ words: String..., input: Data? = nil) throws -> (
      status: Int32, output: String, error: String
    ) {
      try XCTUnwrap(ExternalTool.run(binary.path, words + ["--store", store], input: input))
    }

    /// The rows a query of the store's history gives (sqlite3's output), each cell a string.
    func rows(_ sql: String) throws -> [[String]] {
      try XCTUnwrap(ExternalTool.run("sqlite3", [store + "/history.sqlite", sql])).output
        .split(separator: "\n").map {
          $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        }
    }

    func waitForRecorder(_ timeout: TimeInterval = 10) throws -> RecorderClaim {
      var claim: RecorderClaim?
      // The lock is taken, then the claim written into it.
      try Readiness.wait("the recorder holding its lock", timeout: timeout) {
        claim = RecorderLock.running(storeDirectory: URL(fileURLWithPath: store))
        return claim.map { $0.processID != 0 } ?? false
      }
      return try XCTUnwrap(claim)
    }
  }

  /// The real capture moved to a second from now (a session tags what comes after its start).
  func movedToNow(_ s: Setup) throws -> String {
    let first = try XCTUnwrap(
      ExternalTool.run(
        "tshark",
        ["-r", Self.realCapture.path, "-c", "1", "-T", "fields", "-e", "frame.time_epoch"]))
    let shift =
      Date().timeIntervalSince1970 + 1
      - (Double(first.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0)
    let moved = s.dir.url.appendingPathComponent("now.pcapng").path
    XCTAssertEqual(
      try ExternalTool.run(
        "editcap", ["-t", String(format: "%.6f", shift), Self.realCapture.path, moved])?
        .status, 0)
    return moved
  }

  func setUp(_ name: String) throws -> Setup {
    let setup = Setup(
      binary: try TunnelVisionExecutable.url(), dir: TemporaryDirectory(name),
      store: TemporaryDirectory(name).url.appendingPathComponent("store").path)
    XCTAssertEqual(
      try setup.tv("project", "new", "P", "--allow", "*.example-health.de").status, 0)
    return setup
  }

  func python(_ arguments: String...) throws {
    let run = try XCTUnwrap(ExternalTool.run("python3", [Self.traffic] + arguments))
    XCTAssertEqual(run.status, 0, "traffic.py \(arguments): \(run.error)")
  }

  func testARecordingOnLoopbackTagsTheSessionAndReadsWhatTsharkReads() throws {
    try requireRoot("capturing on lo")
    let s = try setUp("record-live")
    let dir = s.dir.url.path
    XCTAssertEqual(
      try ExternalTool.run(
        "openssl",
        [
          "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", dir + "/key.pem", "-out",
          dir + "/cert.pem", "-days", "2", "-subj", "/CN=test.example-health.de",
        ])?.status, 0)
    let filter = "tcp port 47443 or tcp port 47444 or tcp port 47480 or udp port 5353"
    let tcpdump = try LabCapture.tcpdump(in: nil, to: dir + "/tcpdump.pcap", filter: filter)
    let recorder = try RunningProcess(
      s.binary.path,
      ["record", "--interface", "lo", "--filter", filter, "--quiet", "--json", "--store", s.store])
    let claim = try s.waitForRecorder()
    XCTAssertEqual(claim.sourceName, "lo")
    XCTAssertEqual(claim.processID, recorder.process.processIdentifier)

    let start = try s.tv("session", "start", "P", "--version", "1", "--build", "1")
    XCTAssertTrue(start.output.contains("Recording on lo: 'tunnelvision record'"), start.output)
    XCTAssertTrue(try s.tv("session", "show", "1").output.contains("● Recording on lo"))
    try python(
      "tls", "127.0.0.1", "47443", "early.example-health.de", "tls1.2", dir + "/cert.pem",
      dir + "/key.pem")
    XCTAssertEqual(try s.tv("mark", "consent-given").status, 0)
    try python("dns", "127.0.0.3", "5353", "api.example-health.de", "127.0.0.2")
    try python(
      "tls", "127.0.0.2", "47444", "api.example-health.de", "tls1.3", dir + "/cert.pem",
      dir + "/key.pem")
    try python("http", "127.0.0.1", "47480")
    // The three connections' ends, both ways, written in the session before it ends.
    try StoreCount.wait(
      "the three connections' ends in the store", s.store,
      StoreCount.closedConnections(inSession: 1), atLeast: 3)
    XCTAssertEqual(try s.tv("session", "end").status, 0)
    let recorded = recorder.end(SIGINT)
    try tcpdump.end(afterClosing: 3)
    XCTAssertEqual(recorded.status, 0, recorded.error)
    let summary = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(recorded.output.utf8)) as? [String: Any])
    XCTAssertEqual(summary["end"] as? String, "interrupted")
    XCTAssertEqual(summary["droppedByKernel"] as? Int, 0)
    XCTAssertNil(RecorderLock.running(storeDirectory: URL(fileURLWithPath: s.store)))
    XCTAssertTrue(try s.tv("session", "show", "1").output.contains("Ended ·"))

    // The bundle: each connection as tshark reads the same traffic from tcpdump's capture.
    let bundle = dir + "/bundle.zip"
    XCTAssertEqual(try s.tv("export", "1", "-o", bundle, "--no-report").status, 0)
    let flowsJSON = try XCTUnwrap(ExternalTool.run("unzip", ["-p", bundle, "flows.json"])).output
    let document = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(flowsJSON.utf8)) as? [String: Any])
    let flows = try XCTUnwrap(document["flows"] as? [[String: Any]])
    var versionBySNI: [String: String] = [:]
    for flow in flows {
      if let sni = flow["sni"] as? String {
        versionBySNI[sni] = (flow["serverTLS"] as? [String: Any])?["version"] as? String
      }
    }
    let tshark = try XCTUnwrap(
      ExternalTool.run(
        "tshark",
        [
          "-r", dir + "/tcpdump.pcap", "-Y", "tls.handshake.type == 2", "-T", "fields", "-e",
          "tcp.srcport", "-e", "tls.handshake.extensions.supported_version", "-e",
          "tls.handshake.version",
        ]))
    var tsharkVersions: [String: String] = [:]
    for line in tshark.output.split(separator: "\n") {
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      let version = fields[1].isEmpty ? fields[2] : fields[1]
      tsharkVersions[fields[0]] =
        version == "0x0304" ? "TLS 1.3" : version == "0x0303" ? "TLS 1.2" : version
    }
    let snis = try XCTUnwrap(
      ExternalTool.run(
        "tshark",
        [
          "-r", dir + "/tcpdump.pcap", "-Y", "tls.handshake.type == 1", "-T", "fields", "-e",
          "tls.handshake.extensions_server_name",
        ])
    ).output.split(separator: "\n").map(String.init)
    XCTAssertEqual(Set(versionBySNI.keys), Set(snis))
    XCTAssertEqual(versionBySNI["early.example-health.de"], tsharkVersions["47443"])
    XCTAssertEqual(versionBySNI["api.example-health.de"], tsharkVersions["47444"])
    XCTAssertEqual(versionBySNI["api.example-health.de"], "TLS 1.3")
    let api = try XCTUnwrap(flows.first { $0["sni"] as? String == "api.example-health.de" })
    XCTAssertEqual(api["dnsName"] as? String, "api.example-health.de")

    // Consent: the connection before the marker is a finding, those after it are not.
    let early = try XCTUnwrap(flows.first { $0["sni"] as? String == "early.example-health.de" })
    let findings = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(try s.tv("findings", "1", "--json").output.utf8))
        as? [String: Any])
    let consent = try XCTUnwrap(
      (findings["findings"] as? [[String: Any]])?.first {
        $0["kind"] as? String == "activityBeforeConsent"
      })
    XCTAssertEqual(consent["flowIDs"] as? [Int], [try XCTUnwrap(early["id"] as? Int)])
    XCTAssertEqual(flows.count, 4, "two TLS connections, one DNS exchange, one HTTP request")
    let verified = try s.tv("verify", bundle)
    XCTAssertEqual(verified.status, 0, verified.output)
  }

  /// The flows of a store, without what differs between two stores: ids and sessions.
  func comparable(_ store: String) throws -> [String] {
    let opened = try FlowStore(directory: URL(fileURLWithPath: store), reading: true)
    return try opened.allFlows().map { flow in
      var flow = flow
      let packets = try opened.packets(forFlow: flow.id).map {
        "\(Instant.microseconds($0.date)) \($0.direction) \($0.length) \($0.tcpFlags)"
      }
      flow.id = 0
      flow.auditSessionID = nil
      flow.captureSessionID = 0
      return "\(flow) \(packets)"
    }
  }

  func testACaptureReplayedThroughAPipeGivesTheFlowsItsImportGives() throws {
    let s = try setUp("record-replay")
    let capture = try Data(contentsOf: Self.realCapture)
    let recorded = try s.tv("record", "--read", "-", "--json", input: capture)
    XCTAssertEqual(recorded.status, 0, recorded.error)
    let summary = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(recorded.output.utf8)) as? [String: Any])
    XCTAssertEqual(summary["end"] as? String, "sourceEnded")
    let imported = Setup(
      binary: s.binary, dir: s.dir, store: s.dir.url.appendingPathComponent("imported").path)
    XCTAssertEqual(try imported.tv("project", "new", "P").status, 0)
    XCTAssertEqual(
      try imported.tv(
        "import", Self.realCapture.path, "--project", "P", "--version", "1", "--build", "1"
      ).status, 0)
    let a = try comparable(s.store)
    let b = try comparable(imported.store)
    XCTAssertGreaterThan(a.count, 10)
    XCTAssertEqual(a, b)
  }

  /// The real capture as a pcap whose header says a snaplen of 100 and as a pcapng whose
  /// interfaces say it (editcap keeps the header's snaplen), records left whole: libpcap alone
  /// cut each to 100 bytes (no server name read) where import read them whole.
  func testRecordsLongerThanTheSnaplenAreReadWholeByRecordAsByImport() throws {
    let s = try setUp("record-snaplen")
    let pcap = s.dir.url.appendingPathComponent("long-records.pcap")
    let pcapng = s.dir.url.appendingPathComponent("long-records.pcapng")
    let converted = try ExternalTool.run(
      "editcap", ["-F", "pcap", Self.realCapture.path, pcap.path])
    guard converted?.status == 0 else {
      throw XCTSkip("editcap (tshark's package) is not installed")
    }
    var bytes = try Data(contentsOf: pcap)
    bytes.replaceSubrange(16..<20, with: [100, 0, 0, 0])
    try bytes.write(to: pcap)
    XCTAssertEqual(
      try ExternalTool.run("editcap", ["-F", "pcapng", pcap.path, pcapng.path])?.status, 0)
    for file in [pcap, pcapng] {
      let recorded = Setup(
        binary: s.binary, dir: s.dir,
        store: s.dir.url.appendingPathComponent("recorded-\(file.pathExtension)").path)
      let run = try recorded.tv("record", "--read", file.path)
      XCTAssertEqual(run.status, 0, run.error)
      let piped = Setup(
        binary: s.binary, dir: s.dir,
        store: s.dir.url.appendingPathComponent("piped-\(file.pathExtension)").path)
      XCTAssertEqual(try piped.tv("record", "--read", "-", input: Data(contentsOf: file)).status, 0)
      let imported = Setup(
        binary: s.binary, dir: s.dir,
        store: s.dir.url.appendingPathComponent("imported-\(file.pathExtension)").path)
      XCTAssertEqual(try imported.tv("project", "new", "P").status, 0)
      let importRun = try imported.tv(
        "import", file.path, "--project", "P", "--version", "1", "--build", "1")
      XCTAssertEqual(importRun.status, 0, importRun.error)
      let a = try comparable(recorded.store)
      XCTAssertEqual(a, try comparable(piped.store), file.lastPathComponent)
      XCTAssertEqual(a, try comparable(imported.store), file.lastPathComponent)
      XCTAssertGreaterThan(
        try StoreCount.of(recorded.store, "SELECT count(*) FROM packets WHERE length > 100"), 0,
        file.lastPathComponent)
    }
  }

  /// After record exits, history.sqlite alone holds what it wrote: a copy of the file without its
  /// -wal is the whole history (#34: it was 4 KB with everything in the log).
  func testWhenTheRecorderExitsTheDatabaseFileHoldsEverythingItWrote() throws {
    let s = try setUp("record-checkpoint")
    let recorded = try s.tv("record", "--read", Self.realCapture.path, "--quiet")
    XCTAssertEqual(recorded.status, 0, recorded.error)
    let wal = s.store + "/history.sqlite-wal"
    let walSize = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
    XCTAssertEqual(walSize, 0, "the log is empty")
    let copy = s.dir.url.appendingPathComponent("alone.sqlite").path
    try FileManager.default.copyItem(atPath: s.store + "/history.sqlite", toPath: copy)
    let flows = try XCTUnwrap(ExternalTool.run("sqlite3", [copy, "SELECT count(*) FROM flows"]))
    XCTAssertEqual(flows.status, 0, flows.error)
    XCTAssertEqual(
      Int(flows.output.trimmingCharacters(in: .whitespacesAndNewlines)),
      try FlowStore(directory: URL(fileURLWithPath: s.store), reading: true).historyFlowCount())
    XCTAssertGreaterThan(Int(flows.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, 10)
  }

  /// With --device, a flow of another address on the link (here a host's router solicitation
  /// and multicast listener reports from its link-local address) is history, not the session's.
  func testWithADeviceGivenOnlyItsConnectionsAreTaggedToTheSession() throws {
    let s = try setUp("record-device")
    XCTAssertEqual(try s.tv("session", "start", "P", "--version", "1", "--build", "1").status, 0)
    let moved = try movedToNow(s)
    let recorded = try s.tv("record", "--read", moved, "--device", "10.99.0.2", "--quiet")
    XCTAssertEqual(recorded.status, 0, recorded.error)
    XCTAssertEqual(try s.tv("session", "end").status, 0)
    let rows = try s.rows("SELECT addr_a, addr_b, audit_session_id FROM flows")
    let tagged = rows.filter { $0[2] == "1" }
    let untagged = rows.filter { $0[2].isEmpty }
    XCTAssertFalse(tagged.isEmpty)
    XCTAssertTrue(tagged.allSatisfy { $0[0] == "10.99.0.2" || $0[1] == "10.99.0.2" }, "\(rows)")
    XCTAssertTrue(
      untagged.contains { $0[0].hasPrefix("fe80:") || $0[1].hasPrefix("fe80:") }, "\(rows)")
  }

  func testARecorderKilledMidTrafficLeavesASoundExportableStore() throws {
    let s = try setUp("record-killed")
    XCTAssertEqual(try s.tv("session", "start", "P", "--version", "1", "--build", "1").status, 0)
    // The capture moved to now, written into the pipe over four seconds; the recorder killed
    // after one and a half.
    let moved = try movedToNow(s)
    let feed = Pipe()
    let trickle = Process()
    trickle.executableURL = URL(fileURLWithPath: try XCTUnwrap(ExternalTool.which("python3")))
    trickle.arguments = [Self.traffic, "trickle", moved, "4"]
    trickle.standardOutput = feed
    try trickle.run()
    let recorder = try RunningProcess(
      s.binary.path, ["record", "--read", "-", "--quiet", "--store", s.store], input: feed)
    _ = try s.waitForRecorder()
    try StoreCount.wait(
      "connections written in the session", s.store,
      "SELECT count(*) FROM flows WHERE audit_session_id = 1")
    recorder.end(SIGKILL)
    trickle.terminate()
    trickle.waitUntilExit()
    XCTAssertNil(RecorderLock.running(storeDirectory: URL(fileURLWithPath: s.store)))
    let check = try XCTUnwrap(
      ExternalTool.run("sqlite3", [s.store + "/history.sqlite", "PRAGMA integrity_check"]))
    XCTAssertEqual(check.output, "ok\n")
    XCTAssertEqual(try s.tv("session", "end").status, 0)
    let connections = try FlowStore(directory: URL(fileURLWithPath: s.store), reading: true)
      .flowCount(inAuditSession: 1)
    XCTAssertGreaterThan(connections, 0, "the recorder was killed before it wrote anything")
    let bundle = s.dir.url.appendingPathComponent("b.zip").path
    let exported = try s.tv("export", "1", "-o", bundle, "--no-report")
    XCTAssertEqual(exported.status, 0, exported.error)
    XCTAssertEqual(try s.tv("verify", bundle).status, 0)
  }

  func testASecondRecorderIsRefusedNamingTheFirst() throws {
    let s = try setUp("record-twice")
    let input = Pipe()
    let first = try RunningProcess(
      s.binary.path, ["record", "--read", "-", "--quiet", "--store", s.store], input: input)
    // A pcap header, then nothing: the first recorder reads and waits.
    input.fileHandleForWriting.write(Self.pcapHeader)
    _ = try s.waitForRecorder()
    let second = try s.tv("record", "--read", "-", input: Self.pcapHeader)
    XCTAssertEqual(second.status, 1)
    XCTAssertTrue(
      second.error.contains(
        "A recorder already runs on this store: pid \(first.process.processIdentifier), reading standard input, since "
      ), second.error)
    try input.fileHandleForWriting.close()
    let ended = first.end(0)
    XCTAssertEqual(ended.status, 0, ended.error)
    XCTAssertTrue(ended.output.contains("The capture ended"), ended.output)
  }

  /// A classic pcap header: microseconds, LINKTYPE_RAW.
  static let pcapHeader = Data([
    0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0, 101, 0, 0, 0,
  ])

  func testWhatCannotBeRecordedIsSaidBeforeAnythingIsWritten() throws {
    let s = try setUp("record-refused")
    // --snaplen's help states the default the parser takes as its most (#34: it said 262144).
    let help = try s.tv("record", "--help")
    XCTAssertTrue(help.output.contains("default and most: 65535"), help.output)
    XCTAssertEqual(try s.tv("record", "--read", "-", "--snaplen", "65536").status, 2)
    let neither = try s.tv("record")
    XCTAssertEqual(neither.status, 2)
    XCTAssertTrue(neither.error.contains("--interface <interface> or --read <file>"), neither.error)
    let filter = try s.tv(
      "record", "--read", Self.realCapture.path, "--filter", "port banana")
    XCTAssertEqual(filter.status, 1)
    XCTAssertTrue(
      filter.error.contains("The filter “port banana” does not compile: "), filter.error)
    let missing = try s.tv("record", "--read", s.dir.url.appendingPathComponent("none.pcap").path)
    XCTAssertEqual(missing.status, 1)
    XCTAssertTrue(missing.error.contains("cannot be recorded: "), missing.error)
    let noSuch = try s.tv("record", "--interface", "tv-no-such0")
    XCTAssertEqual(noSuch.status, 1)
    XCTAssertTrue(
      noSuch.error.contains("The interface tv-no-such0 cannot be recorded: "), noSuch.error)
    let store = try FlowStore(directory: URL(fileURLWithPath: s.store), reading: true)
    XCTAssertEqual(try store.historyFlowCount(), 0)
    XCTAssertNil(RecorderLock.running(storeDirectory: URL(fileURLWithPath: s.store)))
    // Where no store is yet, a source that cannot be opened makes none, and says of none.
    let fresh = s.dir.url.appendingPathComponent("fresh").path
    let unmade = try XCTUnwrap(
      ExternalTool.run(s.binary.path, ["record", "--store", fresh, "--interface", "tv-no-such0"]))
    XCTAssertEqual(unmade.status, 1)
    XCTAssertFalse(unmade.error.contains("Made a new store"), unmade.error)
    XCTAssertFalse(FileManager.default.fileExists(atPath: fresh), "no store was made")
  }

  /// #34: a stream whose file header never comes (`sleep 25 | tunnelvision record --read -`)
  /// stopped neither at --duration nor at Ctrl-C or SIGTERM; it does now, says that nothing was
  /// recorded, and makes no store.
  func testAStreamThatSendsNothingStopsAtTheDurationOrASignal() throws {
    let s = try setUp("record-silent")
    for (signal, duration) in [(Int32(0), "1"), (SIGINT, "60"), (SIGTERM, "60")] {
      let silent = Pipe()
      let store = s.dir.url.appendingPathComponent("silent-\(signal)").path
      let started = Date()
      let recorder = try RunningProcess(
        s.binary.path, ["record", "--read", "-", "--duration", duration, "--store", store],
        input: silent)
      if signal != 0 {
        try Readiness.wait("the recorder taking SIGINT and SIGTERM") {
          Readiness.catches([SIGINT, SIGTERM], process: recorder.id)
        }
        kill(recorder.process.processIdentifier, signal)
      }
      let result = recorder.end(0)
      XCTAssertLessThan(Date().timeIntervalSince(started), 20, "it stopped")
      XCTAssertEqual(result.status, 0, "signal \(signal): \(result.error)")
      XCTAssertTrue(
        result.output.contains(signal == 0 ? "The duration asked for ended" : "Stopped before"),
        result.output)
      XCTAssertTrue(result.output.contains("nothing was recorded"), result.output)
      XCTAssertFalse(FileManager.default.fileExists(atPath: store), "no store was made")
      try silent.fileHandleForWriting.close()
    }
  }

  /// #34: a full disk stopped record with "…is full, so nothing was changed in the store" while
  /// thousands of connections had been kept. It now says how much was kept, counted in the store.
  func testAFullDiskSaysWhatWasKept() throws {
    try requireRoot("a small tmpfs to fill")
    let s = try setUp("record-full")
    let capture = s.dir.url.appendingPathComponent("many.pcap").path
    let script = #"""
      import struct, sys
      def packet(i):
          tcp = struct.pack('!HHIIBBHHH', 20000 + i % 40000, 443, 1000, 0, 5 << 4, 2, 65535, 0, 0)
          tcp += b'x' * 200
          return struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + len(tcp), 0, 0, 64, 6, 0,
                             bytes([10, 0, 0, 2]), bytes([203, 0, (i // 250) % 250, i % 250])) + tcp
      with open(sys.argv[1], 'wb') as f:
          f.write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 262144, 101))
          for i in range(40000):
              p = packet(i)
              f.write(struct.pack('<IIII', 1791540000 + i // 100, (i % 100) * 1000, len(p), len(p)))
              f.write(p)
      """#
    XCTAssertEqual(try ExternalTool.run("python3", ["-c", script, capture])?.status, 0)
    let mount = s.dir.url.appendingPathComponent("small").path
    try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
    // Room for the largest transaction (the frame queue holds 8,192 frames: 2 MB of this capture
    // and 2-3 MB of rows in the -wal file), not for the whole (21 MB): under load the recorder may
    // take that many at once, and 3 MB held none of them, so nothing was kept.
    XCTAssertEqual(
      try ExternalTool.run("mount", ["-t", "tmpfs", "-o", "size=10m", "tmpfs", mount])?.status, 0)
    defer { _ = try? ExternalTool.run("umount", [mount]) }
    let store = mount + "/store"
    let full = try XCTUnwrap(
      ExternalTool.run(
        s.binary.path, ["record", "--read", capture, "--quiet", "--store", store]))
    XCTAssertEqual(full.status, 1, full.output)
    XCTAssertFalse(full.error.contains("nothing was changed"), full.error)
    func count(_ table: String) throws -> String {
      try XCTUnwrap(
        ExternalTool.run("sqlite3", [store + "/history.sqlite", "SELECT count(*) FROM \(table)"])
      ).output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
    let packets = try XCTUnwrap(Int(try count("packets")))
    let flows = try XCTUnwrap(Int(try count("flows")))
    XCTAssertGreaterThan(packets, 0)
    XCTAssertTrue(
      full.error.contains(
        "What was written before is kept in the store: \(Quantity.count(packets, "packet")) in \(Quantity.count(flows, "connection"))."
      ), full.error)
  }

  /// #34: a stream out of order gave flows whose first → last spanned 0 ms while their packets
  /// spanned over an hour. Record reads in time order as import does: a capture nearly in order
  /// (interfaces written out of step) gives import's flows, from a file or a pipe; two captures
  /// joined end to end are refused at the first packet out of order, named, what came before kept.
  func testAStreamOutOfOrderIsReadInOrderOrRefusedNamingThePacket() throws {
    let s = try setUp("record-order")
    let merged = Self.realCapture.deletingLastPathComponent().appendingPathComponent(
      "merged-out-of-order.pcapng")
    for stdin in [false, true] {
      let store = s.dir.url.appendingPathComponent("merged-\(stdin)").path
      let result = try XCTUnwrap(
        ExternalTool.run(
          s.binary.path,
          ["record", "--read", stdin ? "-" : merged.path, "--quiet", "--store", store],
          input: stdin ? try Data(contentsOf: merged) : nil))
      XCTAssertEqual(result.status, 0, result.error)
      let imported = s.dir.url.appendingPathComponent("imported-\(stdin)").path
      XCTAssertEqual(
        try ExternalTool.run(s.binary.path, ["project", "new", "P", "--store", imported])?.status, 0
      )
      XCTAssertEqual(
        try ExternalTool.run(
          s.binary.path,
          ["import", merged.path, "--project", "P", "--baseline", "--store", imported])?.status, 0)
      XCTAssertEqual(try comparable(store), try comparable(imported), "stdin \(stdin)")
    }
    // More packets in order than the window holds (the capture seven times, 100 s apart), then
    // the capture an hour earlier.
    var parts: [String] = []
    for (index, shift) in ["0", "100", "200", "300", "400", "500", "600", "-3600"].enumerated() {
      let part = s.dir.url.appendingPathComponent("part-\(index).pcapng").path
      XCTAssertEqual(
        try ExternalTool.run("editcap", ["-t", shift, Self.realCapture.path, part])?.status, 0)
      parts.append(part)
    }
    let joined = s.dir.url.appendingPathComponent("joined.pcapng").path
    XCTAssertEqual(try ExternalTool.run("mergecap", ["-a", "-w", joined] + parts)?.status, 0)
    let refused = try s.tv("record", "--read", joined, "--quiet")
    XCTAssertEqual(refused.status, 1)
    XCTAssertTrue(refused.error.contains("The stream is not in time order: packet "), refused.error)
    XCTAssertTrue(refused.error.contains("What was written before is kept"), refused.error)
    let flows = try FlowStore(directory: URL(fileURLWithPath: s.store), reading: true).allFlows()
    XCTAssertFalse(flows.isEmpty)
    XCTAssertTrue(
      flows.allSatisfy { $0.lastSeen.timeIntervalSince($0.firstSeen) < 3000 },
      "no flow spans the hour between the two captures")
  }

  /// A stream a little out of step, trickled so that the recorder keeps up with it: the frames
  /// of its last moments are held for order across writes (first written, a recorder caught up
  /// with its source let every frame go, and refused the next one dated a moment earlier).
  func testAStreamALittleOutOfStepIsReadInOrderWhenTheRecorderKeepsUp() throws {
    let s = try setUp("record-step")
    let capture = s.dir.url.appendingPathComponent("step.pcap").path
    let script = #"""
      import struct, sys
      def packet(i):
          udp = struct.pack('!HHHH', 40000 + i % 1000, 9, 28, 0) + bytes(20)
          return struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + len(udp), 0, 0, 64, 17, 0,
                             bytes([10, 0, 0, 2]), bytes([203, 0, 113, 7])) + udp
      order = list(range(20000))
      for k in range(1000, 19000, 997):  # every 997th packet written 50 packets late
          order.insert(k + 50, order.pop(k))
      with open(sys.argv[1], 'wb') as f:
          f.write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 262144, 101))
          for i in order:
              t = 1791540000000000 + i * 1000
              p = packet(i)
              f.write(struct.pack('<IIII', t // 1000000, t % 1000000, len(p), len(p)))
              f.write(p)
      """#
    XCTAssertEqual(try ExternalTool.run("python3", ["-c", script, capture])?.status, 0)
    let feed = Pipe()
    let trickle = Process()
    trickle.executableURL = URL(fileURLWithPath: try XCTUnwrap(ExternalTool.which("python3")))
    trickle.arguments = [Self.traffic, "trickle", capture, "2"]
    trickle.standardOutput = feed
    try trickle.run()
    let recorder = try RunningProcess(
      s.binary.path, ["record", "--read", "-", "--json", "--store", s.store], input: feed)
    trickle.waitUntilExit()
    try feed.fileHandleForWriting.close()
    let result = recorder.end(0)
    XCTAssertEqual(result.status, 0, result.error)
    let summary = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    XCTAssertEqual(summary["packets"] as? Int, 20_000)
  }

  func testAFilteredReplayKeepsOnlyWhatTheFilterMatches() throws {
    let s = try setUp("record-filtered")
    let run = try s.tv("record", "--read", Self.realCapture.path, "--filter", "udp", "--json")
    XCTAssertEqual(run.status, 0, run.error)
    let store = try FlowStore(directory: URL(fileURLWithPath: s.store), reading: true)
    let flows = try store.allFlows()
    XCTAssertFalse(flows.isEmpty)
    XCTAssertTrue(flows.allSatisfy { $0.ipProtocol == .udp }, "\(flows.map(\.ipProtocol))")
  }
}

extension RecordCommandTests {
  func testAnInspectionLogThatIsNotThereIsSaidAtStartInTheNotesAndInThePinningReasons() throws {
    let s = try setUp("record-no-log")
    XCTAssertEqual(
      try s.tv(
        "session", "start", "P", "--version", "1", "--build", "1", "--inspection", "--ca-trusted"
      ).status, 0)
    let moved = try movedToNow(s)
    let missing = s.dir.url.appendingPathComponent("run/inspecton.jsonl").path
    let recorded = try s.tv("record", "--read", moved, "--inspection-log", missing, "--quiet")
    XCTAssertEqual(recorded.status, 0, recorded.error)
    XCTAssertTrue(recorded.error.contains("does not exist yet"), recorded.error)
    XCTAssertEqual(try s.tv("session", "end").status, 0)
    let shown = try s.tv("session", "show", "1").output
    XCTAssertTrue(shown.contains("inspecton.jsonl did not exist"), shown)
    XCTAssertFalse(shown.contains("joined as its lines"), shown)
    let findings = try s.tv("findings", "1").output
    XCTAssertTrue(
      findings.contains("The inspection log was not there when the recorder last looked"), findings)
  }

  /// #44.7: lines of the log the recorder could not read were counted in its own summary only.
  func testUnreadableLogLinesAreSaidInTheCoverageTheBundleAndThePinningReasons() throws {
    let s = try setUp("record-unreadable-lines")
    XCTAssertEqual(
      try s.tv(
        "session", "start", "P", "--version", "1", "--build", "1", "--inspection", "--ca-trusted"
      ).status, 0)
    let moved = try movedToNow(s)
    let log = s.dir.url.appendingPathComponent("flows.jsonl")
    XCTAssertTrue(
      FileManager.default.createFile(
        atPath: log.path, contents: Data("not json\n{\"half\": \n".utf8)))
    let recorded = try s.tv("record", "--read", moved, "--inspection-log", log.path, "--json")
    XCTAssertEqual(recorded.status, 0, recorded.error)
    XCTAssertTrue(recorded.output.contains("\"unreadableLines\": 2"), recorded.output)
    XCTAssertEqual(try s.tv("session", "end").status, 0)
    let said = "could not read 2 lines of its inspection log flows.jsonl"
    let shown = try s.tv("session", "show", "1").output
    XCTAssertTrue(shown.contains(said), shown)
    let findings = try s.tv("findings", "1").output
    XCTAssertTrue(
      findings.contains(
        "the recorder could not read 2 lines of its inspection log: this connection's outcome may have been in one of them"
      ), findings)
    let bundle = s.dir.url.appendingPathComponent("bundle.zip").path
    XCTAssertEqual(try s.tv("export", "1", "-o", bundle, "--no-report").status, 0)
    let session = try XCTUnwrap(
      JSONSerialization.jsonObject(
        with: XCTUnwrap(ExternalTool.run("unzip", ["-p", bundle, "session.json"])).output.data(
          using: .utf8)!) as? [String: Any])
    let runs =
      try XCTUnwrap(
        (session["session"] as? [String: Any])?["recording"] as? [String: Any])["runs"]
      as? [[String: Any]]
    XCTAssertEqual(runs?.first?["inspectionLinesUnreadable"] as? Int, 2)
    let capture = try XCTUnwrap(ExternalTool.run("unzip", ["-p", bundle, "capture.json"])).output
    XCTAssertTrue(capture.contains(said), capture)
    let verified = try s.tv("verify", bundle)
    XCTAssertEqual(verified.status, 0, verified.output + verified.error)
  }

  func testARecorderRestartedOnALogJoinsTheLinesAboutAnEarlierRunsConnections() throws {
    let s = try setUp("record-restarted-log")
    XCTAssertEqual(
      try s.tv(
        "session", "start", "P", "--version", "1", "--build", "1", "--inspection", "--ca-trusted"
      ).status, 0)
    let moved = try movedToNow(s)
    let log = s.dir.url.appendingPathComponent("flows.jsonl")
    XCTAssertTrue(FileManager.default.createFile(atPath: log.path, contents: Data()))
    XCTAssertEqual(
      try s.tv("record", "--read", moved, "--inspection-log", log.path, "--quiet").status, 0)
    // The lines come after the first run ended: about its TLS connections.
    let (lines, rows) = try inspectionLines(aboutTLSConnectionsIn: s, limit: 2)
    XCTAssertGreaterThan(rows, 0, "the capture has a TLS connection")
    try Data(lines.utf8).write(to: log)
    // A second run, on a capture of nothing, follows the same log from its start.
    let empty = s.dir.url.appendingPathComponent("empty.pcap")
    var header = Data([0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0])
    header += Data(count: 8) + Data([0xff, 0xff, 0, 0, 101, 0, 0, 0])
    try header.write(to: empty)
    let again = try s.tv(
      "record", "--read", empty.path, "--inspection-log", log.path, "--quiet", "--json")
    XCTAssertEqual(again.status, 0, again.error)
    let summary = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(again.output.utf8)) as? [String: Any])
    let inspection = try XCTUnwrap(summary["inspection"] as? [String: Any])
    XCTAssertEqual(inspection["joined"] as? Int, rows, "\(inspection)")
    XCTAssertEqual(inspection["unjoined"] as? Int, 0, "\(inspection)")
    XCTAssertEqual(
      try flowsWithInspectionOutcomes(in: s), rows,
      "the earlier run's connections took their outcomes")
    // #41.2: the log the restarted recorder found was readable, and nothing says otherwise.
    XCTAssertFalse(again.error.contains("cannot be read"), again.error)
    XCTAssertEqual(try s.tv("session", "end").status, 0)
    let shown = try s.tv("session", "show", "1").output
    XCTAssertFalse(shown.contains("could not be read"), shown)
    XCTAssertFalse(shown.contains("cannot be read"), shown)
  }

  func testLinesInTheLogBeforeTheirConnectionsArriveGiveThemTheirOutcomes() throws {
    // A first store learns the capture's TLS connections; a second records the same capture
    // with the log already holding a line about each. A connection's row is written as the
    // write it opened in ends, and the lines are joined after that, in the same write: the
    // outcome must reach the row all the same.
    let learned = try setUp("record-log-first-learned")
    XCTAssertEqual(
      try learned.tv("session", "start", "P", "--version", "1", "--build", "1").status, 0)
    let moved = try movedToNow(learned)
    XCTAssertEqual(try learned.tv("record", "--read", moved, "--quiet").status, 0)
    let (lines, rows) = try inspectionLines(aboutTLSConnectionsIn: learned, limit: 100)
    XCTAssertGreaterThan(rows, 0, "the capture has a TLS connection")
    let s = try setUp("record-log-first")
    XCTAssertEqual(
      try s.tv(
        "session", "start", "P", "--version", "1", "--build", "1", "--inspection", "--ca-trusted"
      ).status, 0)
    let log = s.dir.url.appendingPathComponent("flows.jsonl")
    try Data(lines.utf8).write(to: log)
    // The capture again an hour on: by then every connection of the first is over, let go in
    // the write that joined its line.
    let later = s.dir.url.appendingPathComponent("later.pcapng").path
    let twice = s.dir.url.appendingPathComponent("twice.pcapng").path
    XCTAssertEqual(try ExternalTool.run("editcap", ["-t", "3600", moved, later])?.status, 0)
    XCTAssertEqual(try ExternalTool.run("mergecap", ["-w", twice, moved, later])?.status, 0)
    let recorded = try s.tv("record", "--read", twice, "--inspection-log", log.path, "--json")
    XCTAssertEqual(recorded.status, 0, recorded.error)
    let summary = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(recorded.output.utf8)) as? [String: Any])
    let inspection = try XCTUnwrap(summary["inspection"] as? [String: Any])
    XCTAssertEqual(inspection["joined"] as? Int, rows, "\(inspection)")
    XCTAssertEqual(try flowsWithInspectionOutcomes(in: s), rows)
  }

  func testAConnectionAcrossASessionsStartInOneWriteGoesOnInARowThatNamesItsFirst() throws {
    // The capture is moved so that the session starts between the fifth and sixth packets of
    // the connection to port 9443 (0.54 ms apart): read from a file, both halves are in one
    // write, the first row written before the second names it.
    let s = try setUp("record-session-edge-in-one-write")
    XCTAssertEqual(
      try s.tv("session", "start", "P", "--version", "1", "--build", "1").status, 0)
    let startedAt = try XCTUnwrap(
      s.rows("SELECT started_at FROM audit_sessions").first.flatMap { Double($0[0]) })
    let times = try XCTUnwrap(
      ExternalTool.run(
        "tshark",
        [
          "-r", Self.realCapture.path, "-Y", "tcp.port == 9443", "-T", "fields", "-e",
          "frame.time_epoch",
        ])
    ).output.split(separator: "\n").compactMap { Double($0) }
    XCTAssertEqual(times.count, 15)
    let edge = (times[4] + times[5]) / 2
    let moved = s.dir.url.appendingPathComponent("edge.pcapng").path
    XCTAssertEqual(
      try ExternalTool.run(
        "editcap",
        ["-t", String(format: "%.6f", startedAt / 1e9 - edge), Self.realCapture.path, moved])?
        .status, 0)
    XCTAssertEqual(try s.tv("record", "--read", moved, "--quiet").status, 0)
    let rows = try s.rows(
      "SELECT f.id, ifnull(f.audit_session_id, '-'), ifnull(f.continued_from, '-'), f.packet_count, (SELECT count(*) FROM packets p WHERE p.flow_id = f.id) FROM flows f WHERE 9443 IN (f.port_a, f.port_b) ORDER BY f.id"
    )
    XCTAssertEqual(rows.count, 2, "\(rows)")
    guard rows.count == 2 else { return }
    XCTAssertEqual(Array(rows[0].dropFirst()), ["-", "-", "5", "5"], "\(rows)")
    XCTAssertEqual(Array(rows[1].dropFirst()), ["1", rows[0][0], "10", "10"], "\(rows)")
  }

  func testAStrayPacketAfterAConnectionEndedInTheSameWriteContinuesItsRow() throws {
    // The connection to port 9443 ends (FIN) and its last packet comes again 90 s later: past
    // the 60 s after which a finished connection's ends make another one, within the 120 s in
    // which a connection first seen mid-stream continues an earlier row. Read from a file, both
    // are in one write: the first row must be written before the second looks for it.
    let s = try setUp("record-stray-packet-in-one-write")
    let last = s.dir.url.appendingPathComponent("last.pcapng").path
    let later = s.dir.url.appendingPathComponent("later.pcapng").path
    let stray = s.dir.url.appendingPathComponent("stray.pcapng").path
    XCTAssertEqual(
      try ExternalTool.run("editcap", ["-r", Self.realCapture.path, last, "37"])?.status, 0)
    XCTAssertEqual(try ExternalTool.run("editcap", ["-t", "90", last, later])?.status, 0)
    XCTAssertEqual(
      try ExternalTool.run("mergecap", ["-w", stray, Self.realCapture.path, later])?.status, 0)
    XCTAssertEqual(try s.tv("record", "--read", stray, "--quiet").status, 0)
    let rows = try s.rows(
      "SELECT id, ifnull(continued_from, '-'), packet_count FROM flows WHERE 9443 IN (port_a, port_b) ORDER BY id"
    )
    XCTAssertEqual(rows.count, 2, "\(rows)")
    guard rows.count == 2 else { return }
    XCTAssertEqual(Array(rows[0].dropFirst()), ["-", "15"], "\(rows)")
    XCTAssertEqual(Array(rows[1].dropFirst()), [rows[0][0], "1"], "\(rows)")
  }

  /// Inspection-log lines (mitmproxy's, as the addon writes them) about the session's first
  /// `limit` TLS connections in the store, and how many.
  func inspectionLines(aboutTLSConnectionsIn s: Setup, limit: Int) throws -> (String, Int) {
    // The client's end first, the server's (443) second, whichever the row holds first.
    let rows = try s.rows(
      "SELECT CASE WHEN port_b = 443 THEN addr_a ELSE addr_b END, CASE WHEN port_b = 443 THEN port_a ELSE port_b END, CASE WHEN port_b = 443 THEN addr_b ELSE addr_a END, 443, first_seen, last_seen FROM flows WHERE protocol = 6 AND 443 IN (port_a, port_b) AND audit_session_id = 1 ORDER BY id LIMIT \(limit)"
    )
    var lines = ""
    for row in rows {
      let start = Double(row[4])! / 1e9
      let end = Double(row[5])! / 1e9
      lines +=
        "{\"format\": 1, \"start\": \(start), \"end\": \(end), \"client\": {\"address\": \"\(row[0])\", \"port\": \(row[1])}, \"proxy\": null, \"server\": {\"address\": \"\(row[2])\", \"port\": \(row[3]), \"peer\": {\"address\": \"\(row[2])\", \"port\": \(row[3])}, \"tlsVersion\": \"TLSv1.3\"}, \"sni\": null, \"clientHandshake\": \"established\", \"requests\": 1}\n"
    }
    return (lines, rows.count)
  }

  /// How many of the store's flows have their outcome from an inspection log.
  func flowsWithInspectionOutcomes(in s: Setup) throws -> Int? {
    try s.rows("SELECT count(*) FROM flows WHERE tls_status_basis = 3").first.flatMap { Int($0[0]) }
  }
}

extension RecordCommandTests {
  func testWithoutTheCapabilitiesToCaptureRecordSaysWhatIsMissing() throws {
    try requireRoot("running the recorder as another user")
    let binary = try TunnelVisionExecutable.url()
    let dir = TemporaryDirectory("record-no-capabilities")
    XCTAssertEqual(chmod(dir.url.path, 0o777), 0)
    // A copy another user can run, wherever the build is (a home directory may be closed).
    let copy = dir.url.appendingPathComponent("tunnelvision")
    try FileManager.default.copyItem(at: binary, to: copy)
    XCTAssertEqual(chmod(copy.path, 0o755), 0)
    let run = try XCTUnwrap(
      ExternalTool.run(
        "setpriv",
        [
          "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--inh-caps=-all",
          copy.path, "record", "-i", "lo", "--duration", "1", "--store",
          dir.url.appendingPathComponent("store").path,
        ]))
    XCTAssertEqual(run.status, 1, run.error)
    XCTAssertTrue(
      run.error.contains(
        "needs the capabilities CAP_NET_RAW and CAP_NET_ADMIN, which this process does not have"),
      run.error)
    XCTAssertFalse(
      FileManager.default.fileExists(atPath: dir.url.appendingPathComponent("store").path),
      "no store is made for a source that cannot be opened")
  }
}
