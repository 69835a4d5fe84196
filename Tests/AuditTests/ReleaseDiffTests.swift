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

final class ReleaseDiffTests: XCTestCase {
  let project = AuditProject(
    id: 1, name: "P", bundleIdentifier: nil, catalogueVersion: nil,
    allowlist: [
      AllowlistEntry(pattern: try! DomainPattern(parsing: "*.example.com"), note: "ours")
    ], createdAt: FlowFixture.epoch)
  func session(
    _ id: Int64, at seconds: Double, kind: AuditSessionKind? = nil, open: Bool = false,
    project: Int64 = 1
  ) -> AuditSession {
    AuditSession(
      id: id, projectID: project,
      kind: kind ?? .audit(AppRelease(version: "\(id).0", build: "\(id)")),
      environment: FlowFixture.environment, inspection: .off, startedAt: FlowFixture.at(seconds),
      endedAt: open ? nil : FlowFixture.at(seconds + 100), notes: "")
  }
  func flow(
    _ id: Int64, sni: String? = nil, dns: String? = nil, others: [String] = [],
    version: TLSProtocolVersion? = nil,
    source: TLSReadingSource = .serverHello
  ) -> StoredFlow {
    var f = FlowFixture.tcp(id: id, at: Double(id), sni: sni)
    f.dnsName = dns
    f.dnsOtherNames = others
    if let version {
      f.serverTLS = .negotiated(
        version: version, cipherSuite: 1, fromHelloRetryRequest: false, source: source)
    }
    return f
  }

  // MARK: Which two sessions

  func testTheSameSessionTwiceIsRefused() {
    XCTAssertThrowsError(
      try ReleaseDiff(
        between: session(1, at: 0), flows: [], and: session(1, at: 0), flows: [], project: project)
    ) {
      XCTAssertEqual($0 as? ReleaseDiff.Refusal, .sameSession)
    }
  }
  func testSessionsOfDifferentProjectsAreRefused() {
    XCTAssertThrowsError(
      try ReleaseDiff(
        between: session(1, at: 0), flows: [], and: session(2, at: 0, project: 2), flows: [],
        project: project)
    ) {
      XCTAssertEqual($0 as? ReleaseDiff.Refusal, .differentProjects)
    }
  }
  func testSessionsOfAnotherProjectThanTheOneGivenAreRefused() {
    XCTAssertThrowsError(
      try ReleaseDiff(
        between: session(1, at: 0, project: 2), flows: [], and: session(2, at: 0, project: 2),
        flows: [], project: project)
    ) {
      XCTAssertEqual($0 as? ReleaseDiff.Refusal, .notTheSessionsProject)
    }
  }
  func testABaselineIsRefusedNamingIt() {
    XCTAssertThrowsError(
      try ReleaseDiff(
        between: session(1, at: 0), flows: [], and: session(2, at: 0, kind: .baseline), flows: [],
        project: project)
    ) {
      XCTAssertEqual($0 as? ReleaseDiff.Refusal, .baseline(sessionID: 2))
    }
  }
  func testAnOpenSessionIsRefusedNamingIt() {
    XCTAssertThrowsError(
      try ReleaseDiff(
        between: session(1, at: 0, open: true), flows: [], and: session(2, at: 0), flows: [],
        project: project)
    ) {
      XCTAssertEqual($0 as? ReleaseDiff.Refusal, .stillOpen(sessionID: 1))
    }
  }
  func testTheFirstReasonThatFailsIsGivenInTheSpecsOrder() {
    // baseline and open and another project at once: differentProjects comes first.
    XCTAssertThrowsError(
      try ReleaseDiff(
        between: session(1, at: 0, kind: .baseline, open: true), flows: [],
        and: session(2, at: 0, project: 2), flows: [], project: project)
    ) {
      XCTAssertEqual($0 as? ReleaseDiff.Refusal, .differentProjects)
    }
    XCTAssertThrowsError(
      try ReleaseDiff(
        between: session(1, at: 0, open: true), flows: [], and: session(2, at: 0, kind: .baseline),
        flows: [], project: project)
    ) {
      XCTAssertEqual($0 as? ReleaseDiff.Refusal, .baseline(sessionID: 2))
    }
  }
  func testAnythingElseIsADiffAndTheLaterSessionIsTheOneThatStartedLater() throws {
    let old = session(9, at: 500)  // version 9.0, started later
    let new = session(2, at: 0)
    let diff = try ReleaseDiff(between: old, flows: [], and: new, flows: [], project: project)
    XCTAssertEqual(diff.later.id, 9)
    XCTAssertEqual(diff.earlier.id, 2)
  }

