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

/// A report of some length, built from values: sixty flows to thirty hosts, long names, a long note.
enum ReportFixture {
  static func bundle(
    flowCount: Int = 60,
    inspection: InspectionConditions = InspectionConditions(
      inspectionEnabled: true, caTrusted: true),
    markers: Bool = true, allowlist: Bool = true,
    content: SessionContent = SessionContent(values: [], exchanges: []), runs: [RecorderRun] = [],
    catalogue: RequirementCatalogue? = nil
  ) throws -> EvidenceBundle {
    let catalogue =
      try catalogue ?? RequirementCatalogueLibrary.catalogue(identifier: "tr-03161-1_3.0")
    let project = AuditProject(
      id: 1, name: "Example Health", bundleIdentifier: "de.example.health", catalogueVersion: nil,
      allowlist: allowlist
        ? [
          AllowlistEntry(
            pattern: try DomainPattern(parsing: "*.example-health.de"),
            note:
              "backend and the long tail of its services, written out at some length so that the note wraps"
          ),
          AllowlistEntry(pattern: try DomainPattern(parsing: "cdn.example.net"), note: nil),
        ] : [],
      createdAt: FlowFixture.epoch)
    let session = AuditSession(
      id: 3, projectID: 1, kind: .audit(AppRelease(version: "2.4.0", build: "187")),
      environment: FlowFixture.environment,
      inspection: inspection, startedAt: FlowFixture.at(0), endedAt: FlowFixture.at(3600),
      notes:
        "Prüfung der Einwilligung: Übergänge, Größen, Straße — with a line break\nand a second line."
    )
    var flows: [StoredFlow] = []
    for i in 0..<flowCount {
      let host =
        i % 3 == 0
        ? "node\(i % 30).example-health.de"
        : "a-really-long-tracker-host-name-without-any-break-\(i % 30).example-analytics-collector.io"
      var f = FlowFixture.tcp(
        id: Int64(i + 1), at: Double(i * 10), sni: host,
        status: i % 2 == 0 ? .inspected : .notInspectable)
      f.streamOpening = i % 7 == 0 ? .httpRequest : .tlsHandshake
      f.serverTLS = .negotiated(
        version: i % 5 == 0 ? .tls10 : .tls13, cipherSuite: 0x1301, fromHelloRetryRequest: false,
        source: .serverHello)
      flows.append(f)
    }
    let marks =
      markers
      ? [
        SessionMarker(id: 1, sessionID: 3, date: FlowFixture.at(95), kind: .consentGiven),
        SessionMarker(
          id: 2, sessionID: 3, date: FlowFixture.at(300), kind: .custom("Opened the diary")),
      ] : []
    return try EvidenceBundle(
      project: project, session: session, markers: marks, flows: flows, catalogue: catalogue,
      exportedWith: "tunnelvision 0.1.0", exportedAt: FlowFixture.at(7200), runs: runs,
      content: content)
  }

  /// The test account's e-mail hashed to flow 2's tracker host before consent (marker at 95 s),
  /// the diagnosis to flow 4's own host after it, the insurance number never sent.
  static let content: SessionContent = {
    func exchange(_ id: Int64, flow: Int64, at: Double, host: String, _ match: ContentMatch)
      -> ExchangeRecord
    {
      ExchangeRecord(
        exchangeID: id, flowID: flow, source: .proxy, kind: .http, start: FlowFixture.at(at),
        end: nil, method: "POST", scheme: "https", host: host, port: 443, path: "/v1",
        httpVersion: "HTTP/2.0", fromClient: true, status: 200, request: nil, response: nil,
        queryNames: ["uid"], headerNames: [], jsonKeys: [], matches: [match])
    }
    return SessionContent(
      values: [
        TestDataValue(label: "e-mail", value: "lea.tester@example.org", category: .contact),
        TestDataValue(label: "diagnosis", value: "E11.9 Diabetes", category: .health),
        TestDataValue(label: "insurance number", value: "A123456780", category: .identifier),
      ],
      exchanges: [
        exchange(
          1, flow: 2, at: 10.5,
          host:
            "a-really-long-tracker-host-name-without-any-break-1.example-analytics-collector.io",
          ContentMatch(label: "e-mail", form: .sha256OfNormalised, place: MatchPlace(.query, "uid"))
        ),
        exchange(
          2, flow: 4, at: 30.5, host: "node3.example-health.de",
          ContentMatch(label: "diagnosis", form: .asIs, place: MatchPlace(.body, "$.diagnosis"))),
      ])
  }()

  static func capture(for bundle: EvidenceBundle, recorded: Int = 900, written: Int = 880)
    -> EvidenceCaptureDocument
  {
    EvidenceCaptureDocument(
      sessionID: bundle.session.id, snaplen: 65535,
      packets: EvidencePacketTally(
        written: written, withoutBytes: [.notCaptured: recorded - written]),
      beforeStart: 2, afterEnd: 0, sourceFiles: [],
      flows: bundle.flows.map { ($0.id, EvidencePacketTally(written: 10)) })
  }

