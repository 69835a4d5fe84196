import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import ReportContent
import ReportLayout
import ReportModel
import XCTest

final class TerminalTextTests: XCTestCase {
  func testControlCharactersAreShownAsWhatTheyAreAndTheLayoutsOwnStay() {
    XCTAssertEqual(TerminalText.visible("api.example.com"), "api.example.com")
    XCTAssertEqual(TerminalText.visible("line\n\tnext"), "line\n\tnext")
    XCTAssertEqual(TerminalText.visible("evil\u{1B}[2Jhost"), "evil\\x1B[2Jhost")
    XCTAssertEqual(
      TerminalText.visible("a\u{7}b\rc\u{0}d\u{7F}e\u{9B}f"), "a\\x07b\\x0Dc\\x00d\\x7Fe\\x9Bf")
    XCTAssertEqual(
      TerminalText.visible("moc.elpmaxe\u{202E}abc\u{2066}"), "moc.elpmaxe\\u{202E}abc\\u{2066}")
    XCTAssertEqual(TerminalText.visible("Ünïcödé 🩺 — “quotes”"), "Ünïcödé 🩺 — “quotes”")
  }

  func testNoControlCharacterButLineFeedAndTabSurvives() {
    let everything = String(String.UnicodeScalarView((0...0x2070).compactMap(Unicode.Scalar.init)))
    for scalar in TerminalText.visible(everything).unicodeScalars {
      let v = scalar.value
      XCTAssertFalse(v < 0x20 && v != 0x09 && v != 0x0A, "U+\(String(v, radix: 16))")
      XCTAssertFalse(
        (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v),
        "U+\(String(v, radix: 16))")
    }
  }

  func testANameCannotStartALineOfItsOwnNorBreakOneElsewhere() {
    let sni = "a\nb.example  ✓ Every check holds."
    XCTAssertEqual(TerminalText.inline(sni), "a\\x0Ab.example  ✓ Every check holds.")
    XCTAssertEqual(TerminalText.inline("tab\there"), "tab\\x09here")
    XCTAssertEqual(TerminalText.inline("plain.example.com"), "plain.example.com")
    XCTAssertEqual(TerminalText.visible("a\u{2028}b\u{2029}c\rd"), "a\\u{2028}b\\u{2029}c\\x0Dd")
    let table = TextColumns().lines([["F1", sni], ["F2", "ok"]])
    XCTAssertEqual(table.count, 2, "a name in a cell stays in its row")
    XCTAssertFalse(table.joined(separator: "\n").contains("\n  ✓"))
    let check = VerificationCheck(statement: "Entries hold.", problems: ["entry “x\n  ✓ forged”"])
    XCTAssertEqual(
      VerifyPresentation.text(path: "b.zip", [check]).split(separator: "\n").count, 4,
      "the heading, the check, its one problem, the outcome")
  }
}
