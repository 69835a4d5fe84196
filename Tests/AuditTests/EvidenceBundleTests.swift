import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Foundation
import ReportContent
import ReportLayout
import ReportModel
import TestSupport
import XCTest

/// The documents of the bundle, pure: built from values, read back with Foundation's JSON parser.
final class EvidenceBundleTests: XCTestCase {
  let catalogue = try! RequirementCatalogueLibrary.catalogue(identifier: "tr-03161-1_3.0")
  let project = AuditProject(
    id: 1, name: "Example Health", bundleIdentifier: "de.example.health", catalogueVersion: nil,
    allowlist: [
      AllowlistEntry(
        pattern: try! DomainPattern(parsing: "*.example.com"), note: "backend, \"main\"")
    ],
    createdAt: FlowFixture.epoch)
  func session(open: Bool = false, project: Int64 = 1) -> AuditSession {
    AuditSession(
      id: 3, projectID: project, kind: .audit(AppRelease(version: "2.4.0", build: "187")),
      environment: FlowFixture.environment,
      inspection: InspectionConditions(inspectionEnabled: true, caTrusted: true),
      startedAt: FlowFixture.at(0),
      endedAt: open ? nil : FlowFixture.at(600), notes: "first, \"quoted\"\nsecond line")
  }
  func flows() -> [StoredFlow] {
    var a = FlowFixture.tcp(id: 7, at: 10, sni: "api.example.com", status: .inspected)
    a.streamOpening = .tlsHandshake
    a.clientTLS = ClientTLSOffer(
      versionsForm: .listed, versions: [.tls13, .tls12], alpn: ["h2", "http/1.1"],
      droppedALPNCount: 1)
    a.serverTLS = .negotiated(
      version: .tls12, cipherSuite: 0xc02f, fromHelloRetryRequest: false, source: .serverHello)
    a.serverCertificate = .presented(
      chain: [Data([0x30, 1, 2]), Data([0x30, 3])], chainIsComplete: true)
    var b = FlowFixture.tcp(id: 8, port: 80, at: 5, status: .plaintext)
    b.streamOpening = .httpRequest
    b.dnsName = "tracker.net"
    b.dnsOtherNames = ["a,b.net"]
    var c = FlowFixture.udp(id: 9, at: 20, quic: QUICReading(version: 0x7f1c_0001, end: .client))
    c.serverTLS = .negotiated(
      version: TLSProtocolVersion(rawValue: 0x7f1c), cipherSuite: 1, fromHelloRetryRequest: true,
      source: .upstreamConnection)
    return [a, b, c]
  }
  let markers = [
    SessionMarker(id: 1, sessionID: 3, date: FlowFixture.at(8), kind: .consentGiven),
    SessionMarker(id: 2, sessionID: 3, date: FlowFixture.at(30), kind: .custom("Opened \"diary\"")),
  ]
  func bundle() throws -> EvidenceBundle {
    try EvidenceBundle(
      project: project, session: session(), markers: markers, flows: flows(), catalogue: catalogue,
      exportedWith: "tunnelvision 0.1.0", exportedAt: FlowFixture.at(3600))
  }
  func parse(_ text: String) throws -> [String: Any] {
    try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }
  func streamedFlows(_ b: EvidenceBundle) -> String {
    let document = b.flowsDocument
    var bytes = document.prefix
    for (i, flow) in b.flows.enumerated() {
      document.append(first: i == 0, to: &bytes) { b.writeFlowEntry(flow, to: &$0) }
    }
    return String(decoding: bytes + document.suffix(empty: b.flows.isEmpty), as: UTF8.self)
  }
  func streamed(_ object: StreamedJSONObject, _ elements: [JSONValue]) -> String {
    var bytes = object.prefix
    for (i, element) in elements.enumerated() { object.append(element, first: i == 0, to: &bytes) }
    return String(decoding: bytes + object.suffix(empty: elements.isEmpty), as: UTF8.self)
  }

  // MARK: Refusals