  static func report(limits: EvidenceReportLimits = .bundled) throws -> EvidenceReport {
    let b = try bundle()
    return try EvidenceReport(bundle: b, capture: capture(for: b).summary, limits: limits)
  }
}

final class EvidenceReportTests: XCTestCase {
  func testTheReportHasTheTenSectionsInOrderTheSummaryFirstAndAnAppendixOnlyWhenNeeded() throws {
    let bare = try ReportFixture.bundle(
      flowCount: 0, inspection: .off, markers: false, allowlist: false)
    let ten: [EvidenceReportSectionKind] = [
      .summary, .session, .hosts, .personalData, .method, .testLog, .requirements, .findings,
      .checks, .capture,
    ]
    for (b, appendix) in [(try ReportFixture.bundle(), true), (bare, false)] {
      let report = try EvidenceReport(
        bundle: b, capture: ReportFixture.capture(for: b, recorded: 0, written: 0).summary,
        limits: .bundled)
      XCTAssertEqual(
        b.findings.contains { $0.flowIDs.count > EvidenceReportWording.flowIDsInRow }, appendix)
      XCTAssertEqual(report.sections.map(\.kind), ten + (appendix ? [.appendix] : []))
      XCTAssertEqual(report.subtitle, "Example Health · 2.4.0 (187) · session 3")
      XCTAssertEqual(
        report.documentTitle, "Evidence report · Example Health · 2.4.0 (187) · session 3")
      XCTAssertTrue(report.sections.allSatisfy { !$0.blocks.isEmpty })
    }
  }

  func testThePersonalDataSectionSaysWhereEachValueWentAndWhichWereNotSeen() throws {
    let b = try ReportFixture.bundle(content: ReportFixture.content)
    let report = try EvidenceReport(
      bundle: b, capture: ReportFixture.capture(for: b).summary, limits: .bundled)
    let blocks = try XCTUnwrap(report.sections.first { $0.kind == .personalData }).blocks
    let tables = blocks.compactMap { block -> EvidenceReportTable? in
      if case .table(let t) = block { return t }
      return nil
    }
    XCTAssertEqual(tables.count, 1)
    XCTAssertEqual(tables.first?.columns, ContentWording.sentColumns)
    let rows = tables.first?.rows.map { $0.map(\.text) } ?? []
    XCTAssertEqual(rows.count, 2)
    XCTAssertEqual(rows.first?.first, "e-mail")
    XCTAssertEqual(rows.first?[2], "third party (outside the allowlist)")
    XCTAssertEqual(rows.first?[3], "as the SHA-256 of its normalised form, query uid")
    XCTAssertEqual(rows.first?[4], "before consent")
    XCTAssertEqual(rows.last?.first, "diagnosis")
    XCTAssertEqual(rows.last?[2], "first party")
    XCTAssertEqual(rows.last?[4], "before consent")
    let paragraphs = blocks.compactMap { block -> String? in
      if case .paragraph(let t) = block { return t }
      return nil
    }
    XCTAssertTrue(
      paragraphs.contains(ContentWording.notSeen(["insurance number"])), "\(paragraphs)")
    // Page 1's line counts the values, not the rows.
    let facts = report.sections[0].blocks.compactMap { block -> [EvidenceReportFact]? in
      if case .facts(let f) = block { return f }
      return nil
    }.flatMap { $0 }
    XCTAssertEqual(
      facts.first { $0.label == ContentWording.summaryLabel }?.value,
      ContentWording.summaryLine(planted: 3, seen: 2, toThirdParties: 1))
  }

  func testPageOneTotalsCountConnectionsHostsPartiesAndBytes() throws {
    let b = try ReportFixture.bundle()
    let names = Set(b.flows.compactMap { $0.sni?.lowercased() })
    let ours = names.filter { $0.hasSuffix(".example-health.de") }
    XCTAssertEqual(b.totals.connections, 60)
    XCTAssertEqual(b.totals.unnamedConnections, 0)
    XCTAssertEqual(b.totals.hosts, names.count)
    XCTAssertEqual(b.totals.firstPartyHosts, ours.count)
    XCTAssertEqual(b.totals.thirdPartyHosts, names.count - ours.count)
    XCTAssertEqual(b.totals.bytesOut, b.flows.reduce(0) { $0 + $1.bytesOut })
    XCTAssertEqual(b.totals.bytesIn, b.flows.reduce(0) { $0 + $1.bytesIn })
    let report = try EvidenceReport(
      bundle: b, capture: ReportFixture.capture(for: b).summary, limits: .bundled)
    let facts = report.sections[0].blocks.compactMap { block -> [EvidenceReportFact]? in
      if case .facts(let f) = block { return f }
      return nil
    }.flatMap { $0 }
    let traffic = try XCTUnwrap(facts.first { $0.label == EvidenceReportWording.trafficLabel })
    XCTAssertTrue(
      traffic.value.hasPrefix("60 connections to \(names.count) hosts: "), traffic.value)
    XCTAssertTrue(traffic.value.contains("\(ours.count) first party"), traffic.value)
    XCTAssertTrue(traffic.value.contains("no tracker list read"), traffic.value)
  }

