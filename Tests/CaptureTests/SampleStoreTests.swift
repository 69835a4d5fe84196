import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Capture
import Crypto
import FlowStore
import Foundation
import Sample
import TestSupport
import XCTest

/// The sample store, written once for the whole class: real files in a temporary directory.
final class SampleStoreTests: XCTestCase {
  nonisolated(unsafe) static var directory: TemporaryDirectory!
  nonisolated(unsafe) static var summary: SampleSummary!

  override class func tearDown() {
    directory = nil
    summary = nil
    super.tearDown()
  }

  override class func setUp() {
    directory = TemporaryDirectory("sample")
    summary = try! SampleWriter.write(
      SampleScenario.plan(SampleOptions()), to: directory.url.appendingPathComponent("store"))
  }

  var storeURL: URL { Self.directory.url.appendingPathComponent("store") }
  func store() throws -> FlowStore { try FlowStore(directory: storeURL) }
  func session(_ name: String) throws -> AuditSession {
    let s = try store()
    let project = try XCTUnwrap(s.auditProjects().first { $0.name == "Example Health" })
    return try XCTUnwrap(
      s.auditSessions(forProject: project.id).first {
        AuditPresentation.sessionName($0.kind) == name
      })
  }

  func testTheSameSeedWritesTheSameBytesAndAnotherSeedOthers() throws {
    let other = TemporaryDirectory("sample-again")
    _ = try SampleWriter.write(
      SampleScenario.plan(SampleOptions()), to: other.url.appendingPathComponent("store"))
    let mine = try CaptureLibrary(directory: store().capturesDirectory).files()
    let theirs = try CaptureLibrary(directory: other.url.appendingPathComponent("store/captures"))
      .files()
    XCTAssertEqual(mine.map(\.sequence), theirs.map(\.sequence))
    for (a, b) in zip(mine, theirs) {
      XCTAssertEqual(try Data(contentsOf: a.url), try Data(contentsOf: b.url))
    }
    func dump(_ path: String) throws -> String {
      try XCTUnwrap(ExternalTool.run("sqlite3", [path, ".dump"])).output
    }
    let dumpA = try dump(storeURL.appendingPathComponent("history.sqlite").path)
    XCTAssertGreaterThan(dumpA.count, 10_000)
    XCTAssertEqual(dumpA, try dump(other.url.appendingPathComponent("store/history.sqlite").path))

    let third = TemporaryDirectory("sample-seed")
    _ = try SampleWriter.write(
      SampleScenario.plan(SampleOptions(seed: 2)), to: third.url.appendingPathComponent("store"))
    XCTAssertNotEqual(
      try Data(contentsOf: mine[0].url),
      try Data(contentsOf: third.url.appendingPathComponent("store/captures/00000001.pcap")))
  }

  func testAStoreThatExistsIsNotOverwritten() throws {
    XCTAssertThrowsError(try SampleWriter.write(SampleScenario.plan(SampleOptions()), to: storeURL))
    {
      XCTAssertEqual($0 as? SampleWriterError, .storeNotEmpty(storeURL.path))
    }
  }