  // MARK: What the domain of a flow is

  func testAnAnnouncedNameLandsInThatDomainsFlowsWithoutConsultingResolvedNames() {
    let domains = SessionDomains(flows: [
      flow(1, sni: "API.example.com", dns: "x.cdn.net", others: ["y.cdn.net"])
    ])
    XCTAssertEqual(domains.domains.map(\.host), ["api.example.com"])
    XCTAssertEqual(domains.domains[0].flowIDs, [1])
  }
  func testADNSNameWithNoOtherCandidateLandsInThatDomain() {
    let domains = SessionDomains(flows: [flow(1, dns: "api.example.com")])
    XCTAssertEqual(domains.observation(of: "api.example.com")?.flowIDs, [1])
    XCTAssertEqual(domains.observation(of: "api.example.com")?.candidateFlowIDs, [])
  }
  func testADNSNameWithOtherNamesIsACandidateOfEveryOneOfThem() {
    let domains = SessionDomains(flows: [
      flow(1, dns: "a.example.com", others: ["b.example.com", "c.example.com"])
    ])
    XCTAssertEqual(
      domains.domains.map(\.host), ["a.example.com", "b.example.com", "c.example.com"])
    for d in domains.domains {
      XCTAssertEqual(d.candidateFlowIDs, [1])
      XCTAssertFalse(d.isSeen)
    }
  }
  func testNoNameLandsInUnnamedFlows() {
    let domains = SessionDomains(flows: [flow(1), flow(2, sni: "a.example.com")])
    XCTAssertEqual(domains.unnamedFlowIDs, [1])
  }

  // MARK: What is stated about a domain

  func diff(earlier: [StoredFlow], later: [StoredFlow]) throws -> ReleaseDiff {
    try ReleaseDiff(
      between: session(1, at: 0), flows: earlier, and: session(2, at: 1000), flows: later,
      project: project)
  }
  func testAbsentEarlierAndSeenLaterIsNew() throws {
    let d = try diff(
      earlier: [], later: [flow(1, sni: "tracker.net"), flow(2, sni: "new.example.com")])
    XCTAssertEqual(d.newDomains.map(\.host), ["tracker.net", "new.example.com"])
    XCTAssertEqual(d.unexpectedNewDomains.map(\.host), ["tracker.net"])
    XCTAssertEqual(
      d.newDomains[1].standing,
      .listed(AllowlistEntry(pattern: try DomainPattern(parsing: "*.example.com"), note: "ours")))
  }
  func testSeenEarlierAndAbsentLaterIsGone() throws {
    XCTAssertEqual(
      try diff(earlier: [flow(1, sni: "old.example.com")], later: []).goneDomains.map(\.host),
      ["old.example.com"])
  }
  func testSeenInBothIsInBothWithItsTwoTLSComparisons() throws {
    let d = try diff(
      earlier: [
        flow(1, sni: "a.example.com", version: .tls12),
        flow(2, sni: "a.example.com", version: .tls13, source: .upstreamConnection),
      ],
      later: [flow(3, sni: "a.example.com", version: .tls12)])
    XCTAssertEqual(
      d.domainsInBoth.first?.status,
      .inBoth(app: .same([.tls12]), proxy: .notCompared(.notReadInLaterSession)))
    XCTAssertFalse(d.domainsInBoth[0].hasTLSChange)
  }
  func testACandidateOnEitherSideIsUndeterminedWithHowItStandsOnEach() throws {
    let d = try diff(
      earlier: [flow(1, dns: "a.example.com", others: ["b.example.com"])],
      later: [flow(2, sni: "a.example.com")])
    XCTAssertEqual(
      d.undeterminedDomains.map(\.status),
      [
        .undetermined(earlier: .candidateOnly, later: .seen),
        .undetermined(earlier: .candidateOnly, later: .absent),
      ])
  }

  // MARK: TLS changes

