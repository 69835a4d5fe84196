import Audit
import AuditRules
import AuditWording
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
}
