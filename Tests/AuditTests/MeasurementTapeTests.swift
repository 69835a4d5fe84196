import Foundation
import ReportModel
import TestSupport
import XCTest

@testable import Audit
@testable import AuditDocuments
@testable import AuditRules
@testable import AuditScreens
@testable import AuditWording
@testable import ReportContent
@testable import ReportLayout

/// A measurer that counts the questions it is asked and rewrites some lines (as a hyphenating
/// measurer would), so that a line is not always a piece of its text.
final class CountingMeasurer: EvidenceReportTextMeasuring {
  let base = FixedWidthMeasurer()
  var questions = 0
  func lineHeight(of style: EvidenceReportTextStyle) -> CGFloat { base.lineHeight(of: style) }
  func width(of text: String, style: EvidenceReportTextStyle) -> CGFloat {
    questions += 1
    return base.width(of: text, style: style) + 0.25
  }
  func lines(of text: String, style: EvidenceReportTextStyle, width: CGFloat) -> [String] {
    questions += 1
    return base.lines(of: text, style: style, width: width).map {
      $0.hasPrefix("hyphen") ? $0 + "-" : $0
    }
  }
}

final class MeasurementTapeTests: XCTestCase {
  func testTheReplayGivesEveryAnswerTheRecordingGotWithoutAskingTheMeasurer() {
    let measurer = CountingMeasurer()
    let tape = MeasurementTape()
    let recording = MeasurementTape.Recording(base: measurer, tape: tape)
    let questions: [(String, CGFloat)] = [
      ("two  spaces between words that wrap somewhere in the middle", 60),
      ("a\n\nb after an empty line", 40),
      ("  leading spaces stay with the first line", 50),
      ("averyveryverylongwordthatisbrokeninsideitself", 30),
      ("Größe und Übergröße: Umlaute zählen als ein Zeichen", 45),
      ("hyphenated lines are not pieces of the text", 40),
      ("", 20), ("trailing spaces   ", 200), ("line\nfeeds\nonly", 500),
    ]
    var recorded: [[String]] = []
    var widths: [CGFloat] = []
    for (text, width) in questions {
      recorded.append(recording.lines(of: text, style: .body, width: width))
      widths.append(recording.width(of: text, style: .literal))
    }
    XCTAssertTrue(
      recorded.contains { $0.contains { $0.hasSuffix("-") } },
      "the fixture has a line that is not a piece of its text")
    let asked = measurer.questions
    let replay = MeasurementTape.Replay(tape, base: measurer)
    for (index, (text, width)) in questions.enumerated() {
      XCTAssertEqual(replay.lines(of: text, style: .body, width: width), recorded[index], text)
      XCTAssertEqual(replay.width(of: text, style: .literal), widths[index], text)
    }
    XCTAssertTrue(replay.isAtEnd)
    XCTAssertEqual(measurer.questions, asked, "the replay measured nothing")
  }

  func testPagesMadeOneAtATimeAreThoseOfTheWholeLayoutAndNoTextIsMeasuredTwice() throws {
    let bundle = try ReportFixture.bundle(flowCount: 200)
    let report = try EvidenceReport(
      bundle: bundle, capture: ReportFixture.capture(for: bundle).summary, limits: .bundled)
    let measurer = CountingMeasurer()
    let layout = EvidenceReportLayout(report: report, geometry: .a4, measuring: measurer)
    let afterPlanning = measurer.questions
    var numbers: [Int] = []
    var footers: [String] = []
    layout.forEachPage { page in
      numbers.append(page.number)
      footers += page.footer.compactMap {
        if case .text(let l) = $0, l.text.hasPrefix("page ") { return l.text }
        return nil
      }
    }
    XCTAssertGreaterThan(layout.pageCount, 3)
    XCTAssertEqual(numbers, Array(1...layout.pageCount))
    XCTAssertEqual(footers, (1...layout.pageCount).map { "page \($0) of \(layout.pageCount)" })
    // Only the footers are measured while the pages are made: two questions a page, and the title's line.
    XCTAssertLessThanOrEqual(measurer.questions - afterPlanning, 3 * layout.pageCount)
    XCTAssertEqual(layout.pages, layout.pages, "made again, the same pages")
  }
}
