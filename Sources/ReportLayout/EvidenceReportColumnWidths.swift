import Foundation
import ReportModel

/// Column widths from natural widths.
public enum EvidenceReportColumnWidths {
  /// Proportional shares of the natural widths.
  public static func shares(natural: [CGFloat], into available: CGFloat) -> [CGFloat] {
    let total = natural.reduce(0, +)
    guard total > 0 else { return natural.map { _ in available / CGFloat(max(1, natural.count)) } }
    return natural.map { available * $0 / total }
  }

  /// Natural widths when they fit, the room left shared in proportion; otherwise shares.
  public static func filling(natural: [CGFloat], into available: CGFloat) -> [CGFloat] {
    let total = natural.reduce(0, +)
    guard total <= available, total > 0 else { return shares(natural: natural, into: available) }
    return natural.map { $0 + (available - total) * $0 / total }
  }

  /// When the longest words alone do not fit: the widest are cut to one common width, so that
  /// each narrower column keeps its longest word (a word of sixty thousand letters — a server
  /// name is anyone's to choose — must not squeeze a finding's identifier to nothing; the cut
  /// words break inside, as `lines` does).
  public static func capped(_ widths: [CGFloat], into available: CGFloat) -> [CGFloat] {
    var rest = available
    var left = widths.count
    for width in widths.sorted() {
      let fair = rest / CGFloat(left)
      if width > fair { return widths.map { min($0, fair) } }
      rest -= width
      left -= 1
    }
    return widths
  }

  /// Min/max-content: each column gets its longest word, and the room up to its whole content
  /// is shared in proportion to what each still wants.
  public static func automatic(minimum: [CGFloat], maximum: [CGFloat], into available: CGFloat)
    -> [CGFloat]
  {
    let maximum = zip(minimum, maximum).map { max($0, $1) }
    let sumMax = maximum.reduce(0, +)
    let sumMin = minimum.reduce(0, +)
    if sumMax <= available { return filling(natural: maximum, into: available) }
    if sumMin >= available { return capped(minimum, into: available) }
    // A column whose whole content is narrower than an even share is set whole, so that a short
    // value (a count, a link) does not wrap while a long one beside it can take the room.
    let fair = available / CGFloat(maximum.count)
    let whole = maximum.indices.filter { maximum[$0] <= fair }
    let rest = available - whole.reduce(0) { $0 + maximum[$1] }
    let others = maximum.indices.filter { maximum[$0] > fair }
    if !whole.isEmpty, !others.isEmpty, rest >= others.reduce(0, { $0 + minimum[$1] }) {
      let shared = automatic(
        minimum: others.map { minimum[$0] }, maximum: others.map { maximum[$0] }, into: rest)
      var widths = maximum
      for (k, i) in others.enumerated() { widths[i] = shared[k] }
      return widths
    }
    let want = zip(minimum, maximum).map { $1 - $0 }
    let wantTotal = want.reduce(0, +)
    return zip(minimum, want).map { $0 + (available - sumMin) * $1 / wantTotal }
  }
}
