import Foundation
import ReportModel

struct UnitBuilder {
  let measuring: any EvidenceReportTextMeasuring
  let body: CGRect
  let labelWidth: CGFloat
  let shapes: [[String]: [CGFloat]]
  var element = 0
  var tableCount = 0

  init(
    measuring: some EvidenceReportTextMeasuring, body: CGRect, labelWidth: CGFloat,
    shapes: [[String]: [CGFloat]]
  ) {
    self.measuring = measuring
    self.body = body
    self.labelWidth = labelWidth
    self.shapes = shapes
  }

  func lines(_ text: String, _ style: EvidenceReportTextStyle, _ width: CGFloat) -> [String] {
    let lines = LiteralLineBreaking.lines(
      of: text, style: style, width: max(1, width), measuring: measuring)
    return lines.isEmpty ? [""] : lines
  }

  func line(
    _ text: String, _ style: EvidenceReportTextStyle, x: CGFloat, y: CGFloat,
    role: EvidenceReportRole, element: Int,
    row: Int? = nil, column: Int? = nil, link: String? = nil, anchor: String? = nil,
    repeatHeader: Bool = false, language: String? = nil
  ) -> EvidenceReportMark {
    .text(
      EvidenceReportLine(
        text: text, style: style, origin: CGPoint(x: x, y: y),
        width: measuring.width(of: text, style: style),
        height: measuring.lineHeight(of: style), role: role, element: element, row: row,
        column: column,
        link: link, anchor: anchor, isRepeat: repeatHeader, language: language))
  }

  /// Every unit of the report in order, each handed to `yield` as soon as the next block has
  /// said whether it stays with it.
  mutating func forEachUnit<E: Error>(
    of report: EvidenceReport, _ yield: (LayoutUnit) throws(E) -> Void
  ) throws(E) {
    var pending: LayoutUnit?
    func hand(_ unit: LayoutUnit) throws(E) {
      if let pending { try yield(pending) }
      pending = unit
    }
    element += 1
    let titleLines = lines(report.title, .title, body.width)
    let subtitleLines = lines(report.subtitle, .subtitle, body.width)
    var marks: [EvidenceReportMark] = []
    var y: CGFloat = 0
    for text in titleLines {
      marks.append(line(text, .title, x: body.minX, y: y, role: .title, element: element))
      y += measuring.lineHeight(of: .title)
    }
    for text in subtitleLines {
      marks.append(line(text, .subtitle, x: body.minX, y: y, role: .paragraph, element: element))
      y += measuring.lineHeight(of: .subtitle)
    }
    try hand(
      LayoutUnit(kind: .title, height: y + 8, spaceBefore: 0, keepWithNext: true, marks: marks))
    for (index, section) in report.sections.enumerated() {
      element += 1
      let heading = lines(section.title, .sectionHeading, body.width)
      let lh = measuring.lineHeight(of: .sectionHeading)
      var marks = heading.enumerated().map {
        line(
          $1, .sectionHeading, x: body.minX, y: CGFloat($0) * lh, role: .heading1, element: element)
      }
      let height = CGFloat(heading.count) * lh
      marks.append(
        .fill(CGRect(x: body.minX, y: height + 2, width: body.width, height: 0.8), .rule))
      try hand(
        LayoutUnit(
          kind: .sectionStart, height: height + 8, spaceBefore: index == 0 ? 0 : 12,
          keepWithNext: true,
          marks: marks, section: section.kind, pageBreakBefore: section.kind.startsPage))
      for block in section.blocks {
        // A paragraph that introduces a table stays with the table's header; a table of one
        // row after another table (the assessor's block after the digests) is never alone on
        // a page: the rows before it come along.
        if case .table(let table) = block {
          if pending?.kind == .line { pending?.keepWithNext = true }
          if table.rows.count == 1, pending?.kind == .tableRow { pending?.keepWithNext = true }
        }
        try forEachUnit(of: block, hand)
      }
    }
    if let pending { try yield(pending) }
  }

  mutating func forEachUnit<E: Error>(
    of block: EvidenceReportBlock, _ yield: (LayoutUnit) throws(E) -> Void
  ) throws(E) {
    element += 1
    switch block {
    case .heading(let text, let named, let language):
      let lh = measuring.lineHeight(of: .heading)
      let parts = lines(text, .heading, body.width)
      // The first line is a destination: the outline lists the heading under its section.
      let marks = parts.enumerated().map {
        line(
          $1, .heading, x: body.minX, y: CGFloat($0) * lh, role: .heading2, element: element,
          anchor: $0 == 0 ? named ?? EvidenceReportLine.headingAnchor(element) : nil,
          language: language)
      }
      try yield(
        LayoutUnit(
          kind: .heading, height: CGFloat(parts.count) * lh, spaceBefore: 10, keepWithNext: true,
          marks: marks))
    case .paragraph(let text):
      for unit in textLines(
        text, style: .body, role: .paragraph, indent: 0, bar: false, spaceBefore: 5)
      { try yield(unit) }
    case .note(let text):
      for unit in textLines(text, style: .note, role: .note, indent: 12, bar: true, spaceBefore: 6)
      { try yield(unit) }
    case .facts(let facts):
      for unit in factUnits(facts) { try yield(unit) }
    case .table(let table):
      try tableUnits(table, yield)
    }
  }

