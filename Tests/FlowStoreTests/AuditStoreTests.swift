import Audit
import AuditRules
import AuditWording
import FlowStore
import Foundation
import TestSupport
import XCTest

final class AuditStoreTests: StoreTestCase {
  func project(_ name: String = "Example Health", at seconds: Double = 0, allow: [String] = [])
    throws -> AuditProject
  {
    try store.createAuditProject(
      AuditProjectDraft(
        name: name, bundleIdentifier: "de.example.health",
        allowlist: try allow.map {
          AllowlistEntry(pattern: try DomainPattern(parsing: $0), note: "note for \($0)")
        }), at: FlowFixture.at(seconds))
  }

  func assertRefused<T>(
    _ expected: AuditStoreError, _ body: @autoclosure () throws -> T, line: UInt = #line
  ) {
    XCTAssertThrowsError(try body(), line: line) {
      XCTAssertEqual($0 as? AuditStoreError, expected, line: line)
    }
  }

  // MARK: Projects

  func testAProjectKeepsItsAllowlistInTheOrderItWasWrittenWithNotes() throws {
    let created = try project(allow: ["z.example.com", "*.cdn.example.net", "a.example.com"])
    let read = try XCTUnwrap(store.auditProject(id: created.id))
    XCTAssertEqual(
      read.allowlist.map(\.pattern.text), ["z.example.com", "*.cdn.example.net", "a.example.com"])
    XCTAssertEqual(
      read.allowlist.map(\.note),
      ["note for z.example.com", "note for *.cdn.example.net", "note for a.example.com"])
    XCTAssertEqual(read.bundleIdentifier, "de.example.health")
    XCTAssertEqual(read.createdAt, FlowFixture.at(0))
    XCTAssertEqual(read, created)
  }

  func testAnEmptyProjectNameIsRefused() throws {
    assertRefused(
      .emptyProjectName,
      try store.createAuditProject(AuditProjectDraft(name: "  \n "), at: FlowFixture.epoch))
    let p = try project()
    assertRefused(
      .emptyProjectName, try store.updateAuditProject(id: p.id, with: AuditProjectDraft(name: "")))
    XCTAssertEqual(try store.auditProjects().count, 1)
  }

  func testADuplicatePatternIsRefusedAndNothingIsWritten() throws {
    let draft = AuditProjectDraft(
      name: "P",
      allowlist: [
        AllowlistEntry(pattern: try DomainPattern(parsing: "api.example.com")),
        AllowlistEntry(pattern: try DomainPattern(parsing: "API.example.com.")),
      ])
    assertRefused(
      .duplicateAllowlistPattern("api.example.com"),
      try store.createAuditProject(draft, at: FlowFixture.epoch))
    XCTAssertEqual(try store.auditProjects(), [])
  }

  func testProjectsComeNewestFirst() throws {
    let older = try project("Older", at: 0)
    let newer = try project("Newer", at: 60)
    XCTAssertEqual(try store.auditProjects().map(\.id), [newer.id, older.id])
  }

  func testUpdatingAProjectReplacesItsAllowlist() throws {
    let p = try project(allow: ["a.example.com", "b.example.com"])
    var draft = AuditProjectDraft(p)
    draft.name = "Renamed"
    draft.allowlist = [
      AllowlistEntry(pattern: try DomainPattern(parsing: "*.example.org"), note: nil)
    ]
    let updated = try store.updateAuditProject(id: p.id, with: draft)
    XCTAssertEqual(updated.name, "Renamed")
    XCTAssertEqual(updated.allowlist.map(\.pattern.text), ["*.example.org"])
    assertRefused(.projectNotFound(99), try store.updateAuditProject(id: 99, with: draft))
    assertRefused(.projectNotFound(99), try store.deleteAuditProject(id: 99))
  }

  // MARK: Sessions

  func testOnlyOneSessionCanBeOpenAcrossAllProjectsAndTheOneInTheWayIsNamed() throws {
    let a = try project("A")
    let b = try project("B")
    let open = try store.startAuditSession(
      FlowFixture.sessionDraft(project: a.id), at: FlowFixture.at(10))
    assertRefused(
      .sessionAlreadyOpen(open.id),
      try store.startAuditSession(
        FlowFixture.sessionDraft(project: b.id, kind: .baseline), at: FlowFixture.at(20)))
    assertRefused(
      .sessionAlreadyOpen(open.id),
      try store.startAuditSession(FlowFixture.sessionDraft(project: a.id), at: FlowFixture.at(20)))
    _ = try store.endAuditSession(id: open.id, at: FlowFixture.at(30))
    XCTAssertNoThrow(
      try store.startAuditSession(
        FlowFixture.sessionDraft(project: b.id, kind: .baseline), at: FlowFixture.at(40)))
  }

