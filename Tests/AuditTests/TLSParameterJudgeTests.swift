import Audit
import AuditRules
import AuditWording
import Foundation
import TestSupport
import XCTest

/// The TLS parameter check over stored readings: each rule of the bundled TR-02102-2 tables, at
/// the edges of their years, on each leg; and the TLS client check against a baseline.
final class TLSParameterJudgeTests: XCTestCase {
  let catalogue = try! RequirementCatalogueLibrary.catalogue(identifier: "tr-03161-1_3.0")

  func judge(
    _ version: TLSProtocolVersion = .tls12, suite: UInt16 = 0xC02F,
    parameters: ServerTLSParameters = ServerTLSParameters(
      group: 23, signatureScheme: 0x0804, extensions: [0xFF01, 23], compressionMethod: 0),
    key: CertificateKeyReading? = nil, offer: ClientTLSOffer? = nil, year: Int = 2026,
    source: TLSReadingSource = .serverHello
  ) -> [TLSParameterObservation] {
    TLSParameterJudge(
      recommendations: catalogue.policy.tlsRecommendations!, document: catalogue.policy.tlsDocument,
      year: year
    ).judge(
      ServerTLSHandshake(
        version: version, cipherSuite: suite, fromHelloRetryRequest: false, source: source,
        parameters: parameters), key: key, offer: offer)
  }

  func testARecommendedTLS12HandshakeWithItsExtensionsHasNothingToReport() {
    XCTAssertEqual(judge(), [])
    XCTAssertEqual(
      judge(
        .tls13, suite: 0x1301,
        parameters: ServerTLSParameters(group: 31, extensions: [43, 51], compressionMethod: 0)),
      [], "brainpoolP256r1tls13")
  }

  func testTheTablesAreReadFromTheCatalogueWithTheirYears() throws {
    let r = try XCTUnwrap(catalogue.policy.tlsRecommendations)
    let twelve = r.cipherSuites[.tls12] ?? [:]
    XCTAssertEqual(twelve.count, 51, "Tables 2 to 4")
    XCTAssertEqual(r.cipherSuites[.tls13]?.keys.sorted(), [0x1301, 0x1302, 0x1304])
    XCTAssertEqual(
      r.cipherSuites[.tls12]?[0x009E]?.until, RecommendedUntil(year: 2029, extended: false))
    XCTAssertEqual(
      r.cipherSuites[.tls12]?[0xC02F]?.until, RecommendedUntil(year: 2031, extended: true))
    XCTAssertEqual(r.groups[.tls13]?.keys.sorted(), [23, 24, 25, 31, 32, 33, 257, 258])
    XCTAssertEqual(r.minimumKeys["RSA"]?.bits, 3000)
    XCTAssertEqual(r.minimumKeys["ECDSA"]?.bits, 250)
    XCTAssertEqual(catalogue.policy.tlsDocument, "BSI TR-02102-2 (2025-01)")
  }

  func testAnItemIsRecommendedThroughItsLastYearAndNotAfter() {
    let dhe = ServerTLSParameters(
      dhPrimeBits: 3072, signatureScheme: 0x0804, extensions: [0xFF01, 23], compressionMethod: 0)
    XCTAssertEqual(judge(suite: 0x009E, parameters: dhe, year: 2029), [])
    let after = judge(suite: 0x009E, parameters: dhe, year: 2030)
    XCTAssertEqual(after.map(\.item), [.cipherSuite(0x009E)])
    XCTAssertEqual(after.first?.standing, .recommendedUntil(2029))
    XCTAssertEqual(after.first?.reference, "2")
    // "2031+" holds beyond its year.
    XCTAssertEqual(judge(year: 2040), [])
  }

  func testWhatNoTableListsIsNotListedAndKeysAreMeasuredAgainstTable13() {
    let found = judge(
      suite: 0x002F,
      parameters: ServerTLSParameters(extensions: [0xFF01, 23], compressionMethod: 0),
      key: CertificateKeyReading(
        algorithm: "RSA", bits: 2048, signature: "sha256WithRSAEncryption", source: .serverHello))
    XCTAssertEqual(
      found.map(\.item),
      [
        .cipherSuite(0x002F), .certificateKey(algorithm: "RSA", bits: 2048),
        .certificateSignature("sha256WithRSAEncryption", scheme: 0x0401),
        .extensionMissing(22),
      ])
    XCTAssertEqual(found[0].standing, .notListed)
    XCTAssertEqual(found[0].reference, "2, 3, 4")
    XCTAssertEqual(found[1].standing, .belowMinimum(3000))
    XCTAssertEqual(found[2].standing, .recommendedUntil(2025))
    XCTAssertEqual(found[3].standing, .recommended)
    XCTAssertEqual(found[3].reference, "§3.3.4.5", "a CBC suite without Encrypt-then-MAC")
    let ed25519 = judge(
      key: CertificateKeyReading(
        algorithm: "Ed25519", bits: 253, signature: "ED25519", source: .serverHello))
    XCTAssertEqual(ed25519.map(\.standing), [.notListed, .notListed])
    XCTAssertEqual(
      judge(
        key: CertificateKeyReading(
          algorithm: "EC", bits: 256, curve: "brainpoolP256r1", signature: "ecdsa-with-SHA256",
          source: .serverHello)), [])
  }

