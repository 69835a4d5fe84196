import Foundation
import TestSupport
import XCTest

/// The same evidence filed against another standard: the sample's 2.4.0 session exported with the
/// bundled OWASP MASVS catalogue and with the project's (TR-03161); each verifies, each report
/// reads its own requirements, and MASVS's cites its address instead of a PDF's digest.
final class CatalogueChoiceTests: XCTestCase {
  func testTheSampleExportsWithEitherCatalogueAndEachBundleVerifies() throws {
    let cli = CLIHarness()
    XCTAssertEqual(cli.run("sample").status, 0)
    var reports: [String: String] = [:]
    for (name, words) in [
      ("masvs", ["--catalogue", "owasp-masvs-2"]), ("tr", [String]()),
    ] {
      let zip = cli.directory.url.appendingPathComponent("\(name).zip").path
      let exported = cli.run(["export", "3", "-o", zip, "--at", "2026-10-07T09:00:00Z"] + words)
      XCTAssertEqual(exported.status, 0, exported.error)
      let verified = cli.run("verify", zip)
      XCTAssertEqual(verified.status, 0, verified.output + verified.error)
      XCTAssertTrue(verified.output.contains("Every check holds."), verified.output)
      XCTAssertFalse(verified.output.contains("not re-derived"), verified.output)
      let text = try XCTUnwrap(
        ExternalTool.run("sh", ["-c", "unzip -p '\(zip)' report.pdf | pdftotext - -"]))
      reports[name] = text.output
      let findings = try XCTUnwrap(
        JSONSerialization.jsonObject(
          with: Data(
            try XCTUnwrap(ExternalTool.run("unzip", ["-p", zip, "findings.json"])).output.utf8))
          as? [String: Any])
      let catalogue = try XCTUnwrap(findings["catalogue"] as? [String: Any])
      XCTAssertEqual(
        catalogue["identifier"] as? String, name == "masvs" ? "owasp-masvs-2" : "tr-03161-1_3.0")
    }
    let masvs = try XCTUnwrap(reports["masvs"])
    for id in ["MASVS-NETWORK-1", "MASVS-NETWORK-2"] + (1...4).map({ "MASVS-PRIVACY-\($0)" }) {
      XCTAssertTrue(masvs.contains(id), id)
    }
    XCTAssertTrue(masvs.contains("https://mas.owasp.org/MASVS/"))
    XCTAssertFalse(masvs.contains("O.Ntwk_1"))
    XCTAssertFalse(masvs.contains("Test depth"), "MASVS has none")
    XCTAssertTrue(try XCTUnwrap(reports["tr"]).contains("O.Ntwk_1"))
    // One catalogue at a time.
    let both = cli.run(
      "findings", "3", "--catalogue", "owasp-masvs-2", "--catalogue-file", "x.json")
    XCTAssertEqual(both.status, 2, "a usage error")
    let unknown = cli.run("findings", "3", "--catalogue", "owasp-masvs-9")
    XCTAssertEqual(unknown.status, 1)
    XCTAssertTrue(unknown.error.contains("owasp-masvs-2"), unknown.error)
  }
}