  func testADirectoryHoldingOtherFilesIsRefusedAsNotEmptyAndKept() throws {
    let dir = TemporaryDirectory("sample-not-empty")
    try Data("mine".utf8).write(to: dir.url.appendingPathComponent("notes.txt"))
    XCTAssertThrowsError(try SampleWriter.write(SampleScenario.plan(SampleOptions()), to: dir.url))
    {
      XCTAssertEqual($0 as? SampleWriterError, .directoryNotEmpty(dir.url.path))
      XCTAssertEqual(
        "\($0)",
        "\(dir.url.path) is not empty; the sample is only written into a new or empty directory. Choose another --store."
      )
    }
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.url.path), ["notes.txt"])
    XCTAssertFalse(
      try FileManager.default.contentsOfDirectory(atPath: dir.url.deletingLastPathComponent().path)
        .contains { $0.hasPrefix(".\(dir.url.lastPathComponent).partial") })
  }

  func testTheProjectSessionsAndMarkersAreThere() throws {
    let s = try store()
    let project = try XCTUnwrap(s.auditProjects().first { $0.name == "Example Health" })
    XCTAssertEqual(project.bundleIdentifier, "de.example.health")
    XCTAssertTrue(project.allowlist.contains { $0.pattern.scope == .subdomains })
    XCTAssertTrue(project.allowlist.contains { $0.pattern.scope == .exact })
    XCTAssertTrue(project.allowlist.allSatisfy { $0.note != nil })
    let sessions = try s.auditSessions(forProject: project.id)
    XCTAssertEqual(
      sessions.map { AuditPresentation.sessionName($0.kind) },
      ["Version 2.4.0 (187)", "Version 2.3.1 (180)", "Baseline"])
    XCTAssertTrue(sessions.allSatisfy { !$0.isOpen })
    let markers = try s.markers(forSession: try session("Version 2.4.0 (187)").id).map(\.kind)
    XCTAssertEqual(markers.filter { $0 == .consentGiven }.count, 2)
    XCTAssertTrue(markers.contains(.loggedIn) && markers.contains(.loggedOut))
    XCTAssertTrue(
      markers.contains {
        if case .custom = $0 { return true }
        return false
      })
    // Traffic outside any session.
    let all = try s.allFlows()
    XCTAssertGreaterThan(all.filter { $0.auditSessionID == nil }.count, 1)
  }

  /// Every row of every findings table is exercised: asserted from what the flows give, not from a list.
  func testTheSampleCoversEveryRowOfTheFindingsTables() throws {
    let s = try store()
    let projects = try s.auditProjects()
    var tls = Set<String>()
    var encryption = Set<String>()
    var host = Set<String>()
    var pinning = Set<String>()
    var consent = Set<String>()
    for project in projects {
      for session in try s.auditSessions(forProject: project.id) {
        let flows = try s.flows(inAuditSession: session.id)
        let consentInterval = ConsentInterval(markers: try s.markers(forSession: session.id))
        for flow in flows {
          switch TLSVersionAssessment(of: flow, minimum: .tls12) {
          case .weak(let o): tls.insert("weak.\(o.basis)")
          case .acceptable(let o): tls.insert("acceptable.\(o.basis)")
          case .notAssessed(let gap): tls.insert(gap.key)
          case .notApplicable: tls.insert("notApplicable")
          }
          switch EncryptionAssessment(of: flow) {
          case .cleartext:
            encryption.insert(flow.peers.contains(port: 443) ? "cleartext.443" : "cleartext.80")
          case .encrypted(let p): encryption.insert("encrypted.\(p)")
          case .notAssessed(let gap): encryption.insert(gap.key)
          case .notApplicable: encryption.insert("notApplicable")
          }
          switch HostAssessment(of: flow, project: project) {
          case .notInAllowlist: host.insert("notInAllowlist.\(flow.name!.origin)")
          case .unnamed(let reason): host.insert("unnamed.\(reason)")
          case .allowed:
            host.insert(
              "allowed.\(flow.name!.origin)" + (flow.dnsOtherNames.isEmpty ? "" : ".candidates"))
          case .notAssessed(let gap): host.insert(gap.key)
          case .infrastructure(let service): host.insert("infrastructure.\(service)")
          }
          switch PinningAssessment(of: flow, conditions: session.inspection) {
          case .absent: pinning.insert("absent")
          case .observed: pinning.insert("observed")
          case .notAssessed(let gap): pinning.insert(gap.key)
          case .notApplicable:
            pinning.insert(
              flow.streamOpening == .httpRequest ? "notApplicable.http" : "notApplicable")
          }
          switch ConsentAssessment(of: flow, sessionKind: session.kind, consent: consentInterval) {
          case .beforeConsent: consent.insert("before")
          case .afterConsent: consent.insert("after")
          case .notAssessed(let gap): consent.insert(gap.key)
          case .notApplicable: consent.insert("notApplicable")
          }
        }
        if flows.contains(where: {
          if $0.serverTLS?.handshake?.fromHelloRetryRequest == true { return true }
          return false
        }) {
          tls.insert("helloRetryRequest")
        }
      }
    }
    XCTAssertEqual(
      tls,
      [
        "weak.serverHello", "acceptable.serverHello", "weak.upstreamConnection",
        "acceptable.upstreamConnection",
        "appNegotiationNotObserved.versionsNotListed", "unrecognisedVersion", "serverRefused",
        "acceptable.quic",
        "quicVersionOnlyProposed", "unrecognisedQUICVersion", "serverAnswerNotRead",
        "notApplicable", "helloRetryRequest",
      ])
    XCTAssertEqual(
      encryption,
      [
        "cleartext.80", "cleartext.443", "encrypted.tls", "unrecognisedOpening", "openingNotRead",
        "encrypted.quic", "unrecognisedQUICVersion", "datagramsNotRead", "notApplicable",
      ])
    XCTAssertEqual(
      host,
      [
        "unnamed.noClientHelloRead", "unnamed.serverNameNotAnnounced",
        "unnamed.encryptedClientHello", "allowlistEmpty",
        "allowed.sni", "notInAllowlist.sni", "allowed.dns", "allowed.dns.candidates",
        "notInAllowlist.dns",
        "candidatesDisagree.attributedNameAllowed", "candidatesDisagree.attributedNameNotAllowed",
        "infrastructure.dns",
      ])
    XCTAssertEqual(
      pinning,
      [
        "notApplicable", "notApplicable.http", "inspectionOff", "certificateScenarioNotStated",
        "absent",
        "observed",
        "outcomeWithoutAnnouncedName", "quicNotInspected", "noInspectionOutcome",
      ])
    XCTAssertEqual(
      consent, ["notApplicable", "noConsentMarker", "before", "after", "betweenConsentMarkers"])
  }

  func testTheTwoReleasesCoverEveryRowOfTheComparison() throws {
    let s = try store()
    let project = try XCTUnwrap(s.auditProjects().first { $0.name == "Example Health" })
    let a = try session("Version 2.3.1 (180)")
    let b = try session("Version 2.4.0 (187)")
    let diff = try ReleaseDiff(
      between: b, flows: try s.flows(inAuditSession: b.id), and: a,
      flows: try s.flows(inAuditSession: a.id), project: project)
    XCTAssertEqual(diff.later.id, b.id)
    XCTAssertFalse(diff.newDomains.isEmpty)
    XCTAssertFalse(diff.unexpectedNewDomains.isEmpty)
    XCTAssertTrue(
      diff.newDomains.contains {
        if case .listed = $0.standing { return true }
        return false
      })
    XCTAssertFalse(diff.goneDomains.isEmpty)
    XCTAssertFalse(diff.undeterminedDomains.isEmpty)
    XCTAssertFalse(diff.earlierUnnamedFlowIDs.isEmpty || diff.laterUnnamedFlowIDs.isEmpty)
    var floors = Set<String>()
    var gaps = Set<String>()
    var negotiators = Set<String>()
    for domain in diff.domainsInBoth {
      guard case .inBoth(let app, let proxy) = domain.status else { continue }
      for (name, comparison) in [("app", app), ("proxy", proxy)] {
        switch comparison {
        case .same: floors.insert("same")
        case .different(_, _, let floor):
          floors.insert(floor.rawValue)
          negotiators.insert(name)
        case .notCompared(let gap): gaps.insert(gap.rawValue)
        }
      }
    }
    XCTAssertEqual(floors, ["same", "lowered", "raised", "held", "notOrdered"])
    XCTAssertEqual(
      gaps, ["notReadInEarlierSession", "notReadInLaterSession", "notReadInEitherSession"])
    XCTAssertEqual(negotiators, ["app", "proxy"])
  }

  func testTheCaptureHoldsEveryKindOfPacketTheBundleMustAccountFor() throws {
    let s = try store()
    let later = try session("Version 2.4.0 (187)")
    let counts = try s.packetCounts(inAuditSession: later.id)
    XCTAssertTrue(counts.contains { $0.fileSequence == nil }, "packets never captured")
    let library = CaptureLibrary(directory: s.capturesDirectory)
    let present = Set(try library.files().map(\.sequence))
    let pointedAt = try s.captureFileSequences(inAuditSession: later.id)
    XCTAssertFalse(pointedAt.subtracting(present).isEmpty, "a capture file was removed")
    var unreadable = 0
    var readable = 0
    for sequence in pointedAt.intersection(present) {
      for packet in try s.capturedPackets(inAuditSession: later.id, fileSequence: sequence) {
        do {
          let record = try library.record(
            at: CaptureLocation(fileSequence: sequence, offset: packet.offset))
          XCTAssertEqual(record.bytes.count, packet.length)
          XCTAssertEqual(Int64(record.timestampMicroseconds), Instant.microseconds(packet.date))
          readable += 1
        } catch {
          if case .recordUnreadable(.recordCutShort) = error {
            unreadable += 1
          } else {
            throw error
          }
        }
      }
    }
    XCTAssertEqual(unreadable, 1)
    XCTAssertGreaterThan(readable, 200)
    // A connection open before the session started: its packets then are in the row it
    // continues (history), the session's row holds those from its start, and says so.
    let flows = try s.flows(inAuditSession: later.id)
    let continued = try XCTUnwrap(flows.first { $0.continuedFrom != nil })
    XCTAssertGreaterThanOrEqual(continued.firstSeen, later.startedAt)
    let before = try XCTUnwrap(try s.flow(id: continued.continuedFrom!))
    XCTAssertNil(before.auditSessionID)
    XCTAssertLessThan(before.lastSeen, later.startedAt)
    XCTAssertEqual(before.peers, continued.peers)
    XCTAssertTrue(flows.allSatisfy { $0.firstSeen >= later.startedAt }, "sealed at its start")
  }

  func testTheCapturedBytesCarryTheFlowsNamesAndRequests() throws {
    guard ExternalTool.which("tshark") != nil else {
      throw XCTSkip("tshark is not installed (make test installs it)")
    }
    let file = try CaptureLibrary(directory: store().capturesDirectory).files()[0]
    let snis = try XCTUnwrap(
      ExternalTool.run(
        "tshark",
        [
          "-r", file.url.path, "-Y", "tls.handshake.type == 1", "-T", "fields",
          "-e", "tls.handshake.extensions_server_name",
        ]))
    XCTAssertEqual(snis.status, 0, snis.error)
    let names = Set(snis.output.split(separator: "\n").map(String.init))
    XCTAssertTrue(
      names.isSuperset(of: [
        "api.example-health.de", "telemetry.example-ads.net", "auth.example-id.com",
      ]), "\(names)")
    let http = try XCTUnwrap(
      ExternalTool.run(
        "tshark", ["-r", file.url.path, "-Y", "http.request", "-T", "fields", "-e", "http.host"]))
    XCTAssertTrue(http.output.contains("legacy.example-health.de"), http.output)
    // Every SNI in the capture is the SNI of a flow in the history.
    let stored = Set(try store().allFlows().compactMap(\.sni))
    XCTAssertTrue(names.subtracting([""]).isSubset(of: stored))
  }

  func testAWorkloadGrowsToTheSizesAsked() throws {
    let dir = TemporaryDirectory("sample-scaled")
    let summary = try SampleWriter.write(
      SampleScenario.plan(SampleOptions(flows: 400, packets: 8_000, captureBytes: 4_000_000)),
      to: dir.url.appendingPathComponent("store"), rotationBytes: 1_000_000)
    let later = try XCTUnwrap(summary.sessions.first { $0.name == "Version 2.4.0 (187)" })
    XCTAssertEqual(later.flows, 400)
    XCTAssertEqual(Double(later.packets), 8_000, accuracy: 400)
    let bytes = Double(summary.captureBytes)
    XCTAssertEqual(bytes, 4_000_000, accuracy: 600_000)
    XCTAssertGreaterThanOrEqual(summary.captureFiles, 4)
  }
}
