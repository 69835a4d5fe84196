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

final class RequirementCatalogueTests: XCTestCase {
  var repository: URL { Golden.directory().deletingLastPathComponent().deletingLastPathComponent() }

  func testTheBundledCatalogueIsTheFileInCataloguesByteForByte() throws {
    for identifier in ["owasp-masvs-2", "tr-03161-1_3.0"] {
      let file = repository.appendingPathComponent("Catalogues/\(identifier).json")
      XCTAssertEqual(
        RequirementCatalogueLibrary.data(identifier: identifier), try Data(contentsOf: file),
        "run scripts/embed-catalogues.py after editing Catalogues/")
    }
    XCTAssertEqual(RequirementCatalogueLibrary.identifiers, ["owasp-masvs-2", "tr-03161-1_3.0"])
  }

  func testTheBundledCatalogueHasTheSpecsRulesAndTheDocumentsShortForms() throws {
    let catalogue = try RequirementCatalogueLibrary.catalogue(
      identifier: RequirementCatalogueLibrary.defaultIdentifier)
    XCTAssertEqual(
      catalogue.requirements.map(\.id),
      ["O.Purp_3", "O.Purp_4", "O.Purp_5", "O.Purp_7", "O.Purp_8", "O.TrdP_6"]
        + (1...8).map { "O.Ntwk_\($0)" })
    XCTAssertEqual(catalogue.policy.minimumTLSVersion, .tls12)
    XCTAssertEqual(catalogue.source.version, "3.0")
    XCTAssertEqual(catalogue.source.date, "2024-03-25")
    XCTAssertEqual(catalogue.tlsSource.version, "2025-01")
    XCTAssertEqual(catalogue.tlsSource.date, "2025-01-21")
    let rules = Dictionary(uniqueKeysWithValues: catalogue.requirements.map { ($0.id, $0.rule) })
    XCTAssertEqual(
      rules["O.Purp_3"],
      .contraryFindings([.activityBeforeConsent, .trackerBeforeConsent, .personalDataBeforeConsent])
    )
    XCTAssertEqual(rules["O.Purp_4"], .contraryFindings([.personalDataBeforeConsent]))
    XCTAssertEqual(
      rules["O.Purp_5"],
      .contraryFindings([.thirdPartyAfterWithdrawal, .personalDataAfterWithdrawal]))
    XCTAssertEqual(rules["O.Purp_7"], .contraryFindings([.trackerHost]))
    XCTAssertEqual(
      rules["O.Purp_8"],
      .contraryFindings([
        .hostNotInAllowlist, .unnamedFlow, .trackerHost, .personalDataToThirdParty,
      ]))
    XCTAssertEqual(rules["O.TrdP_6"], .contraryFindings([.personalDataToThirdParty]))
    XCTAssertEqual(
      rules["O.Ntwk_1"],
      .contraryAndSupportingFindings(
        contrary: [.cleartextTraffic, .personalDataInCleartext],
        supporting: [.clientCertificateSent]))
    XCTAssertEqual(
      rules["O.Ntwk_2"],
      .contraryFindings([
        .weakTLSVersion, .cipherSuiteNotRecommended, .groupNotRecommended,
        .signatureNotRecommended, .keyBelowMinimum, .extensionMissing, .featureAdvisedAgainst,
        .serverOffersNotRecommended,
      ]))
    XCTAssertEqual(rules["O.Ntwk_3"], .contraryFindings([.tlsClientNotInBaseline]))
    XCTAssertEqual(
      rules["O.Ntwk_4"],
      .contraryAndSupportingFindings(
        contrary: [
          .pinningAbsent, .certificateNotValidated, .hostNameNotVerified, .expiryNotChecked,
        ],
        supporting: [.pinningObserved]))
    XCTAssertEqual(
      rules["O.Ntwk_5"],
      .contraryAndSupportingFindings(
        contrary: [.certificateNotValidated, .hostNameNotVerified, .expiryNotChecked],
        supporting: [.certificateValidationObserved]))
    XCTAssertEqual(
      rules["O.Ntwk_7"],
      .contraryAndSupportingFindings(contrary: [.userCATrusted], supporting: [.userCARefused]))
    for id in ["O.Ntwk_6", "O.Ntwk_8"] {
      XCTAssertEqual(rules[id], .outsideToolScope, id)
    }
    for r in catalogue.requirements where r.rule.readsFindings {
      XCTAssertNotNil(r.toolCoverage, r.id)
    }
    XCTAssertEqual(
      catalogue.requirements.map(\.testDepth),
      [.check, .check, .check, .check, .check, .examine] + Array(repeating: .examine, count: 7)
        + [.check])
    XCTAssertEqual(
      Set(catalogue.requirements.map(\.aspect)),
      [
        RequirementAspect(number: 1, name: "Anwendungszweck"),
        RequirementAspect(number: 4, name: "Drittanbieter-Software"),
        RequirementAspect(number: 9, name: "Netzwerkkommunikation"),
      ])
  }