  func testExtensionsTheDocumentAdvisesAgainstAndEarlyDataAreFound() {
    let found = judge(
      parameters: ServerTLSParameters(
        group: 23, signatureScheme: 0x0804, extensions: [15, 4], compressionMethod: 1),
      offer: ClientTLSOffer(versionsForm: .listed, versions: [.tls13], extensions: [0, 42]))
    XCTAssertEqual(
      found.map(\.item),
      [
        .extensionMissing(23), .extensionMissing(0xFF01), .extensionUsed(4), .extensionUsed(15),
        .compression(1), .earlyData,
      ])
    XCTAssertEqual(found.last?.leg, .appOffer)
    XCTAssertEqual(Set(found.map(\.kind)), [.extensionMissing, .featureAdvisedAgainst])
  }

  func testTheProxysLegIsSaidAndItsUnreadParametersAreNotJudged() throws {
    let found = judge(
      .tls13, suite: 0xC02F, parameters: ServerTLSParameters(), source: .upstreamConnection)
    XCTAssertEqual(found.map(\.item), [.cipherSuite(0xC02F)])
    let o = try XCTUnwrap(found.first)
    XCTAssertEqual(o.leg, .proxyConnection)
    let statement = EvidenceWording.statement(
      of: .tlsParameter(o, host: "api.example"), minimum: .tls12)
    XCTAssertEqual(
      statement,
      "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256 (0xC02F) is not among the cipher suites BSI TR-02102-2 (2025-01) recommends for TLS 1.3 (Table 12). It was read from the inspecting proxy's own connection to the server: the server's answer to the proxy's offer, not to the app's."
    )
  }

  func testACatalogueWithoutRecommendationsAssessesNoParameter() throws {
    let data = try XCTUnwrap(RequirementCatalogueLibrary.data(identifier: "tr-03161-1_3.0"))
    var root = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    var tls = try XCTUnwrap(root["tls"] as? [String: Any])
    tls["recommendations"] = nil
    root["tls"] = tls
    let bare = try RequirementCatalogue(data: JSONSerialization.data(withJSONObject: root))
    XCTAssertNil(bare.policy.tlsRecommendations)
    var flow = FlowFixture.tcp(id: 1, at: 0, sni: "a.example.com", status: .encrypted)
    flow.serverTLS = .negotiated(
      version: .tls12, cipherSuite: 0x002F, fromHelloRetryRequest: false, source: .serverHello)
    let session = AuditSession(
      id: 1, projectID: 1, kind: .audit(AppRelease(version: "1", build: "1")),
      environment: FlowFixture.environment,
      inspection: InspectionConditions(inspectionEnabled: false, scenario: nil),
      startedAt: FlowFixture.at(0), endedAt: FlowFixture.at(10), notes: "")
    let context = CheckContext(
      project: AuditProject(
        id: 1, name: "P", bundleIdentifier: nil, catalogueVersion: nil, allowlist: [],
        createdAt: FlowFixture.epoch), session: session, markers: [], policy: bare.policy)
    XCTAssertEqual(TLSParameterCheck.assess(flow, in: context), .notAssessed(.noRecommendations))
    // A miswritten table is refused with its place.
    tls["recommendations"] = [
      "cipherSuites": [["version": "1.2", "table": "2", "values": ["0x002F"]]]
    ]
    root["tls"] = tls
    XCTAssertThrowsError(
      try RequirementCatalogue(data: JSONSerialization.data(withJSONObject: root))
    ) {
      XCTAssertEqual(
        $0 as? RequirementCatalogueError,
        .missingField(field: "tls.recommendations.cipherSuites[0].until", requirement: nil))
    }
  }

  func testAClientTheBaselineNeverShowedIsAFindingAndOneItShowedIsNot() {
    var flow = FlowFixture.tcp(id: 1, at: 0, sni: "api.example.com", status: .encrypted)
    flow.clientTLS = ClientTLSOffer(
      versionsForm: .listed, versions: [.tls13], ja4: "t13d0000h2_a_b")
    let project = AuditProject(
      id: 1, name: "P", bundleIdentifier: nil, catalogueVersion: nil, allowlist: [],
      createdAt: FlowFixture.epoch)
    func session(_ kind: AuditSessionKind) -> AuditSession {
      AuditSession(
        id: 2, projectID: 1, kind: kind, environment: FlowFixture.environment,
        inspection: InspectionConditions(inspectionEnabled: false, scenario: nil),
        startedAt: FlowFixture.at(0),
        endedAt: FlowFixture.at(10), notes: "")
    }
    func outcome(
      _ baseline: TLSClientBaseline?,
      _ kind: AuditSessionKind = .audit(
        AppRelease(version: "1", build: "1"))
    ) -> CheckOutcome<TLSClientGap> {
      TLSClientCheck.assess(
        flow,
        in: CheckContext(
          project: project, session: session(kind), markers: [], policy: catalogue.policy,
          baseline: baseline))
    }
    XCTAssertEqual(outcome(nil), .notAssessed(.noBaseline))
    XCTAssertEqual(
      outcome(TLSClientBaseline(sessionID: 1, fingerprints: ["t13d0000h2_a_b"])), .satisfied)
    XCTAssertEqual(
      outcome(TLSClientBaseline(sessionID: 1, fingerprints: ["t13d1516h2_c_d"])),
      .finding(.tlsClientNotInBaseline(fingerprint: "t13d0000h2_a_b", host: "api.example.com")))
    XCTAssertEqual(outcome(nil, .baseline), .notAssessed(.sessionIsBaseline))
  }
}