  func testASessionOfAnotherProjectIsRefused() {
    XCTAssertThrowsError(
      try EvidenceBundle(
        project: project, session: session(project: 2), markers: [], flows: [],
        catalogue: catalogue,
        exportedWith: "t", exportedAt: FlowFixture.epoch)
    ) {
      XCTAssertEqual(
        $0 as? EvidenceBundleError, .sessionOfAnotherProject(sessionProjectID: 2, projectID: 1))
    }
  }
  func testAnOpenSessionIsRefused() {
    XCTAssertThrowsError(
      try EvidenceBundle(
        project: project, session: session(open: true), markers: [], flows: [],
        catalogue: catalogue,
        exportedWith: "t", exportedAt: FlowFixture.epoch)
    ) {
      XCTAssertEqual($0 as? EvidenceBundleError, .sessionStillOpen)
    }
  }
  func testADuplicateFlowIsRefused() {
    XCTAssertThrowsError(
      try EvidenceBundle(
        project: project, session: session(), markers: [], flows: flows() + [flows()[1]],
        catalogue: catalogue,
        exportedWith: "t", exportedAt: FlowFixture.epoch)
    ) {
      XCTAssertEqual($0 as? EvidenceBundleError, .duplicateFlow(id: 8))
    }
  }

  // MARK: The bundle's name

