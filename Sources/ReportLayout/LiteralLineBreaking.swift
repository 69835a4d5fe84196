import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Foundation

/// How a value — a host name, an address, a list of flow ids, a digest, a table cell naming
/// hosts — is broken into lines: at a space, else after a dot that a letter follows (a host name's label; not an
/// instant's fraction of a second), and only a run with neither that is wider than the line
/// inside it. Never at a hyphen, as a text shaper would: a host name then stays whole up to its
/// dots, and a search of the text finds it.
public enum LiteralLineBreaking {
  /// The pieces a line may end after: each word, cut after its dots.
  public static func pieces(of word: Substring) -> [Substring] {
    var pieces: [Substring] = []
    var start = word.startIndex
    for index in word.indices where word[index] == "." {
      let end = word.index(after: index)
      guard end < word.endIndex, word[end].isLetter else { continue }
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
        // A word wider than a line: cut after its dots, and a run still too wide inside.
        line = ""
        for piece in pieces(of: word) {
          let candidate = line + piece
          if measure(candidate) <= width {
            line = candidate
            continue
          }
          if !line.isEmpty { result.append(line) }
          line = String(piece)
          while line.count > 1, measure(line) > width {
            let fit = longestFittingPrefix(of: line, width: width, measure: measure)
            result.append(String(line.prefix(fit)))
            line = String(line.dropFirst(fit))
          }
        }
      }
      result.append(line)
    }
    return result
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
