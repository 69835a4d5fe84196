import Foundation

/// Placed pages as text, a line a placed line: where it is, its style, the link it makes or the
/// destination it is, and its text; what the golden files of the layout hold, beside the PDF
/// that draws the same pages.
public enum PlacedPagesText {
  public static func render(_ pages: some EvidenceReportPages) -> String {
    var text = "pages \(pages.pageCount)\n"
    pages.forEachPage { page in
      let sections = page.sectionsStarting.map(\.rawValue).joined(separator: ", ")
      text += "--- page \(page.number)\(sections.isEmpty ? "" : " (\(sections))")\n"
      for case .text(let l) in page.body {
        text +=
          "\(Int(l.origin.x)),\(Int(l.origin.y)) \(l.style.rawValue)\(l.isRepeat ? " repeat" : "")\(l.link.map { " →" + $0 } ?? "")\(l.anchor.map { " #" + $0 } ?? ""): \(l.text)\n"
      }
    }
    return text
  }
}