  func testTheBundlesNameIsAFileNameWhateverTheProjectAndReleaseAreCalled() {
    XCTAssertEqual(
      EvidenceBundle.fileStem(project: "Example Health", release: "2.4.0-187", sessionID: 3),
      "Example-Health-2.4.0-187-session-3-evidence")
    XCTAssertEqual(
      EvidenceBundle.fileStem(project: "Example Health", release: "baseline", sessionID: 1),
      "Example-Health-baseline-session-1-evidence")
    // Hidden, an option, a path, or nothing but what a file name cannot hold.
    XCTAssertEqual(
      EvidenceBundle.fileStem(project: "../../etc/passwd", release: "baseline", sessionID: 2),
      "etc-passwd-baseline-session-2-evidence")
    XCTAssertEqual(
      EvidenceBundle.fileStem(project: "😀 Health", release: "1.0.-7", sessionID: 4),
      "Health-1.0.-7-session-4-evidence")
    XCTAssertEqual(
      EvidenceBundle.fileStem(project: "-rf", release: "--", sessionID: 5), "rf-session-5-evidence")
    XCTAssertEqual(
      EvidenceBundle.fileStem(project: "😀", release: "/", sessionID: 6), "session-6-evidence")
    var random = SystemRandomNumberGenerator()
    let pieces = [
      "a", "Z", "7", ".", "-", "_", "/", " ", "é", "😀", "\n", "\u{0}", "..",
      "x".padding(toLength: 400, withPad: "y", startingAt: 0),
    ]
    for _ in 0..<2_000 {
      func text() -> String {
        (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)!
        }.joined()
      }
      let stem = EvidenceBundle.fileStem(
        project: text(), release: text(), sessionID: Int64.random(in: 1...Int64.max, using: &random)
      )
      XCTAssertTrue(stem.utf8.count <= 200, stem)
      XCTAssertTrue(
        stem.utf8.allSatisfy {
          ($0 == 0x2D || $0 == 0x2E || $0 == 0x5F || (0x30...0x39).contains($0)
            || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0))
        }, stem)
      XCTAssertFalse(stem.hasPrefix(".") || stem.hasPrefix("-") || stem.contains("--"), stem)
      XCTAssertTrue(stem.hasSuffix("-evidence"), stem)
    }
  }

  // MARK: The documents

  func testAStreamedObjectIsByteForByteTheWholeObject() {
    let elements: [JSONValue] = [
      .object(["b": .int(1), "a": .string("x")]), .array([.null]), .int(3),
    ]
    for count in 0...elements.count {
      let fields: [String: JSONValue] = [
        "alpha": .int(1), "zulu": .object(["k": .bool(true)]), "mid": .string("m"),
      ]
      var whole = fields
      whole["list"] = .array(Array(elements.prefix(count)))
      XCTAssertEqual(
        streamed(
          StreamedJSONObject(fields: fields, streamedKey: "list"), Array(elements.prefix(count))),
        JSONValue.object(whole).serialized() + "\n", "\(count) elements")
    }
  }

  func testSessionJSONCarriesTheProjectTheSessionTheMarkersAndTheTwoNotes() throws {
    let doc = try parse(try bundle().sessionDocument.serialized())
    let project = try XCTUnwrap(doc["project"] as? [String: Any])
    XCTAssertEqual(project["name"] as? String, "Example Health")
    XCTAssertEqual(project["catalogue"] as? String, "tr-03161-1_3.0")
    XCTAssertEqual(
      (project["allowlist"] as? [[String: Any]])?.first?["note"] as? String, "backend, \"main\"")
    let session = try XCTUnwrap(doc["session"] as? [String: Any])
    XCTAssertEqual((session["release"] as? [String: Any])?["build"] as? String, "187")
    XCTAssertEqual((session["device"] as? [String: Any])?["model"] as? String, "Pixel 8")
    XCTAssertEqual((session["inspection"] as? [String: Any])?["caTrusted"] as? Bool, true)
    XCTAssertEqual(
      (session["markers"] as? [[String: Any]])?.map { $0["kind"] as? String },
      ["consentGiven", "custom"])
    XCTAssertEqual(session["startedAt"] as? String, "2026-10-09T10:00:00Z")
    XCTAssertEqual(doc["contents"] as? String, ContentWording.contents(withContent: false))
    XCTAssertEqual(doc["attribution"] as? String, EvidenceNotes.attribution)
    XCTAssertEqual(doc["exportedAt"] as? String, "2026-10-09T11:00:00Z")
  }

  func testFlowsJSONCarriesEveryKeyOfTheTableAndTheFindingsEachFlowProves() throws {
    let b = try bundle()
    let doc = try parse(streamedFlows(b))
    let flows = try XCTUnwrap(doc["flows"] as? [[String: Any]])
    XCTAssertEqual(flows.map { $0["id"] as? Int }, [8, 7, 9], "in the order they happened")
    let keys: Set<String> = [
      "id", "protocol", "firstSeen", "lastSeen", "durationSeconds", "bytesOut", "bytesIn",
      "packetCount", "peers",
      "tlsStatus", "tlsStatusBasis", "name", "sni", "connectHost", "dnsName", "dnsOtherNames",
      "streamOpening",
      "clientTLS",
      "serverTLS", "quic",
      "serverCertificate", "findingIDs", "alsoContactedInBaseline", "captureRun", "continuedFrom",
      "dnsQuestions", "serverKey", "registrableDomain", "httpHost", "beganBeforeCapture",
      "openedIn", "streamConflicts", "clientAuthentication",
    ]
    for flow in flows { XCTAssertEqual(Set(flow.keys), keys) }
    let a = flows[1]
    XCTAssertEqual((a["name"] as? [String: Any])?["origin"] as? String, "sni")
    XCTAssertEqual(
      (a["clientTLS"] as? [String: Any])?["versions"] as? [String], ["TLS 1.3", "TLS 1.2"])
    XCTAssertEqual((a["clientTLS"] as? [String: Any])?["droppedALPNCount"] as? Int, 1)
    XCTAssertEqual((a["serverTLS"] as? [String: Any])?["cipherSuite"] as? String, "0xC02F")
    XCTAssertEqual(
      (a["serverCertificate"] as? [String: Any])?["chain"] as? [String], ["MAEC", "MAM="])
    XCTAssertEqual(a["durationSeconds"] as? Double, 1)
    // after F1–F3 of flow 8: pinningAbsent for api.example.com
    XCTAssertEqual(a["findingIDs"] as? [String], ["F4"])
    let c = flows[2]
    XCTAssertEqual((c["quic"] as? [String: Any])?["end"] as? String, "client")
    XCTAssertEqual((c["serverTLS"] as? [String: Any])?["version"] as? String, "0x7F1C")
    XCTAssertEqual((c["serverTLS"] as? [String: Any])?["source"] as? String, "upstreamConnection")
    XCTAssertEqual((flows[0]["name"] as? [String: Any])?["origin"] as? String, "dns")
  }

  func testFindingsJSONCitesTheCatalogueGivesAVerdictPerRequirementAndCountsTheChecks() throws {
    let b = try bundle()
    let doc = try parse(streamed(b.findingsDocument, b.findings.indices.map(b.findingEntry)))
    let cat = try XCTUnwrap(doc["catalogue"] as? [String: Any])
    XCTAssertEqual(
      (cat["source"] as? [String: Any])?["sha256"] as? String,
      "f8837fbee1710ad3555bbe333f4a50e83c0c66b24724ab3be5cc634a80beb001")
    XCTAssertEqual((cat["tls"] as? [String: Any])?["minimumVersion"] as? String, "1.2")
    let requirements = try XCTUnwrap(doc["requirements"] as? [[String: Any]])
    let catalogue = try RequirementCatalogueLibrary.catalogue(
      identifier: RequirementCatalogueLibrary.defaultIdentifier)
    XCTAssertEqual(requirements.map { $0["id"] as? String }, catalogue.requirements.map(\.id))
    let ntwk1 = try XCTUnwrap(requirements.first { $0["id"] as? String == "O.Ntwk_1" })
    XCTAssertEqual(ntwk1["verdict"] as? String, "contradicted")
    XCTAssertEqual(ntwk1["contraryFindingIDs"] as? [String], ["F1"])
    XCTAssertNotNil(ntwk1["toolCoverage"] as? String)
    let findings = try XCTUnwrap(doc["findings"] as? [[String: Any]])
    XCTAssertEqual(findings.map { $0["id"] as? String }, (1...findings.count).map { "F\($0)" })
    XCTAssertEqual(findings[0]["kind"] as? String, "cleartextTraffic")
    XCTAssertEqual(findings[0]["flowIDs"] as? [Int], [8])
    let checks = try XCTUnwrap(doc["checks"] as? [String: [String: Any]])
    XCTAssertEqual(Set(checks.keys), Set(FindingsCheck.allCases.map(\.rawValue)))
    for (_, check) in checks {
      let unassessed = (check["notAssessed"] as? [[String: Any]] ?? []).reduce(0) {
        $0 + ($1["connections"] as? Int ?? 0)
      }
      let total =
        (check["flagged"] as? Int ?? 0) + (check["satisfied"] as? Int ?? 0)
        + (check["notApplicable"] as? Int ?? 0) + unassessed
      XCTAssertEqual(total, 3)
    }
    XCTAssertEqual(doc["verdictsNote"] as? String, EvidenceWording.verdictsNote)
  }

  func testTwoBundlesOfTheSameSessionGiveTheSameIdentifiers() throws {
    let one = try bundle()
    let two = try EvidenceBundle(
      project: project, session: session(), markers: markers.reversed(), flows: flows().reversed(),
      catalogue: catalogue, exportedWith: "tunnelvision 0.1.0", exportedAt: FlowFixture.at(99_999))
    XCTAssertEqual(one.citations, two.citations)
    XCTAssertEqual(
      one.flowIDs.map(one.findingIDs(ofFlow:)), two.flowIDs.map(two.findingIDs(ofFlow:)))
    XCTAssertEqual(one.findings, two.findings)
  }

  /// A name read off the wire can be spelled as a spreadsheet formula; flows.csv is for a
  /// spreadsheet, so such a cell opens as text.
  func testACellThatASpreadsheetWouldRunAsAFormulaIsWrittenAfterAnApostrophe() throws {
    let cells = [
      "=HYPERLINK(\"http://x\")", "+1", "-2", "@SUM(A1)", "\tx", "\rx", "=a,b", "a=b", "", "ok",
      "'kept",
    ]
    let line = EvidenceFlowsCSV.line(cells)
    XCTAssertEqual(
      line,
      "\"'=HYPERLINK(\"\"http://x\"\")\",'+1,'-2,'@SUM(A1),'\tx,\"'\rx\",\"'=a,b\",a=b,,ok,'kept\r\n"
    )
    let script =
      "import csv,sys,json; print(json.dumps(list(csv.reader(sys.stdin.read().splitlines(keepends=True)))))"
    let result = try XCTUnwrap(ExternalTool.run("python3", ["-c", script], input: Data(line.utf8)))
    let read = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String]])
    XCTAssertEqual(read, [cells.map(EvidenceFlowsCSV.spreadsheetCell)])
    XCTAssertEqual(
      cells.map(EvidenceFlowsCSV.spreadsheetCell).filter { $0.hasPrefix("'") }.count, 8)
  }

  func testFlowsCSVIsOneRFC4180RowPerFlowFlattened() throws {
    let b = try bundle()
    let text =
      EvidenceFlowsCSV.headerLine
      + b.flows.map { EvidenceFlowsCSV.row($0, findingIDs: b.findingIDs(ofFlow: $0.id)) }.joined()
    XCTAssertTrue(text.hasSuffix("\r\n"))
    XCTAssertEqual(text.components(separatedBy: "\r\n").count, 5)
    // Read back with Python's csv module: an independent parser.
    let script =
      "import csv,sys,json; print(json.dumps(list(csv.reader(sys.stdin.read().splitlines(keepends=True)))))"
    let result = try XCTUnwrap(ExternalTool.run("python3", ["-c", script], input: Data(text.utf8)))
    let rows = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String]])
    XCTAssertEqual(rows[0], EvidenceFlowsCSV.headers)
    let column = Dictionary(
      uniqueKeysWithValues: EvidenceFlowsCSV.headers.enumerated().map { ($1, $0) })
    XCTAssertEqual(rows.dropFirst().map { $0[column["id"]!] }, ["8", "7", "9"])
    XCTAssertEqual(rows[1][column["dnsOtherNames"]!], "a,b.net", "a comma inside a cell survives")
    XCTAssertEqual(rows[2][column["clientVersions"]!], "TLS1.3 TLS1.2")
    XCTAssertEqual(rows[2][column["alpn"]!], "h2 http/1.1")
    XCTAssertEqual(
      rows[2][column["serverCertificate"]!], "MAEC", "only the server's own certificate")
    XCTAssertEqual(rows[3][column["serverVersion"]!], "0x7F1C")
    XCTAssertTrue(rows.allSatisfy { $0.count == EvidenceFlowsCSV.headers.count })
  }

  func testACellWithACommaAQuoteOrALineBreakIsQuotedAndAnIndependentParserReadsItBack() throws {
    let cells = ["plain", "a,b", "say \"hi\"", "two\r\nlines", "lf\nonly", "ünïcödé, 🩺", ""]
    let line = EvidenceFlowsCSV.line(cells)
    XCTAssertEqual(
      line, "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\r\nlines\",\"lf\nonly\",\"ünïcödé, 🩺\",\r\n")
    let script =
      "import csv,sys,json; print(json.dumps(list(csv.reader(sys.stdin.read().splitlines(keepends=True)))))"
    let result = try XCTUnwrap(ExternalTool.run("python3", ["-c", script], input: Data(line.utf8)))
    XCTAssertEqual(
      try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String]], [cells])
  }

  func testTheCaptureStandingHasThreeCasesAndOnlyReasonsWithPackets() {
    XCTAssertEqual(EvidenceCaptureStanding(EvidencePacketTally()), .nothingRecorded)
    XCTAssertEqual(EvidenceCaptureStanding(EvidencePacketTally(written: 5)), .complete(packets: 5))
    XCTAssertEqual(
      EvidenceCaptureStanding(
        EvidencePacketTally(written: 5, withoutBytes: [.notCaptured: 2, .recordUnreadable: 0])),
      .incomplete(
        written: 5, recorded: 7, missing: [EvidenceMissingPackets(reason: .notCaptured, count: 2)]))
  }

  /// No sentence of any document says passed, compliant or fulfilled, in any casing.
  func testNoDocumentSaysPassedCompliantOrFulfilled() throws {
    let b = try bundle()
    var texts = [
      b.sessionDocument.serialized(), streamedFlows(b),
      streamed(b.findingsDocument, b.findings.indices.map(b.findingEntry)),
    ]
    let capture = EvidenceCaptureDocument(
      sessionID: 3, snaplen: 65535,
      packets: EvidencePacketTally(written: 1, withoutBytes: [.notCaptured: 1]),
      beforeStart: 0, afterEnd: 0, sourceFiles: [], flows: [])
    texts.append(streamed(capture.document, []))
    // Every sentence the wording can produce, whatever this bundle happened to need.
    let evidences = FindingsChecks.all.flatMap { $0.statedForms }
    texts += evidences.map { EvidenceWording.statement(of: $0, minimum: .tls12) }
    texts += [
      EvidenceNotes.attribution, ContentWording.contents(withContent: false),
      ContentWording.contents(withContent: true), EvidenceNotes.captureContents,
      EvidenceNotes.packetComments,
    ]
    for text in texts {
      for word in EvidenceWording.forbiddenWords {
        XCTAssertNil(
          text.range(of: "\\b\(word)\\b", options: [.regularExpression, .caseInsensitive]),
          "“\(word)” in \(text.prefix(200))")
      }
    }
  }
}

