import CCairoPango
import CFixedPoint
import Crypto
import Foundation
import ReportModel

/// Draws a laid-out report into a PDF with Cairo: each mark where the layout says, nothing decided
/// here. Metadata, an outline of the sections and their headings, links from finding identifiers
/// to where the finding is stated, and structure tags (headings, paragraphs, tables).
public enum EvidenceReportPDF {
  /// The Cairo and Pango that draw the report, as they state their versions.
  public static var cairoVersion: String? { cairo_version_string().map { String(cString: $0) } }
  public static var pangoVersion: String? { pango_version_string().map { String(cString: $0) } }
  /// Whether Cairo's numbers are formatted by CFixedPoint (the executable exports its
  /// __snprintf_chk) rather than by glibc: the same digits, sooner.
  public static var numbersFormattedHere: Bool { tv_fixed_point_reaches_libraries() != 0 }

  public struct Metadata: Sendable {
    public let title: String
    public let subject: String
    public let creator: String
    /// The export instant, as RFC 3339 to the second (the Info dictionary's creation date) and
    /// with its fraction (the XMP packet's): the caller writes instants, not the drawer.
    public let created: String
    public let createdText: String
    public init(
      title: String, subject: String, creator: String, created: String, createdText: String
    ) {
      self.title = title
      self.subject = subject
      self.creator = creator
      self.created = created
      self.createdText = createdText
    }
  }

  public struct DrawError: Error, CustomStringConvertible { public let description: String }

  /// `settled`, if given, is handed the file's bytes that no edit after cairo changes
  /// (`PDFSettledBytes`), in order, a bufferful at a time while cairo writes.
  public static func write(
    _ layout: some EvidenceReportPages, typography: EvidenceReportTypography, metadata: Metadata,
    to url: URL, settled: ((UnsafeRawBufferPointer) -> Void)? = nil
  ) throws {
    setlocale(LC_NUMERIC, "C")
    let geometry = layout.geometry
    let sink = try PDFFileSink(url: url)
    sink.settled = settled
    var sinkClosed = false
    defer { if !sinkClosed { try? sink.close() } }
    guard
      let surface = cairo_pdf_surface_create_for_stream(
        PDFFileSink.callback, Unmanaged.passUnretained(sink).toOpaque(),
        Double(geometry.width), Double(geometry.height))
    else {
      throw DrawError(description: "cairo could not create \(url.path)")
    }
    cairo_pdf_surface_restrict_to_version(surface, CAIRO_PDF_VERSION_1_5)
    cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, metadata.title)
    cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_SUBJECT, metadata.subject)
    cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, metadata.creator)
    let date = metadata.created
    cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, date)
    cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_MOD_DATE, date)
    guard let cr = cairo_create(surface) else {
      throw DrawError(description: "cairo could not draw")
    }
    let pango = pango_layout_new(typography.context)!
    defer { g_object_unref(UnsafeMutableRawPointer(pango)) }
    let faces = StyleFaces(pango)
    defer { faces.free() }
    var drawer = PageDrawer(
      cr: cr, surface: surface, typography: typography, faces: faces,
      shaped: ShapedLines(context: typography.context, reusable: pango),
      runs: MonospaceRuns(context: typography.context, descriptions: faces.descriptions))
    // Each page drawn as soon as it is made: no more than a few pages of marks are held.
    PagesAhead.forEach(of: layout) { drawer.draw($0) }
    var tags = drawer.tags
    tags.closeAll(keeping: 0)
    let status = cairo_status(cr)
    cairo_destroy(cr)
    cairo_surface_finish(surface)
    let surfaceStatus = cairo_surface_status(surface)
    cairo_surface_destroy(surface)
    sinkClosed = true
    try sink.close()
    guard status == CAIRO_STATUS_SUCCESS, surfaceStatus == CAIRO_STATUS_SUCCESS else {
      throw DrawError(
        description:
          "cairo failed: \(String(cString: cairo_status_to_string(status == CAIRO_STATUS_SUCCESS ? surfaceStatus : status)))"
      )
    }
    // The dates with their D: prefix (cairo 1.16 leaves it out), then what cairo cannot write.
    try PDFInfoDates.addPrefix(inFileAt: url)
    try PDFDocumentFacts.append(
      PDFDocumentFacts.Facts(
        language: "en", title: metadata.title, subject: metadata.subject,
        creator: metadata.creator, created: metadata.createdText,
        elementLanguages: tags.languages),
      toFileAt: url)
  }

  static func color(_ style: EvidenceReportTextStyle) -> (Double, Double, Double) {
    switch style {
    case .title, .sectionHeading: return (0.05, 0.22, 0.36)
    case .heading: return (0.08, 0.18, 0.28)
    case .note: return (0.22, 0.22, 0.25)
    case .label, .footer, .subtitle: return (0.35, 0.35, 0.38)
    default: return (0.08, 0.08, 0.1)
    }
  }

  static func draw(_ fill: EvidenceReportFill, _ rect: CGRect, _ cr: OpaquePointer) {
    switch fill {
    case .rule: cairo_set_source_rgb(cr, 0.75, 0.77, 0.8)
    case .quoteBar: cairo_set_source_rgb(cr, 0.45, 0.62, 0.78)
    case .headerBand: cairo_set_source_rgb(cr, 0.91, 0.93, 0.95)
    }
    cairo_rectangle(
      cr, Double(rect.minX), Double(rect.minY), Double(rect.width), Double(rect.height))
    cairo_fill(cr)
  }

  static func draw(
    _ line: EvidenceReportLine, _ cr: OpaquePointer, _ pango: OpaquePointer, _ natural: Double
  ) {
    let (r, g, b) = color(line.style)
    cairo_set_source_rgb(cr, r, g, b)
    cairo_move_to(
      cr, Double(line.origin.x), Double(line.origin.y) + (Double(line.height) - natural) / 2)
    pango_cairo_show_layout(cr, pango)
  }
}

