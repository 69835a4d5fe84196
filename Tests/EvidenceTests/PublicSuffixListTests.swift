import Evidence
import Foundation
import TestSupport
import XCTest

/// The registrable domains libpsl gives with Debian's list equal those of Python's
/// publicsuffixlist package reading the same list file, on names made from every seventh rule of
/// it (plain, wildcard and exception rules, the ICANN and the private sections, IDNs).
final class PublicSuffixListTests: XCTestCase {
  static let listFile = "/usr/share/publicsuffix/public_suffix_list.dat"
  static let python = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent(".venv/bin/python").path

  func testRegistrableDomainsEqualPublicsuffixlistsOnTheSameList() throws {
    guard let list = PublicSuffixList.installed(),
      FileManager.default.isReadableFile(atPath: Self.listFile)
    else {
      if ProcessInfo.processInfo.environment["CI"] == "true" {
        XCTFail("CI installs libpsl-dev and publicsuffix (scripts/setup.sh)")
      }
      throw XCTSkip("libpsl or the publicsuffix package is not installed")
    }
    let rules = try String(contentsOfFile: Self.listFile, encoding: .utf8)
      .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty && !$0.hasPrefix("//") }
    var names: [String] = ["api.example-health.de", "a.b.example.co.uk", "co.uk", "localhost"]
    for (index, rule) in rules.enumerated() where index % 7 == 0 {
      if rule.hasPrefix("!") {
        names += ["a." + rule.dropFirst(), String(rule.dropFirst())]
      } else if rule.hasPrefix("*.") {
        names += ["a.b." + rule.dropFirst(2), "b." + rule.dropFirst(2)]
      } else {
        names += ["a.b." + rule, rule]
      }
    }
    XCTAssertGreaterThan(names.count, 300)
    guard FileManager.default.isExecutableFile(atPath: Self.python) else {
      throw XCTSkip("the test's Python environment (.venv) is not there: make test makes it")
    }
    let script = """
      import sys
      from publicsuffixlist import PublicSuffixList
      psl = PublicSuffixList(open(sys.argv[1], "rb"))
      for line in sys.stdin.read().split("\\n"):
          print(psl.privatesuffix(line) or "-")
      """
    let result = try XCTUnwrap(
      ExternalTool.run(
        Self.python, ["-c", script, Self.listFile],
        input: Data(names.joined(separator: "\n").utf8)))
    guard result.status == 0 else {
      if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail(result.error) }
      throw XCTSkip("publicsuffixlist is not installed in .venv: \(result.error)")
    }
    let theirs = result.output.split(separator: "\n", omittingEmptySubsequences: false).map(
      String.init)
    var differing: [String] = []
    for (index, name) in names.enumerated() {
      let ours = list.registrableDomain(name) ?? "-"
      if ours != theirs[index] { differing.append("\(name): \(ours) ≠ \(theirs[index])") }
    }
    XCTAssertEqual(differing, [], "of \(names.count) names")
    XCTAssertEqual(list.registrableDomain("a.b.example.co.uk"), "example.co.uk")
    XCTAssertEqual(list.registrableDomain("x.user.github.io"), "user.github.io")
    XCTAssertNil(list.registrableDomain("co.uk"))
  }
}
