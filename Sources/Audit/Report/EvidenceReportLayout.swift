import Foundation

/// Where everything of the report goes: measure → break into units → paginate. Pure; the text is
/// measured by whoever is passed in, and the drawer puts each mark where this says.
///
/// The units are made twice, so that no more than a page of marks is ever held: once to plan
/// where each goes (a unit's height is kept, not its marks), which also counts the pages the
/// footers need ("page N of M"), and again in `forEachPage`, from the measurements taped the first
/// time (no text is measured twice), each placed as planned and a page handed over as soon as it
/// is full. The report's size then costs its plan and its tape (a few bytes a unit and a line),
/// not its marks.
public struct EvidenceReportLayout {
    public let geometry: EvidenceReportPageGeometry
    public var bodyFrame: CGRect { geometry.bodyFrame }
    /// The one label column width every fact list uses.
    public let labelColumnWidth: CGFloat
    /// Column widths by table headings: tables with the same headings take the same shape.
    public let tableShapes: [[String]: [CGFloat]]
    public let pageCount: Int
    private let report: EvidenceReport
    private let measuring: any EvidenceReportTextMeasuring
    private let plan: [UnitPlacement]
    private let tape: MeasurementTape

    static let cellPadding: CGFloat = 4
    static let columnGap: CGFloat = 10

    public init(report: EvidenceReport, geometry: EvidenceReportPageGeometry, measuring m: some EvidenceReportTextMeasuring) {
        self.geometry = geometry
        self.report = report
        measuring = m
        let body = geometry.bodyFrame
        // Measure: one label column for every fact list, one shape per table heading.
        let blocks = report.sections.flatMap(\.blocks)
        let labels = blocks.flatMap { block -> [String] in if case .facts(let f) = block { return f.map(\.label) }; return [] }
        let labelWidth = min(body.width * 0.36, (labels.map { m.width(of: $0, style: .label) }.max() ?? 0) + Self.columnGap)
        var natural: [[String]: (min: [CGFloat], max: [CGFloat])] = [:]
        for case .table(let table) in blocks {
            var (low, high) = natural[table.columns] ?? (table.columns.map { _ in 0 }, table.columns.map { _ in 0 })
            for (c, heading) in table.columns.enumerated() {
                high[c] = max(high[c], m.width(of: heading, style: .tableHeader))
                low[c] = max(low[c], Self.longestWord(heading, style: .tableHeader, m))
            }
            for row in table.rows {
                for (c, cell) in row.enumerated() {
                    let style: EvidenceReportTextStyle = cell.style == .literal ? .tableLiteral : .tableCell
                    for line in cell.text.split(separator: "\n", omittingEmptySubsequences: false) {
                        high[c] = max(high[c], m.width(of: String(line), style: style))
                    }
                    low[c] = max(low[c], Self.longestWord(cell.text, style: style, m))
                }
            }
            natural[table.columns] = (low, high)
        }
        let pad = 2 * Self.cellPadding
        var shapes: [[String]: [CGFloat]] = [:]
        for (columns, widths) in natural {
            shapes[columns] = EvidenceReportColumnWidths.automatic(minimum: widths.min.map { $0 + pad }, maximum: widths.max.map { $0 + pad },
                                                                   into: body.width)
        }
        labelColumnWidth = labelWidth
        tableShapes = shapes
        // Break, keeping each unit's shape only, and plan the pages.
        let tape = MeasurementTape()
        self.tape = tape
        var builder = UnitBuilder(measuring: MeasurementTape.Recording(base: m, tape: tape), body: body, labelWidth: labelWidth, shapes: shapes)
        var units: [UnitShape] = []
        builder.forEachUnit(of: report) { units.append(UnitShape($0)) }
        (plan, pageCount) = Paginator(geometry: geometry, measuring: m, title: report.title).plan(units)
    }

