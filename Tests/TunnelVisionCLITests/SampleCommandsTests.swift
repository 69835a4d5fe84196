import Foundation
import TestSupport
import XCTest

/// The commands a reader runs on the sample store, with golden files of what they print.
final class SampleCommandsTests: XCTestCase {
  let golden = Golden.directory().appendingPathComponent("Golden")

  func assertGolden(
    _ text: String, _ name: String, file: StaticString = #filePath, line: UInt = #line
  ) {
    if let difference = Golden.compare(text, file: golden.appendingPathComponent(name)) {
      XCTFail(difference, file: file, line: line)
    }
  }

  func testAnOutputIntoAMissingDirectoryIsRefusedBeforeAnythingIsWritten() throws {
    let cli = CLIHarness()
    XCTAssertEqual(cli.run("sample").status, 0)
    let missing = cli.directory.url.appendingPathComponent("no-such-dir")
    for (words, noun, nothing) in [
      (["export", "3"], "bundle", "Nothing was exported."),
      (["report", "3"], "report", "Nothing was written."),
    ] {
      let result = cli.run(words + ["-o", missing.appendingPathComponent("out").path])
      XCTAssertEqual(result.status, 1, result.error)
      XCTAssertEqual(
        result.error,
        "Error: There is no directory \(missing.path) to write the \(noun) into; create it or give --output another place. \(nothing)\n"
      )
      XCTAssertFalse(FileManager.default.fileExists(atPath: missing.path))
    }
  }

  /// An export instant the documents cannot carry to the microsecond (a Date loses them by 9999,
  /// where one once made the archive's MS-DOS date overflow) is a usage error; the archive's
  /// date holds to 1980–2107 for the instants taken.
  func testAnExportInstantOutsideWhatTheHistoryHoldsIsRefusedAndTheArchiveDateHoldsToItsRange()
    throws
  {
    let cli = CLIHarness()
    XCTAssertEqual(cli.run("sample").status, 0)
    for at in ["9999-12-31T23:59:59.999999Z", "2262-04-12T00:00:00Z", "1969-12-31T23:59:59Z"] {
      for command in ["export", "report"] {
        let result = cli.run(
          command, "3", "--at", at, "-o", cli.directory.url.appendingPathComponent("never").path)
        XCTAssertEqual(result.status, 2, "\(command) \(at): \(result.error)")
        XCTAssertTrue(
          result.error.hasPrefix(
            "Error: --at takes an instant from 1970 up to the start of 2262; “\(at)” is outside"),
          result.error)
      }
    }
    XCTAssertFalse(
      FileManager.default.fileExists(atPath: cli.directory.url.appendingPathComponent("never").path)
    )
    for (at, listed) in [
      ("2200-06-01T12:00:00Z", "2107-12-31 23:59"), ("1975-06-01T12:00:00Z", "1980-01-01 00:00"),
    ] {
      let bundle = cli.directory.url.appendingPathComponent("b-\(at.prefix(4)).zip").path
      let export = cli.run("export", "3", "--no-report", "--at", at, "-o", bundle)
      XCTAssertEqual(export.status, 0, export.error)
      let listing = try XCTUnwrap(ExternalTool.run("unzip", ["-l", bundle]))
      XCTAssertTrue(listing.output.contains(listed), listing.output)
      XCTAssertEqual(cli.run("verify", bundle).status, 0)
    }
  }

  func testAnOutputThatIsADirectoryTakesTheFileUnderItsDefaultNameAndVerifyRefusesADirectory()
    throws
  {
    let cli = CLIHarness()
    XCTAssertEqual(cli.run("sample").status, 0)
    let into = cli.directory.url.appendingPathComponent("evidence", isDirectory: true)
    try FileManager.default.createDirectory(at: into, withIntermediateDirectories: false)
    let export = cli.run(
      "export", "3", "--no-report", "--at", "2026-10-07T09:00:00Z", "-o", into.path)
    XCTAssertEqual(export.status, 0, export.error)
    let written = try FileManager.default.contentsOfDirectory(atPath: into.path)
    XCTAssertEqual(written.count, 1, "\(written)")
    let bundle = into.appendingPathComponent(try XCTUnwrap(written.first))
    XCTAssertEqual(bundle.lastPathComponent, "Example-Health-2.4.0-187-session-3-evidence.zip")
    XCTAssertTrue(export.output.contains(bundle.path), export.output)
    XCTAssertEqual(cli.run("verify", bundle.path).status, 0)
    let report = cli.run("report", "3", "--at", "2026-10-07T09:00:00Z", "-o", into.path)
    XCTAssertEqual(report.status, 0, report.error)
    XCTAssertEqual(
      try Data(contentsOf: into.appendingPathComponent("report.pdf")).prefix(5), Data("%PDF-".utf8))
    let verify = cli.run("verify", into.path)
    XCTAssertEqual(verify.status, 1)
    XCTAssertEqual(
      verify.error,
      "Error: \(into.path) is a directory; verify takes an evidence bundle, a .zip file.\n")
  }

