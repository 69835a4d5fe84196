import Audit
import AuditDocuments
import AuditRules
import AuditWording

/// Rows of cells as lines of aligned columns: each column as wide as its widest cell (or a given
/// minimum), two spaces between columns, the last cell of a row unpadded and trailing spaces
/// trimmed. Every listing the commands print aligns this way.
public struct TextColumns: Sendable {
  public var rightAligned: Set<Int>
  public var minimumWidths: [Int: Int]
  /// Columns whose cells are cut to this many characters, the last an ellipsis: a name anyone
  /// can choose (a 65,000-character SNI) cannot pad every row of a listing.
  public var maximumWidths: [Int: Int]

  public init(
    rightAligned: Set<Int> = [], minimumWidths: [Int: Int] = [:], maximumWidths: [Int: Int] = [:]
  ) {
    self.rightAligned = rightAligned
    self.minimumWidths = minimumWidths
    self.maximumWidths = maximumWidths
  }

  public func lines(_ rows: [[String]]) -> [String] {
    // A cell is one line: a name in it cannot break the table.
    let rows = rows.map { row in
      row.enumerated().map { column, text in
        let cell = TerminalText.inline(text)
        guard let most = maximumWidths[column], cell.count > most else { return cell }
        return String(cell.prefix(max(0, most - 1))) + "…"
      }
    }
    var widths: [Int] = []
    for row in rows {
      for (column, cell) in row.enumerated() {
        if column == widths.count { widths.append(minimumWidths[column] ?? 0) }
        widths[column] = max(widths[column], cell.count)
      }
    }
    return rows.map { row in
      row.enumerated().map { column, cell in
        guard column < row.count - 1 || rightAligned.contains(column) else { return cell }
        let fill = String(repeating: " ", count: widths[column] - cell.count)
        return rightAligned.contains(column) ? fill + cell : cell + fill
      }.joined(separator: "  ").trailingSpacesTrimmed()
    }
  }
}