  /// Every title is the document's own short form: it appears in the reference text (line breaks aside).
  func testEveryTitleIsQuotedFromTheReferenceDocument() throws {
    let reference = repository.deletingLastPathComponent().appendingPathComponent(
      "shared/reference/BSI-TR-03161-1.txt")
    guard let text = try? String(contentsOf: reference, encoding: .utf8) else {
      throw XCTSkip("shared/reference is not beside the repository")
    }
    let catalogue = try RequirementCatalogueLibrary.catalogue(identifier: "tr-03161-1_3.0")
    // The short-form column of Tabelle 4 and 12, per requirement: the words between the id and the test depth.
    let lines = text.components(separatedBy: "\n")
    for requirement in catalogue.requirements {
      guard
        let start = lines.firstIndex(where: {
          $0.hasPrefix(" \(requirement.id) ") && ($0.contains("CHECK") || $0.contains("EXAMINE"))
        })
      else {
        return XCTFail("\(requirement.id) is not in the tables")
      }
      var words: [String] = []
      for (offset, line) in lines[start...].enumerated() {
        if line.trimmingCharacters(in: .whitespaces).isEmpty
          || (offset > 0 && line.hasPrefix(" O."))
        {
          break
        }
        var body = Substring(line)
        // the identifier
        if offset == 0 { body = body.drop(while: { $0 == " " }).drop(while: { $0 != " " }) }
        let indent = body.prefix(while: { $0 == " " }).count
        if offset > 0 && indent > 25 { continue }  // only the remarks column on this line
        let text = body.drop(while: { $0 == " " })
        let chunk = text.range(of: "   ").map { String(text[..<$0.lowerBound]) } ?? String(text)
        words.append(chunk)
      }
      let joined = words.joined(separator: " ").replacingOccurrences(of: "- ", with: "-")
        .replacingOccurrences(of: "  ", with: " ").trimmingCharacters(in: .whitespaces)
      XCTAssertTrue(
        joined.replacingOccurrences(of: " ", with: "").hasPrefix(
          requirement.title.replacingOccurrences(of: " ", with: "")),
        "\(requirement.id): “\(requirement.title)” vs “\(joined)”")
      XCTAssertTrue(lines[start].contains(requirement.testDepth?.rawValue ?? "—"), requirement.id)
    }
  }

  func testEachCitedDigestIsTheSHA256OfTheReferencePDF() throws {
    let dir = repository.deletingLastPathComponent().appendingPathComponent("shared/reference")
    let catalogue = try RequirementCatalogueLibrary.catalogue(identifier: "tr-03161-1_3.0")
    for (source, file) in [
      (catalogue.source, "BSI-TR-03161-1.pdf"), (catalogue.tlsSource, "BSI-TR-02102-2.pdf"),
    ] {
      let path = dir.appendingPathComponent(file).path
      guard FileManager.default.fileExists(atPath: path) else {
        throw XCTSkip("\(file) is not beside the repository")
      }
      let result = try XCTUnwrap(ExternalTool.run("sha256sum", [path]))
      XCTAssertEqual(String(result.output.prefix(64)), source.sha256, file)
    }
  }

