import Foundation
import ReportModel

/// How a value — a host name, an address, a cipher suite, a JA4 fingerprint, a list of flow ids, a
/// digest, a table cell naming hosts — is broken into lines: at a space; a word wider than the line
/// only at its own separators, first after a dot that a letter follows (a host name's label; not an
/// instant's fraction of a second) or a slash, then, inside a run still too wide, after an
/// underscore or a hyphen; and only a run with none of them that is wider than the line inside it.
/// A line that ends inside a word ends with `continuationMark`, so that a reader copying the value
/// sees where it goes on, and the text keeps every character of the word, in order.
public enum LiteralLineBreaking {
  /// Set at the end of a line that a word goes on from.
  public static let continuationMark = "↵"

  /// The pieces a line may end after, first choice: each word, cut after its dots and slashes.
  public static func pieces(of word: Substring) -> [Substring] {
    cut(word) { word, index in
      switch word[index] {
      case "/": return true
      case ".":
        let next = word.index(after: index)
        return next < word.endIndex && word[next].isLetter
      default: return false
      }
    }
  }

  /// The pieces of a run `pieces` leaves too wide: cut after its underscores and hyphens.
  public static func finerPieces(of piece: Substring) -> [Substring] {
    cut(piece) { word, index in word[index] == "_" || word[index] == "-" }
  }

  /// The smallest pieces a word may be broken into: what a column must at least be wide for.
  public static func smallestPieces(of word: Substring) -> [Substring] {
    pieces(of: word).flatMap(finerPieces(of:))
  }

  static func cut(_ word: Substring, after: (Substring, Substring.Index) -> Bool) -> [Substring] {
    var pieces: [Substring] = []
    var start = word.startIndex
    for index in word.indices where after(word, index) {
      let end = word.index(after: index)
      guard end < word.endIndex else { continue }
      pieces.append(word[start..<end])
      start = end
    }
    if start < word.endIndex || pieces.isEmpty { pieces.append(word[start...]) }
    return pieces
  }

  /// A text of the style broken for a line of the width: values as here, prose as the measurer
  /// (the text shaper) breaks it.
  public static func lines(
    of text: String, style: EvidenceReportTextStyle, width: CGFloat,
    measuring: some EvidenceReportTextMeasuring
  ) -> [String] {
    guard style.keepsNamesWhole else {
      return measuring.lines(of: text, style: style, width: width)
    }
    return lines(of: text, width: width) { measuring.width(of: $0, style: style) }
  }

  public static func lines(of text: String, width: CGFloat, measure: (String) -> CGFloat)
    -> [String]
  {
    // Most values are one line that fits: no splitting, no copying.
    if !text.utf8.contains(0x0A), text.utf8.last != 0x20, measure(text) <= width { return [text] }
    var result: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if measure(String(paragraph)) <= width {
        result.append(String(paragraph.reversed().drop { $0 == " " }.reversed()))
        continue
      }
      var line = ""
      for word in paragraph.split(separator: " ") {
        let candidate = line.isEmpty ? String(word) : line + " " + word
        if measure(candidate) <= width {
          line = candidate
          continue
        }
        if !line.isEmpty { result.append(line) }
        line = String(word)
        guard measure(line) > width else { continue }
        line = ""
        breakWord(word, width: width, measure: measure, into: &result, line: &line)
      }
      result.append(line)
    }
    return result
  }

  /// A word wider than a line, broken at its separators, each line but its last marked; `line`
  /// is left holding the last, which the next word may join.
  static func breakWord(
    _ word: Substring, width: CGFloat, measure: (String) -> CGFloat, into result: inout [String],
    line: inout String
  ) {
    let mark = continuationMark
    // What a piece needs beside it: its mark, unless the word ends with it.
    func fits(_ text: String, last: Bool) -> Bool { measure(last ? text : text + mark) <= width }
    // The pieces to place: the coarse ones that fit a line of their own, the finer ones of
    // those that do not.
    let coarse = pieces(of: word)
    var placed: [Substring] = []
    for (index, piece) in coarse.enumerated() {
      let last = index == coarse.count - 1
      placed += fits(String(piece), last: last) ? [piece] : finerPieces(of: piece)
    }
    for (index, piece) in placed.enumerated() {
      let last = index == placed.count - 1
      if fits(line + piece, last: last) {
        line += piece
        continue
      }
      if !line.isEmpty { result.append(line + mark) }
      line = String(piece)
      // A run with no separator wider than a line: cut inside, each cut marked.
      while line.count > 1, !fits(line, last: last) {
        let fit = longestFittingPrefix(of: line, width: width - measure(mark), measure: measure)
        result.append(String(line.prefix(fit)) + mark)
        line = String(line.dropFirst(fit))
      }
    }
  }

  /// How many characters of the text fit the width (at least one).
  static func longestFittingPrefix(of text: String, width: CGFloat, measure: (String) -> CGFloat)
    -> Int
  {
    var fit = 1
    var low = 1
    var high = text.count - 1
    while low <= high {
      let mid = (low + high) / 2
      if measure(String(text.prefix(mid))) <= width {
        fit = mid
        low = mid + 1
      } else {
        high = mid - 1
      }
    }
    return fit
  }
}