  func testAFloorThatWentDownIsLoweredAndOneThatWentUpIsRaised() throws {
    let down = try diff(
      earlier: [flow(1, sni: "a.example.com", version: .tls13)],
      later: [flow(2, sni: "a.example.com", version: .tls12)])
    XCTAssertEqual(
      down.domainsWithTLSChange.first?.status,
      .inBoth(
        app: .different(earlier: [.tls13], later: [.tls12], floor: .lowered),
        proxy: .notCompared(.notReadInEitherSession)))
    let up = try diff(
      earlier: [flow(1, sni: "a.example.com", version: .tls12, source: .upstreamConnection)],
      later: [flow(2, sni: "a.example.com", version: .tls13, source: .upstreamConnection)])
    XCTAssertEqual(
      up.domainsWithTLSChange.first?.status,
      .inBoth(
        app: .notCompared(.notReadInEitherSession),
        proxy: .different(earlier: [.tls12], later: [.tls13], floor: .raised)))
  }
  func testAHeldFloorAndAnUnorderedVersionAreToldApart() throws {
    let held = try diff(
      earlier: [flow(1, sni: "a.example.com", version: .tls12)],
      later: [
        flow(2, sni: "a.example.com", version: .tls12),
        flow(3, sni: "a.example.com", version: .tls13),
      ])
    XCTAssertEqual(
      held.domainsInBoth.first?.status,
      .inBoth(
        app: .different(earlier: [.tls12], later: [.tls12, .tls13], floor: .held),
        proxy: .notCompared(.notReadInEitherSession)))
    let odd = TLSProtocolVersion(rawValue: 0x7f1c)
    let unordered = try diff(
      earlier: [flow(1, sni: "a.example.com", version: .tls12)],
      later: [flow(2, sni: "a.example.com", version: odd)])
    XCTAssertEqual(
      unordered.domainsInBoth.first?.status,
      .inBoth(
        app: .different(earlier: [.tls12], later: [odd], floor: .notOrdered),
        proxy: .notCompared(.notReadInEitherSession)))
  }
  func testAVersionNotReadOnOneSideIsNotCompared() throws {
    let d = try diff(
      earlier: [flow(1, sni: "a.example.com")],
      later: [flow(2, sni: "a.example.com", version: .tls13)])
    XCTAssertEqual(
      d.domainsInBoth.first?.status,
      .inBoth(
        app: .notCompared(.notReadInEarlierSession), proxy: .notCompared(.notReadInEitherSession)))
  }
  func testACandidateFlowsVersionIsNotCompared() throws {
    let d = try diff(
      earlier: [flow(1, sni: "a.example.com", version: .tls13)],
      later: [
        flow(2, sni: "a.example.com", version: .tls13),
        flow(3, dns: "a.example.com", others: ["z.example.com"], version: .tls10),
      ])
    XCTAssertEqual(
      d.domainsInBoth.first?.status,
      .inBoth(app: .same([.tls13]), proxy: .notCompared(.notReadInEitherSession)))
  }
  func testAnEmptyAllowlistMarksNothing() throws {
    let bare = AuditProject(
      id: 1, name: "P", bundleIdentifier: nil, catalogueVersion: nil, allowlist: [],
      createdAt: FlowFixture.epoch)
    let d = try ReleaseDiff(
      between: session(1, at: 0), flows: [], and: session(2, at: 10),
      flows: [flow(1, sni: "tracker.net")], project: bare)
    XCTAssertEqual(d.newDomains.first?.standing, .allowlistEmpty)
    XCTAssertEqual(d.unexpectedNewDomains, [])
  }

  func exchange(_ id: Int64, host: String, sent labels: [String]) -> ExchangeRecord {
    ExchangeRecord(
      exchangeID: id, flowID: nil, source: .proxy, kind: .http,
      start: FlowFixture.epoch.addingTimeInterval(Double(id)), end: nil, method: "GET",
      scheme: "https", host: host, port: 443, path: "/", httpVersion: "HTTP/2.0", fromClient: true,
      status: 200, request: nil, response: nil, queryNames: [], headerNames: [], jsonKeys: [],
      matches: labels.map { ContentMatch(label: $0, form: .asIs, place: MatchPlace(.query, "uid")) }
    )
  }

