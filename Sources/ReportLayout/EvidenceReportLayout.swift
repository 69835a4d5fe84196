import Foundation
import ReportModel

/// Where everything of the report goes: measure → break into units → paginate. Pure; the text is
/// measured by whoever is passed in, and the drawer puts each mark where this says.
///
/// The units are made twice, so that no more than a page of marks is ever held: once to plan
/// where each goes (a unit's height is kept, not its marks), which also counts the pages the
/// footers need ("page N of M"), and again in `forEachPage`, from the measurements taped the first
/// time (no text is measured twice), each placed as planned and a page handed over as soon as it
/// is full. The report's size then costs its plan and its tape (a few bytes a unit and a line),
/// not its marks.
public struct EvidenceReportLayout: EvidenceReportPages {
  public let geometry: EvidenceReportPageGeometry
  public var bodyFrame: CGRect { geometry.bodyFrame }
  /// The one label column width every fact list uses.
  public let labelColumnWidth: CGFloat
  /// Column widths by table headings: tables with the same headings take the same shape.
  public let tableShapes: [[String]: [CGFloat]]
  public let pageCount: Int
  /// What it places.
  public private(set) var report: EvidenceReport
  private let measuring: any EvidenceReportTextMeasuring
  private let plan: [UnitPlacement]
  private let tape: MeasurementTape

  static let cellPadding: CGFloat = 4
  /// Above and below a row's text: a row a line, and as many to the page as stay legible.
  static let rowPadding: CGFloat = 1.5
  static let columnGap: CGFloat = 10

  public init(
    report: EvidenceReport, geometry: EvidenceReportPageGeometry,
    measuring m: some EvidenceReportTextMeasuring
  ) {
    self.geometry = geometry
    self.report = report
    measuring = m
    let body = geometry.bodyFrame
    // Measure: one label column for every fact list, one shape per table heading.
    let blocks = report.sections.flatMap(\.blocks)
    let labels = blocks.flatMap { block -> [String] in
      if case .facts(let f) = block { return f.map(\.label) }
      return []
    }
    let labelWidth = min(
      body.width * 0.36, (labels.map { m.width(of: $0, style: .label) }.max() ?? 0) + Self.columnGap
    )
    var natural: [[String]: (min: [CGFloat], max: [CGFloat])] = [:]
    for case .table(let table) in blocks {
      var (low, high) =
        natural[table.columns] ?? (table.columns.map { _ in 0 }, table.columns.map { _ in 0 })
      for (c, heading) in table.columns.enumerated() {
        high[c] = max(high[c], m.width(of: heading, style: .tableHeader))
        low[c] = max(low[c], Self.longestWord(heading, style: .tableHeader, m))
      }
      for row in table.rows {
        for (c, cell) in row.enumerated() {
          let style: EvidenceReportTextStyle = cell.style == .literal ? .tableLiteral : .tableCell
          for line in Self.paragraphs(cell.text) {
            high[c] = max(high[c], m.width(of: String(line), style: style))
          }
          low[c] = max(
            low[c], Self.longestWord(cell.text, style: style, m, wholeUpTo: body.width * 0.3))
        }
      }
      natural[table.columns] = (low, high)
    }
    let pad = 2 * Self.cellPadding
    var shapes: [[String]: [CGFloat]] = [:]
    for (columns, widths) in natural {
      shapes[columns] = EvidenceReportColumnWidths.automatic(
        minimum: widths.min.map { $0 + pad }, maximum: widths.max.map { $0 + pad },
        into: body.width)
    }
    labelColumnWidth = labelWidth
    tableShapes = shapes
    // Break, keeping each unit's shape only, and plan the pages.
    let tape = MeasurementTape()
    self.tape = tape
    var builder = UnitBuilder(
      measuring: MeasurementTape.Recording(base: m, tape: tape), body: body, labelWidth: labelWidth,
      shapes: shapes)
    var units: [UnitShape] = []
    builder.forEachUnit(of: report) { units.append(UnitShape($0)) }
    (plan, pageCount) = Paginator(geometry: geometry, measuring: m, title: report.footer).plan(
      units)
  }

  /// The same pages placing another report whose blocks take the same room (the digests of the
  /// bundle's files, known once they are written, in place of their placeholders): nothing is
  /// measured again.
  public func with(_ report: EvidenceReport) -> EvidenceReportLayout {
    var copy = self
    copy.report = report
    return copy
  }

  /// Each page in order, made as it is handed over: its marks are let go when `body` returns.
  public func forEachPage<E: Error>(_ body: (EvidenceReportPage) throws(E) -> Void) throws(E) {
    let paginator = Paginator(geometry: geometry, measuring: measuring, title: report.footer)
    try forEachPage(footers: paginator, body)
  }

  /// The pages without their footers: their units' measurements are replayed from the tape, and
  /// nothing but the line heights is asked of the measurer.
  public func forEachUnfootedPage(_ body: (EvidenceReportPage) -> Void) {
    forEachPage(footers: nil, body)
  }

