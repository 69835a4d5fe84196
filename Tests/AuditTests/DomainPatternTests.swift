import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import ReportContent
import ReportLayout
import ReportModel
import XCTest

final class DomainPatternTests: XCTestCase {
  func testAnExactNameIsNormalisedToLowerCaseWithoutTrailingDot() throws {
    let pattern = try DomainPattern(parsing: "  API.Example-Health.DE. ")
    XCTAssertEqual(pattern.scope, .exact)
    XCTAssertEqual(pattern.name, "api.example-health.de")
    XCTAssertEqual(pattern.text, "api.example-health.de")
  }

  func testAWildcardPatternKeepsItsSuffixWithoutThePrefix() throws {
    let pattern = try DomainPattern(parsing: "*.Example.com")
    XCTAssertEqual(pattern.scope, .subdomains)
    XCTAssertEqual(pattern.name, "example.com")
    XCTAssertEqual(pattern.text, "*.example.com")
  }

  func testAWildcardCoversNamesBelowTheSuffixButNotTheNameItself() throws {
    let pattern = try DomainPattern(parsing: "*.example.com")
    XCTAssertTrue(pattern.matches("api.example.com"))
    XCTAssertTrue(pattern.matches("a.b.EXAMPLE.com."))
    XCTAssertFalse(pattern.matches("example.com"))
    XCTAssertFalse(pattern.matches("badexample.com"))
  }

  func testAnExactPatternCoversOnlyThatName() throws {
    let pattern = try DomainPattern(parsing: "example.com")
    XCTAssertTrue(pattern.matches("Example.com."))
    XCTAssertFalse(pattern.matches("api.example.com"))
  }

  func testEveryParseErrorHasItsOwnCase() {
    let cases: [(String, DomainPattern.ParseError)] = [
      ("", .empty),
      ("   ", .empty),
      ("*", .misplacedWildcard),
      ("api.*.example.com", .misplacedWildcard),
      ("*example.com", .misplacedWildcard),
      ("bücher.de", .nonASCII),
      ("a..b", .emptyLabel),
      (".example.com", .emptyLabel),
      ("*..com", .emptyLabel),
      ("*.", .misplacedWildcard),
      (
        String(repeating: "a", count: 64) + ".com", .labelTooLong(String(repeating: "a", count: 64))
      ),
      ((0..<64).map { _ in "abc" }.joined(separator: "."), .nameTooLong),
      ("https://api.example.com/v1", .invalidCharacter(":")),
      ("api.example.com:443", .invalidCharacter(":")),
      ("api example.com", .invalidCharacter(" ")),
    ]
    for (text, expected) in cases {
      XCTAssertThrowsError(try DomainPattern(parsing: text), "\(text)") { error in
        XCTAssertEqual(error as? DomainPattern.ParseError, expected, "\(text)")
      }
    }
  }

  func testANameOfExactly253CharactersIsAccepted() throws {
    let name = (0..<63).map { _ in "abc" }.joined(separator: ".") + ".a"  // 63*4-1 + 2 = 253
    XCTAssertEqual(name.count, 253)
    XCTAssertEqual(try DomainPattern(parsing: name).name, name)
  }

  func testAProjectFindsTheFirstEntryThatCoversAHost() throws {
    let project = AuditProject(
      id: 1, name: "P", bundleIdentifier: nil, catalogueVersion: nil,
      allowlist: [
        AllowlistEntry(pattern: try DomainPattern(parsing: "*.example.com"), note: "wide"),
        AllowlistEntry(pattern: try DomainPattern(parsing: "api.example.com"), note: "narrow"),
      ], createdAt: Date(timeIntervalSince1970: 0))
    XCTAssertEqual(project.allowlistEntry(matching: "api.example.com")?.note, "wide")
    XCTAssertNil(project.allowlistEntry(matching: "example.com"))
  }

  func testALabelCannotBeginOrEndWithAHyphenNorAWildcardCoverATopLevelDomain() {
    func refusal(_ text: String) -> DomainPattern.ParseError? {
      do {
        _ = try DomainPattern(parsing: text)
        return nil
      } catch { return error }
    }
    XCTAssertEqual(refusal("-x.com"), .hyphenAtLabelEdge("-x"))
    XCTAssertEqual(refusal("api.x-.com"), .hyphenAtLabelEdge("x-"))
    XCTAssertEqual(refusal("*.com"), .wildcardOverTopLevel("com"))
    XCTAssertNil(refusal("*.example.com"))
    XCTAssertNil(refusal("xn--bcher-kva.example"))
    XCTAssertTrue(
      AllowlistPresentation.sentence(for: .wildcardOverTopLevel("com"), pattern: "*.com")
        .contains("at least two labels"))
  }

  func testAHostIsLowerCasedWithoutATrailingDotAndOneAlreadySoIsGivenBackAsItIs() {
    XCTAssertEqual(DomainPattern.normalised(host: "api.example-health.de"), "api.example-health.de")
    XCTAssertEqual(DomainPattern.normalised(host: "API.Example.COM."), "api.example.com")
    XCTAssertEqual(DomainPattern.normalised(host: "example.com.."), "example.com")
    XCTAssertEqual(DomainPattern.normalised(host: "ÄRZTE.de"), "ärzte.de")
    XCTAssertEqual(DomainPattern.normalised(host: "."), ".")
    XCTAssertEqual(DomainPattern.normalised(host: ""), "")
  }
}