/// Each style's font, and its own line height and baseline (measured once: a line is centred in
/// the box the layout measured).
struct StyleFaces {
  var descriptions: [EvidenceReportTextStyle: OpaquePointer] = [:]
  var naturalHeights: [EvidenceReportTextStyle: Double] = [:]
  var baselines: [EvidenceReportTextStyle: Double] = [:]

  init(_ pango: OpaquePointer) {
    pango_layout_set_width(pango, -1)
    for style in EvidenceReportTextStyle.allCases {
      let font = pango_font_description_from_string(EvidenceReportTypography.font(style))!
      descriptions[style] = font
      pango_layout_set_font_description(pango, font)
      pango_layout_set_text(pango, "Ag", -1)
      var ink = PangoRectangle()
      var logical = PangoRectangle()
      pango_layout_get_extents(pango, &ink, &logical)
      naturalHeights[style] = Double(logical.height) / Double(PANGO_SCALE)
      baselines[style] = Double(pango_layout_get_baseline(pango)) / Double(PANGO_SCALE)
    }
  }

  func free() { for d in descriptions.values { pango_font_description_free(d) } }
}

/// Draws the placed pages one after another: their marks, each line's destination and link,
/// the outline's entries and the structure tags.
struct PageDrawer {
  let cr: OpaquePointer
  let surface: OpaquePointer
  let typography: EvidenceReportTypography
  let faces: StyleFaces
  let shaped: ShapedLines
  let runs: MonospaceRuns
  var tags: StructureTags
  /// The outline's entry of each section; its headings go under the one being drawn.
  var sectionOutline: [EvidenceReportSectionKind: Int32] = [:]
  var currentSection: EvidenceReportSectionKind?

  init(
    cr: OpaquePointer, surface: OpaquePointer, typography: EvidenceReportTypography,
    faces: StyleFaces, shaped: ShapedLines, runs: MonospaceRuns
  ) {
    self.cr = cr
    self.surface = surface
    self.typography = typography
    self.faces = faces
    self.shaped = shaped
    self.runs = runs
    for kind in EvidenceReportSectionKind.allCases {
      sectionOutline[kind] = cairo_pdf_surface_add_outline(
        surface, Int32(CAIRO_PDF_OUTLINE_ROOT), kind.title, "dest='section-\(kind.rawValue)'",
        cairo_pdf_outline_flags_t(0))
    }
    tags = StructureTags(cr: cr)
    tags.open("Document")
  }

  /// A line's baseline: where the style's text sits when centred in the line's box, or for a
  /// value the baseline of the prose it sits beside in a box of the same top.
  func baseline(_ line: EvidenceReportLine) -> Double {
    let beside = line.style.baselineCompanion
    return Double(line.origin.y)
      + (Double(typography.lineHeight(of: beside)) - faces.naturalHeights[beside]!) / 2
      + faces.baselines[beside]!
  }

  mutating func draw(_ page: EvidenceReportPage) {
    // No page labels: cairo 1.16 writes them as an empty /Nums; the page numbers are the labels.
    var sectionsToMark = page.sectionsStarting
    for mark in page.body {
      switch mark {
      case .fill(let rect, let fill):
        EvidenceReportPDF.draw(fill, rect, cr)
      case .text(let line):
        tags.enter(line)
        destinations(of: line, sectionsToMark: &sectionsToMark)
        if let link = line.link { cairo_tag_begin(cr, CAIRO_TAG_LINK, "dest='\(link)'") }
        let (r, g, b) = EvidenceReportPDF.color(line.style)
        cairo_set_source_rgb(cr, r, g, b)
        if !runs.draw(
          line.text, style: line.style, x: Double(line.origin.x), baseline: baseline(line), cr)
        {
          EvidenceReportPDF.draw(
            line, cr, shaped.layout(line, faces.descriptions[line.style]!),
            faces.naturalHeights[line.style]!)
        }
        if line.link != nil { cairo_tag_end(cr, CAIRO_TAG_LINK) }
      }
    }
    tags.closeAll(keeping: 1)
    for mark in page.footer {
      switch mark {
      case .fill(let rect, let fill): EvidenceReportPDF.draw(fill, rect, cr)
      case .text(let line):
        EvidenceReportPDF.draw(
          line, cr, shaped.layout(line, faces.descriptions[line.style]!),
          faces.naturalHeights[line.style]!)
      }
    }
    cairo_show_page(cr)
  }