    /// Each page in order, made as it is handed over: its marks are let go when `body` returns.
    public func forEachPage<E: Error>(_ body: (EvidenceReportPage) throws(E) -> Void) throws(E) {
        let paginator = Paginator(geometry: geometry, measuring: measuring, title: report.title)
        let replay = MeasurementTape.Replay(tape, base: measuring)
        var builder = UnitBuilder(measuring: replay, body: geometry.bodyFrame, labelWidth: labelColumnWidth, shapes: tableShapes)
        var page = 0
        var marks: [EvidenceReportMark] = []
        var sections: [EvidenceReportSectionKind] = []
        var header: LayoutUnit?
        var index = 0
        let plan = self.plan, total = pageCount
        func handOver() throws(E) {
            try body(EvidenceReportPage(number: page + 1, body: marks, footer: paginator.footer(page: page + 1, of: total), sectionsStarting: sections))
            marks.removeAll(keepingCapacity: true)
            sections = []
            page += 1
        }
        try builder.forEachUnit(of: report) { (unit) throws(E) in
            let placement = plan[index]
            index += 1
            while placement.page > page { try handOver() }
            if placement.repeatsHeader, let header, header.tableID == unit.tableID {
                Paginator.place(header, top: geometry.bodyFrame.minY, repeated: true, into: &marks)
            }
            if unit.kind == .tableHeader { header = unit }
            Paginator.place(unit, top: placement.top, repeated: false, into: &marks)
            if let section = unit.section { sections.append(section) }
        }
        precondition(index == plan.count && replay.isAtEnd, "the report's units were broken otherwise than when the pages were planned")
        try handOver()
    }

    /// Every page at once: for tests and small reports; the drawer takes them one at a time.
    public var pages: [EvidenceReportPage] {
        var pages: [EvidenceReportPage] = []
        forEachPage { pages.append($0) }
        return pages
    }

    static func longestWord(_ text: String, style: EvidenceReportTextStyle, _ m: some EvidenceReportTextMeasuring) -> CGFloat {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map { m.width(of: String($0), style: style) }.max() ?? 0
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
}

struct UnitBuilder {
    let measuring: any EvidenceReportTextMeasuring
    let body: CGRect
    let labelWidth: CGFloat
    let shapes: [[String]: [CGFloat]]
    var element = 0
    var tableCount = 0

    init(measuring: some EvidenceReportTextMeasuring, body: CGRect, labelWidth: CGFloat, shapes: [[String]: [CGFloat]]) {
        self.measuring = measuring; self.body = body; self.labelWidth = labelWidth; self.shapes = shapes
    }

    func lines(_ text: String, _ style: EvidenceReportTextStyle, _ width: CGFloat) -> [String] {
        let lines = measuring.lines(of: text, style: style, width: max(1, width))
        return lines.isEmpty ? [""] : lines
    }

    func line(_ text: String, _ style: EvidenceReportTextStyle, x: CGFloat, y: CGFloat, role: EvidenceReportRole, element: Int,
              row: Int? = nil, column: Int? = nil, link: String? = nil, anchor: String? = nil, repeatHeader: Bool = false) -> EvidenceReportMark {
        .text(EvidenceReportLine(text: text, style: style, origin: CGPoint(x: x, y: y), width: measuring.width(of: text, style: style),
                                 height: measuring.lineHeight(of: style), role: role, element: element, row: row, column: column,
                                 link: link, anchor: anchor, isRepeat: repeatHeader))
    }

    /// Every unit of the report in order, each handed to `yield` as soon as the next block has
    /// said whether it stays with it.
    mutating func forEachUnit<E: Error>(of report: EvidenceReport, _ yield: (LayoutUnit) throws(E) -> Void) throws(E) {
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
        for text in titleLines { marks.append(line(text, .title, x: body.minX, y: y, role: .title, element: element)); y += measuring.lineHeight(of: .title) }
        for text in subtitleLines { marks.append(line(text, .subtitle, x: body.minX, y: y, role: .paragraph, element: element)); y += measuring.lineHeight(of: .subtitle) }
        try hand(LayoutUnit(kind: .title, height: y + 8, spaceBefore: 0, keepWithNext: true, marks: marks))
        for (index, section) in report.sections.enumerated() {
            element += 1
            let heading = lines(section.title, .sectionHeading, body.width)
            let lh = measuring.lineHeight(of: .sectionHeading)
            var marks = heading.enumerated().map { line($1, .sectionHeading, x: body.minX, y: CGFloat($0) * lh, role: .heading1, element: element) }
            let height = CGFloat(heading.count) * lh
            marks.append(.fill(CGRect(x: body.minX, y: height + 2, width: body.width, height: 0.8), .rule))
            try hand(LayoutUnit(kind: .sectionStart, height: height + 8, spaceBefore: index == 0 ? 14 : 0, keepWithNext: true,
                                marks: marks, section: section.kind, pageBreakBefore: index > 0))
            for block in section.blocks {
                // A paragraph that introduces a table stays with the table's header.
                if case .table = block, pending?.kind == .line { pending?.keepWithNext = true }
                try forEachUnit(of: block, hand)
            }
        }
        if let pending { try yield(pending) }
    }