  func testWhatIsNotThereIsSaidInASentence() throws {
    let bare = try ReportFixture.bundle(
      flowCount: 0, inspection: .off, markers: false, allowlist: false)
    let report = try EvidenceReport(
      bundle: bare, capture: ReportFixture.capture(for: bare, recorded: 0, written: 0).summary,
      limits: .bundled)
    let session = report.section(.session).blocks
    XCTAssertTrue(
      session.contains {
        guard case .facts(let facts) = $0 else { return false }
        return facts.contains {
          $0.label == "Markers" && $0.value == EvidenceReportWording.noMarkers
        }
      })
    XCTAssertTrue(session.contains(.paragraph(EvidenceReportWording.emptyAllowlist)))
    XCTAssertTrue(session.contains(.note(PinningEvidence.notAssessed(.inspectionOff).sentence)))
    XCTAssertTrue(
      report.section(.findings).blocks.contains(.paragraph(EvidenceReportWording.noFindings)))
    XCTAssertTrue(
      report.section(.capture).blocks.contains(
        .paragraph("The session recorded no packets, so the capture is empty.")))
  }

  func testTheMethodQuotesTheFiveNotesAttributionFirst() throws {
    let notes = try ReportFixture.report().section(.method).blocks.compactMap { block -> String? in
      if case .note(let t) = block { return t }
      return nil
    }
    XCTAssertEqual(
      notes,
      [
        EvidenceNotes.attribution, ContentWording.contents(withContent: false),
        EvidenceWording.verdictsNote,
        EvidenceNotes.captureContents, EvidenceNotes.packetComments,
      ])
  }

  /// What the tool looks at is said once, under Method: each requirement's toolCoverage there,
  /// and nowhere else in the report.
  func testWhatTheToolLooksAtIsSaidOnceUnderMethod() throws {
    let report = try ReportFixture.report()
    let catalogue = try ReportFixture.bundle().catalogue
    let texts = report.sections.map { section -> (EvidenceReportSectionKind, String) in
      let text = section.blocks.map { block -> String in
        switch block {
        case .heading(let t, _, _), .paragraph(let t), .note(let t): return t
        case .facts(let f): return f.map { "\($0.label) \($0.value)" }.joined(separator: "\n")
        case .table(let t): return t.rows.flatMap { $0.map(\.text) }.joined(separator: "\n")
        }
      }.joined(separator: "\n")
      return (section.kind, text)
    }
    let covered = catalogue.requirements.compactMap(\.toolCoverage)
    XCTAssertGreaterThan(covered.count, 5)
    for coverage in covered {
      XCTAssertEqual(
        texts.map { ($0.0, $0.1.components(separatedBy: coverage).count - 1) }.filter { $0.1 > 0 }
          .map(\.0), [.method], coverage)
    }
  }

  func testLimitsArePositiveOnlyAndACutListSaysSo() throws {
    XCTAssertNil(EvidenceReportLimits(flowIDsPerFinding: 0, tlsReadingRows: 10))
    XCTAssertNil(EvidenceReportLimits(flowIDsPerFinding: 3, tlsReadingRows: -1))
    XCTAssertEqual(
      EvidenceReportLimits.bundled,
      EvidenceReportLimits(flowIDsPerFinding: 500, tlsReadingRows: 150))
    let report = try ReportFixture.report(
      limits: EvidenceReportLimits(flowIDsPerFinding: 1, tlsReadingRows: 2)!)
    let findingsText = report.section(.appendix).blocks.compactMap { block -> [String]? in
      if case .table(let t) = block { return t.rows.map { $0.last!.text } }
      return nil
    }.flatMap { $0 }
    XCTAssertTrue(
      findingsText.contains {
        $0.contains("more in flows.json")
      }, "\(findingsText)")
    // The hosts' TLS, under the inventory.
    let tls = report.section(.hosts).blocks
    XCTAssertTrue(
      tls.contains {
        if case .paragraph(let t) = $0 { return t.hasPrefix("The table below stops at 2 of") }
        return false
      })
    guard
      case .table(let table)? = tls.first(where: {
        if case .table(let t) = $0 { return t.columns == EvidenceReportWording.tlsColumns }
        return false
      })
    else { return XCTFail("no table of the hosts' TLS") }
    XCTAssertEqual(table.rows.count, 2)
  }