  /// A line's destinations: a section's where it starts, its own anchor (at the line itself:
  /// with no extents of its own, cairo would put it at the page's top), and a heading's entry
  /// in the outline under its section.
  mutating func destinations(
    of line: EvidenceReportLine, sectionsToMark: inout [EvidenceReportSectionKind]
  ) {
    // Formatted only for a line that is one.
    var at: String {
      String(format: " x=%.2f y=%.2f", Double(line.origin.x), max(0, Double(line.origin.y) - 4))
    }
    if line.role == .heading1, let kind = sectionsToMark.first {
      cairo_tag_begin(cr, CAIRO_TAG_DEST, "name='section-\(kind.rawValue)'" + at)
      cairo_tag_end(cr, CAIRO_TAG_DEST)
      sectionsToMark.removeFirst()
      currentSection = kind
    }
    if line.isHeadingAnchor, let anchor = line.anchor, let section = currentSection,
      let parent = sectionOutline[section]
    {
      _ = cairo_pdf_surface_add_outline(
        surface, parent, line.text, "dest='\(anchor)'", cairo_pdf_outline_flags_t(0))
    }
    if let anchor = line.anchor {
      cairo_tag_begin(cr, CAIRO_TAG_DEST, "name='\(anchor)'" + at)
      cairo_tag_end(cr, CAIRO_TAG_DEST)
    }
  }
}

/// A line's PangoLayout, shaped once for each short text that recurs (host names, "TLS 1.3",
/// identifiers, column headers repeated on every page) instead of once per time it is drawn;
/// longer and one-off lines go through one reused layout.
final class ShapedLines {
  private let context: OpaquePointer
  private let reusable: OpaquePointer
  private var kept: [String: OpaquePointer] = [:]
  /// Lines up to this many bytes are kept, at most `limit` of them (about 1.5 KB each): drawing
  /// the reference report takes 0.36 s instead of 0.39 s for 1.6 MB more.
  static let shortText = 48
  static let limit = 1_024

  init(context: OpaquePointer, reusable: OpaquePointer) {
    self.context = context
    self.reusable = reusable
  }

  deinit { for layout in kept.values { g_object_unref(UnsafeMutableRawPointer(layout)) } }

  func layout(_ line: EvidenceReportLine, _ font: OpaquePointer) -> OpaquePointer {
    guard line.text.utf8.count <= Self.shortText else { return set(reusable, line.text, font) }
    let key = line.style.rawValue + "\u{0}" + line.text
    if let layout = kept[key] { return layout }
    guard kept.count < Self.limit, let layout = pango_layout_new(context) else {
      return set(reusable, line.text, font)
    }
    pango_layout_set_width(layout, -1)
    kept[key] = set(layout, line.text, font)
    return layout
  }

  private func set(_ layout: OpaquePointer, _ text: String, _ font: OpaquePointer) -> OpaquePointer
  {
    pango_layout_set_font_description(layout, font)
    pango_layout_set_text(layout, text, -1)
    return layout
  }
}

/// Structure tags as the marks go by: a heading, a paragraph, a fact list or a table opens its
/// element; a table's rows and cells open theirs inside it.
struct StructureTags {
  let cr: OpaquePointer
  private var stack: [String] = []
  private var element = -1, row = -1, column = -1
  /// How many elements of each type were opened, and of those in another language than the
  /// document's, which (by type, the ordinal among its type: cairo writes the elements in the
  /// order they were opened) in which language.
  private var counts: [String: Int] = [:]
  private(set) var languages: [String: [Int: String]] = [:]

  init(cr: OpaquePointer) { self.cr = cr }

  mutating func open(_ tag: String, language: String? = nil) {
    cairo_tag_begin(cr, tag, nil)
    stack.append(tag)
    let ordinal = counts[tag, default: 0]
    counts[tag] = ordinal + 1
    if let language { languages[tag, default: [:]][ordinal] = language }
  }
  mutating func close() { if let tag = stack.popLast() { cairo_tag_end(cr, tag) } }
  mutating func closeAll(keeping depth: Int) {
    while stack.count > depth { close() }
    element = -1
    row = -1
    column = -1
  }

  mutating func enter(_ line: EvidenceReportLine) {
    let isTable =
      line.role == .tableHeader || line.role == .tableCell || line.role == .factLabel
      || line.role == .factValue
    if line.element != element {
      closeAll(keeping: 1)
      element = line.element
      switch line.role {
      case .title, .heading1: open("H1", language: line.language)
      case .heading2: open("H2", language: line.language)
      case .note:
        open("BlockQuote")
        open("P")
      case .paragraph: open("P")
      default: open("Table")
      }
    }
    guard isTable, let lineRow = line.row, let lineColumn = line.column else { return }
    if lineRow != row {
      while stack.count > 2 { close() }
      row = lineRow
      column = -1
      open("TR")
    }
    if lineColumn != column {
      while stack.count > 3 { close() }
      column = lineColumn
      open(
        line.role == .tableHeader || line.role == .factLabel ? "TH" : "TD", language: line.language)
    }
  }
}
