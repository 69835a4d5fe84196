import Foundation
import ReportModel

/// What pagination needs of a unit: its size and how it holds to the next, not its marks.
struct UnitShape {
  var kind: LayoutUnit.Kind
  var height: CGFloat
  var spaceBefore: CGFloat
  var keepWithNext: Bool
  var tableID: Int?
  var pageBreakBefore: Bool
  var repeatHeight: CGFloat?

  init(_ unit: LayoutUnit) {
    kind = unit.kind
    height = unit.height
    spaceBefore = unit.spaceBefore
    keepWithNext = unit.keepWithNext
    tableID = unit.tableID
    pageBreakBefore = unit.pageBreakBefore
    repeatHeight = unit.repeatHeight
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

  init(
    geometry: EvidenceReportPageGeometry, measuring: some EvidenceReportTextMeasuring, title: String
  ) {
    self.geometry = geometry
    self.measuring = measuring
    self.title = title
  }

  /// Where each unit goes, and how many pages that makes.
  func plan(_ units: [UnitShape]) -> (placements: [UnitPlacement], pageCount: Int) {
    let body = geometry.bodyFrame
    var placements: [UnitPlacement] = []
    placements.reserveCapacity(units.count)
    var page = 0
    var y: CGFloat = 0
    var headers: [Int: UnitShape] = [:]
    func newPage() {
      page += 1
      y = 0
    }
    /// Moves y past the unit; the top of its marks.
    func place(_ unit: UnitShape) -> CGFloat {
      let top = body.minY + y + (y > 0 ? unit.spaceBefore : 0)
      y = top - body.minY + unit.height
      return top
    }
    func need(_ unit: UnitShape, atTop: Bool) -> CGFloat {
      (atTop ? 0 : unit.spaceBefore) + unit.height
    }
    // The end of a chain cut before a table: the units up to it were measured to fit together.
    var keptThrough = -1
    for i in units.indices {
      let unit = units[i]
      if unit.pageBreakBefore && y > 0 { newPage() }
      if i > keptThrough {
        // The chain this unit keeps with: as far as it fits on a page, and at least the next unit.
        var chain = need(unit, atTop: y == 0)
        var j = i
        var cut = false
        while units[j].keepWithNext, j + 1 < units.count, !units[j + 1].pageBreakBefore {
          let more = need(units[j + 1], atTop: false)
          if chain + more > body.height && j > i {
            cut = true
            break
          }
          chain += more
          j += 1
        }
        // A chain longer than a page (a heading, the text introducing a table, the table's first
        // rows) is cut where the table begins, when it can be: the heading keeps its text, and
        // the table starts the next page whole.
        if cut,
          let k = (i..<j).last(where: {
            units[$0].kind == .line && units[$0 + 1].kind == .tableHeader
          }),
          k > i
        {
          chain = (i + 1...k).reduce(need(unit, atTop: y == 0)) {
            $0 + need(units[$1], atTop: false)
          }
          keptThrough = k
        }
        if y > 0 && y + chain > body.height {
          newPage()
        }
      }
      var repeats = false
      if unit.kind == .tableRow, y == 0, let id = unit.tableID, var header = headers[id] {
        header.height = header.repeatHeight ?? header.height
        _ = place(header)
        repeats = true
      }
      if unit.kind == .tableHeader, let id = unit.tableID { headers[id] = unit }
      placements.append(UnitPlacement(page: page, top: place(unit), repeatsHeader: repeats))
    }
    return (placements, page + 1)
  }

  /// The unit's marks on the page, its top at `top`. A repeated header carries no link or anchor.
  static func place(
    _ unit: LayoutUnit, top: CGFloat, repeated: Bool, into marks: inout [EvidenceReportMark]
  ) {
    for mark in unit.marks {
      switch mark {
      case .text(let l):
        marks.append(
          .text(
            EvidenceReportLine(
              text: l.text, style: l.style, origin: CGPoint(x: l.origin.x, y: top + l.origin.y),
              width: l.width, height: l.height,
              role: l.role, element: l.element, row: l.row, column: l.column,
              link: repeated ? nil : l.link,
              anchor: repeated ? nil : l.anchor, isRepeat: repeated, language: l.language)))
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
    let titleLine =
      measuring.lines(of: title, style: .footer, width: frame.width - numberWidth - 20).first ?? ""
    return [
      .fill(CGRect(x: frame.minX, y: frame.minY + 6, width: frame.width, height: 0.5), .rule),
      .text(
        EvidenceReportLine(
          text: titleLine, style: .footer, origin: CGPoint(x: frame.minX, y: y),
          width: measuring.width(of: titleLine, style: .footer), height: lh, role: .footer,
          element: 0,
          row: nil, column: nil, link: nil, anchor: nil, isRepeat: false)),
      .text(
        EvidenceReportLine(
          text: number, style: .footer, origin: CGPoint(x: frame.maxX - numberWidth, y: y),
          width: numberWidth,
          height: lh, role: .footer, element: 0, row: nil, column: nil, link: nil, anchor: nil,
          isRepeat: false)),
    ]
  }
}