  func testEachHostRowHoldsRoomForItsCellsAndNoMore() throws {
    let report = try ReportFixture.report()
    let rows = report.section(.hosts).blocks.compactMap { block -> [[EvidenceReportCell]]? in
      guard case .table(let t) = block,
        t.columns.first
          == EvidenceReportWording.hostColumns(
            domains: false, registered: false
          ).first
      else { return nil }
      return t.rows
    }.joined()
    XCTAssertFalse(rows.isEmpty)
    // malloc rounds a block up to its size class: a cell more at most. Made from one cell and
    // the rest appended, a row of seven held twelve.
    for row in rows { XCTAssertLessThanOrEqual(row.capacity, row.count + 1, "\(row.count) cells") }
  }

  func testACaptureOfAnotherSessionIsRefused() throws {
    let b = try ReportFixture.bundle()
    let other = EvidenceCaptureDocument(
      sessionID: 99, snaplen: nil, packets: EvidencePacketTally(), beforeStart: 0, afterEnd: 0,
      sourceFiles: [], flows: [])
    XCTAssertThrowsError(try EvidenceReport(bundle: b, capture: other.summary, limits: .bundled)) {
      XCTAssertEqual(
        $0 as? EvidenceReportError, .captureOfAnotherSession(captureSessionID: 99, sessionID: 3))
    }
  }

  /// Page 1 lists the findings against the requirements by what they mean (plaintext first,
  /// unnamed last), not by when their first connection began.
  func testTheKeyFindingsAreOrderedByWhatTheyMean() throws {
    let bundle = try ReportFixture.bundle()
    let report = try EvidenceReport(
      bundle: bundle, capture: ReportFixture.capture(for: bundle).summary, limits: .bundled)
    var key: [String] = []
    for case .table(let table) in report.sections[0].blocks
    where table.columns == ["Finding", "What", "About"] {
      key = table.rows.map { $0[0].text }
    }
    XCTAssertFalse(key.isEmpty)
    let meanings = key.map { id in
      bundle.findings[Int(id.dropFirst())! - 1].kind.meaning
    }
    XCTAssertEqual(meanings, meanings.sorted(), "\(key)")
    XCTAssertEqual(meanings.first, .plaintext, "\(key)")
    let byTime = bundle.findings.indices.first { bundle.findings[$0].kind.meaning != .support }
    XCTAssertNotEqual(key.first, byTime.map(FindingsDocument.identifier), "not the first by time")
  }

  func testEveryFindingIdentifierCitedInATableLinksToWhereItIsStated() throws {
    let report = try ReportFixture.report()
    var anchors = Set<String>()
    var links = Set<String>()
    for case .table(let table) in report.sections.flatMap(\.blocks) {
      for cell in table.rows.flatMap({ $0 }) {
        if let a = cell.anchor { anchors.insert(a) }
        if let l = cell.link { links.insert(l) }
        if cell.text.range(of: "^F[0-9]+$", options: .regularExpression) != nil {
          XCTAssertTrue(cell.link != nil || cell.anchor != nil, cell.text)
        }
      }
    }
    XCTAssertFalse(links.isEmpty)
    XCTAssertTrue(links.isSubset(of: anchors))
    // Each requirement's row is a destination, linked to from the summary and the findings.
    let requirementAnchors = Set(
      try ReportFixture.bundle().catalogue.requirements.map {
        EvidenceReportLine.requirementAnchor($0.id)
      })
    XCTAssertTrue(requirementAnchors.isSubset(of: links))
    // Every finding is a destination: its row, or, one of many of a statement each about one
    // host, the range that cites it (its host's row in the inventory cites it too); a finding
    // with a row and more than four connections has its row in the appendix, each linking to
    // the other.
    let findings = try ReportFixture.bundle().findings
    var cited: [String: String] = [:]
    for case .table(let table) in report.section(.findings).blocks {
      for cell in table.rows.flatMap({ $0 }) where cell.anchor?.hasPrefix("findings-") == true {
        for part in cell.text.components(separatedBy: ", ") {
          let ends = part.components(separatedBy: "–").compactMap { Int($0.dropFirst()) }
          for n in (ends.first ?? 0)...(ends.last ?? 0) { cited["F\(n)"] = cell.anchor }
        }
      }
    }
    XCTAssertGreaterThan(cited.count, EvidenceReportWording.findingsRowedPerStatement)
    let rowed = findings.indices.map(FindingsDocument.identifier).filter { cited[$0] == nil }
    let long = findings.indices.filter {
      findings[$0].flowIDs.count > EvidenceReportWording.flowIDsInRow
    }.map(FindingsDocument.identifier).filter { cited[$0] == nil }
    XCTAssertEqual(
      anchors,
      Set(rowed + long.map(EvidenceReportWording.appendixAnchor) + cited.values).union(
        requirementAnchors))
    // Each range-cited finding is cited from its host's row of the inventory.
    let inventory = report.section(.hosts).blocks.compactMap { block -> [String]? in
      guard case .table(let t) = block else { return nil }
      return t.rows.map { $0.last!.text }
    }.joined().joined(separator: ", ").components(separatedBy: ", ")
    XCTAssertTrue(Set(cited.keys).isSubset(of: Set(inventory)), "\(cited.keys.sorted())")
    XCTAssertTrue(Set(long).isSubset(of: links) && !long.isEmpty)
  }
}