    mutating func forEachUnit<E: Error>(of block: EvidenceReportBlock, _ yield: (LayoutUnit) throws(E) -> Void) throws(E) {
        element += 1
        switch block {
        case .heading(let text):
            let lh = measuring.lineHeight(of: .heading)
            let parts = lines(text, .heading, body.width)
            let marks = parts.enumerated().map { line($1, .heading, x: body.minX, y: CGFloat($0) * lh, role: .heading2, element: element) }
            try yield(LayoutUnit(kind: .heading, height: CGFloat(parts.count) * lh, spaceBefore: 12, keepWithNext: true, marks: marks))
        case .paragraph(let text):
            for unit in textLines(text, style: .body, role: .paragraph, indent: 0, bar: false, spaceBefore: 6) { try yield(unit) }
        case .note(let text):
            for unit in textLines(text, style: .note, role: .note, indent: 12, bar: true, spaceBefore: 6) { try yield(unit) }
        case .facts(let facts):
            for unit in factUnits(facts) { try yield(unit) }
        case .table(let table):
            try tableUnits(table, yield)
        }
    }

    /// A paragraph or a note, a unit per line. At least two lines stay on either side of a break.
    func textLines(_ text: String, style: EvidenceReportTextStyle, role: EvidenceReportRole, indent: CGFloat, bar: Bool, spaceBefore: CGFloat) -> [LayoutUnit] {
        let lh = measuring.lineHeight(of: style)
        let parts = lines(text, style, body.width - indent)
        let n = parts.count
        return parts.enumerated().map { i, text in
            var marks = [line(text, style, x: body.minX + indent, y: 0, role: role, element: element)]
            if bar { marks.insert(.fill(CGRect(x: body.minX, y: 0, width: 3, height: lh), .quoteBar), at: 0) }
            // Keep the first two lines together and the last two together (all of a short text).
            let keep = n <= 3 ? i < n - 1 : (i == 0 || i == n - 2)
            return LayoutUnit(kind: .line, height: lh, spaceBefore: i == 0 ? spaceBefore : 0, keepWithNext: keep, marks: marks)
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
                marks.append(line(text, .label, x: body.minX, y: CGFloat(i) * labelLH, role: .factLabel, element: element, row: row, column: 0))
            }
            for (i, text) in valueLines.enumerated() {
                marks.append(line(text, valueStyle, x: body.minX + labelWidth, y: CGFloat(i) * valueLH, role: .factValue, element: element, row: row, column: 1))
            }
            let height = max(CGFloat(labelLines.count) * labelLH, CGFloat(valueLines.count) * valueLH) + 3
            units += sliced(LayoutUnit(kind: .fact, height: height, spaceBefore: row == 0 ? 6 : 0,
                                       keepWithNext: fact.staysWithNext && row < facts.count - 1, marks: marks))
        }
        return units
    }

    static let gap: CGFloat = 10