  /// A paragraph or a note, a unit per line. At least two lines stay on either side of a break.
  func textLines(
    _ text: String, style: EvidenceReportTextStyle, role: EvidenceReportRole, indent: CGFloat,
    bar: Bool, spaceBefore: CGFloat
  ) -> [LayoutUnit] {
    let lh = measuring.lineHeight(of: style)
    let parts = lines(text, style, body.width - indent)
    let n = parts.count
    return parts.enumerated().map { i, text in
      var marks = [line(text, style, x: body.minX + indent, y: 0, role: role, element: element)]
      if bar {
        marks.insert(.fill(CGRect(x: body.minX, y: 0, width: 3, height: lh), .quoteBar), at: 0)
      }
      // Keep the first two lines together and the last two together (all of a short text).
      let keep = n <= 3 ? i < n - 1 : (i == 0 || i == n - 2)
      return LayoutUnit(
        kind: .line, height: lh, spaceBefore: i == 0 ? spaceBefore : 0, keepWithNext: keep,
        marks: marks)
    }
  }

  func factUnits(_ facts: [EvidenceReportFact]) -> [LayoutUnit] {
    let labelLH = measuring.lineHeight(of: .label)
    var units: [LayoutUnit] = []
    for (row, fact) in facts.enumerated() {
      let valueStyle: EvidenceReportTextStyle = fact.literal ? .literal : .value
      let valueLH = measuring.lineHeight(of: valueStyle)
      let labelLines = lines(fact.label, .label, labelWidth - UnitBuilder.gap)
      let valueLines = fact.value.split(separator: "\n", omittingEmptySubsequences: false)
        .flatMap { lines(String($0), valueStyle, body.width - labelWidth) }
      var marks: [EvidenceReportMark] = []
      for (i, text) in labelLines.enumerated() {
        marks.append(
          line(
            text, .label, x: body.minX, y: CGFloat(i) * labelLH, role: .factLabel, element: element,
            row: row, column: 0))
      }
      for (i, text) in valueLines.enumerated() {
        marks.append(
          line(
            text, valueStyle, x: body.minX + labelWidth, y: CGFloat(i) * valueLH, role: .factValue,
            element: element, row: row, column: 1))
      }
      let height = max(CGFloat(labelLines.count) * labelLH, CGFloat(valueLines.count) * valueLH) + 3
      units += sliced(
        LayoutUnit(
          kind: .fact, height: height, spaceBefore: row == 0 ? 6 : 0,
          keepWithNext: fact.staysWithNext && row < facts.count - 1, marks: marks),
        firstLimit: body.height / 2)
    }
    return units
  }

  static let gap: CGFloat = 10

