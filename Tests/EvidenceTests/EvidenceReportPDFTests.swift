import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Crypto
import Evidence
import FlowStore
import Foundation
import ReportContent
import ReportLayout
import ReportModel
import Sample
import TestSupport
import XCTest

@testable import ReportPDF

/// report.pdf of the sample's 2.4.0 session, checked with poppler's tools.
final class EvidenceReportPDFTests: XCTestCase {
  nonisolated(unsafe) static var directory: TemporaryDirectory!
  nonisolated(unsafe) static var bundle: EvidenceBundle!
  nonisolated(unsafe) static var capture: EvidenceCaptureDocument!
  static let exportedAt = Date(timeIntervalSince1970: 1_791_370_800)

  override class func tearDown() {
    directory = nil
    bundle = nil
    capture = nil
    super.tearDown()
  }

  override class func setUp() {
    directory = TemporaryDirectory("report")
    let storeURL = directory.url.appendingPathComponent("store")
    _ = try! SampleWriter.write(SampleScenario.plan(SampleOptions()), to: storeURL)
    let store = try! FlowStore(directory: storeURL)
    let project = try! store.auditProjects().first { $0.name == "Example Health" }!
    let session = try! store.auditSessions(forProject: project.id).first {
      $0.kind.release?.version == "2.4.0"
    }!
    bundle = try! EvidenceBundle(
      project: project, session: session, markers: store.markers(forSession: session.id),
      flows: store.flows(inAuditSession: session.id),
      catalogue: RequirementCatalogueLibrary.catalogue(identifier: "tr-03161-1_3.0"),
      exportedWith: "tunnelvision 0.1.0", exportedAt: exportedAt)
    let folder = directory.url.appendingPathComponent("capture")
    try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    capture = try! EvidenceCaptureWriter.count(
      for: bundle, from: store, captureDirectory: store.capturesDirectory)
    try! EvidenceReportRenderer.render(
      bundle, capture.summary, citing: digests, into: directory.url)
  }

  var pdf: String { Self.directory.url.appendingPathComponent("report.pdf").path }

  /// Digests for the report to cite, one made up per file (the export test checks real ones).
  static let digests = EvidenceBundle.reportCitedNames.enumerated().map { i, name in
    EvidenceReportDigest(
      name: name,
      sha256: String(repeating: String(i, radix: 16), count: 32) + String(repeating: "f", count: 32)
    )
  }

  func layout() throws -> (EvidenceReportLayout, EvidenceReportTypography) {
    let typography = try EvidenceReportTypography(fontsDirectory: ReportFonts.directory())
    let report = try EvidenceReport(
      bundle: Self.bundle, capture: Self.capture.summary, limits: .bundled)
    return (EvidenceReportLayout(report: report, geometry: .a4, measuring: typography), typography)
  }

  func tool(_ name: String, _ arguments: [String]) throws -> String {
    guard let result = try ExternalTool.run(name, arguments) else {
      throw XCTSkip("\(name) is not installed (make test installs poppler-utils)")
    }
    XCTAssertEqual(result.status, 0, result.error)
    return result.output
  }

  func testOnlyEmbeddedSubsetFontsFromTheBundledFamilyAreUsed() throws {
    let rows = try tool("pdffonts", [pdf]).split(separator: "\n").dropFirst(2)
    XCTAssertFalse(rows.isEmpty)
    let bundled = ["DejaVuSans", "DejaVuSans-Bold", "DejaVuSans-Oblique", "DejaVuSansMono"]
    for row in rows {
      let columns = row.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
      let name = String(columns[0].split(separator: "+").last!)
      XCTAssertTrue(bundled.contains(name), "\(name) is not one of the bundled fonts")
      XCTAssertTrue(columns[0].contains("+"), "a subset: \(columns[0])")
      // emb sub uni: yes yes yes
      XCTAssertEqual(Array(columns.suffix(5).prefix(3)), ["yes", "yes", "yes"], String(row))
    }
  }