    /// A table's header, then its rows one at a time.
    mutating func tableUnits<E: Error>(_ table: EvidenceReportTable, _ yield: (LayoutUnit) throws(E) -> Void) throws(E) {
        tableCount += 1
        let widths = shapes[table.columns] ?? table.columns.map { _ in body.width / CGFloat(table.columns.count) }
        var xs: [CGFloat] = []
        var x = body.minX
        for w in widths { xs.append(x); x += w }
        let pad = EvidenceReportLayout.cellPadding
        // The header.
        let headerLH = measuring.lineHeight(of: .tableHeader)
        var headerMarks: [EvidenceReportMark] = []
        var headerLines = 1
        for (c, heading) in table.columns.enumerated() {
            let parts = lines(heading, .tableHeader, widths[c] - 2 * pad)
            headerLines = max(headerLines, parts.count)
            for (i, text) in parts.enumerated() {
                headerMarks.append(line(text, .tableHeader, x: xs[c] + pad, y: pad + CGFloat(i) * headerLH, role: .tableHeader, element: element, row: 0, column: c))
            }
        }
        let headerHeight = CGFloat(headerLines) * headerLH + 2 * pad
        headerMarks.insert(.fill(CGRect(x: body.minX, y: 0, width: body.width, height: headerHeight), .headerBand), at: 0)
        try yield(LayoutUnit(kind: .tableHeader, height: headerHeight, spaceBefore: 6, keepWithNext: true, marks: headerMarks, tableID: tableCount))
        for (r, row) in table.rows.enumerated() {
            var marks: [EvidenceReportMark] = []
            var height: CGFloat = 0
            for (c, cell) in row.enumerated() {
                let style: EvidenceReportTextStyle = cell.style == .literal ? .tableLiteral : .tableCell
                let lh = measuring.lineHeight(of: style)
                let parts = cell.text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { lines(String($0), style, widths[c] - 2 * pad) }
                for (i, text) in parts.enumerated() {
                    marks.append(line(text, style, x: xs[c] + pad, y: pad + CGFloat(i) * lh, role: .tableCell, element: element,
                                      row: r + 1, column: c, link: cell.link, anchor: i == 0 ? cell.anchor : nil))
                }
                height = max(height, CGFloat(parts.count) * lh)
            }
            height += 2 * pad
            marks.append(.fill(CGRect(x: body.minX, y: height - 0.4, width: body.width, height: 0.4), .rule))
            for unit in sliced(LayoutUnit(kind: .tableRow, height: height, spaceBefore: 0, keepWithNext: false, marks: marks, tableID: tableCount),
                               reserve: headerHeight) { try yield(unit) }
        }
    }

    /// A unit taller than a page (less `reserve` for a repeated header) is split by lines.
    func sliced(_ unit: LayoutUnit, reserve: CGFloat = 0) -> [LayoutUnit] {
        let limit = body.height - reserve - 16
        guard unit.height > limit else { return [unit] }
        var slices: [LayoutUnit] = []
        var start: CGFloat = 0
        while start < unit.height {
            // The next cut is the deepest line bottom that keeps the slice within the limit.
            let bottoms = unit.marks.compactMap { mark -> CGFloat? in
                if case .text(let l) = mark, l.origin.y >= start, l.origin.y + l.height - start <= limit { return l.origin.y + l.height }
                return nil
            }
            let end = max(bottoms.max() ?? (start + limit), start + 1)
            let isLast = !unit.marks.contains { if case .text(let l) = $0 { return l.origin.y >= end }; return false }
            let sliceEnd = isLast ? unit.height : end
            let marks = unit.marks.compactMap { mark -> EvidenceReportMark? in
                switch mark {
                case .text(let l) where l.origin.y >= start && l.origin.y < sliceEnd:
                    return .text(EvidenceReportLine(text: l.text, style: l.style, origin: CGPoint(x: l.origin.x, y: l.origin.y - start), width: l.width,
                                                    height: l.height, role: l.role, element: l.element, row: l.row, column: l.column,
                                                    link: l.link, anchor: l.anchor, isRepeat: l.isRepeat))
                case .fill(let rect, let fill) where isLast && rect.minY >= start:
                    return .fill(rect.offsetBy(dx: 0, dy: -start), fill)
                default: return nil
                }
            }
            slices.append(LayoutUnit(kind: unit.kind, height: sliceEnd - start, spaceBefore: start == 0 ? unit.spaceBefore : 0,
                                     keepWithNext: isLast ? unit.keepWithNext : false, marks: marks, tableID: unit.tableID))
            start = sliceEnd
        }
        return slices
    }
}

/// What pagination needs of a unit: its size and how it holds to the next, not its marks.
struct UnitShape {
    var kind: LayoutUnit.Kind
    var height: CGFloat
    var spaceBefore: CGFloat
    var keepWithNext: Bool
    var tableID: Int?
    var pageBreakBefore: Bool

    init(_ unit: LayoutUnit) {
        kind = unit.kind; height = unit.height; spaceBefore = unit.spaceBefore; keepWithNext = unit.keepWithNext
        tableID = unit.tableID; pageBreakBefore = unit.pageBreakBefore
    }
}

/// Where a unit goes: its page (from 0), the top of its marks, and whether its table's header is
/// repeated above it at the top of the page.
struct UnitPlacement {
    var page: Int
    var top: CGFloat
    var repeatsHeader: Bool
}

