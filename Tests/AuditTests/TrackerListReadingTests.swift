import Audit
import AuditRules
import AuditWording
import Foundation
import XCTest

/// #44.3: a hosts file's line naming several hosts flagged none, a name with a trailing dot matched
/// nothing, and nothing said a line was left out.
final class TrackerListReadingTests: XCTestCase {
  func list(_ text: String) -> TrackerList {
    TrackerList(
      identity: TrackerList.Identity(
        name: "lab hosts", path: "/lists/lab.hosts", sha256: String(repeating: "0", count: 64),
        date: "2026-12-01"),
      text: text)
  }

  let hosts = """
    # a hosts file
    0.0.0.0 a.tracker.example b.tracker.example  # two at once
    0.0.0.0 c.tracker.example.
    192.168.1.1 d.tracker.example
    0.0.0.0 not_a|host
    127.0.0.1 localhost
    ::1 ip6-localhost.tracker.example
    example.com##.ad-banner
    0.gravatar.com^$third-party
    1.2.3.4^
    e.tracker.example
    """

  func testEveryNameOfAHostsLineIsFlaggedAndATrailingDotIsTheSameName() {
    let l = list(hosts)
    for host in [
      "a.tracker.example", "b.tracker.example", "c.tracker.example", "c.tracker.example.",
      "ip6-localhost.tracker.example", "e.tracker.example", "x.b.tracker.example",
    ] {
      XCTAssertNotNil(l.match(host), host)
    }
    XCTAssertEqual(
      l.match("b.tracker.example")?.rule,
      "0.0.0.0 a.tracker.example b.tracker.example  # two at once")
    XCTAssertNil(l.match("d.tracker.example"), "another address than a sinkhole's is not a block")
    XCTAssertNil(l.match("localhost"))
  }

  func testALineThatBeginsWithAnAddressAndIsNotReadIsCountedAndNamed() throws {
    let l = list(hosts)
    XCTAssertEqual(
      l.linesNotRead, [4, 5], "the element hiding rule is an Adblock rule, not a slip")
    let said = try XCTUnwrap(TrackerWording.linesNotRead(l))
    XCTAssertTrue(
      said.contains("/lists/lab.hosts: 2 lines that begin with an address were not read"), said)
    XCTAssertTrue(said.contains("(lines 4, 5)"), said)
    XCTAssertNil(TrackerWording.linesNotRead(list("0.0.0.0 a.tracker.example\n")))
  }

  /// The Adblock side: a plain host rule cited as written again, one with narrowing options cited
  /// whole, a conditional one left out, an exception, the first rule of a host standing, case.
  func testAdblockHostRulesNameTheirHostAndTheDomainsBelowItAndNothingNearIt() {
    let l = list(
      """
      ! Title: lab list
      ||Tracker.Example^
      ||tracker.example^$third-party
      ||ads.example^$script,3p
      ||cond.example^$domain=shop.example
      ||path.example/pixel.gif
      @@||ok.tracker.example^
      """)
    XCTAssertEqual(l.ruleCount, 2)
    XCTAssertEqual(l.match("tracker.example")?.rule, "||tracker.example^")
    XCTAssertEqual(l.match("Deep.Sub.TRACKER.example")?.rule, "||tracker.example^")
    XCTAssertEqual(l.match("cdn.ads.example")?.rule, "||ads.example^$script,3p")
    XCTAssertEqual(l.match("cdn.ads.example")?.list, "lab hosts")
    for host in [
      "ok.tracker.example", "x.ok.tracker.example", "nottracker.example", "tracker.example.org",
      "example", "cond.example", "path.example", "racker.example",
    ] {
      XCTAssertNil(l.match(host), host)
    }
  }

  /// Options are compared as Unicode lower-cases them, whether a rule's bytes are ASCII or not:
  /// upper case narrows, a Kelvin sign is a "k", a comma with a mark on it separates nothing, an
  /// empty option does not narrow.
  func testARulesOptionsNarrowInAnyCaseAndAnEmptyOneDoesNot() {
    let l = list(
      """
      ||upper.example^$THIRD-PARTY,Script
      ||kelvin.example^$WEBSOC\u{212A}ET
      ||mark.example^$script,\u{301}image
      ||empty.example^$script,
      ||lead.example^$,script
      ||other.example^$script,domain=a.example
      """)
    XCTAssertEqual(l.match("upper.example")?.rule, "||upper.example^$THIRD-PARTY,Script")
    XCTAssertEqual(l.match("kelvin.example")?.rule, "||kelvin.example^$WEBSOC\u{212A}ET")
    for host in ["mark.example", "empty.example", "lead.example", "other.example"] {
      XCTAssertNil(l.match(host), host)
    }
  }

  /// Only a line whose first field reads as an address is counted as a hosts file's not read:
  /// not element hiding with a blank in it, not a field with other letters than hex digits, not
  /// fullwidth digits.
  func testOnlyALineBeginningWithAnAddressIsCountedAsNotRead() {
    let l = list(
      """
      example.com## .ad banner
      fe80::1 a.tracker.example
      abc::x a.tracker.example
      +1.2.3.4 a.tracker.example
      \u{FF11}.2.3.4 a.tracker.example
      1.2.3 a.tracker.example
      dead:beef a.tracker.example
      """)
    XCTAssertEqual(l.linesNotRead, [2, 4, 7])
  }

  /// The installed EasyPrivacy and EasyList, read as every command reads them: each host of a
  /// `||host^` line is matched, citing a line the list holds that names it. (The list keeps only
  /// its rules' bytes; a place computed wrong in them would cite something else.)
  func testEveryHostRuleOfTheInstalledListsIsCitedAsAWholeLineOfTheList() throws {
    let directory =
      "/usr/share/mozilla/extensions/{ec8030f7-c20a-464f-9b0e-13a3a9e97384}/uBlock0@raymondhill.net/assets/thirdparties/easylist"
    for file in ["easyprivacy.txt", "easylist.txt"] {
      let path = "\(directory)/\(file)"
      guard let data = FileManager.default.contents(atPath: path) else {
        if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("\(path) is missing") }
        continue
      }
      let text = String(decoding: data, as: UTF8.self)
      let lines = text.split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r\n" }
        .map(String.init)
      let held = Set(lines)
      let l = list(text)
      var matched = 0
      for line in lines where line.hasPrefix("||") {
        let rest = line.dropFirst(2)
        guard let caret = rest.firstIndex(of: "^") else { continue }
        let host = String(rest[..<caret])
        guard !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || "-._".contains($0) }),
          let match = l.match(host)
        else { continue }
        matched += 1
        XCTAssertTrue(held.contains(match.rule), "\(file): \(host) cites “\(match.rule)”")
      }
      XCTAssertGreaterThan(matched, 10_000, file)
    }
  }
}