  func testTheTextHasEverySectionRequirementFindingAndTheCaptureStanding() throws {
    let text = try tool("pdftotext", ["-layout", pdf, "-"])
    let flat = text.replacingOccurrences(of: "\\s+", with: " ", options: .regularExpression)
    // The sample's findings cite few connections each: their rows list them, no appendix.
    XCTAssertFalse(
      Self.bundle.findings.contains { $0.flowIDs.count > EvidenceReportWording.flowIDsInRow })
    for kind in EvidenceReportSectionKind.allCases {
      XCTAssertEqual(text.contains(kind.title), kind != .appendix, kind.title)
    }
    for requirement in Self.bundle.catalogue.requirements {
      XCTAssertTrue(text.contains(requirement.id), requirement.id)
    }
    for index in Self.bundle.findings.indices {
      let id = FindingsDocument.identifier(index)
      XCTAssertNotNil(text.range(of: "\\b\(id)\\b", options: .regularExpression), id)
    }
    XCTAssertTrue(
      flat.contains(
        "⚠ \(Self.capture.packets.written) of \(Self.capture.packets.recorded) recorded packets are in the capture."
      ), "capture standing")
    XCTAssertTrue(flat.contains("Einholung einer Einwilligungserklärung des Nutzers."))
    for word in EvidenceWording.forbiddenWords {
      XCTAssertNil(
        text.range(of: "\\b\(word)\\b", options: [.regularExpression, .caseInsensitive]), word)
    }
  }

  func testPdfinfoShowsTheLayoutsPagesOnA4TaggedAndDated() throws {
    let info = try tool("pdfinfo", [pdf])
    let (layout, _) = try layout()
    XCTAssertTrue(info.contains("Pages:           \(layout.pages.count)\n"), info)
    XCTAssertTrue(info.contains("Page size:       595.276 x 841.89 pts (A4)"), info)
    XCTAssertTrue(info.contains("Tagged:          yes"), info)
    XCTAssertTrue(
      info.contains(
        "Title:           Evidence report · Example Health · 2.4.0 (187) · session 3\n"),
      info)
    XCTAssertTrue(info.contains("Creator:         tunnelvision 0.1.0"), info)
    let raw = try Data(contentsOf: URL(fileURLWithPath: pdf))
    XCTAssertNotNil(
      raw.range(of: Data("/CreationDate (D:20261007110000Z)".utf8)), "the date with its D: prefix")
    XCTAssertNotNil(raw.range(of: Data("/Outlines".utf8)))
    XCTAssertGreaterThan(
      raw.count(of: "/Subtype /Link"), 3, "finding identifiers link to where they are stated")
    XCTAssertEqual(
      raw.count(of: "/S /H1"), EvidenceReportSectionKind.allCases.count,
      "the title and the section headings (the sample has no appendix)")
    XCTAssertGreaterThan(layout.pages.count, 8)
  }

  func testEveryCrossReferenceEntryPointsAtItsObjectAfterTheDatesArePrefixed() throws {
    // The D: prefix moves the bytes after the Info dictionary; the table must have moved with
    // them. The document facts come as an update with a table of its own, whose /Prev is cairo's.
    let raw = [UInt8](try Data(contentsOf: URL(fileURLWithPath: pdf)))
    let text = String(decoding: raw, as: UTF8.self)
    let startxref = try XCTUnwrap(text.range(of: "startxref", options: .backwards))
    var next = Int(text[startxref.upperBound...].split(whereSeparator: \.isNewline)[0])
    var checked = 0
    var tables = 0
    while let xrefOffset = next {
      XCTAssertLessThan(xrefOffset, raw.count)
      let lines = String(decoding: raw[min(xrefOffset, raw.count)...], as: UTF8.self).split(
        separator: "\n")
      guard lines.count > 2, lines[0] == "xref" else {
        return XCTFail("\(xrefOffset) does not point at a table: \(lines.prefix(2))")
      }
      tables += 1
      var at = 1
      // Subsections "first count", each followed by its entries, up to the trailer.
      while at < lines.count, lines[at] != "trailer" {
        let header = lines[at].split(separator: " ").compactMap { Int($0) }
        XCTAssertEqual(header.count, 2, String(lines[at]))
        guard header.count == 2 else { break }
        for k in 0..<header[1] {
          let entry = lines[at + 1 + k]
          guard entry.hasSuffix(" n") || entry.hasSuffix(" n ") else { continue }
          let offset = try XCTUnwrap(Int(entry.prefix(10)))
          let object = String(
            decoding: raw[min(offset, raw.count)..<min(raw.count, offset + 20)], as: UTF8.self)
          XCTAssertTrue(
            object.hasPrefix("\(header[0] + k) 0 obj"),
            "object \(header[0] + k) at \(offset): \(object)")
          checked += 1
        }
        at += 1 + header[1]
      }
      let trailer = lines[at...].prefix(8).joined(separator: " ")
      next = trailer.range(of: "/Prev ").flatMap {
        Int(trailer[$0.upperBound...].prefix(while: \.isNumber))
      }
    }
    XCTAssertEqual(tables, 2, "cairo's table and the update's")
    XCTAssertGreaterThan(checked, 100)
    XCTAssertNotNil(text.range(of: "/ModDate (D:20261007110000Z)"))
  }