final class EvidenceReportLayoutTests: XCTestCase {
  /// Elements are numbered in reading order: the title, then per section its heading and its blocks.
  func elements(_ report: EvidenceReport) -> [Int: EvidenceReportBlock] {
    var map: [Int: EvidenceReportBlock] = [:]
    var element = 1
    for section in report.sections {
      element += 1
      for block in section.blocks {
        element += 1
        map[element] = block
      }
    }
    return map
  }

  func lines(_ layout: EvidenceReportLayout) -> [(page: Int, line: EvidenceReportLine)] {
    layout.pages.flatMap { page in
      page.body.compactMap { mark -> (Int, EvidenceReportLine)? in
        if case .text(let l) = mark { return (page.number, l) }
        return nil
      }
    }
  }

  /// Whether `outer` holds `inner` (Foundation's CGRect.contains(CGRect) on Linux does not say so reliably).
  func holds(_ outer: CGRect, _ inner: CGRect) -> Bool {
    inner.minX >= outer.minX && inner.maxX <= outer.maxX && inner.minY >= outer.minY
      && inner.maxY <= outer.maxY
  }

  func assertInvariants(
    _ report: EvidenceReport, _ geometry: EvidenceReportPageGeometry, _ m: FixedWidthMeasurer,
    file: StaticString = #filePath, line: UInt = #line
  ) {
    let layout = EvidenceReportLayout(report: report, geometry: geometry, measuring: m)
    let body = geometry.bodyFrame.insetBy(dx: -0.01, dy: -0.01)
    let page = CGRect(x: 0, y: 0, width: geometry.width, height: geometry.height)
    let total = layout.pages.count
    let context = "page height \(geometry.height), width \(geometry.width)"
    for p in layout.pages {
      // Nothing outside the body frame, nothing overlapping.
      var frames: [CGRect] = []
      for mark in p.body {
        switch mark {
        case .text(let l):
          XCTAssertTrue(
            holds(body, l.frame),
            "\(context): “\(l.text)” at \(l.frame) leaves the body \(body) on page \(p.number)",
            file: file, line: line)
          frames.append(l.frame)
        case .fill(let rect, _):
          XCTAssertTrue(
            holds(body, rect), "\(context): a fill at \(rect) leaves the body on page \(p.number)",
            file: file, line: line)
        }
      }
      frames.sort { ($0.minY, $0.minX) < ($1.minY, $1.minX) }
      for (i, a) in frames.enumerated() {
        for b in frames[(i + 1)...] where b.minY < a.maxY - 0.01 {
          XCTAssertFalse(
            a.insetBy(dx: 0.01, dy: 0.01).intersects(b.insetBy(dx: 0.01, dy: 0.01)),
            "\(context): overlap on page \(p.number): \(a) \(b)", file: file, line: line)
        }
      }
      // A footer naming the session and its export, and page N of M, inside the page.
      let footerTexts = p.footer.compactMap { mark -> String? in
        if case .text(let l) = mark { return l.text }
        return nil
      }
      XCTAssertTrue(
        footerTexts.contains("page \(p.number) of \(total)"), "\(context): \(footerTexts)",
        file: file, line: line)
      XCTAssertTrue(report.footer.hasPrefix(footerTexts.first ?? "—"), file: file, line: line)
      for case .text(let l) in p.footer {
        XCTAssertTrue(holds(page, l.frame), file: file, line: line)
      }
      // A heading never ends a page.
      if p.number < total,
        let last = p.body.compactMap({ mark -> EvidenceReportLine? in
          if case .text(let l) = mark { return l }
          return nil
        }).max(by: { $0.origin.y < $1.origin.y })
      {
        XCTAssertFalse(
          last.role == .heading1 || last.role == .heading2,
          "\(context): page \(p.number) ends with the heading “\(last.text)”", file: file,
          line: line)
      }
    }
    let placed = lines(layout)
    let map = elements(report)
    // A table of one row right after a table (the assessor's block after the digests) is never
    // alone on a page: a row of the table before it is on its page.
    for (element, block) in map {
      guard case .table(let table) = block, table.rows.count == 1,
        case .table? = map[element - 1]
      else { continue }
      let page = placed.first { $0.line.element == element }?.page
      XCTAssertTrue(
        placed.contains {
          $0.page == page && $0.line.element == element - 1 && $0.line.row ?? 0 > 0
        },
        "\(context): the one-row table \(table.columns) stands alone on page \(page ?? 0)",
        file: file, line: line)
    }
    // Facts marked staysWithNext stay with the next; a note never leaves a single line on either side.
    var pagesOfRow: [Int: [Int: Set<Int>]] = [:]
    var pagesOfLine: [Int: [Int]] = [:]
    for (pageNumber, l) in placed where !l.isRepeat {
      if let row = l.row {
        pagesOfRow[l.element, default: [:]][row, default: []].insert(pageNumber)
      }
      pagesOfLine[l.element, default: []].append(pageNumber)
    }
    for (element, block) in map {
      switch block {
      case .facts(let facts):
        for (row, fact) in facts.enumerated() where fact.staysWithNext && row + 1 < facts.count {
          let here = pagesOfRow[element]?[row] ?? []
          let next = pagesOfRow[element]?[row + 1] ?? []
          XCTAssertEqual(
            here.max(), next.min(), "\(context): “\(fact.label)” is parted from the next fact",
            file: file, line: line)
        }
      case .note, .paragraph:
        let pages = pagesOfLine[element] ?? []
        for pageNumber in Set(pages) where Set(pages).count > 1 {
          XCTAssertGreaterThanOrEqual(
            pages.filter { $0 == pageNumber }.count, 2,
            "\(context): a single line of a text on page \(pageNumber)", file: file, line: line)
        }
      case .table(let table):
        // A table that crosses a page repeats its header there; a row not taller than a page is not split.
        let pages = Set(pagesOfLine[element] ?? [])
        for pageNumber in pages where pageNumber != pages.min() {
          let header = placed.filter {
            $0.page == pageNumber && $0.line.element == element && $0.line.isRepeat
          }
          XCTAssertEqual(
            Set(header.compactMap(\.line.column)), Set(0..<table.columns.count),
            "\(context): the table continued on page \(pageNumber) has no header", file: file,
            line: line)
        }
        // No break leaves fewer than two rows on a side; a titled table says its title again.
        if table.rows.count >= 2, pages.count > 1 {
          for pageNumber in pages {
            let rows = Set(
              placed.filter {
                $0.page == pageNumber && $0.line.element == element && !$0.line.isRepeat
              }
              .compactMap(\.line.row)
            ).subtracting([0])
            XCTAssertGreaterThanOrEqual(
              rows.count, 2, "\(context): a lone row of a table on page \(pageNumber)", file: file,
              line: line)
            if let title = table.title, pageNumber != pages.min() {
              XCTAssertTrue(
                placed.contains {
                  $0.page == pageNumber && $0.line.isRepeat
                    && $0.line.text.hasPrefix(
                      String(EvidenceReportLayoutWording.continued(title).prefix(20)))
                }, "\(context): the table continued on page \(pageNumber) does not say which",
                file: file, line: line)
            }
          }
        }
        for (row, rowPages) in pagesOfRow[element] ?? [:] where row > 0 && rowPages.count > 1 {
          let cells = placed.filter { $0.line.element == element && $0.line.row == row }
          let height = cells.map(\.line.height).reduce(0, +)
          XCTAssertGreaterThan(
            height, geometry.bodyFrame.height / CGFloat(table.columns.count),
            "\(context): a short row was split", file: file, line: line)
        }
      default: break
      }
    }
    // Every line of text appears exactly once, in order: element by element, what the measurer gives for each block.
    var expected: [Int: [String]] = [:]
    func broken(of text: String, style: EvidenceReportTextStyle, width: CGFloat) -> [String] {
      LiteralLineBreaking.lines(of: text, style: style, width: width, measuring: m)
    }
    let body0 = geometry.bodyFrame
    for (element, block) in map {
      switch block {
      case .heading(let t, _, _):
        expected[element] = broken(of: t, style: .heading, width: body0.width)
      case .paragraph(let t): expected[element] = broken(of: t, style: .body, width: body0.width)
      case .note(let t): expected[element] = broken(of: t, style: .note, width: body0.width - 12)
      case .facts(let facts):
        expected[element] = facts.flatMap { fact -> [String] in
          broken(of: fact.label, style: .label, width: layout.labelColumnWidth - 10)
            + fact.value.split(separator: "\n", omittingEmptySubsequences: false).flatMap {
              broken(
                of: String($0), style: fact.literal ? .literal : .value,
                width: body0.width - layout.labelColumnWidth)
            }
        }
      case .table(let table):
        let widths = layout.tableShapes[table.columns]!
        expected[element] =
          table.columns.enumerated().flatMap {
            broken(of: $1, style: .tableHeader, width: widths[$0] - 8)
          }
          + table.rows.flatMap { row in
            row.enumerated().flatMap { c, cell in
              cell.text.split(separator: "\n", omittingEmptySubsequences: false).flatMap {
                broken(
                  of: String($0), style: cell.style == .literal ? .tableLiteral : .tableCell,
                  width: widths[c] - 8)
              }
            }
          }
      }
    }
    let order = placed.filter { !$0.line.isRepeat }.map(\.line.element)
    XCTAssertEqual(
      order, order.sorted(), "\(context): elements out of reading order", file: file, line: line)
    for (element, texts) in expected {
      let actual = placed.filter { $0.line.element == element && !$0.line.isRepeat }.map(
        \.line.text)
      XCTAssertEqual(actual, texts, "\(context): element \(element)", file: file, line: line)
    }
  }

