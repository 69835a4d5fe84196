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

/// One test per row of the five assessment tables of the spec (§ Findings).
final class TLSVersionAssessmentTests: XCTestCase {
  let min = TLSProtocolVersion.tls12
  func flow(
    _ answer: ServerTLSAnswer? = nil, offer: ClientTLSOffer? = nil, quic: QUICReading? = nil,
    status: TLSInspectionStatus = .encrypted, udp: Bool = false
  ) -> StoredFlow {
    var f = udp ? FlowFixture.udp(quic: quic) : FlowFixture.tcp(status: status)
    f.serverTLS = answer
    f.clientTLS = offer
    f.tlsStatus = status
    return f
  }
  func hello(_ v: TLSProtocolVersion) -> ServerTLSAnswer {
    .negotiated(version: v, cipherSuite: 0x1301, fromHelloRetryRequest: false, source: .serverHello)
  }
  func upstream(_ v: TLSProtocolVersion) -> ServerTLSAnswer {
    .negotiated(
      version: v, cipherSuite: 0x1301, fromHelloRetryRequest: false, source: .upstreamConnection)
  }

  func testAServerHelloBelowTheMinimumIsWeakFromTheServerHello() {
    XCTAssertEqual(
      TLSVersionAssessment(of: flow(hello(.tls10)), minimum: min),
      .weak(TLSVersionObservation(version: .tls10, basis: .serverHello)))
  }
  func testAServerHelloAtOrAboveTheMinimumIsAcceptableWhateverTheClientOffered() {
    let offer = ClientTLSOffer(versionsForm: .upTo, versions: [.tls12])
    XCTAssertEqual(
      TLSVersionAssessment(of: flow(hello(.tls12), offer: offer), minimum: min),
      .acceptable(TLSVersionObservation(version: .tls12, basis: .serverHello)))
    XCTAssertEqual(
      TLSVersionAssessment(of: flow(hello(.tls13)), minimum: min),
      .acceptable(TLSVersionObservation(version: .tls13, basis: .serverHello)))
  }
  func testAnUpstreamReadingBelowTheMinimumIsWeakFromTheUpstreamConnection() {
    XCTAssertEqual(
      TLSVersionAssessment(of: flow(upstream(.tls11)), minimum: min),
      .weak(TLSVersionObservation(version: .tls11, basis: .upstreamConnection)))
  }
  func testAnUpstreamReadingIsAcceptableOnlyWhenTheAppListedPublishedVersionsNoneBelowTheMinimum() {
    let listed = ClientTLSOffer(versionsForm: .listed, versions: [.tls13, .tls12])
    XCTAssertEqual(
      TLSVersionAssessment(of: flow(upstream(.tls13), offer: listed), minimum: min),
      .acceptable(TLSVersionObservation(version: .tls13, basis: .upstreamConnection)))
  }
  func testAnUpstreamReadingWithAnUnsettlingOfferIsNotAssessedWithTheReason() {
    let cases: [(ClientTLSOffer?, AppOfferGap)] = [
      (nil, .clientHelloNotRead),
      (ClientTLSOffer(versionsForm: .upTo, versions: [.tls13]), .versionsNotListed),
      (
        ClientTLSOffer(versionsForm: .listed, versions: [.tls13, .tls12, .tls10]),
        .listsVersionBelowMinimum(.tls10)
      ),
      (
        ClientTLSOffer(
          versionsForm: .listed, versions: [TLSProtocolVersion(rawValue: 0x7f1c), .tls13]),
        .listsUnpublishedVersion(TLSProtocolVersion(rawValue: 0x7f1c))
      ),
    ]
    for (offer, gap) in cases {
      XCTAssertEqual(
        TLSVersionAssessment(of: flow(upstream(.tls13), offer: offer), minimum: min),
        .notAssessed(.appNegotiationNotObserved(gap)))
    }
  }
  func testAVersionThatIsNotPublishedIsNotAssessed() {
    let odd = TLSProtocolVersion(rawValue: 0x7f1c)
    XCTAssertEqual(
      TLSVersionAssessment(of: flow(hello(odd)), minimum: min),
      .notAssessed(.unrecognisedVersion(odd)))
    XCTAssertEqual(
      TLSVersionAssessment(of: flow(upstream(odd)), minimum: min),
      .notAssessed(.unrecognisedVersion(odd)))
  }
  func testAnAlertInsteadOfAServerHelloIsNotAssessed() {
    XCTAssertEqual(
      TLSVersionAssessment(of: flow(.refused(alert: 70)), minimum: min),
      .notAssessed(.serverRefused(alert: 70)))
  }
  func testQUICv1OrV2FromTheServerIsTLS13FromQUIC() {
    for v in [QUICReading.version1, QUICReading.version2] {
      XCTAssertEqual(
        TLSVersionAssessment(
          of: flow(quic: QUICReading(version: v, end: .server), udp: true), minimum: min),
        .acceptable(TLSVersionObservation(version: .tls13, basis: .quic)))
    }
  }
  func testQUICReadOnlyFromTheClientIsNotAssessed() {
    XCTAssertEqual(
      TLSVersionAssessment(
        of: flow(quic: QUICReading(version: QUICReading.version1, end: .client), udp: true),
        minimum: min), .notAssessed(.quicVersionOnlyProposed))
  }
  func testAQUICVersionNotKnownToCarryTLS13IsNotAssessed() {
    XCTAssertEqual(
      TLSVersionAssessment(
        of: flow(quic: QUICReading(version: 0xff00_001d, end: .server), udp: true), minimum: min),
      .notAssessed(.unrecognisedQUICVersion(0xff00_001d)))
  }
  func testNoReadingButEncryptedStatusOrAClientHelloIsServerAnswerNotRead() {
    XCTAssertEqual(
      TLSVersionAssessment(of: flow(status: .encrypted), minimum: min),
      .notAssessed(.serverAnswerNotRead))
    XCTAssertEqual(
      TLSVersionAssessment(
        of: flow(
          offer: ClientTLSOffer(versionsForm: .listed, versions: [.tls13]), status: .plaintext),
        minimum: min), .notAssessed(.serverAnswerNotRead))
  }
  func testNoReadingAndNoSignOfTLSOrQUICIsNotApplicable() {
    XCTAssertEqual(TLSVersionAssessment(of: flow(status: .plaintext), minimum: min), .notApplicable)
  }
}