  /// A disk that fills while the report is written (/dev/full refuses every write): a failure to
  /// write, said in a sentence. cairo, writing its own file, aborted the process on an assertion.
  func testADiskThatFillsWhileTheReportIsWrittenIsAFailureToWriteNotACrash() throws {
    guard FileManager.default.fileExists(atPath: "/dev/full") else {
      throw XCTSkip("no /dev/full here")
    }
    let (layout, typography) = try layout()
    let metadata = EvidenceReportPDF.Metadata(
      title: "t", subject: "s", creator: "c",
      created: Instant.rfc3339ToTheSecond(Self.exportedAt),
      createdText: Instant.rfc3339(Self.exportedAt))
    XCTAssertThrowsError(
      try EvidenceReportPDF.write(
        layout, typography: typography, metadata: metadata, to: URL(fileURLWithPath: "/dev/full"))
    ) {
      XCTAssertEqual(
        ($0 as? PDFWriteError)?.description, "full could not be written: No space left on device",
        "\($0)")
    }
    let missing = Self.directory.url.appendingPathComponent("no-such-dir/report.pdf")
    XCTAssertThrowsError(
      try EvidenceReportPDF.write(layout, typography: typography, metadata: metadata, to: missing)
    ) {
      XCTAssertEqual(
        ($0 as? PDFWriteError)?.description,
        "report.pdf could not be created in \(missing.deletingLastPathComponent().path): No such file or directory",
        "\($0)")
    }
  }

  func testTheSameBundleAndInstantDrawTheSameBytes() throws {
    let again = TemporaryDirectory("report-again")
    try EvidenceReportRenderer.render(
      Self.bundle, Self.capture.summary, citing: Self.digests, into: again.url)
    XCTAssertEqual(
      try Data(contentsOf: again.url.appendingPathComponent("report.pdf")),
      try Data(contentsOf: URL(fileURLWithPath: pdf)))
  }

  func testNoCharacterOfTheReportLacksAGlyphInTheBundledFonts() throws {
    let (layout, typography) = try layout()
    var checked = 0
    for page in layout.pages {
      for case .text(let line) in page.body + page.footer {
        XCTAssertEqual(typography.unknownGlyphs(in: line.text, style: line.style), 0, line.text)
        checked += 1
      }
    }
    XCTAssertGreaterThan(checked, 300)
    XCTAssertEqual(
      typography.unknownGlyphs(in: "Prüfung · Größe ⚠ ▼ → “quoted” — 0x7F1C", style: .body), 0)
    XCTAssertGreaterThan(typography.unknownGlyphs(in: "漢字", style: .body), 0, "the count can fail")
  }

  /// The monospace faces' ASCII is measured by its length: exactly what Pango shapes.
  func testAMonospaceValueIsAsWideAsPangoShapesIt() throws {
    let (_, typography) = try layout()
    for text in [
      "0", "node100.example-cdn.net", "2026-10-06T11:05:03.419703Z", "89, 2085, 4081, 6077",
      "a60294a1f62510d09f4884fd56a49f56496aa12ffc48813e1f401b55cc2f4b76", "[::1]:443 ~!@#$%^&*()_+",
    ] {
      for style in EvidenceReportTextStyle.allCases where style.isMonospace {
        XCTAssertEqual(
          typography.width(of: text, style: style),
          CGFloat(typography.pangoUnits(text, style)) / 1024, "\(style): \(text)")
      }
    }
  }