  func testTheInvariantsHoldOverTwentyFivePageHeightsAndASampleOfWidths() throws {
    let report = try ReportFixture.report()
    let m = FixedWidthMeasurer()
    // 38 points apart (about three lines), from a third of A4 to a page and a half.
    for i in 0..<25 {
      assertInvariants(
        report, EvidenceReportPageGeometry(width: 595.276, height: 330 + CGFloat(i) * 38), m)
    }
    for width in [400.0, 520, 700, 900] {
      assertInvariants(report, EvidenceReportPageGeometry(width: CGFloat(width), height: 841.89), m)
    }
  }

  /// Page 1 answers first and fits one page whatever the session holds: thirty recorder runs
  /// with gaps between them and three hundred connections (a hundred findings) leave the
  /// summary on page 1, its sign-off last, and the Session on page 2; what page 1 leaves out,
  /// it says where to find.
  func testPageOneFitsOnePageForALongSessionAndSaysWhereTheRestContinues() throws {
    let runs = (0..<30).map { (i: Int) -> RecorderRun in
      let start = Double(i * 120)
      return RecorderRun(
        id: Int64(i + 1), source: "gw0", isLive: true, processID: Int32(100 + i),
        startedAt: FlowFixture.at(start), aliveAt: FlowFixture.at(start + 60),
        endedAt: FlowFixture.at(start + 60), end: .interrupted)
    }
    let b = try ReportFixture.bundle(flowCount: 300, content: ReportFixture.content, runs: runs)
    XCTAssertGreaterThan(b.coverage.gaps.count, 0)
    let report = try EvidenceReport(
      bundle: b, capture: ReportFixture.capture(for: b).summary, limits: .bundled)
    let summary = report.sections[0]
    XCTAssertEqual(summary.kind, .summary)
    // In order: the facts, the key findings, the verdicts, the digests, the sign-off.
    let kinds = summary.blocks.map { block -> String in
      switch block {
      case .facts: return "facts"
      case .paragraph: return "paragraph"
      case .table(let t): return t.columns[0]
      default: return "other"
      }
    }
    XCTAssertEqual(
      kinds,
      ["facts", "paragraph", "Finding", "paragraph", "Requirement", "File", "Assessed by"])
    guard case .facts(let facts) = summary.blocks[0], case .paragraph(let key) = summary.blocks[1]
    else { return XCTFail("\(kinds)") }
    XCTAssertTrue(
      facts.contains {
        $0.label == "Coverage"
          && $0.value.contains(
            EvidenceReportWording.gapsStated)
      }, "\(facts)")
    XCTAssertTrue(key.hasSuffix("Findings states every one:"), key)
    // The fixed-width measurer sets text wider than DejaVu Sans does: a harder page than the PDF's.
    for geometry in [EvidenceReportPageGeometry.a4] {
      let layout = EvidenceReportLayout(
        report: report, geometry: geometry, measuring: FixedWidthMeasurer())
      let pages = layout.pages
      XCTAssertEqual(pages[1].sectionsStarting.first, .session, "\(geometry)")
      let first = pages[0].body.compactMap { mark -> EvidenceReportLine? in
        if case .text(let l) = mark { return l }
        return nil
      }
      XCTAssertTrue(first.contains { $0.text == EvidenceReportWording.blank }, "\(geometry)")
      XCTAssertEqual(
        first.filter { $0.role == .tableCell && $0.text.hasPrefix("F") && $0.link != nil }.count,
        EvidenceReportWording.keyFindingsShown)
    }
  }