  /// A table's header, then its rows one at a time.
  mutating func tableUnits<E: Error>(
    _ table: EvidenceReportTable, _ yield: (LayoutUnit) throws(E) -> Void
  ) throws(E) {
    tableCount += 1
    let widths =
      shapes[table.columns] ?? table.columns.map { _ in body.width / CGFloat(table.columns.count) }
    var xs: [CGFloat] = []
    var x = body.minX
    for w in widths {
      xs.append(x)
      x += w
    }
    let pad = EvidenceReportLayout.cellPadding
    let rowPad = EvidenceReportLayout.rowPadding
    // The header.
    let headerLH = measuring.lineHeight(of: .tableHeader)
    var headerMarks: [EvidenceReportMark] = []
    var headerLines = 1
    for (c, heading) in table.columns.enumerated() {
      let parts = lines(heading, .tableHeader, widths[c] - 2 * pad)
      headerLines = max(headerLines, parts.count)
      for (i, text) in parts.enumerated() {
        headerMarks.append(
          line(
            text, .tableHeader, x: xs[c] + pad, y: pad + CGFloat(i) * headerLH, role: .tableHeader,
            element: element, row: 0, column: c))
      }
    }
    let headerHeight = CGFloat(headerLines) * headerLH + 2 * pad
    headerMarks.insert(
      .fill(CGRect(x: body.minX, y: 0, width: body.width, height: headerHeight), .headerBand), at: 0
    )
    var header = LayoutUnit(
      kind: .tableHeader, height: headerHeight, spaceBefore: 5, keepWithNext: true,
      marks: headerMarks, tableID: tableCount)
    // On a page the table continues on, its title comes again above the header.
    if let title = table.title {
      let lh = measuring.lineHeight(of: .label)
      let parts = lines(EvidenceReportLayoutWording.continued(title), .label, body.width)
      var marks = parts.enumerated().map {
        line($1, .label, x: body.minX, y: CGFloat($0) * lh, role: .paragraph, element: element)
      }
      let top = CGFloat(parts.count) * lh + 3
      marks += headerMarks.map { $0.offset(by: top) }
      header.repeatMarks = marks
      header.repeatHeight = top + headerHeight
    }
    try yield(header)
    let rowCount = table.rows.count
    for (r, row) in table.rows.enumerated() {
      var marks: [EvidenceReportMark] = []
      var height: CGFloat = 0
      for (c, cell) in row.enumerated() {
        let style: EvidenceReportTextStyle = cell.style == .literal ? .tableLiteral : .tableCell
        let lh = measuring.lineHeight(of: style)
        let parts = EvidenceReportLayout.paragraphs(cell.text).flatMap {
          lines(String($0), style, widths[c] - 2 * pad)
        }
        for (i, text) in parts.enumerated() {
          marks.append(
            line(
              text, style, x: xs[c] + pad, y: rowPad + CGFloat(i) * lh, role: .tableCell,
              element: element,
              row: r + 1, column: c, link: cell.link, anchor: i == 0 ? cell.anchor : nil,
              language: cell.language))
        }
        height = max(height, CGFloat(parts.count) * lh)
      }
      height += 2 * rowPad
      marks.append(
        .fill(CGRect(x: body.minX, y: height - 0.4, width: body.width, height: 0.4), .rule))
      // No break leaves fewer than two rows on either side of it.
      let keep = rowCount <= 3 ? r < rowCount - 1 : (r == 0 || r == rowCount - 2)
      for unit in sliced(
        LayoutUnit(
          kind: .tableRow, height: height, spaceBefore: 0, keepWithNext: keep, marks: marks,
          tableID: tableCount),
        reserve: header.repeatHeight ?? headerHeight)
      { try yield(unit) }
    }
  }

  /// A unit taller than a page (less `reserve` for a repeated header) is split by lines; one
  /// taller than `firstLimit` too, its first slice no taller than that, so that what keeps with
  /// it (a heading, the facts before it) finds room on its page.
  func sliced(_ unit: LayoutUnit, reserve: CGFloat = 0, firstLimit: CGFloat? = nil)
    -> [LayoutUnit]
  {
    let limit = body.height - reserve - 16
    let first = min(limit, firstLimit ?? limit)
    guard unit.height > first else { return [unit] }
    var slices: [LayoutUnit] = []
    var start: CGFloat = 0
    while start < unit.height {
      // The next cut is the deepest line bottom that keeps the slice within the limit.
      let most = start == 0 ? first : limit
      let bottoms = unit.marks.compactMap { mark -> CGFloat? in
        if case .text(let l) = mark, l.origin.y >= start, l.origin.y + l.height - start <= most {
          return l.origin.y + l.height
        }
        return nil
      }
      let end = max(bottoms.max() ?? (start + most), start + 1)
      let isLast = !unit.marks.contains {
        if case .text(let l) = $0 { return l.origin.y >= end }
        return false
      }
      let sliceEnd = isLast ? unit.height : end
      let marks = unit.marks.compactMap { mark -> EvidenceReportMark? in
        switch mark {
        case .text(let l) where l.origin.y >= start && l.origin.y < sliceEnd:
          return .text(
            EvidenceReportLine(
              text: l.text, style: l.style, origin: CGPoint(x: l.origin.x, y: l.origin.y - start),
              width: l.width,
              height: l.height, role: l.role, element: l.element, row: l.row, column: l.column,
              link: l.link, anchor: l.anchor, isRepeat: l.isRepeat, language: l.language))
        case .fill(let rect, let fill) where isLast && rect.minY >= start:
          return .fill(rect.offsetBy(dx: 0, dy: -start), fill)
        default: return nil
        }
      }
      slices.append(
        LayoutUnit(
          kind: unit.kind, height: sliceEnd - start, spaceBefore: start == 0 ? unit.spaceBefore : 0,
          keepWithNext: isLast ? unit.keepWithNext : false, marks: marks, tableID: unit.tableID))
      start = sliceEnd
    }
    return slices
  }
}