  /// A line's items shaped and summed measure what a layout of the line measures, to the Pango
  /// unit, in every style: kerning pairs, ligatures, digits, accents, a combining mark, scripts
  /// the fonts lack (shaped as unknown glyphs), right-to-left text, an emoji, nothing at all.
  func testALineShapedItemByItemIsAsWideAsItsLayout() throws {
    let typography = try EvidenceReportTypography(fontsDirectory: ReportFonts.directory())
    let texts = [
      "", " ", "AV To Wa fi fl ffi", "api.example-health.de", "TLS_AES_128_GCM_SHA256",
      "2026-10-07T09:00:00Z", "Müller straße Ærø œ", "e\u{301}te\u{301}", "中文 テスト",
      "مرحبا بالعالم", "שלום world", "👩‍⚕️ health", "a  b   c", "'quoted' \"double\" (x) [y]",
      String(repeating: "long-host-name.", count: 30),
    ]
    for style in EvidenceReportTextStyle.allCases {
      for text in texts {
        XCTAssertEqual(
          typography.shapedUnits(text, style), typography.layoutUnits(text, style),
          "\(style): \(text)")
      }
    }
  }

  func testTheMeasurerBreaksLinesNoWiderThanAsked() throws {
    let (_, typography) = try layout()
    let text =
      EvidenceNotes.attribution
      + " a-very-long-host-name-without-spaces.tracker-analytics-collector.example-health.de"
    for width in [120.0, 200, 483] {
      let lines = typography.lines(of: text, style: .body, width: CGFloat(width))
      XCTAssertGreaterThan(lines.count, 1)
      for line in lines {
        XCTAssertLessThanOrEqual(
          typography.width(of: line, style: .body), CGFloat(width) + 0.01, line)
      }
      XCTAssertEqual(
        lines.joined(separator: " ").replacingOccurrences(of: " ", with: ""),
        text.replacingOccurrences(of: " ", with: ""))
    }
  }

  func testAGoldenLayoutOfTheSampleReportAtA4() throws {
    let (layout, _) = try layout()
    let text = PlacedPagesText.render(layout)
    if let difference = Golden.compare(
      text, file: Golden.directory().appendingPathComponent("Golden/sample-report-layout.txt"))
    {
      XCTFail(difference)
    }
  }
}

extension Data {
  func count(of text: String) -> Int {
    let needle = Data(text.utf8)
    var count = 0
    var start = startIndex
    while let range = self.range(of: needle, in: start..<endIndex) {
      count += 1
      start = range.upperBound
    }
    return count
  }
}

extension EvidenceReportPDFTests {
  /// The PDF read as a reader would: page 1 stands alone with each requirement's verdict in a
  /// symbol and a word, and every finding is stated with what it is about.
  func testTheFirstPageStandsAloneAndEveryFindingNamesItsSubject() throws {
    let first = try tool("pdftotext", ["-f", "1", "-l", "1", "-layout", pdf, "-"])
    XCTAssertTrue(first.contains("Summary"), first)
    XCTAssertTrue(first.contains("✗ Contradicted"), first)
    XCTAssertTrue(first.contains("Assessed by"), first)
    XCTAssertTrue(first.contains("page 1 of"), first)
    XCTAssertTrue(first.contains("session 3 · exported \(Instant.rfc3339(Self.exportedAt))"), first)
    let all = try tool("pdftotext", [pdf, "-"]).replacingOccurrences(of: "-\n", with: "-")
    // F14, plain HTTP: its two hosts are named.
    for host in ["legacy.example-health.de", "fallback.example-cdn.net"] {
      XCTAssertTrue(all.contains(host), host)
    }
    // Every finding about a host has it on its own row of Findings, whole (no hyphen broken).
    let rows = try tool("pdftotext", ["-layout", pdf, "-"]).split(separator: "\n")
    for (index, finding) in Self.bundle.findings.enumerated() {
      guard let host = finding.evidence.host else { continue }
      let id = FindingsDocument.identifier(index)
      XCTAssertTrue(
        rows.contains { $0.contains(" \(id) ") && $0.contains(host) }, "\(id) beside \(host)")
    }
  }
}