final class EncryptionAssessmentTests: XCTestCase {
  func testAnHTTPRequestIsCleartextOnAnyPortWhateverTheStatus() {
    for (port, status) in [
      (UInt16(80), TLSInspectionStatus.plaintext), (443, .encrypted), (8443, .inspected),
    ] {
      var f = FlowFixture.tcp(port: port, status: status)
      f.streamOpening = .httpRequest
      XCTAssertEqual(EncryptionAssessment(of: f), .cleartext(.http))
    }
  }
  func testTCPWithATLSHandshakeOrAnyTLSReadingIsEncrypted() {
    var a = FlowFixture.tcp(status: .plaintext)
    a.streamOpening = .tlsHandshake
    var b = FlowFixture.tcp(status: .plaintext)
    b.clientTLS = ClientTLSOffer(versionsForm: .listed, versions: [.tls13])
    var c = FlowFixture.tcp(status: .plaintext)
    c.serverTLS = .refused(alert: 40)
    let d = FlowFixture.tcp(status: .notInspectable)
    for f in [a, b, c, d] { XCTAssertEqual(EncryptionAssessment(of: f), .encrypted(.tls)) }
  }
  func testTCPThatOpenedWithSomethingElseIsAnUnrecognisedOpening() {
    var f = FlowFixture.tcp()
    f.streamOpening = .unrecognised
    XCTAssertEqual(EncryptionAssessment(of: f), .notAssessed(.unrecognisedOpening))
  }
  func testTCPWithNothingReadIsNotAssessedEvenOn443() {
    XCTAssertEqual(
      EncryptionAssessment(of: FlowFixture.tcp(port: 443, status: .encrypted)),
      .notAssessed(.openingNotRead))
    XCTAssertEqual(
      EncryptionAssessment(of: FlowFixture.tcp(port: 80, status: .plaintext)),
      .notAssessed(.openingNotRead))
  }
  func testUDPWithAKnownQUICVersionFromEitherEndIsEncrypted() {
    for end in [QUICReading.End.client, .server] {
      XCTAssertEqual(
        EncryptionAssessment(
          of: FlowFixture.udp(quic: QUICReading(version: QUICReading.version2, end: end))),
        .encrypted(.quic))
    }
  }
  func testUDPWithAnotherQUICVersionIsNotAssessed() {
    XCTAssertEqual(
      EncryptionAssessment(
        of: FlowFixture.udp(quic: QUICReading(version: 0x1a2a_3a4a, end: .server))),
      .notAssessed(.unrecognisedQUICVersion(0x1a2a_3a4a)))
  }
  func testUDPWithNoQUICReadingIsNotAssessedOn443AndDNSIsTheNetworksOwn() {
    XCTAssertEqual(
      EncryptionAssessment(of: FlowFixture.udp(port: 443)), .notAssessed(.datagramsNotRead))
    XCTAssertEqual(EncryptionAssessment(of: FlowFixture.udp(port: 53)), .notApplicable)
  }
  func testNeitherTCPNorUDPIsNotApplicable() {
    var f = FlowFixture.tcp()
    f.ipProtocol = .icmp
    XCTAssertEqual(EncryptionAssessment(of: f), .notApplicable)
  }
}