  public func footer(ofPage number: Int) -> [EvidenceReportMark] {
    Paginator(geometry: geometry, measuring: measuring, title: report.footer).footer(
      page: number, of: pageCount)
  }

  private func forEachPage<E: Error>(
    footers paginator: Paginator?, _ body: (EvidenceReportPage) throws(E) -> Void
  ) throws(E) {
    let replay = MeasurementTape.Replay(tape, base: measuring)
    var builder = UnitBuilder(
      measuring: replay, body: geometry.bodyFrame, labelWidth: labelColumnWidth, shapes: tableShapes
    )
    var page = 0
    var marks: [EvidenceReportMark] = []
    var sections: [EvidenceReportSectionKind] = []
    var header: LayoutUnit?
    var index = 0
    let plan = self.plan
    let total = pageCount
    func handOver() throws(E) {
      try body(
        EvidenceReportPage(
          number: page + 1, body: marks,
          footer: paginator?.footer(page: page + 1, of: total) ?? [],
          sectionsStarting: sections))
      marks.removeAll(keepingCapacity: true)
      sections = []
      page += 1
    }
    try builder.forEachUnit(of: report) { (unit) throws(E) in
      let placement = plan[index]
      index += 1
      while placement.page > page { try handOver() }
      if placement.repeatsHeader, var header, header.tableID == unit.tableID {
        header.marks = header.repeatMarks ?? header.marks
        Paginator.place(header, top: geometry.bodyFrame.minY, repeated: true, into: &marks)
      }
      if unit.kind == .tableHeader { header = unit }
      Paginator.place(unit, top: placement.top, repeated: false, into: &marks)
      if let section = unit.section { sections.append(section) }
    }
    precondition(
      index == plan.count && replay.isAtEnd,
      "the report's units were broken otherwise than when the pages were planned")
    try handOver()
  }

  /// Every page at once: for tests and small reports; the drawer takes them one at a time.
  public var pages: [EvidenceReportPage] {
    var pages: [EvidenceReportPage] = []
    forEachPage { pages.append($0) }
    return pages
  }

  /// A cell's lines as written: the text itself unless it holds a line feed (the common case,
  /// spared the splitting).
  static func paragraphs(_ text: String) -> [Substring] {
    text.utf8.contains(0x0A)
      ? text.split(separator: "\n", omittingEmptySubsequences: false) : [Substring(text)]
  }

  /// The widest word, which a column is made wide enough for: a host name, a cipher suite, a
  /// fingerprint stays whole on its line. A value's word wider than `wholeUpTo` counts only by its
  /// widest piece between separators (`LiteralLineBreaking.smallestPieces`) with the mark set
  /// where it goes on, which it may then break after (a name of any length is anyone's to
  /// choose). In the monospace face the piece of most characters is the widest: it alone is
  /// measured.
  static func longestWord(
    _ text: String, style: EvidenceReportTextStyle, _ m: some EvidenceReportTextMeasuring,
    wholeUpTo: CGFloat = .infinity
  ) -> CGFloat {
    func widest(_ pieces: [Substring]) -> CGFloat {
      if style.isMonospace {
        return pieces.max { $0.count < $1.count }.map { m.width(of: String($0), style: style) }
          ?? 0
      }
      return pieces.map { m.width(of: String($0), style: style) }.max() ?? 0
    }
    let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
    let whole = widest(words)
    guard style.keepsNamesWhole, whole > wholeUpTo else { return whole }
    let mark = m.width(of: LiteralLineBreaking.continuationMark, style: style)
    return widest(words.flatMap(LiteralLineBreaking.smallestPieces(of:))) + mark
  }
}

/// A piece of the flow that is placed whole: a line, a fact, a table row or header, a heading.
struct LayoutUnit {
  enum Kind { case heading, line, fact, tableHeader, tableRow, sectionStart, title }
  var kind: Kind
  var height: CGFloat
  var spaceBefore: CGFloat
  var keepWithNext: Bool
  /// Marks with y relative to the unit's top.
  var marks: [EvidenceReportMark]
  var tableID: Int?
  var section: EvidenceReportSectionKind?
  /// Starts a new page (a section).
  var pageBreakBefore = false
  /// A table header's marks and height where the table continues on a new page.
  var repeatMarks: [EvidenceReportMark]?
  var repeatHeight: CGFloat?
}

extension EvidenceReportMark {
  func offset(by dy: CGFloat) -> EvidenceReportMark {
    switch self {
    case .text(let l):
      return .text(
        EvidenceReportLine(
          text: l.text, style: l.style, origin: CGPoint(x: l.origin.x, y: l.origin.y + dy),
          width: l.width, height: l.height, role: l.role, element: l.element, row: l.row,
          column: l.column, link: l.link, anchor: l.anchor, isRepeat: l.isRepeat,
          language: l.language))
    case .fill(let rect, let fill): return .fill(rect.offsetBy(dx: 0, dy: dy), fill)
    }
  }
}
