import Audit
import AuditRules
import TestSupport
import XCTest

final class HostLookupsTests: XCTestCase {
  let allowlist = ["*.example.com", "api.example.org"].map {
    AllowlistEntry(pattern: try! DomainPattern(parsing: $0))
  }
  let trackers = TrackerLists([
    TrackerList(
      identity: TrackerList.Identity(
        name: "Lab list", path: "/lab.txt", sha256: String(repeating: "0", count: 64),
        date: "2026-10-01"), text: "||tracker.net^\n@@||ok.tracker.net^\n")
  ])

  /// Names as flows carry them: read as sent, a lookup's questions, a DNS answer's other names.
  var flows: [StoredFlow] {
    var lookup = FlowFixture.udp(port: 53)
    lookup.dnsQuestions = ["Ads.Tracker.NET.", "www.example.com"]
    var answered = FlowFixture.tcp(sni: "API.Example.org")
    answered.dnsOtherNames = ["cdn.tracker.net", "Else.where"]
    return [
      FlowFixture.tcp(sni: "a.example.com"), FlowFixture.tcp(sni: "ok.tracker.net"), lookup,
      answered, FlowFixture.tcp(sni: "a.example.com"), FlowFixture.tcp(),
    ]
  }

  /// Whatever was looked up beforehand, each answer is the allowlist's and the lists' own, for
  /// the names the flows carry, their normalised forms and names no flow carries.
  func testEveryAnswerIsTheListsOwnWhetherLookedUpBeforehandOrWhenAsked() {
    let ahead = HostLookups(allowlist: allowlist, trackers: trackers, flows: flows)
    let asked = HostLookups(allowlist: allowlist, trackers: trackers)
    let names = [
      "a.example.com", "ok.tracker.net", "Ads.Tracker.NET.", "ads.tracker.net", "www.example.com",
      "API.Example.org", "api.example.org", "cdn.tracker.net", "else.where", "Else.where",
      "never.seen", "tracker.net", "",
    ]
    for name in names {
      let entry = allowlist.first(matching: name)
      let match = trackers.match(name)
      XCTAssertEqual(ahead.allowlistEntry(matching: name), entry, name)
      XCTAssertEqual(asked.allowlistEntry(matching: name), entry, name)
      XCTAssertEqual(ahead.trackerMatch(name), match, name)
      XCTAssertEqual(asked.trackerMatch(name), match, name)
    }
    XCTAssertNotNil(ahead.trackerMatch("Ads.Tracker.NET."), "a tracker named in a question")
    XCTAssertNil(ahead.trackerMatch("ok.tracker.net"), "an exception")
    XCTAssertNotNil(ahead.allowlistEntry(matching: "api.example.org"))
    XCTAssertNil(ahead.allowlistEntry(matching: "else.where"))
  }

  /// Without tracker lists nothing is a tracker, looked up beforehand or not.
  func testWithoutListsNoNameIsATracker() {
    let ahead = HostLookups(allowlist: allowlist, trackers: nil, flows: flows)
    XCTAssertNil(ahead.trackerMatch("ads.tracker.net"))
    XCTAssertNotNil(ahead.allowlistEntry(matching: "a.example.com"))
  }
}
