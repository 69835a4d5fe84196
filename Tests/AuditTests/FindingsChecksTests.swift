import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import ReportLayout
import XCTest

/// The registry of checks: what makes a new check one unit holds for every check there is.
final class FindingsChecksTests: XCTestCase {
  func testEveryCheckHasItsWordingAndAUniqueName() {
    XCTAssertTrue(CheckWordings.coversEveryCheck)
    let names = FindingsCheck.allCases.map(\.rawValue)
    XCTAssertEqual(Set(names).count, names.count)
    XCTAssertEqual(
      names,
      [
        "tlsVersion", "tlsParameters", "encryption", "host", "pinning", "certificateValidation",
        "consent", "tlsClient", "trackers", "consentWithdrawal",
      ])
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
    XCTAssertEqual(
      FindingsCheck.allCases.map(EvidenceWording.checkName),
      [
        "TLS version", "TLS parameters", "Encryption", "Host", "Certificate pinning",
        "Certificate validation", "Consent", "TLS client", "Trackers", "Consent withdrawal",
      ])
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
    XCTAssertEqual(EvidenceWording.eachCheck, "each of the ten checks")
    XCTAssertEqual(Quantity.spelled(12), "twelve")
    XCTAssertEqual(Quantity.spelled(13), "13")
  }
}