extension EvidenceBundleTests {
  func testSessionJSONReadsBackItsRecordingAndAVersion2DocumentReadsWithoutOne() throws {
    let written = try bundle()
    let data = Data((written.sessionDocument.serialized() + "\n").utf8)
    let record = try EvidenceSessionRecord(data)
    XCTAssertEqual(record.formatVersion, EvidenceBundle.formatVersion)
    XCTAssertEqual(record.runs, written.coverage.runs)
    var root = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    var session = try XCTUnwrap(root["session"] as? [String: Any])
    session["recording"] = nil
    root["session"] = session
    XCTAssertThrowsError(
      try EvidenceSessionRecord(try JSONSerialization.data(withJSONObject: root)),
      "a version 3 document must carry its recording")
    root["formatVersion"] = 2
    let older = try EvidenceSessionRecord(try JSONSerialization.data(withJSONObject: root))
    XCTAssertEqual(older.formatVersion, 2, "read, for verify to say it is not re-derived")
    XCTAssertTrue(older.runs.isEmpty)
  }

  /// The report's host inventory: each named host once, in the order first contacted, its
  /// connections, bytes, negotiated versions and the findings that cite its connections, as the
  /// bundle's own findings and flows say them; a tracker named with its rule.
  func testTheHostInventoryIsEachHostOnceWithWhatTheBundleSaysOfIt() throws {
    var extra = FlowFixture.tcp(id: 10, at: 30, sni: "API.example.com", sourcePort: 50_010)
    extra.serverTLS = .negotiated(
      version: .tls13, cipherSuite: 0x1301, fromHelloRetryRequest: false, source: .serverHello)
    let flows = flows() + [extra]
    let trackers = SessionAssessmentTests.trackers
    let b = try EvidenceBundle(
      project: project, session: session(), markers: markers, flows: flows, catalogue: catalogue,
      exportedWith: "tunnelvision 0.1.0", exportedAt: FlowFixture.at(3600), trackers: trackers)
    let inventory = b.hostInventory
    XCTAssertEqual(inventory.hosts.map(\.name), ["tracker.net", "api.example.com"])
    XCTAssertEqual(inventory.unnamedConnections, 1, "the QUIC flow read no name")
    XCTAssertEqual(
      inventory.hosts.reduce(0) { $0 + $1.connections } + inventory.unnamedConnections,
      flows.count)
    let api = try XCTUnwrap(inventory.hosts.last)
    XCTAssertEqual(api.connections, 2)
    XCTAssertEqual(api.bytesOut, flows[0].bytesOut + extra.bytesOut)
    XCTAssertEqual(api.versions, [.tls12, .tls13])
    XCTAssertEqual(api.party, .firstParty)
    XCTAssertEqual(
      Set(api.findingIDs), Set(b.findingIDs(ofFlow: 7) + b.findingIDs(ofFlow: 10)))
    let tracker = try XCTUnwrap(inventory.hosts.first)
    XCTAssertEqual(tracker.party, .thirdParty)
    XCTAssertEqual(tracker.tracker?.rule, "||tracker.net^")
    XCTAssertEqual(tracker.findingIDs, b.findingIDs(ofFlow: 8))
    XCTAssertFalse(tracker.findingIDs.isEmpty, "a host outside the allowlist, in the clear")
    XCTAssertEqual(
      EvidenceReportWording.party(tracker), "tracker (Lab list (2026-10-01), rule ||tracker.net^)")
  }
}
