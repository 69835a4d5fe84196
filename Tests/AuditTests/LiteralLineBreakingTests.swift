import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Foundation
import ReportContent
import ReportLayout
import ReportModel
import XCTest

final class LiteralLineBreakingTests: XCTestCase {
  /// Five points a character.
  func lines(_ text: String, characters: Int) -> [String] {
    LiteralLineBreaking.lines(of: text, width: CGFloat(characters) * 5) { CGFloat($0.count) * 5 }
  }

  func testAHostNameBreaksAfterADotBeforeAHyphenAndSaysItGoesOn() {
    XCTAssertEqual(
      lines("analytics-serviceprovider.example-cdn.net", characters: 30),
      ["analytics-serviceprovider.↵", "example-cdn.net"])
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
    XCTAssertEqual(
      LiteralLineBreaking.smallestPieces(of: "a.b-c.d_e/f"), ["a.", "b-", "c.", "d_", "e/", "f"])
  }

  func testACipherSuiteAndAFingerprintBreakOnlyAfterTheirUnderscores() {
    XCTAssertEqual(
      lines("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", characters: 20),
      ["TLS_ECDHE_RSA_WITH_↵", "AES_128_GCM_SHA256"])
    XCTAssertEqual(
      lines("t13d0507h2_97f579648e2a_5e00522b5d91", characters: 14),
      ["t13d0507h2_↵", "97f579648e2a_↵", "5e00522b5d91"])
  }

  func testEveryLineFitsAndTheWordComesBackWholeWithoutItsMarks() {
    let words = [
      "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", "t13d1516h2_8daaf6152771_e5627efa2ab1",
      "old-gateway.example-health.de", "||pixel.example-tracker.com^",
      "/usr/share/publicsuffix/public_suffix_list.dafsa",
      String(repeating: "x", count: 40) + ".example",
    ]
    for word in words {
      for characters in 6...48 {
        let broken = lines(word, characters: characters)
        XCTAssertTrue(broken.allSatisfy { $0.count <= characters }, "\(broken) in \(characters)")
        XCTAssertTrue(broken.dropLast().allSatisfy { $0.hasSuffix("↵") }, "\(broken)")
        XCTAssertFalse(broken.last?.hasSuffix("↵") ?? true)
        XCTAssertEqual(broken.joined().replacingOccurrences(of: "↵", with: ""), word)
      }
    }
  }

  func testARunWiderThanALineIsCutInsideAndNothingIsLost() {
    let name = String(repeating: "x", count: 23) + ".example"
    let broken = lines(name, characters: 10)
    XCTAssertEqual(broken, ["xxxxxxxxx↵", "xxxxxxxxx↵", "xxxxx.↵", "example"])
    XCTAssertEqual(broken.joined().replacingOccurrences(of: "↵", with: ""), name)
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
