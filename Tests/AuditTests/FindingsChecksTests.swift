import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Foundation
import ReportContent
import ReportLayout
import ReportModel
import TestSupport
import XCTest

/// The registry of checks: what makes a new check one unit holds for every check there is.
final class FindingsChecksTests: XCTestCase {
  func testEveryCheckHasItsWordingAndAUniqueName() {
    XCTAssertTrue(CheckWordings.coversEveryCheck)
    let names = FindingsCheck.allCases.map(\.rawValue)
    XCTAssertEqual(Set(names).count, names.count)
    // A check's name is a findings.json key: a lower camel-case identifier.
    for name in names {
      XCTAssertTrue(name.first?.isLowercase == true && name.allSatisfy(\.isLetter), name)
    }
    XCTAssertEqual(names, FindingsChecks.all.map { $0.check.rawValue }, "in the order they run")
  }

  func testEveryKindBelongsToTheCheckThatListsItAndIsFoundByItsName() {
    for check in FindingsChecks.all {
      for kind in check.kinds {
        XCTAssertEqual(kind.check, check.check, kind.rawValue)
        XCTAssertEqual(FindingKind(rawValue: kind.rawValue), kind)
      }
    }
    let names = FindingKind.allCases.map(\.rawValue)
    XCTAssertEqual(Set(names).count, names.count, "no two checks state the same kind")
    XCTAssertNil(FindingKind(rawValue: "weakCipherSuite"), "only a check's kinds exist")
  }

  func testEveryStatedFormIsOfAKindOfItsCheckAndEveryKindHasAForm() {
    for check in FindingsChecks.all {
      let formKinds = Set(check.statedForms.map(\.kind))
      XCTAssertEqual(formKinds, Set(check.kinds), "\(check.check)")
    }
  }

  func testEveryFormHasAStatementAShortStatementAndEveryCheckAName() {
    for form in FindingsChecks.all.flatMap({ $0.statedForms }) {
      XCTAssertFalse(EvidenceWording.statement(of: form, minimum: .tls12).isEmpty)
      XCTAssertFalse(EvidenceWording.shortStatement(form).isEmpty)
    }
    let headings = FindingsCheck.allCases.map(EvidenceWording.checkName)
    XCTAssertEqual(Set(headings).count, headings.count, "each check its own heading")
    for heading in headings {
      XCTAssertTrue(heading.first?.isUppercase == true && !heading.hasSuffix("."), heading)
    }
  }

  /// Inside a sentence a check's name is lower case, but for its acronyms.
  func testACheckNamedInsideASentenceKeepsItsAcronyms() {
    let nouns = FindingsCheck.allCases.map { CheckWordings.of($0).noun }
    for noun in nouns {
      XCTAssertFalse(noun.contains("tls") || noun.contains("http"), noun)
      XCTAssertEqual(noun.first?.isLowercase == true, !noun.hasPrefix("TLS"), noun)
    }
    XCTAssertEqual(CheckWordings.of(.tlsVersion).noun, "TLS version")
    XCTAssertEqual(CheckWordings.of(.host).noun, "host")
    XCTAssertEqual(CheckWordings.of(.mutualAuthentication).noun, "mutual authentication")
  }

  func testSeveralChecksAreNamedTogetherInASentence() {
    XCTAssertEqual(EvidenceWording.checksNoun([.host]), "host check")
    XCTAssertEqual(
      EvidenceWording.checksNoun([.tlsVersion, .encryption, .host]),
      "TLS version, encryption and host checks")
  }
}

extension FindingsChecksTests {
  func testHowManyChecksThereAreIsSaidFromTheChecks() {
    XCTAssertEqual(
      EvidenceWording.eachCheck,
      "each of the \(Quantity.spelled(FindingsChecks.all.count)) checks")
    XCTAssertEqual(Quantity.spelled(11), "eleven")
    XCTAssertEqual(Quantity.spelled(12), "twelve")
    XCTAssertEqual(Quantity.spelled(13), "13")
  }
}

extension FindingsChecksTests {
  /// The lists are written by scripts/list-checks.py: a check file it has not listed, or a list
  /// out of run order, means the script was not run.
  func testTheListsOfChecksAreTheCheckFilesInRunOrder() throws {
    let sources = Golden.directory().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Sources")
    func declared(_ directory: String, _ conformance: String) throws -> Set<String> {
      let folder = sources.appendingPathComponent(directory)
      let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      return Set(
        try files.filter { $0.hasSuffix(".swift") }.compactMap { file in
          let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
          let line = text.split(separator: "\n").first {
            $0.hasPrefix("public enum ") && $0.hasSuffix(": \(conformance) {")
          }
          return line.map { String($0.dropFirst(12).prefix { $0 != ":" }) }
        })
    }
    let rules = FindingsChecks.all.map { String(describing: $0) }
    let run = "run scripts/list-checks.py"
    XCTAssertEqual(
      Set(rules), try declared("AuditRules/Findings/Checks", "FindingsCheckRule"), run)
    let orders = FindingsChecks.all.map { $0.runOrder }
    XCTAssertEqual(orders, orders.sorted(), run)
    XCTAssertEqual(Set(orders).count, orders.count, "each check its own place")
    let wordings = try declared("AuditWording/Checks", "CheckWording")
    XCTAssertEqual(
      Set(FindingsCheck.allCases.map { String(describing: CheckWordings.of($0)) }), wordings, run)
    XCTAssertTrue(CheckWordings.coversEveryCheck, run)
  }
}