  func testStartingInAMissingProjectIsRefused() {
    assertRefused(
      .projectNotFound(42),
      try store.startAuditSession(FlowFixture.sessionDraft(project: 42), at: FlowFixture.epoch))
  }

  func testASessionKeepsWhatItDeclared() throws {
    let p = try project()
    let draft = AuditSessionDraft(
      projectID: p.id, kind: .audit(AppRelease(version: "2.4.0", build: "0187")),
      environment: FlowFixture.environment,
      inspection: InspectionConditions(inspectionEnabled: true, caTrusted: false),
      notes: "first run")
    let started = try store.startAuditSession(draft, at: FlowFixture.at(5))
    let read = try XCTUnwrap(store.auditSession(id: started.id))
    XCTAssertEqual(read.kind, .audit(AppRelease(version: "2.4.0", build: "0187")))
    XCTAssertEqual(read.environment, FlowFixture.environment)
    XCTAssertEqual(read.inspection, InspectionConditions(inspectionEnabled: true, caTrusted: false))
    XCTAssertEqual(read.notes, "first run")
    XCTAssertEqual(read.startedAt, FlowFixture.at(5))
    XCTAssertTrue(read.isOpen)
    XCTAssertEqual(try store.openAuditSession(), read)
    XCTAssertEqual(
      try store.auditRecording(), AuditRecording(session: read, projectName: "Example Health"))
  }

  func testEndingTwiceIsRefusedAndSoIsAnEndBeforeTheStart() throws {
    let p = try project()
    let s = try store.startAuditSession(
      FlowFixture.sessionDraft(project: p.id), at: FlowFixture.at(100))
    assertRefused(
      .dateBeforeSessionStart, try store.endAuditSession(id: s.id, at: FlowFixture.at(99)))
    let ended = try store.endAuditSession(id: s.id, at: FlowFixture.at(100))
    XCTAssertEqual(ended.endedAt, FlowFixture.at(100))
    assertRefused(
      .sessionAlreadyEnded(s.id), try store.endAuditSession(id: s.id, at: FlowFixture.at(200)))
    assertRefused(.sessionNotFound(77), try store.endAuditSession(id: 77, at: FlowFixture.at(200)))
    XCTAssertNil(try store.openAuditSession())
    XCTAssertNil(try store.auditRecording())
  }

  func testSessionsComeNewestFirst() throws {
    let p = try project()
    var ids: [Int64] = []
    for i in 0..<3 {
      let s = try store.startAuditSession(
        FlowFixture.sessionDraft(project: p.id), at: FlowFixture.at(Double(i * 100)))
      _ = try store.endAuditSession(id: s.id, at: FlowFixture.at(Double(i * 100 + 50)))
      ids.append(s.id)
    }
    XCTAssertEqual(try store.auditSessions(forProject: p.id).map(\.id), ids.reversed())
  }

  // MARK: Markers

  func testMarkersComeAsTheyHappenedWhateverTheOrderTheyWereWritten() throws {
    let p = try project()
    let s = try store.startAuditSession(
      FlowFixture.sessionDraft(project: p.id), at: FlowFixture.at(0))
    _ = try store.addMarker(.loggedIn, toSession: s.id, at: FlowFixture.at(30))
    _ = try store.addMarker(.consentGiven, toSession: s.id, at: FlowFixture.at(10))
    _ = try store.addMarker(.custom("  Opened settings "), toSession: s.id, at: FlowFixture.at(20))
    let markers = try store.markers(forSession: s.id)
    XCTAssertEqual(markers.map(\.kind), [.consentGiven, .custom("Opened settings"), .loggedIn])
    XCTAssertEqual(
      markers.map(\.date), [FlowFixture.at(10), FlowFixture.at(20), FlowFixture.at(30)])
  }

