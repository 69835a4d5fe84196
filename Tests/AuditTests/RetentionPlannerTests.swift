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

final class RetentionPlannerTests: XCTestCase {
  let now = FlowFixture.at(30 * 86_400)
  let gb: UInt64 = 1_000_000_000
  func file(_ sequence: UInt32, daysAgo: Double?, bytes: UInt64 = 100_000_000) -> CaptureFileInfo {
    CaptureFileInfo(
      sequence: sequence, url: URL(fileURLWithPath: "/x/\(sequence)"), byteCount: bytes,
      createdAt: daysAgo.map { now.addingTimeInterval(-$0 * 86_400) })
  }
  func plan(
    _ files: [CaptureFileInfo], _ settings: RetentionSettings = .default, recording: UInt32? = nil,
    evidence: Set<UInt32> = []
  ) -> RetentionPlan {
    RetentionPlanner.plan(
      files: files, settings: settings, now: now, recordingSequence: recording,
      evidenceSequences: evidence)
  }

  func testTheDefaultsAreOneWeekAndOneGigabyte() {
    XCTAssertEqual(RetentionSettings.default.maxAge.maxAge, 7 * 86_400)
    XCTAssertEqual(RetentionSettings.default.maxCaptureSize.maxBytes, gb)
  }
  func testAFileAgesFromWhenItsSuccessorWasCreated() {
    // File 1 was created 20 days ago but written until file 2 began, 6 days ago: not yet a week old.
    let p = plan([file(1, daysAgo: 20), file(2, daysAgo: 6), file(3, daysAgo: 1)])
    XCTAssertEqual(p.filesToDelete, [])
    let q = plan([file(1, daysAgo: 20), file(2, daysAgo: 8), file(3, daysAgo: 1)])
    XCTAssertEqual(q.filesToDelete, [1])
    XCTAssertEqual(q.historyCutoff, now.addingTimeInterval(-7 * 86_400))
  }
  func testTheNewestFileIsNeverAgedOut() {
    XCTAssertEqual(plan([file(1, daysAgo: 40)]).filesToDelete, [])
  }
  func testASuccessorWithNoDateKeepsTheFile() {
    XCTAssertEqual(
      plan([file(1, daysAgo: 40), file(2, daysAgo: nil), file(3, daysAgo: 20)]).filesToDelete, [2])
  }
  func testTheSizeCapTakesTheOldestFirstWhateverTheListingOrder() {
    let files = [
      file(4, daysAgo: 1, bytes: 400_000_000), file(2, daysAgo: 3, bytes: 400_000_000),
      file(1, daysAgo: 4, bytes: 400_000_000), file(3, daysAgo: 2, bytes: 400_000_000),
    ]
    let p = plan(files, RetentionSettings(maxAge: .unlimited, maxCaptureSize: .gigabyte1))
    XCTAssertEqual(p.filesToDelete, [1, 2])
    XCTAssertEqual(p.bytesReclaimed, 800_000_000)
    XCTAssertEqual(p.captureBytesAfter, 800_000_000)
    XCTAssertNil(p.historyCutoff)
  }
  func testBothCapsTogetherAndReclaimedPlusRemainingIsTheDirectory() {
    let files = (1...10).map { file(UInt32($0), daysAgo: Double(12 - $0), bytes: 150_000_000) }
    let p = plan(files)
    XCTAssertEqual(p.bytesReclaimed + p.captureBytesAfter, 1_500_000_000)
    XCTAssertLessThanOrEqual(p.captureBytesAfter, gb)
    // 1-3 by age (their successors began 10, 9, 8 days ago), 4 by size
    XCTAssertEqual(p.filesToDelete, [1, 2, 3, 4])
  }
  func testTheRecordingFileIsNeverDeletedAndAnUnreachableCapSaysSo() {
    let files = [
      file(1, daysAgo: 10, bytes: 300_000_000), file(2, daysAgo: 9, bytes: 2_000_000_000),
    ]
    let p = plan(
      files, RetentionSettings(maxAge: .oneDay, maxCaptureSize: .gigabyte1), recording: 2)
    XCTAssertEqual(p.filesToDelete, [1])
    XCTAssertTrue(p.sizeCapUnreachable)
    XCTAssertFalse(p.sizeCapHeldByEvidence)
  }
  /// A pass that began while file 2 was written may list the files a rotation made since.
  func testNoFileClaimedAfterTheRecordingOneIsDeleted() {
    let files = (1...4).map { file(UInt32($0), daysAgo: Double(40 - $0), bytes: 600_000_000) }
    let p = plan(
      files, RetentionSettings(maxAge: .oneDay, maxCaptureSize: .gigabyte1), recording: 2)
    XCTAssertEqual(p.filesToDelete, [1])
    XCTAssertEqual(p.captureBytesAfter, 1_800_000_000)
    XCTAssertTrue(p.sizeCapUnreachable)
  }
  func testAuditEvidenceIsExemptFromBothCapsAndAnUnmetCapSaysEvidenceHoldsIt() {
    let files = [
      file(1, daysAgo: 30, bytes: 900_000_000), file(2, daysAgo: 20, bytes: 300_000_000),
      file(3, daysAgo: 10, bytes: 300_000_000),
    ]
    let p = plan(files, evidence: [1, 2])
    XCTAssertEqual(
      p.filesToDelete, [3],
      "the one file the cap may take; the newest is only safe from the age cap")
    XCTAssertEqual(p.captureBytesAfter, 1_200_000_000)
    XCTAssertTrue(p.sizeCapHeldByEvidence)
    XCTAssertFalse(p.sizeCapUnreachable)
  }
  func testUnlimitedSettingsPlanNothing() {
    let p = plan(
      [file(1, daysAgo: 400, bytes: 9 * gb), file(2, daysAgo: 300)],
      RetentionSettings(maxAge: .unlimited, maxCaptureSize: .unlimited))
    XCTAssertFalse(p.hasWork)
    XCTAssertTrue(RetentionSettings(maxAge: .unlimited, maxCaptureSize: .unlimited).isUnlimited)
  }
}