final class HostAssessmentTests: XCTestCase {
  func project(_ patterns: [String]) -> AuditProject {
    AuditProject(
      id: 1, name: "P", bundleIdentifier: nil, catalogueVersion: nil,
      allowlist: patterns.map { AllowlistEntry(pattern: try! DomainPattern(parsing: $0)) },
      createdAt: FlowFixture.epoch)
  }
  let listed = ["*.example.com", "api.example.org"]

  func testNoNameAndNoClientHelloIsUnnamed() {
    XCTAssertEqual(
      HostAssessment(of: FlowFixture.tcp(), project: project(listed)), .unnamed(.noClientHelloRead))
  }
  func testNoNameAndAClientHelloThatAnnouncedNoneIsUnnamed() {
    var f = FlowFixture.tcp()
    f.clientTLS = ClientTLSOffer(versionsForm: .listed, versions: [.tls13])
    XCTAssertEqual(
      HostAssessment(of: f, project: project(listed)), .unnamed(.serverNameNotAnnounced))
  }
  func testNoNameAndAnEncryptedClientHelloIsUnnamedForThatReason() {
    var f = FlowFixture.tcp()
    f.clientTLS = ClientTLSOffer(
      versionsForm: .listed, versions: [.tls13], encryptedClientHello: true)
    XCTAssertEqual(HostAssessment(of: f, project: project(listed)), .unnamed(.encryptedClientHello))
  }
  func testANameWithAnEmptyAllowlistIsNotAssessed() {
    XCTAssertEqual(
      HostAssessment(of: FlowFixture.tcp(sni: "a.example.com"), project: project([])),
      .notAssessed(.allowlistEmpty))
  }
  func testAnAnnouncedNameTheAllowlistCoversIsAllowed() {
    XCTAssertEqual(
      HostAssessment(of: FlowFixture.tcp(sni: "CDN.Example.com."), project: project(listed)),
      .allowed)
  }
  func testAnAnnouncedNameItDoesNotCoverIsNotInAllowlistNormalised() {
    XCTAssertEqual(
      HostAssessment(of: FlowFixture.tcp(sni: "Tracker.Example.NET"), project: project(listed)),
      .notInAllowlist(host: "tracker.example.net"))
    XCTAssertEqual(
      HostAssessment(of: FlowFixture.tcp(sni: "example.com"), project: project(listed)),
      .notInAllowlist(host: "example.com"))
  }
  func testTheSNIColumnIsNotReadWhenEmptyAndTheDNSNameDecides() {
    var f = FlowFixture.tcp(sni: "")
    f.dnsName = "api.example.org"
    XCTAssertEqual(HostAssessment(of: f, project: project(listed)), .allowed)
  }
  func testADNSNameWhoseCandidatesAreAllCoveredIsAllowed() {
    var f = FlowFixture.tcp()
    f.dnsName = "a.example.com"
    f.dnsOtherNames = ["api.example.org"]
    XCTAssertEqual(HostAssessment(of: f, project: project(listed)), .allowed)
  }
  func testADNSNameWhoseCandidatesAreNoneCoveredIsNotInAllowlistUnderTheAttributedName() {
    var f = FlowFixture.tcp()
    f.dnsName = "x.tracker.net"
    f.dnsOtherNames = ["y.tracker.net"]
    XCTAssertEqual(
      HostAssessment(of: f, project: project(listed)), .notInAllowlist(host: "x.tracker.net"))
  }
  func testADNSNameWhoseCandidatesFallOnBothSidesIsNotAssessedSayingWhichSideTheNameIsOn() {
    var f = FlowFixture.tcp()
    f.dnsName = "a.example.com"
    f.dnsOtherNames = ["x.tracker.net"]
    XCTAssertEqual(
      HostAssessment(of: f, project: project(listed)),
      .notAssessed(.candidatesDisagree(attributedNameAllowed: true)))
    f.dnsName = "x.tracker.net"
    f.dnsOtherNames = ["a.example.com"]
    XCTAssertEqual(
      HostAssessment(of: f, project: project(listed)),
      .notAssessed(.candidatesDisagree(attributedNameAllowed: false)))
  }
}