  func testMarkerRulesAreEnforced() throws {
    let p = try project()
    let s = try store.startAuditSession(
      FlowFixture.sessionDraft(project: p.id), at: FlowFixture.at(100))
    assertRefused(
      .emptyMarkerLabel,
      try store.addMarker(.custom("   "), toSession: s.id, at: FlowFixture.at(150)))
    assertRefused(
      .dateBeforeSessionStart,
      try store.addMarker(.consentGiven, toSession: s.id, at: FlowFixture.at(99)))
    assertRefused(
      .sessionNotFound(55),
      try store.addMarker(.consentGiven, toSession: 55, at: FlowFixture.at(150)))
    _ = try store.endAuditSession(id: s.id, at: FlowFixture.at(200))
    assertRefused(
      .sessionAlreadyEnded(s.id),
      try store.addMarker(.consentGiven, toSession: s.id, at: FlowFixture.at(250)))
    XCTAssertEqual(try store.markers(forSession: s.id), [])
  }

  func testAMarkerForTheOpenSessionSaysWhereItWentOrThatThereIsNone() throws {
    XCTAssertEqual(
      try store.addMarkerToOpenSession(.consentGiven, at: FlowFixture.at(0)), .noOpenSession)
    let p = try project()
    let s = try store.startAuditSession(
      FlowFixture.sessionDraft(project: p.id), at: FlowFixture.at(0))
    guard
      case .placed(let marker, let recording) = try store.addMarkerToOpenSession(
        .loggedOut, at: FlowFixture.at(5))
    else {
      return XCTFail("not placed")
    }
    XCTAssertEqual(marker.sessionID, s.id)
    XCTAssertEqual(marker.kind, .loggedOut)
    XCTAssertEqual(recording.projectName, "Example Health")
    XCTAssertEqual(try store.markers(forSession: s.id), [marker])
  }

  // MARK: Deleting

  func testDeletingASessionTakesItsMarkersAndUntagsItsFlows() throws {
    let p = try project()
    let capture = try store.beginCaptureSession(at: FlowFixture.epoch)
    let s = try store.startAuditSession(
      FlowFixture.sessionDraft(project: p.id), at: FlowFixture.at(0))
    var flow = FlowFixture.tcp(at: 1)
    flow.captureSessionID = capture
    let flowID = try store.upsertFlow(flow)
    _ = try store.addMarker(.consentGiven, toSession: s.id, at: FlowFixture.at(2))
    try store.deleteAuditSession(id: s.id)  // open sessions can be deleted too
    XCTAssertNil(try store.auditSession(id: s.id))
    XCTAssertEqual(try store.markers(forSession: s.id), [])
    let kept = try XCTUnwrap(store.flow(id: flowID))
    XCTAssertNil(kept.auditSessionID)
    assertRefused(.sessionNotFound(s.id), try store.deleteAuditSession(id: s.id))
  }

  func testDeletingAProjectCascadesToItsSessionsAndKeepsTheirFlowsUntagged() throws {
    let p = try project(allow: ["a.example.com"])
    let capture = try store.beginCaptureSession(at: FlowFixture.epoch)
    let s = try store.startAuditSession(
      FlowFixture.sessionDraft(project: p.id), at: FlowFixture.at(0))
    var flow = FlowFixture.tcp(at: 1)
    flow.captureSessionID = capture
    let flowID = try store.upsertFlow(flow)
    _ = try store.endAuditSession(id: s.id, at: FlowFixture.at(5))
    try store.deleteAuditProject(id: p.id)
    XCTAssertNil(try store.auditProject(id: p.id))
    XCTAssertNil(try store.auditSession(id: s.id))
    XCTAssertEqual(try store.historyFlowCount(), 1)
    XCTAssertNil(try store.flow(id: flowID)?.auditSessionID)
    let remaining = try XCTUnwrap(
      ExternalTool.run("sqlite3", [store.databaseURL.path, "SELECT count(*) FROM audit_allowlist"]))
    XCTAssertEqual(remaining.output.trimmingCharacters(in: .whitespacesAndNewlines), "0")
  }

  // MARK: The history's mark

  func testTheHistorysMarkMovesWithEveryCommitOfEitherConnectionAndWithNothingElse() throws {
    let other = try FlowStore(directory: dir.url)
    let start = try store.historyMark()
    _ = try store.auditProjects()
    _ = try other.auditProjects()
    XCTAssertEqual(try store.historyMark(), start, "reading, here or elsewhere, commits nothing")

    _ = try other.createAuditProject(AuditProjectDraft(name: "Elsewhere"), at: FlowFixture.epoch)
    let afterOther = try store.historyMark()
    XCTAssertNotEqual(afterOther, start, "another connection's commit")

    _ = try project("Here")
    XCTAssertNotEqual(try store.historyMark(), afterOther, "this connection's own commit")
  }
}