extension EvidenceReportPDFTests {
  /// Identifiers can be copied: in poppler's text of the report, with each continuation mark
  /// and the line end after it taken out, every host name, cipher suite and JA4 fingerprint of
  /// the flows stands whole, and every finding identifier appears.
  func testEveryIdentifierOfTheFlowsStandsWholeInTheText() throws {
    let raw = try tool("pdftotext", [pdf, "-"])
    let mark = LiteralLineBreaking.continuationMark
    let text = raw.replacingOccurrences(of: mark + "\n", with: "")
    XCTAssertFalse(text.contains(mark), "a mark only ever ends a line")
    var identifiers: Set<String> = []
    for flow in Self.bundle.flows {
      if let name = flow.name?.text { identifiers.insert(name) }
      if let ja4 = flow.clientTLS?.ja4 { identifiers.insert(ja4) }
      if let suite = flow.serverTLS?.handshake?.cipherSuite {
        identifiers.insert(TLSRegistry.cipherSuiteNames[suite] ?? TLSRegistry.hex(suite))
      }
    }
    XCTAssertGreaterThan(identifiers.count, 30)
    for identifier in identifiers.sorted() {
      XCTAssertTrue(text.contains(identifier), "\(identifier) whole in the text")
    }
    // Each finding's identifier as a word of its own ("F1" is not found in "F12").
    for index in Self.bundle.findings.indices {
      let id = FindingsDocument.identifier(index)
      XCTAssertNotNil(
        text.range(of: "(?<![0-9A-Za-z])\(id)(?![0-9])", options: .regularExpression), id)
    }
    // Page 1's totals are what the flows count.
    let first = try tool("pdftotext", ["-f", "1", "-l", "1", pdf, "-"])
      .replacingOccurrences(of: "\n", with: " ")
    let named = Set(Self.bundle.flows.compactMap { $0.name?.text.lowercased() })
    XCTAssertTrue(
      first.contains("\(Self.bundle.flows.count) connections"), "connections on page 1: \(first)")
    XCTAssertTrue(first.contains("to \(named.count) hosts"), "hosts on page 1: \(first)")
  }
}

extension EvidenceReportPDFTests {
  /// What cairo cannot write, added by an incremental update that qpdf reads as sound.
  func testTheDocumentHasItsLanguageTitleDisplayXMPAndAnIDFromItsBytes() throws {
    let raw = try Data(contentsOf: URL(fileURLWithPath: pdf))
    for fact in ["/Lang (en)", "/DisplayDocTitle true", "/Type /Metadata /Subtype /XML", "/ID [<"] {
      XCTAssertNotNil(raw.range(of: Data(fact.utf8)), fact)
    }
    let meta = try tool("pdfinfo", ["-meta", pdf])
    XCTAssertTrue(meta.contains("Evidence report · Example Health · 2.4.0 (187) · session 3"), meta)
    XCTAssertTrue(meta.contains("<xmp:CreateDate>\(Instant.rfc3339(Self.exportedAt))"), meta)
    guard let check = try ExternalTool.run("qpdf", ["--check", pdf]) else {
      throw XCTSkip("qpdf is not installed (make test installs it)")
    }
    XCTAssertEqual(check.status, 0, check.output + check.error)
    XCTAssertTrue(check.output.contains("No syntax or stream encoding errors found"), check.output)
    // The catalogue qpdf reads is the updated one, cairo's entries kept.
    let trailer = try XCTUnwrap(ExternalTool.run("qpdf", ["--show-object=trailer", pdf])).output
    let root = try XCTUnwrap(
      trailer.range(of: "/Root ").flatMap {
        Int(trailer[$0.upperBound...].prefix(while: \.isNumber))
      })
    let catalog = try XCTUnwrap(ExternalTool.run("qpdf", ["--show-object=\(root)", pdf])).output
    XCTAssertTrue(catalog.contains("/Lang (en)"), catalog)
    XCTAssertTrue(catalog.contains("/ViewerPreferences << /DisplayDocTitle true >>"), catalog)
    XCTAssertTrue(catalog.contains("/StructTreeRoot"), catalog)
  }
}