/// Places units on pages: a chain of units kept together moves as one; a heading never ends a
/// page; a table that crosses a page repeats its header; the footer says "page N of M".
struct Paginator {
    let geometry: EvidenceReportPageGeometry
    let measuring: any EvidenceReportTextMeasuring
    let title: String

    init(geometry: EvidenceReportPageGeometry, measuring: some EvidenceReportTextMeasuring, title: String) {
        self.geometry = geometry; self.measuring = measuring; self.title = title
    }

    /// Where each unit goes, and how many pages that makes.
    func plan(_ units: [UnitShape]) -> (placements: [UnitPlacement], pageCount: Int) {
        let body = geometry.bodyFrame
        var placements: [UnitPlacement] = []
        placements.reserveCapacity(units.count)
        var page = 0
        var y: CGFloat = 0
        var headers: [Int: UnitShape] = [:]
        func newPage() { page += 1; y = 0 }
        /// Moves y past the unit; the top of its marks.
        func place(_ unit: UnitShape) -> CGFloat {
            let top = body.minY + y + (y > 0 ? unit.spaceBefore : 0)
            y = top - body.minY + unit.height
            return top
        }
        func need(_ unit: UnitShape, atTop: Bool) -> CGFloat { (atTop ? 0 : unit.spaceBefore) + unit.height }
        for i in units.indices {
            let unit = units[i]
            if unit.pageBreakBefore && y > 0 { newPage() }
            // The chain this unit keeps with: as far as it fits on a page, and at least the next unit.
            var chain = need(unit, atTop: y == 0)
            var j = i
            while units[j].keepWithNext, j + 1 < units.count, !units[j + 1].pageBreakBefore {
                let more = need(units[j + 1], atTop: false)
                if chain + more > body.height && j > i { break }
                chain += more
                j += 1
            }
            if y > 0 && y + chain > body.height {
                newPage()
            }
            var repeats = false
            if unit.kind == .tableRow, y == 0, let id = unit.tableID, let header = headers[id] {
                _ = place(header)
                repeats = true
            }
            if unit.kind == .tableHeader, let id = unit.tableID { headers[id] = unit }
            placements.append(UnitPlacement(page: page, top: place(unit), repeatsHeader: repeats))
        }
        return (placements, page + 1)
    }

    /// The unit's marks on the page, its top at `top`. A repeated header carries no link or anchor.
    static func place(_ unit: LayoutUnit, top: CGFloat, repeated: Bool, into marks: inout [EvidenceReportMark]) {
        for mark in unit.marks {
            switch mark {
            case .text(let l):
                marks.append(.text(EvidenceReportLine(
                    text: l.text, style: l.style, origin: CGPoint(x: l.origin.x, y: top + l.origin.y), width: l.width, height: l.height,
                    role: l.role, element: l.element, row: l.row, column: l.column, link: repeated ? nil : l.link,
                    anchor: repeated ? nil : l.anchor, isRepeat: repeated)))
            case .fill(let rect, let fill):
                marks.append(.fill(rect.offsetBy(dx: 0, dy: top), fill))
            }
        }
    }

    func footer(page: Int, of total: Int) -> [EvidenceReportMark] {
        let frame = geometry.footerFrame
        let lh = measuring.lineHeight(of: .footer)
        let y = frame.maxY - lh
        let number = "page \(page) of \(total)"
        let numberWidth = measuring.width(of: number, style: .footer)
        let titleLine = measuring.lines(of: title, style: .footer, width: frame.width - numberWidth - 20).first ?? ""
        return [
            .fill(CGRect(x: frame.minX, y: frame.minY + 6, width: frame.width, height: 0.5), .rule),
            .text(EvidenceReportLine(text: titleLine, style: .footer, origin: CGPoint(x: frame.minX, y: y),
                                     width: measuring.width(of: titleLine, style: .footer), height: lh, role: .footer, element: 0,
                                     row: nil, column: nil, link: nil, anchor: nil, isRepeat: false)),
            .text(EvidenceReportLine(text: number, style: .footer, origin: CGPoint(x: frame.maxX - numberWidth, y: y), width: numberWidth,
                                     height: lh, role: .footer, element: 0, row: nil, column: nil, link: nil, anchor: nil, isRepeat: false)),
        ]
    }
}