  /// A catalogue of more requirements than page 1 lists verdicts of: page 1 says so, and the
  /// Requirements table gives every verdict (with the bundled catalogues, page 1 gives each).
  func testTheVerdictsPageOneCannotListAreGivenUnderRequirements() throws {
    var object = try XCTUnwrap(
      JSONSerialization.jsonObject(
        with: RequirementCatalogueLibrary.data(identifier: "tr-03161-1_3.0")!) as? [String: Any])
    var requirements = try XCTUnwrap(object["requirements"] as? [[String: Any]])
    for (n, copy) in requirements.prefix(6).enumerated() {
      var more = copy
      more["id"] = "X.Copy_\(n + 1)"
      requirements.append(more)
    }
    object["requirements"] = requirements
    let large = try RequirementCatalogue(data: JSONSerialization.data(withJSONObject: object))
    let total = large.requirements.count
    XCTAssertGreaterThan(total, EvidenceReportWording.verdictsOnPageOne)
    for (catalogue, verdicts) in [(large, true), (nil, false)] {
      let b = try ReportFixture.bundle(catalogue: catalogue)
      let report = try EvidenceReport(
        bundle: b, capture: ReportFixture.capture(for: b).summary, limits: .bundled)
      let tables = report.sections.map { section in
        section.blocks.compactMap { block -> EvidenceReportTable? in
          if case .table(let t) = block { return t }
          return nil
        }
      }
      let pageOne = try XCTUnwrap(tables[0].first { $0.columns.first == "Requirement" })
      let listed = try XCTUnwrap(
        report.section(.requirements).blocks.compactMap { block in
          if case .table(let t) = block { return t }
          return nil
        }.first)
      XCTAssertEqual(listed.columns.contains("Verdict"), verdicts)
      XCTAssertEqual(listed.rows.count, b.catalogue.requirements.count)
      XCTAssertEqual(
        pageOne.rows.count,
        min(b.catalogue.requirements.count, EvidenceReportWording.verdictsOnPageOne))
      if verdicts {
        XCTAssertTrue(
          report.sections[0].blocks.contains(
            .paragraph(
              EvidenceReportWording.summaryIntro(
                shown: EvidenceReportWording.verdictsOnPageOne, of: total))))
        let column = try XCTUnwrap(listed.columns.firstIndex(of: "Verdict"))
        XCTAssertEqual(
          listed.rows.map { $0[column].text },
          b.assessment.requirements.map(EvidenceWording.verdictMark))
      }
    }
  }