final class PinningAssessmentTests: XCTestCase {
  let on = InspectionConditions(inspectionEnabled: true, caTrusted: true)
  func tls(_ status: TLSInspectionStatus = .encrypted, sni: String? = "api.example.com")
    -> StoredFlow
  {
    var f = FlowFixture.tcp(sni: sni, status: status)
    f.streamOpening = .tlsHandshake
    return f
  }

  func testNoOutcomeAndNoSignOfTLSOrQUICIsNotApplicable() {
    XCTAssertEqual(
      PinningAssessment(of: FlowFixture.tcp(port: 443), conditions: on), .notApplicable)
    XCTAssertEqual(PinningAssessment(of: FlowFixture.udp(port: 53), conditions: on), .notApplicable)
  }
  func testAnHTTPRequestInTheClearIsNotApplicableWhateverThePortsStatus() {
    var f = FlowFixture.tcp(port: 443, status: .inspected)
    f.streamOpening = .httpRequest
    XCTAssertEqual(PinningAssessment(of: f, conditions: on), .notApplicable)
  }
  func testAnythingElseWithInspectionOffIsNotAssessed() {
    XCTAssertEqual(
      PinningAssessment(of: tls(.inspected), conditions: .off), .notAssessed(.inspectionOff))
    XCTAssertEqual(
      PinningAssessment(
        of: tls(.inspected),
        conditions: InspectionConditions(inspectionEnabled: false, caTrusted: true)),
      .notAssessed(.inspectionOff))
  }
  func testWithInspectionOnAndNoScenarioStatedItIsNotAssessed() {
    XCTAssertEqual(
      PinningAssessment(
        of: tls(.inspected),
        conditions: InspectionConditions(inspectionEnabled: true, caTrusted: false)),
      .notAssessed(.scenarioNotStated))
  }