  func testAValueSentToAHostTheEarlierDidNotSendItToIsNamedOnceInTheLatersOrder() throws {
    let values = ["e-mail", "diagnosis"].map {
      TestDataValue(label: $0, value: "value of \($0)", category: .other)
    }
    let earlier = SessionContent(
      values: values, exchanges: [exchange(1, host: "api.example.com", sent: ["e-mail"])])
    let later = SessionContent(
      values: values,
      exchanges: [
        exchange(2, host: "api.example.com", sent: ["e-mail", "diagnosis"]),
        exchange(3, host: "t.tracker.net", sent: ["e-mail"]),
        exchange(4, host: "t.tracker.net", sent: ["e-mail"]),
        exchange(5, host: "t.tracker.net", sent: []),
      ])
    let d = try ReleaseDiff(
      between: session(2, at: 10), flows: [], and: session(1, at: 0), flows: [],
      project: project, content: (later, earlier))
    XCTAssertEqual(
      d.newlySent,
      [
        ValueRecipient(label: "diagnosis", host: "api.example.com"),
        ValueRecipient(label: "e-mail", host: "t.tracker.net"),
      ])
    XCTAssertTrue(d.earlierReadContent)
    let unread = try ReleaseDiff(
      between: session(1, at: 0), flows: [], and: session(2, at: 10), flows: [],
      project: project, content: (SessionContent(values: values, exchanges: []), later))
    XCTAssertFalse(unread.earlierReadContent, "nothing read earlier: not said to be new")
    XCTAssertEqual(unread.newlySent.count, 3)
  }

  // MARK: Like with like (#41.1)

  func inspected(_ id: Int64, at seconds: Double, _ scenario: CertificateScenario) -> AuditSession {
    let s = session(id, at: seconds)
    return AuditSession(
      id: s.id, projectID: s.projectID, kind: s.kind, environment: s.environment,
      inspection: InspectionConditions(inspectionEnabled: true, scenario: scenario),
      startedAt: s.startedAt, endedAt: s.endedAt, notes: "")
  }

  func testARefusalThenAnAcceptanceIsALossOnlyUnderTheSameScenario() throws {
    let refused = [FlowFixture.tcp(id: 1, at: 1, sni: "api.example.com", status: .notInspectable)]
    let accepted = [FlowFixture.tcp(id: 2, at: 2, sni: "api.example.com", status: .inspected)]
    let same = try ReleaseDiff(
      between: inspected(1, at: 0, .wrongHost), flows: refused,
      and: inspected(2, at: 10, .wrongHost), flows: accepted, project: project)
    XCTAssertEqual(same.validationLost, ["api.example.com"])
    XCTAssertEqual(same.validationNotComparable, [])
    XCTAssertFalse(same.conditionsDiffer)
    let different = try ReleaseDiff(
      between: inspected(1, at: 0, .notInstalled), flows: refused,
      and: inspected(2, at: 10, .wrongHost), flows: accepted, project: project)
    XCTAssertEqual(different.validationLost, [], "never a regression across scenarios")
    XCTAssertEqual(different.validationNotComparable, ["api.example.com"])
    XCTAssertTrue(different.conditionsDiffer)
    let text = ReleaseComparisonPresentation.text(
      different, projectName: "P", zone: TimeZone(identifier: "UTC")!)
    XCTAssertFalse(text.contains("regression"), text)
    XCTAssertTrue(text.contains(ReleaseComparisonPresentation.notComparable(different)), text)
    XCTAssertTrue(text.contains(ReleaseComparisonPresentation.conditionsDiffer), text)
    XCTAssertTrue(text.contains("an expired certificate") == false)
    XCTAssertTrue(text.contains("a certificate for another host name, from a trusted CA"), text)
  }

  func testAnUnrecordedStretchQualifiesTheLists() throws {
    let d = try ReleaseDiff(
      between: session(1, at: 0), flows: [], and: session(2, at: 10),
      flows: [flow(1, sni: "a.example.com")], project: project)
    var gapped = SessionCoverage.of(
      session(2, at: 10), runs: [], runningProcess: nil, now: FlowFixture.at(200),
      connections: [], runsNotKept: false)
    XCTAssertFalse(gapped.gaps.isEmpty, "no recorder ran: the whole session is a gap")
    let text = ReleaseComparisonPresentation.text(
      d, projectName: "P", zone: TimeZone(identifier: "UTC")!, coverage: (nil, gapped))
    let caveat = try XCTUnwrap(ReleaseComparisonPresentation.coverageCaveat("later", gapped))
    XCTAssertTrue(text.contains(caveat), text)
    gapped.gaps = []
    XCTAssertNil(ReleaseComparisonPresentation.coverageCaveat("later", gapped))
  }

  /// #41.8: compare counted DNS lookups among the connections with no name.
  func testADNSLookupIsNotAConnectionWithoutAName() {
    var lookup = FlowFixture.udp(id: 1, port: 53, at: 1)
    lookup.dnsQuestions = ["api.example.com"]
    let unnamed = FlowFixture.tcp(id: 2, at: 2)
    let domains = SessionDomains(flows: [lookup, unnamed])
    XCTAssertEqual(domains.unnamedFlowIDs, [2])
  }
}