  func testEveryFactListUsesOneLabelColumnAndTwinTablesTakeOneShape() throws {
    let report = try ReportFixture.report()
    let layout = EvidenceReportLayout(
      report: report, geometry: .a4, measuring: FixedWidthMeasurer())
    let valueXs = Set(lines(layout).filter { $0.line.role == .factValue }.map { $0.line.origin.x })
    XCTAssertEqual(valueXs.count, 1, "one label column for every fact list: \(valueXs)")
    // Every table with the same headings puts each column at the same x.
    var columnXs: [[String]: [Int: Set<CGFloat>]] = [:]
    let map = elements(report)
    for (_, l) in lines(layout) where l.role == .tableCell || l.role == .tableHeader {
      guard case .table(let t)? = map[l.element], let c = l.column else { continue }
      columnXs[t.columns, default: [:]][c, default: []].insert(l.origin.x)
    }
    for (columns, xs) in columnXs {
      for (c, set) in xs { XCTAssertEqual(set.count, 1, "\(columns) column \(c): \(set)") }
    }
    XCTAssertGreaterThan(columnXs.count, 3)
  }

  func testColumnWidthsFollowTheirNaturalWidths() {
    XCTAssertEqual(EvidenceReportColumnWidths.shares(natural: [10, 30], into: 100), [25, 75])
    XCTAssertEqual(EvidenceReportColumnWidths.filling(natural: [10, 30], into: 80), [20, 60])
    XCTAssertEqual(EvidenceReportColumnWidths.filling(natural: [100, 300], into: 200), [50, 150])
    // Min/max-content: each column keeps its longest word; the rest follows what it still wants.
    let w = EvidenceReportColumnWidths.automatic(minimum: [20, 40], maximum: [30, 400], into: 200)
    XCTAssertEqual(w.reduce(0, +), 200, accuracy: 0.001)
    XCTAssertGreaterThanOrEqual(w[0], 20)
    XCTAssertGreaterThanOrEqual(w[1], 40)
    XCTAssertEqual(
      EvidenceReportColumnWidths.automatic(minimum: [10, 10], maximum: [30, 50], into: 160),
      [60, 100])
  }

  /// A server name of sixty thousand letters is one word: it must not squeeze the columns beside
  /// it below their own longest words (it squeezed a finding's identifier until it overlapped).
  func testAWordTooWideForTheTableIsCutSoThatTheOtherColumnsKeepTheirLongestWords() {
    XCTAssertEqual(EvidenceReportColumnWidths.capped([10, 20, 60_000], into: 200), [10, 20, 170])
    XCTAssertEqual(EvidenceReportColumnWidths.capped([500, 10, 600], into: 210), [100, 10, 100])
    XCTAssertEqual(EvidenceReportColumnWidths.capped([30, 40], into: 200), [30, 40])
    XCTAssertEqual(
      EvidenceReportColumnWidths.automatic(
        minimum: [30, 60_000, 50], maximum: [30, 60_000, 80], into: 300), [30, 220, 50])
  }

  func testAGoldenLayoutOfTheFixtureAtA4() throws {
    let layout = EvidenceReportLayout(
      report: try ReportFixture.report(), geometry: .a4, measuring: FixedWidthMeasurer())
    let text = "label column \(layout.labelColumnWidth)\n" + PlacedPagesText.render(layout)
    if let difference = Golden.compare(
      text, file: Golden.directory().appendingPathComponent("Golden/report-layout-a4.txt"))
    {
      XCTFail(difference)
    }
  }
}

extension EvidenceReport {
  /// The section of this kind (the order is the report's business).
  func section(_ kind: EvidenceReportSectionKind) -> EvidenceReportSection {
    sections.first { $0.kind == kind }!
  }
}
