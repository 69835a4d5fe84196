import Audit
import AuditRules
import AuditWording
import Foundation
import XCTest

final class SessionCoverageTests: XCTestCase {
  let t0 = Date(timeIntervalSince1970: 1_790_000_000)
  func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

  func session(ended: Double?, recorderAtEnd: Int64? = nil) -> AuditSession {
    AuditSession(
      id: 1, projectID: 1, kind: .baseline,
      environment: AuditEnvironment(deviceModel: "m", osVersion: "o", toolVersion: "t"),
      inspection: .off, startedAt: at(0), endedAt: ended.map(at), notes: "",
      recorderAtEnd: recorderAtEnd)
  }

  func run(
    _ id: Int64, _ from: Double, alive: Double, ended: Double? = nil, _ end: RecorderRunEnd? = nil
  )
    -> RecorderRun
  {
    RecorderRun(
      id: id, source: "gw0", isLive: true, processID: Int32(100 + id), startedAt: at(from),
      aliveAt: at(alive), endedAt: ended.map(at), end: end)
  }

  func testASessionWithinOneRunIsRecordedThroughout() {
    let c = SessionCoverage.of(
      session(ended: 60), runs: [run(1, -10, alive: 100, ended: 100, .interrupted)],
      runningProcess: nil, now: at(500), connections: [])
    XCTAssertTrue(c.isThroughout)
    XCTAssertEqual(
      CoverageWording.headline(c, open: false),
      "Recorded throughout: a recorder ran from the session's start to its end.")
  }

  func testAVanishedRunLeavesAGapFromItsLastSignOfLifeAndCountsTheConnectionsItHeld() {
    let c = SessionCoverage.of(
      session(ended: 60), runs: [run(1, -10, alive: 20)], runningProcess: nil, now: at(500),
      connections: [
        .init(run: 1, lastSeen: at(19)), .init(run: 1, lastSeen: at(-200)),
        .init(run: 2, lastSeen: at(19)),
      ])
    XCTAssertEqual(c.gaps, [.init(from: at(20), to: at(60), after: c.runs[0], cutConnections: 1)])
    XCTAssertEqual(
      CoverageWording.gapLines(c, instant: Instant.rfc3339),
      [
        "Not recorded from 2026-09-21T14:13:40Z to 2026-09-21T14:14:20Z (40 s): the recorder on gw0 (pid 101) ended without stopping (killed, crashed or the machine stopped); its last sign of life was at 2026-09-21T14:13:40Z; 1 connection it held then may be cut short."
      ])
  }

  func testAStartWithoutARecorderAndARunThatBeganLateAreNamed() {
    let c = SessionCoverage.of(
      session(ended: 60, recorderAtEnd: 1), runs: [run(1, 5, alive: 30)], runningProcess: nil,
      now: at(500), connections: [])
    XCTAssertEqual(c.gaps.map(\.from), [at(0)])
    XCTAssertEqual(c.gaps.map(\.to), [at(5)])
    XCTAssertNil(c.gaps[0].after)
  }

  func testWhatARunDidAfterTheSessionEndedIsNotItsEvidence() {
    let ended = session(ended: 60, recorderAtEnd: 1)
    let during = SessionCoverage.of(
      ended, runs: [run(1, -10, alive: 59)], runningProcess: nil, now: at(61), connections: [])
    let later = SessionCoverage.of(
      ended, runs: [run(1, -10, alive: 300, ended: 300, .vanished)], runningProcess: nil,
      now: at(900), connections: [])
    XCTAssertEqual(during, later)
    XCTAssertTrue(later.isThroughout)
    XCTAssertEqual(later.runs[0].aliveAt, at(60))
    XCTAssertNil(later.runs[0].end)
  }

  func testAnOpenSessionWithNoRecorderIsNotRecordedSinceTheLastRunEnded() {
    let c = SessionCoverage.of(
      session(ended: nil), runs: [run(1, -10, alive: 30, ended: 30, .interrupted)],
      runningProcess: nil, now: at(100), connections: [])
    XCTAssertEqual(c.gaps.count, 1)
    XCTAssertNil(c.gaps[0].to)
    XCTAssertTrue(
      CoverageWording.gapLines(c, instant: Instant.rfc3339)[0].hasPrefix("Not recorded since"))
  }
}
