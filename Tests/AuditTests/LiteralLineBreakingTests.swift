import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Foundation
import ReportLayout
import XCTest

final class LiteralLineBreakingTests: XCTestCase {
  /// Five points a character.
  func lines(_ text: String, characters: Int) -> [String] {
    LiteralLineBreaking.lines(of: text, width: CGFloat(characters) * 5) { CGFloat($0.count) * 5 }
  }

  func testAHostNameBreaksAfterADotNeverAtAHyphen() {
    XCTAssertEqual(
      lines("analytics-serviceprovider.example-cdn.net", characters: 30),
      ["analytics-serviceprovider.", "example-cdn.net"])
  }

  func testAWordThatFitsALineMovesWholeToTheNext() {
    XCTAssertEqual(
      lines("6 hosts: node0.example-health.de, b.example.net", characters: 26),
      ["6 hosts:", "node0.example-health.de,", "b.example.net"])
  }

  func testAnInstantsFractionIsNoPlaceToBreak() {
    XCTAssertEqual(
      LiteralLineBreaking.pieces(of: "2026-10-06T11:05:03.419703Z"), ["2026-10-06T11:05:03.419703Z"]
    )
    XCTAssertEqual(LiteralLineBreaking.pieces(of: "a.b-c.de"), ["a.", "b-c.", "de"])
  }

  func testARunWiderThanALineIsCutInsideAndNothingIsLost() {
    let name = String(repeating: "x", count: 23) + ".example"
    let broken = lines(name, characters: 10)
    XCTAssertEqual(broken, ["xxxxxxxxxx", "xxxxxxxxxx", "xxx.", "example"])
    XCTAssertEqual(broken.joined(), name)
  }

  func testProseIsLeftToTheShaper() {
    let m = FixedWidthProse()
    XCTAssertEqual(
      LiteralLineBreaking.lines(of: "user-installed root", style: .body, width: 50, measuring: m),
      ["asked"])
    XCTAssertEqual(
      LiteralLineBreaking.lines(
        of: "user-installed root", style: .tableCell, width: 75, measuring: m),
      ["user-installed", "root"])
  }
}

/// Answers "asked" whenever the shaper is asked to break.
private struct FixedWidthProse: EvidenceReportTextMeasuring {
  func lineHeight(of style: EvidenceReportTextStyle) -> CGFloat { 10 }
  func width(of text: String, style: EvidenceReportTextStyle) -> CGFloat { CGFloat(text.count) * 5 }
  func lines(of text: String, style: EvidenceReportTextStyle, width: CGFloat) -> [String] {
    ["asked"]
  }
}

final class EvidenceReportWordingTests: XCTestCase {
  /// A group of findings is one statement: its short form, a heading, must not be another's.
  func testEachStatementHasAShortFormOfItsOwn() {
    let evidence = FindingsChecks.all.flatMap { $0.statedForms }
    XCTAssertGreaterThanOrEqual(evidence.count, 10)
    var shortByStatement: [String: String] = [:]
    var statementByShort: [String: String] = [:]
    for e in evidence {
      let statement = EvidenceWording.statement(of: e, minimum: .tls12)
      let short = EvidenceWording.shortStatement(e)
      XCTAssertEqual(shortByStatement.updateValue(short, forKey: statement) ?? short, short)
      XCTAssertEqual(statementByShort.updateValue(statement, forKey: short) ?? statement, statement)
    }
    XCTAssertEqual(Set(shortByStatement.values).count, shortByStatement.count)
  }
}