  func testEachScenarioReadsAnAcceptanceAndARefusalForWhatItCanShow() {
    func pinning(_ status: TLSInspectionStatus, _ scenario: CertificateScenario)
      -> PinningAssessment
    {
      PinningAssessment(
        of: tls(status, sni: "api.example.com"),
        conditions: InspectionConditions(inspectionEnabled: true, scenario: scenario))
    }
    XCTAssertEqual(pinning(.inspected, .userCA), .absent(host: "api.example.com"))
    XCTAssertEqual(pinning(.notInspectable, .userCA), .notAssessed(.userCARefused))
    for scenario in [CertificateScenario.notInstalled, .wrongHost, .expired] {
      XCTAssertEqual(pinning(.inspected, scenario), .notAssessed(.scenarioTestsValidation))
    }
    XCTAssertEqual(pinning(.notInspectable, .systemTrust), .observed(host: "api.example.com"))
  }
  func testInspectedWithAnAnnouncedNameIsAbsentUnderThatName() {
    XCTAssertEqual(
      PinningAssessment(of: tls(.inspected, sni: "API.example.com"), conditions: on),
      .absent(host: "api.example.com"))
  }
  func testNotInspectableWithAnAnnouncedNameIsObservedUnderThatName() {
    XCTAssertEqual(
      PinningAssessment(of: tls(.notInspectable), conditions: on),
      .observed(host: "api.example.com"))
  }
  func testAnOutcomeWithoutAnAnnouncedNameIsNotAssessed() {
    var f = tls(.notInspectable, sni: nil)
    f.dnsName = "api.example.com"
    XCTAssertEqual(
      PinningAssessment(of: f, conditions: on), .notAssessed(.outcomeWithoutAnnouncedName))
  }
  func testAQUICReadingAndNoOutcomeIsNotInspected() {
    XCTAssertEqual(
      PinningAssessment(
        of: FlowFixture.udp(quic: QUICReading(version: QUICReading.version1, end: .server)),
        conditions: on), .notAssessed(.quicNotInspected))
  }
  func testTLSOverTCPAndNoOutcomeIsNoInspectionOutcome() {
    XCTAssertEqual(
      PinningAssessment(of: tls(.encrypted), conditions: on), .notAssessed(.noInspectionOutcome))
  }
}

final class ConsentAssessmentTests: XCTestCase {
  let audit = AuditSessionKind.audit(AppRelease(version: "1", build: "1"))
  func markers(_ seconds: Double...) -> [SessionMarker] {
    seconds.enumerated().map {
      SessionMarker(
        id: Int64($0.offset), sessionID: 1, date: FlowFixture.at($0.element), kind: .consentGiven)
    }
  }

  func testABaselineIsNotApplicableWithOrWithoutMarkers() {
    XCTAssertEqual(
      ConsentAssessment(of: FlowFixture.tcp(at: 0), sessionKind: .baseline, consent: nil),
      .notApplicable)
    XCTAssertEqual(
      ConsentAssessment(
        of: FlowFixture.tcp(at: 0), sessionKind: .baseline,
        consent: ConsentInterval(markers: markers(10))), .notApplicable)
  }
  func testNoConsentMarkerIsNotAssessed() {
    let others = [SessionMarker(id: 1, sessionID: 1, date: FlowFixture.at(5), kind: .loggedIn)]
    XCTAssertNil(ConsentInterval(markers: others))
    XCTAssertEqual(
      ConsentAssessment(of: FlowFixture.tcp(at: 0), sessionKind: audit, consent: nil),
      .notAssessed(.noConsentMarker))
  }
  func testAFirstPacketBeforeTheEarliestMarkerIsBeforeConsent() {
    XCTAssertEqual(
      ConsentAssessment(
        of: FlowFixture.tcp(at: 9.999), sessionKind: audit,
        consent: ConsentInterval(markers: markers(20, 10))), .beforeConsent)
  }
  func testAFirstPacketAtTheLatestMarkerOrAfterIsAfterConsent() {
    let interval = ConsentInterval(markers: markers(10, 20))
    XCTAssertEqual(
      ConsentAssessment(of: FlowFixture.tcp(at: 20), sessionKind: audit, consent: interval),
      .afterConsent)
    XCTAssertEqual(
      ConsentAssessment(of: FlowFixture.tcp(at: 30), sessionKind: audit, consent: interval),
      .afterConsent)
    XCTAssertEqual(
      ConsentAssessment(
        of: FlowFixture.tcp(at: 10), sessionKind: audit,
        consent: ConsentInterval(markers: markers(10))), .afterConsent)
  }
  func testAFirstPacketFromTheEarliestMarkerOnAndBeforeTheLatestIsBetween() {
    let interval = ConsentInterval(markers: markers(10, 20))
    XCTAssertEqual(
      ConsentAssessment(of: FlowFixture.tcp(at: 10), sessionKind: audit, consent: interval),
      .notAssessed(.betweenConsentMarkers))
    XCTAssertEqual(
      ConsentAssessment(of: FlowFixture.tcp(at: 19.9), sessionKind: audit, consent: interval),
      .notAssessed(.betweenConsentMarkers))
  }
}