  // MARK: Refusals, one test each

  func base() -> [String: Any] {
    try! JSONSerialization.jsonObject(
      with: RequirementCatalogueLibrary.data(identifier: "tr-03161-1_3.0")!) as! [String: Any]
  }
  func refuse(_ edit: (inout [String: Any]) -> Void, line: UInt = #line)
    -> RequirementCatalogueError?
  {
    var object = base()
    edit(&object)
    let data = try! JSONSerialization.data(withJSONObject: object)
    do {
      _ = try RequirementCatalogue(data: data)
      XCTFail("accepted", line: line)
      return nil
    } catch { return error }
  }
  /// Edits the requirement of that id (by id: a requirement added to the catalogue shifts
  /// none of these tests).
  func editRequirement(_ id: String, _ edit: @escaping (inout [String: Any]) -> Void) -> (
    inout [String: Any]
  ) -> Void {
    { object in
      var list = object["requirements"] as! [[String: Any]]
      let index = list.firstIndex { $0["id"] as? String == id }!
      edit(&list[index])
      object["requirements"] = list
    }
  }

  func testNotJSONIsRefusedNamingTheLineAndColumnOfTheMistake() {
    func refusal(_ text: String) -> RequirementCatalogueError? {
      do {
        _ = try RequirementCatalogue(data: Data(text.utf8))
        return nil
      } catch { return error }
    }
    XCTAssertEqual(
      refusal("{ nope"),
      .notJSON(
        "it is not valid JSON: a member name missing (a trailing comma?) at line 1, column 3"))
    // A trailing comma after the last member of an otherwise valid catalogue: Foundation's parser lets it pass.
    let text = String(
      decoding: RequirementCatalogueLibrary.data(identifier: "tr-03161-1_3.0")!, as: UTF8.self)
    let body = text.trimmingCharacters(in: .whitespacesAndNewlines)
    XCTAssertTrue(body.hasSuffix("]\n}"))
    let lines = body.components(separatedBy: "\n").count
    XCTAssertEqual(
      refusal(String(body.dropLast(2)) + ",\n}"),
      .notJSON(
        "it is not valid JSON: a member name missing (a trailing comma?) at line \(lines), column 1"
      ))
    XCTAssertEqual(refusal("[1, 2]"), .notJSON("the top level is not an object"))
  }
  func testAnotherFormatVersionIsRefusedShowingTheValueAsTheFileWritesIt() {
    XCTAssertEqual(refuse { $0["formatVersion"] = 2 }, .formatVersion(found: "2"))
    XCTAssertEqual(refuse { $0["formatVersion"] = nil }, .formatVersion(found: nil))
    XCTAssertEqual(refuse { $0["formatVersion"] = "1" }, .formatVersion(found: "\"1\""))
    XCTAssertEqual(refuse { $0["formatVersion"] = true }, .formatVersion(found: "true"))
    XCTAssertEqual(refuse { $0["formatVersion"] = [String: Any]() }, .formatVersion(found: "{}"))
  }
  func testASourcesLanguageIsATagOrAbsent() throws {
    XCTAssertEqual(
      try RequirementCatalogueLibrary.catalogue(identifier: "tr-03161-1_3.0").source.language, "de")
    XCTAssertEqual(
      refuse { root in
        var source = root["source"] as! [String: Any]
        source["language"] = "German"
        root["source"] = source
      }, .invalidLanguage("German", field: "source.language"))
    XCTAssertEqual(
      RequirementCatalogueError.invalidLanguage("German", field: "source.language").description,
      "source.language is “German”, which is not a language tag such as “de” or “de-CH”.")
    var object = try XCTUnwrap(
      JSONSerialization.jsonObject(
        with: RequirementCatalogueLibrary.data(identifier: "tr-03161-1_3.0")!) as? [String: Any])
    var source = object["source"] as! [String: Any]
    source["language"] = nil
    object["source"] = source
    let unmarked = try RequirementCatalogue(data: JSONSerialization.data(withJSONObject: object))
    XCTAssertNil(unmarked.source.language, "a catalogue that does not say is not marked")
  }
  func testAnEmptyIdentifierIsRefused() {
    XCTAssertEqual(
      refuse { $0["identifier"] = " " }, .emptyField(field: "identifier", requirement: nil))
  }
  func testAnEmptySourceFieldIsRefused() {
    XCTAssertEqual(
      refuse {
        var s = $0["source"] as! [String: Any]
        s["title"] = ""
        $0["source"] = s
      }, .emptyField(field: "source.title", requirement: nil))
  }
  func testAnEmptyRequirementTitleIsRefusedNamingTheRequirement() {
    XCTAssertEqual(
      refuse(editRequirement("O.Ntwk_2") { $0["title"] = "" }),
      .emptyField(field: "title", requirement: "O.Ntwk_2"))
  }
  func testADateThatIsNotYearMonthDayIsRefused() {
    for date in ["25.03.2024", "2024-3-25", "2024-02-30", "2024-13-01", "2024-13", "2024-1"] {
      XCTAssertEqual(
        refuse {
          var s = $0["source"] as! [String: Any]
          s["date"] = date
          $0["source"] = s
        }, .invalidDate(date, field: "source.date"), date)
    }
  }
  func testADigestThatIsNot64LowerCaseHexDigitsIsRefused() {
    for digest in [
      String(repeating: "A", count: 64), String(repeating: "a", count: 63),
      String(repeating: "g", count: 64),
    ] {
      XCTAssertEqual(
        refuse {
          var t = $0["tls"] as! [String: Any]
          var s = t["source"] as! [String: Any]
          s["sha256"] = digest
          t["source"] = s
          $0["tls"] = t
        },
        .invalidDigest(digest, field: "tls.source.sha256"))
    }
  }
  func testATLSMinimumOutside10To13IsRefused() {
    for text in ["1.4", "SSL3", "0.9", "TLS 1.2"] {
      XCTAssertEqual(
        refuse {
          var t = $0["tls"] as! [String: Any]
          t["minimumVersion"] = text
          $0["tls"] = t
        }, .invalidTLSMinimum(text))
    }
  }
  func testNoRequirementsIsRefused() {
    XCTAssertEqual(refuse { $0["requirements"] = [] as [Any] }, .noRequirements)
  }
  func testARepeatedRequirementIsRefused() {
    XCTAssertEqual(
      refuse {
        var l = $0["requirements"] as! [[String: Any]]
        l.append(l[0])
        $0["requirements"] = l
      }, .repeatedRequirement("O.Purp_3"))
  }
  func testAnUnknownTestDepthIsRefused() {
    XCTAssertEqual(
      refuse(editRequirement("O.Purp_3") { $0["testDepth"] = "INSPECT" }),
      .unknownTestDepth("INSPECT", requirement: "O.Purp_3"))
  }
  func testAnUnknownRuleIsRefused() {
    XCTAssertEqual(
      refuse(editRequirement("O.Purp_3") { $0["rule"] = "passFail" }),
      .unknownRule("passFail", requirement: "O.Purp_3"))
  }
  func testAnUnknownFindingKindIsRefused() {
    XCTAssertEqual(
      refuse(editRequirement("O.Ntwk_1") { $0["contraryKinds"] = ["plaintext"] }),
      .unknownFindingKind("plaintext", requirement: "O.Ntwk_1"))
  }
  func testTheMASVSCatalogueFilesTheSameKindsAndCitesItsAddress() throws {
    let masvs = try RequirementCatalogueLibrary.catalogue(identifier: "owasp-masvs-2")
    XCTAssertEqual(
      masvs.requirements.map(\.id),
      ["MASVS-NETWORK-1", "MASVS-NETWORK-2"] + (1...4).map { "MASVS-PRIVACY-\($0)" })
    XCTAssertNil(masvs.source.sha256)
    XCTAssertEqual(masvs.source.date, "2024-01", "the release notes give the month")
    XCTAssertEqual(masvs.source.url, "https://mas.owasp.org/MASVS/")
    XCTAssertTrue(masvs.requirements.allSatisfy { $0.testDepth == nil })
    let rules = Dictionary(uniqueKeysWithValues: masvs.requirements.map { ($0.id, $0.rule) })
    XCTAssertEqual(
      rules["MASVS-NETWORK-2"],
      .contraryAndSupportingFindings(contrary: [.pinningAbsent], supporting: [.pinningObserved]))
    XCTAssertEqual(
      rules["MASVS-PRIVACY-4"],
      .contraryFindings([.thirdPartyAfterWithdrawal, .personalDataAfterWithdrawal]))
    // Every kind the TR-03161 catalogue files is filed here too, but the TLS client's.
    let tr = try RequirementCatalogueLibrary.catalogue(identifier: "tr-03161-1_3.0")
    let filed = { (c: RequirementCatalogue) in
      Set(c.requirements.flatMap { $0.rule.contraryKinds + $0.rule.supportingKinds })
    }
    XCTAssertEqual(filed(tr).subtracting(filed(masvs)), [.tlsClientNotInBaseline])
    XCTAssertEqual(masvs.policy.tlsRecommendations, tr.policy.tlsRecommendations)
  }
  func testADocumentWithoutADigestNeedsItsAddress() {
    XCTAssertEqual(
      refuse {
        var source = $0["source"] as! [String: Any]
        source["sha256"] = NSNull()
        $0["source"] = source
      },
      .missingField(field: "source.url", requirement: nil))
  }
  func testKindsMissingForTheirRuleAreRefused() {
    XCTAssertEqual(
      refuse(editRequirement("O.Ntwk_1") { $0["contraryKinds"] = nil }),
      .kindsDoNotFitRule(requirement: "O.Ntwk_1", problem: .missing))
    XCTAssertEqual(
      refuse(editRequirement("O.Ntwk_4") { $0["supportingKinds"] = [] as [String] }),
      .kindsDoNotFitRule(requirement: "O.Ntwk_4", problem: .missing))
  }
  func testKindsTheRuleDoesNotReadAreRefused() {
    XCTAssertEqual(
      refuse(editRequirement("O.Ntwk_6") { $0["contraryKinds"] = ["cleartextTraffic"] }),
      .kindsDoNotFitRule(requirement: "O.Ntwk_6", problem: .unexpected))
    XCTAssertEqual(
      refuse(editRequirement("O.Ntwk_2") { $0["supportingKinds"] = ["cleartextTraffic"] }),
      .kindsDoNotFitRule(requirement: "O.Ntwk_2", problem: .unexpected))
  }
  func testARepeatedKindIsRefused() {
    XCTAssertEqual(
      refuse(editRequirement("O.Purp_8") { $0["contraryKinds"] = ["unnamedFlow", "unnamedFlow"] }),
      .kindsDoNotFitRule(requirement: "O.Purp_8", problem: .repeated))
  }
  func testARuleThatReadsFindingsWithoutToolCoverageIsRefused() {
    XCTAssertEqual(
      refuse(editRequirement("O.Ntwk_2") { $0["toolCoverage"] = nil }),
      .toolCoverageMissing(requirement: "O.Ntwk_2"))
  }
  func testEveryRefusalSaysWhereItIs() {
    let error = RequirementCatalogueError.kindsDoNotFitRule(
      requirement: "O.Ntwk_4", problem: .repeated)
    XCTAssertTrue(error.description.contains("O.Ntwk_4"))
    XCTAssertTrue(
      RequirementCatalogueError.emptyField(field: "title", requirement: "O.Ntwk_2").description
        .contains("in requirement O.Ntwk_2"))
  }

  func testAnUnknownIdentifierIsAnErrorThatNamesIt() {
    XCTAssertThrowsError(try RequirementCatalogueLibrary.catalogue(identifier: "tr-03161-1_9.9")) {
      error in
      XCTAssertEqual(
        error as? RequirementCatalogueLibraryError, .notBundled(identifier: "tr-03161-1_9.9"))
      XCTAssertTrue("\(error)".contains("“tr-03161-1_9.9”"))
    }
  }
}
