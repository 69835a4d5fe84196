import Audit
import AuditRules
import FlowStore
import Foundation
import XCTest

/// The test account's values and the exchanges, as the store keeps them.
final class ContentStoreTests: StoreTestCase {
  let now = Date(timeIntervalSince1970: 1_790_000_000)

  func testValuesArePlantedInOrderOnceEachAndRefusedWhenTheyWouldMatchByChance() throws {
    let project = try store.createAuditProject(AuditProjectDraft(name: "P"), at: now)
    let email = TestDataValue(label: "e-mail", value: "anna@example.org", category: .contact)
    let id = TestDataValue(label: "android ID", value: "9774d56d682e549c", category: .device)
    try store.addTestData(email, toProject: project.id, at: now)
    try store.addTestData(id, toProject: project.id, at: now.addingTimeInterval(1))
    XCTAssertEqual(try store.testData(forProject: project.id), [email, id])
    XCTAssertThrowsError(
      try store.addTestData(
        TestDataValue(label: "e-mail", value: "other@example.org", category: .contact),
        toProject: project.id, at: now)
    ) { XCTAssertEqual($0 as? AuditStoreError, .testDataLabelTaken("e-mail")) }
    for (value, problem) in [
      ("abc", TestDataProblem.tooShort(3)), ("4711", .bareNumber(digits: 4)),
      ("73,85", .bareNumber(digits: 4)), ("a\nb c", .controlCharacter),
    ] {
      XCTAssertThrowsError(
        try store.addTestData(
          TestDataValue(label: "x", value: value, category: .other), toProject: project.id, at: now)
      ) { XCTAssertEqual($0 as? TestDataProblem, problem, value) }
    }
    XCTAssertNil(TestDataRules.problem(label: "weight", value: "73.85 kg", category: .health))
    XCTAssertNil(TestDataRules.problem(label: "n", value: "123456", category: .identifier))
    XCTAssertEqual(
      TestDataRules.problem(label: "home", value: "52.5,200", category: .location), .notCoordinates)
    try store.removeTestData(label: "e-mail", fromProject: project.id)
    XCTAssertEqual(try store.testData(forProject: project.id), [id])
    XCTAssertThrowsError(try store.removeTestData(label: "e-mail", fromProject: project.id))
    try store.deleteAuditProject(id: project.id)
    XCTAssertEqual(try store.testData(forProject: project.id), [], "gone with its project")
  }

  func testAnExchangeReadsBackAsWrittenAndGoesWithItsSession() throws {
    let project = try store.createAuditProject(AuditProjectDraft(name: "P"), at: now)
    let session = try store.startAuditSession(
      AuditSessionDraft(
        projectID: project.id, kind: .audit(AppRelease(version: "1", build: "1")),
        environment: AuditEnvironment(deviceModel: "d", osVersion: "o", toolVersion: "t"),
        inspection: .off),
      at: now)
    let exchange = HTTPExchange(
      source: .proxy, start: now, end: now.addingTimeInterval(0.25), method: "POST",
      scheme: "https", host: "api.example.org", port: 443, target: "/v1/a?b=c",
      httpVersion: "HTTP/2.0",
      requestHeaders: [
        HTTPHeader(name: "Content-Type", value: "application/json"),
        HTTPHeader(name: "X-Empty", value: ""), HTTPHeader(name: "x\u{0}y", value: "ü\u{0}"),
      ],
      requestBody: HTTPBody(
        bytes: Data("{\"a\":1}".utf8), sentByteCount: 27,
        sha256: String(repeating: "ab", count: 32),
        encoding: "gzip", decoding: .decoded),
      status: 200, responseHeaders: [HTTPHeader(name: "Server", value: "x")],
      responseBody: HTTPBody(
        bytes: Data([0xff, 0x00]), sentByteCount: 2, sha256: "cd", encoding: "br",
        decoding: .notDecoded("not Brotli"), isComplete: false))
    let id = try store.insertExchange(exchange, session: session.id)
    var expected = exchange
    expected.id = id
    XCTAssertEqual(try store.exchanges(inAuditSession: session.id), [expected])
    try store.deleteAuditSession(id: session.id)
    XCTAssertEqual(try store.exchanges(inAuditSession: session.id), [])
  }
}