extension EvidenceReportPDFTests {
  /// The catalogue's German titles are marked de in the structure, each heading and title cell of
  /// a requirement; the document stays en.
  func testTheGermanTitlesAreMarkedDeInTheStructure() throws {
    guard let json = try ExternalTool.run("qpdf", ["--json", "--json-key=qpdf", pdf]) else {
      throw XCTSkip("qpdf is not installed (make test installs it)")
    }
    XCTAssertEqual(json.status, 0, json.error)
    // qpdf's JSON v2: "qpdf" is [header, { "obj:N 0 R": { "value": … } }].
    let root = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
    let parts = try XCTUnwrap(root["qpdf"] as? [Any])
    let objects = try XCTUnwrap(parts.last as? [String: Any]).values.compactMap {
      ($0 as? [String: Any])?["value"] as? [String: Any]
    }
    let marked = objects.filter { $0["/Type"] as? String == "/StructElem" && $0["/Lang"] != nil }
    let count = Self.bundle.catalogue.requirements.count
    XCTAssertEqual(Set(marked.compactMap { $0["/Lang"] as? String }), ["u:de"])
    // Each title once, in the Requirements table.
    XCTAssertEqual(marked.filter { $0["/S"] as? String == "/TD" }.count, count)
    XCTAssertEqual(marked.count, count)
    XCTAssertEqual(Self.bundle.catalogue.source.language, "de")
  }
}

extension EvidenceReportPDFTests {
  /// A link lands on the row it names, not on the top of its page.
  func testLinkDestinationsAreAtTheirRowsNotThePageTop() throws {
    let raw = String(decoding: try Data(contentsOf: URL(fileURLWithPath: pdf)), as: UTF8.self)
    let tops = raw.components(separatedBy: "/XYZ ").dropFirst().compactMap { rest -> Double? in
      let numbers = rest.split(separator: " ").prefix(2).compactMap { Double($0) }
      return numbers.count == 2 ? numbers[1] : nil
    }
    XCTAssertGreaterThan(tops.count, 10, "a destination per finding and section")
    XCTAssertFalse(tops.contains(841.89), "\(tops.filter { $0 == 841.89 }.count) at the page top")
    XCTAssertTrue(tops.allSatisfy { $0 > 0 && $0 < 841.89 }, "\(tops)")
  }
}

extension EvidenceReportPDFTests {
  /// The outline: the sections, and under each its headings (every requirement among them); no
  /// page labels that say nothing.
  func testTheOutlineListsEachSectionsHeadingsAndThereAreNoEmptyPageLabels() throws {
    let raw = try Data(contentsOf: URL(fileURLWithPath: pdf))
    let requirements = Self.bundle.assessment.requirements.count
    XCTAssertGreaterThanOrEqual(
      raw.count(of: "/Title "), EvidenceReportSectionKind.allCases.count + requirements + 1,
      "the document's title, the sections and a heading per requirement")
    XCTAssertNil(raw.range(of: Data("/PageLabels".utf8)))
    let (layout, _) = try layout()
    let headings = layout.pages.flatMap(\.body).compactMap { mark -> String? in
      if case .text(let l) = mark, l.isHeadingAnchor { return l.anchor }
      return nil
    }
    XCTAssertGreaterThanOrEqual(headings.count, requirements)
    for anchor in headings.prefix(5) {
      XCTAssertNotNil(raw.range(of: Data("(\(anchor))".utf8)), "a destination named \(anchor)")
    }
  }
}