  func testAHostsFilesLinesThatCannotBeReadAreSaidWhenItIsRead() throws {
    let cli = CLIHarness()
    XCTAssertEqual(cli.run("sample").status, 0)
    let list = cli.directory.url.appendingPathComponent("lab.hosts")
    try
      "0.0.0.0 collect.example-ads.net telemetry.example-ads.net.\n10.1.2.3 maps.example-maps.com\n"
      .write(to: list, atomically: true, encoding: .utf8)
    let findings = cli.run("findings", "3", "--tracker-list", list.path, "--json")
    XCTAssertEqual(findings.status, 0, findings.error)
    XCTAssertTrue(
      findings.error.contains(
        "1 line that begins with an address was not read as a hosts file's (line 2)"),
      findings.error)
    let flagged = try XCTUnwrap(
      (JSONSerialization.jsonObject(with: Data(findings.output.utf8)) as? [String: Any])?[
        "findings"]
        as? [[String: Any]]
    ).filter { ($0["kind"] as? String ?? "").hasPrefix("tracker") }.compactMap {
      $0["host"] as? String
    }
    XCTAssertEqual(Set(flagged), ["collect.example-ads.net", "telemetry.example-ads.net"])
  }

  func testFindingsCompareExportAndVerifyOnTheSampleStore() throws {
    let cli = CLIHarness()
    let sample = cli.run("sample")
    XCTAssertEqual(sample.status, 0, sample.error)
    XCTAssertTrue(
      sample.output.contains("session 3  Example Health · Version 2.4.0 (187): 35 connections"),
      sample.output)

    let findings = cli.run("findings", "3")
    XCTAssertEqual(findings.status, 0, findings.error)
    assertGolden(findings.output, "sample-findings.txt")
    let findingsJSON = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(cli.run("findings", "3", "--json").output.utf8))
        as? [String: Any])
    XCTAssertEqual((findingsJSON["requirements"] as? [Any])?.count, 14)

    let compare = cli.run("compare", "3", "2")
    XCTAssertEqual(compare.status, 0, compare.error)
    assertGolden(compare.output, "sample-compare.txt")
    let compareJSON = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(cli.run("compare", "2", "3", "--json").output.utf8))
        as? [String: Any])
    XCTAssertEqual((compareJSON["later"] as? [String: Any])?["id"] as? Int, 3)
    XCTAssertEqual(cli.run("compare", "1", "3").status, 1)

    let bundle = cli.directory.url.appendingPathComponent("bundle.zip").path
    let export = cli.run("export", "3", "--at", "2026-10-07T09:00:00Z", "-o", bundle)
    XCTAssertEqual(export.status, 0, export.error)
    assertGolden(
      export.output.replacingOccurrences(of: bundle, with: "BUNDLE.zip"), "sample-export-sheet.txt")
    XCTAssertTrue(export.output.contains("9 files"), export.output)

    // What Samples/ shows a reader is what this build exports (scripts/samples.sh remakes it).
    let committed = Golden.directory().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Samples/example-health-2.4.0-evidence.zip")
    XCTAssertTrue(
      try Data(contentsOf: URL(fileURLWithPath: bundle)) == Data(contentsOf: committed),
      "Samples/example-health-2.4.0-evidence.zip is not what this build exports; run scripts/samples.sh"
    )

    let verify = cli.run("verify", bundle)
    XCTAssertEqual(verify.status, 0, verify.output)
    XCTAssertTrue(verify.output.contains("Every check holds.\n"), verify.output)
    XCTAssertTrue(
      verify.output.hasSuffix("(export --sign KEY signs it).\n"), "an unsigned bundle says so")

    let storage = cli.run("storage")
    XCTAssertTrue(storage.output.hasPrefix("Captures  3 files"), storage.output)
    XCTAssertTrue(
      storage.output.contains("hold audit evidence and are exempt from both limits"), storage.output
    )
    XCTAssertEqual(
      cli.run("storage", "enforce").output,
      "Nothing was due: no capture file or history was deleted.\n")
    XCTAssertEqual(cli.run("export", "99").status, 1)
  }
}
