import Audit
import AuditRules
import AuditWording
import Foundation
import ReportModel

/// A measurer in which every character is `characterWidth` points wide: pagination is asserted
/// with it, rather than by looking at a PDF. Lines break at spaces, a word too long for a line
/// inside the word.
public struct FixedWidthMeasurer: EvidenceReportTextMeasuring {
  public let characterWidth: CGFloat
  public init(characterWidth: CGFloat = 5) { self.characterWidth = characterWidth }

  public func lineHeight(of style: EvidenceReportTextStyle) -> CGFloat {
    switch style {
    case .title: return 22
    case .sectionHeading: return 18
    case .heading, .subtitle: return 14
    case .footer, .tableHeader, .tableCell, .tableLiteral: return 10
    default: return 12
    }
  }

  public func width(of text: String, style: EvidenceReportTextStyle) -> CGFloat {
    CGFloat(text.count) * characterWidth
  }

  public func lines(of text: String, style: EvidenceReportTextStyle, width: CGFloat) -> [String] {
    let perLine = max(1, Int(width / characterWidth))
    var result: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var line = ""
      for word in paragraph.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
      {
        var word = word
        let candidate = line.isEmpty ? word : line + " " + word
        if candidate.count <= perLine {
          line = candidate
          continue
        }
        if !line.isEmpty {
          result.append(line)
          line = ""
        }
        while word.count > perLine {
          result.append(String(word.prefix(perLine)))
          word = String(word.dropFirst(perLine))
        }
        line = word
      }
      result.append(line)
    }
    return result
  }
}