extension EvidenceReportPDFTests {
  /// The page budgets of #42, with the bundled fonts: the sample's report in ten pages, and a
  /// session of 24 connections (the sample's first 24, judged as a session of their own) in
  /// eight.
  func testTheSampleFitsTenPagesAndATwentyFourConnectionSessionEight() throws {
    let (layout, typography) = try layout()
    XCTAssertLessThanOrEqual(layout.pageCount, 10)
    let b = Self.bundle!
    let shorter = try EvidenceBundle(
      project: b.project, session: b.session, markers: b.markers,
      flows: Array(b.flows.prefix(24)), catalogue: b.catalogue, exportedWith: b.exportedWith,
      exportedAt: b.exportedAt)
    XCTAssertEqual(shorter.flows.count, 24)
    XCTAssertGreaterThan(shorter.findings.count, 10)
    // Their packets as the whole session's capture counted them.
    let kept = Set(shorter.flows.map(\.id))
    let flows = Self.capture.flows.filter { kept.contains($0.id) }
    var packets = EvidencePacketTally()
    for flow in flows {
      packets.written += flow.tally.written
      for (reason, n) in flow.tally.withoutBytes { packets.add(reason, n) }
    }
    let capture = EvidenceCaptureDocument(
      sessionID: b.session.id, snaplen: Self.capture.snaplen, packets: packets, beforeStart: 0,
      afterEnd: 0, sourceFiles: Self.capture.sourceFiles, flows: flows)
    let report = try EvidenceReport(bundle: shorter, capture: capture.summary, limits: .bundled)
    let layout24 = EvidenceReportLayout(report: report, geometry: .a4, measuring: typography)
    let pages = layout24.pageCount
    XCTAssertLessThanOrEqual(pages, 8)
  }
}

extension EvidenceReportPDFTests {
  /// The structure elements to mark, found in the report read a piece at a time, are those found
  /// in it read whole, whatever the pieces' size: an element, its number or its head may be cut
  /// anywhere.
  func testStructureElementsReadInPiecesAreThoseOfTheWholeFile() throws {
    let raw = try Data(contentsOf: URL(fileURLWithPath: pdf))
    let languages = [
      "TD": [0: "u:de", 5: "u:fr", 40: "u:de"], "H1": [1: "u:en"], "P": [2: "u:it"],
    ]
    func marked(inPiecesOf size: Int) -> [(number: Int, body: String)] {
      var elements = PDFStructureElements(marking: languages)
      raw.withUnsafeBytes { whole in
        var at = 0
        while at < whole.count {
          elements.add(UnsafeRawBufferPointer(rebasing: whole[at..<min(at + size, whole.count)]))
          at += size
        }
      }
      return elements.marked
    }
    let whole = marked(inPiecesOf: raw.count)
    XCTAssertEqual(whole.count, 5, "each ordinal marked is one of the report's elements")
    XCTAssertEqual(whole.map(\.number), whole.map(\.number).sorted(), "in the file's order")
    for element in whole {
      XCTAssertTrue(element.body.hasPrefix("<< /Type /StructElem\n"), element.body)
      XCTAssertTrue(element.body.hasSuffix(">>"), element.body)
      XCTAssertNotNil(
        element.body.range(
          of: #"   /S /(TD|H1|P)\n   /Lang \(u:(de|fr|en|it)\)\n"#, options: .regularExpression),
        element.body)
    }
    for size in [1, 2, 7, 20, 21, 22, 33, 4096, 256 * 1024] {
      XCTAssertEqual(
        marked(inPiecesOf: size).map { "\($0.number) \($0.body)" },
        whole.map { "\($0.number) \($0.body)" }, "pieces of \(size) bytes")
    }
  }
}

extension EvidenceReportPDFTests {
  /// The pages made on a thread of their own, their footers on the drawing one, are the pages
  /// made in turn: the same marks in the same order, however many wait to be drawn.
  func testPagesMadeAheadAreThePagesMadeInTurn() throws {
    let (layout, _) = try layout()
    let inTurn = layout.pages
    XCTAssertGreaterThan(inTurn.count, 1)
    var unfooted: [EvidenceReportPage] = []
    layout.forEachUnfootedPage { unfooted.append($0) }
    XCTAssertEqual(unfooted.map(\.footer), inTurn.map { _ in [] }, "no footer is measured")
    XCTAssertEqual(unfooted.map { $0.footed(layout.footer(ofPage: $0.number)) }, inTurn)
    for ahead in [1, 2, 5] {
      var drawn: [EvidenceReportPage] = []
      PagesAhead.forEach(of: layout, ahead: ahead) { drawn.append($0) }
      XCTAssertEqual(drawn, inTurn, "\(ahead) ahead")
    }
  }
}
