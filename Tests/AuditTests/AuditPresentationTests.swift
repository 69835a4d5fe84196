import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Foundation
import ReportContent
import ReportLayout
import ReportModel
import XCTest

final class AuditPresentationTests: XCTestCase {
  let zone = TimeZone(identifier: "Europe/Berlin")!

  func recording(project: String = "Example Health") -> AuditRecording {
    AuditRecording(
      session: AuditSession(
        id: 4, projectID: 2, kind: .audit(AppRelease(version: "2.4.0", build: "187")),
        environment: AuditEnvironment(deviceModel: "m", osVersion: "o", toolVersion: "t"),
        inspection: .off, startedAt: Date(timeIntervalSince1970: 0), endedAt: nil, notes: ""),
      projectName: project)
  }

  func testSessionListsKeepTheirDatesInOneColumnWhateverTheConnectionCounts() throws {
    let project = AuditProject(
      id: 2, name: "Example Health", bundleIdentifier: nil, catalogueVersion: nil, allowlist: [],
      createdAt: Date(timeIntervalSince1970: 0))
    let sessions = [(3, 20_000), (2, 14), (1, 3)].map { id, _ in
      AuditSession(
        id: Int64(id), projectID: 2, kind: .audit(AppRelease(version: "2.\(id)", build: "1")),
        environment: AuditEnvironment(deviceModel: "m", osVersion: "o", toolVersion: "t"),
        inspection: .off,
        startedAt: Date(timeIntervalSince1970: 1_791_540_000 + Double(id) * 86_400),
        endedAt: Date(timeIntervalSince1970: 1_791_541_000 + Double(id) * 86_400), notes: "")
    }
    let overview = ProjectOverview(
      project: project, sessions: sessions, connectionCounts: [3: 20_000, 2: 14, 1: 3],
      recording: nil,
      catalogueIdentifier: "tr-03161-1", catalogueIsDefault: true)
    for text in [
      SessionPresentation.list(overview, zone: zone),
      ProjectPresentation.text(overview, zone: zone),
    ] {
      let lines = text.split(separator: "\n").filter { $0.contains("  Ended  ") }
      XCTAssertEqual(lines.count, 3, text)
      let columns = Set(
        lines.map { line in
          line.range(of: "2026-").map { line.distance(from: line.startIndex, to: $0.lowerBound) }
        })
      XCTAssertEqual(columns.count, 1, text)
      XCTAssertTrue(lines[0].contains("20,000 connections  2026-"), text)
    }
  }

  func testSessionsAreNamedAfterWhatTheyObservedExactlyAsTyped() {
    XCTAssertEqual(AuditPresentation.sessionName(.baseline), "Baseline")
    XCTAssertEqual(
      AuditPresentation.sessionName(.audit(AppRelease(version: "2.4.0-rc.1", build: "0187"))),
      "Version 2.4.0-rc.1 (0187)")
  }

  func testAPlacedMarkerSaysItsNameTheSecondAndTheProject() {
    // 2026-10-09T19:58:34Z is 21:58:34 in Berlin (summer time).
    let marker = SessionMarker(
      id: 1, sessionID: 4, date: Date(timeIntervalSince1970: 1_791_575_914.7), kind: .consentGiven)
    XCTAssertEqual(
      AuditPresentation.markerPlaced(marker, in: recording(), zone: zone),
      "“Consent given” marked at 21:58:34+02:00 in Example Health.")
  }

  func testEveryRefusedMarkerBeginsNoMarkerWasPlaced() {
    let refusals: [AuditPresentation.MarkerRefusal] = [
      .noSessionRecording, .historyNotWritten("disk full"), .rule(.sessionAlreadyEnded(3)),
      .rule(.dateBeforeSessionStart), .rule(.emptyMarkerLabel), .rule(.sessionNotFound(3)),
    ]
    let sentences = refusals.map(AuditPresentation.markerNotPlaced)
    for sentence in sentences {
      XCTAssertTrue(sentence.hasPrefix("No marker was placed"), sentence)
    }
    XCTAssertEqual(Set(sentences).count, sentences.count, "each reason has its own sentence")
  }

  func testPinningIsAssessableOnlyWithInspectionOnAndTheCATrusted() {
    XCTAssertEqual(
      PinningEvidence(InspectionConditions(inspectionEnabled: true, caTrusted: true)), .assessable)
    XCTAssertEqual(
      PinningEvidence(InspectionConditions(inspectionEnabled: false, caTrusted: true)),
      .notAssessed(.inspectionOff))
    XCTAssertEqual(
      PinningEvidence(InspectionConditions(inspectionEnabled: false, caTrusted: false)),
      .notAssessed(.inspectionOff))
    XCTAssertEqual(
      PinningEvidence(InspectionConditions(inspectionEnabled: true, caTrusted: false)),
      .notAssessed(.scenarioNotStated))
    let sentences =
      [PinningEvidence.assessable, .notAssessed(.inspectionOff), .notAssessed(.scenarioNotStated)]
      .map(\.sentence)
      + CertificateScenario.allCases.filter { $0 != .systemTrust }.map {
        PinningEvidence.validation($0).sentence
      }
    XCTAssertEqual(Set(sentences).count, 7)
    for sentence in sentences {
      for word in ["passed", "failed", "compliant"] {
        XCTAssertNil(
          sentence.range(of: "\\b\(word)\\b", options: [.regularExpression, .caseInsensitive]),
          sentence)
      }
    }
  }

  func testStartingIsBlockedByAnotherProjectsSessionAndSaysWhose() {
    let project = AuditProject(
      id: 1, name: "Mine", bundleIdentifier: nil, catalogueVersion: nil, allowlist: [],
      createdAt: Date())
    let other = SessionStartAvailability(
      project: project, sessions: [], recording: recording(project: "Other App"))
    XCTAssertFalse(other.isAvailable)
    XCTAssertTrue(other.sentence.contains("“Other App”"), other.sentence)
    XCTAssertEqual(
      SessionStartAvailability(project: project, sessions: [], recording: nil),
      .available(suggestBaseline: true))
    XCTAssertTrue(
      SessionStartAvailability(project: project, sessions: [], recording: nil).sentence.hasPrefix(
        "Begin with a baseline"))
  }

  func testEveryRejectedPatternHasItsOwnSentenceAndAURLIsToldWhichCharacter() {
    let errors: [DomainPattern.ParseError] = [
      .empty, .misplacedWildcard, .nonASCII, .emptyLabel, .labelTooLong("x"), .nameTooLong,
      .invalidCharacter(":"),
    ]
    let sentences = errors.map { AllowlistPresentation.sentence(for: $0, pattern: "p") }
    XCTAssertEqual(Set(sentences).count, errors.count)
    XCTAssertTrue(
      AllowlistPresentation.sentence(for: .invalidCharacter(":"), pattern: "https://a.de").contains(
        "“:”"))
  }

  func testCountsAreGroupedByThousands() {
    XCTAssertEqual(Quantity.grouped(4842), "4,842")
    XCTAssertEqual(Quantity.grouped(1_234_567), "1,234,567")
    XCTAssertEqual(Quantity.count(1, "connection"), "1 connection")
    XCTAssertEqual(Quantity.count(412, "connection"), "412 connections")
  }
}

extension AuditPresentationTests {
  func testEachExportFailureHasASentenceOfItsOwnAndNoneClaimsMoreThanHappened() {
    let failures: [EvidenceExportError] = [
      .sessionNotFound, .sessionStillOpen, .catalogue(.notBundled(identifier: "x")),
      .catalogue(.unusable(identifier: "x", .noRequirements)),
      .historyUnreadable("r"), .historyChangedWhileExporting, .captureDirectoryUnavailable("r"),
      .writeFailed("disk full"),
      .destinationDirectoryMissing("/nowhere"),
      .reportNotDrawn("The report's fonts were not found."),
    ]
    for product in [EvidenceExportPresentation.Product.bundle, .report] {
      let sentences = failures.map { EvidenceExportPresentation.failure($0, making: product) }
      XCTAssertEqual(Set(sentences).count, failures.count)
      XCTAssertTrue(sentences[2].contains("No other catalogue was used instead"), sentences[2])
      XCTAssertTrue(sentences[3].contains("No other catalogue was used instead"), sentences[3])
      XCTAssertTrue(sentences[5].contains("Try again"))
      XCTAssertTrue(sentences[7].contains("free space"))
      XCTAssertTrue(
        sentences[8].hasPrefix(
          "There is no directory /nowhere to write the \(product == .bundle ? "bundle" : "report") into"
        ), sentences[8])
      XCTAssertTrue(
        sentences[8].hasSuffix(
          product == .bundle ? "Nothing was exported." : "Nothing was written."), sentences[8])
      XCTAssertEqual(
        sentences[9],
        "report.pdf could not be drawn: The report's fonts were not found. \(product == .bundle ? "Nothing was exported." : "Nothing was written.")"
      )
      XCTAssertFalse(
        sentences[9].contains("free space"), "a report that cannot be drawn is not a full disk")
    }
    XCTAssertTrue(
      EvidenceExportPresentation.failure(.sessionNotFound, making: .report).hasSuffix(
        "nothing was written."))
  }

  func testTheCaptureLinesSayWhichOfTheThreeCasesHoldsAndAlwaysWarnLast() {
    func document(_ tally: EvidencePacketTally, before: Int = 0) -> EvidenceCaptureDocument {
      EvidenceCaptureDocument(
        sessionID: 1, snaplen: nil, packets: tally, beforeStart: before, afterEnd: 0,
        sourceFiles: [], flows: [])
    }
    XCTAssertEqual(
      EvidenceExportPresentation.captureLines(document(EvidencePacketTally()).summary),
      [
        "The session recorded no packets, so the capture is empty.",
        EvidenceExportPresentation.unencryptedWarning,
      ])
    XCTAssertEqual(
      EvidenceExportPresentation.captureLines(document(EvidencePacketTally(written: 12)).summary)
        .first,
      "Every recorded packet of the session is in the capture: 12 packets.")
    let lines = EvidenceExportPresentation.captureLines(
      document(
        EvidencePacketTally(
          written: 4842,
          withoutBytes: [.notCaptured: 52, .captureFileMissing: 0, .recordUnreadable: 1]), before: 1
      ).summary)
    XCTAssertEqual(
      lines,
      [
        "⚠ 4,842 of 4,895 recorded packets are in the capture.",
        "52 were never written to a capture file.",
        "1 could not be read back from its capture file.",
        "1 packet in the capture falls outside the session's time window (1 before it started): its connection was also active during the session.",
        EvidenceExportPresentation.unencryptedWarning,
      ])
  }
}

extension AuditPresentationTests {
  func session(_ id: Int64, _ kind: AuditSessionKind, open: Bool = false) -> AuditSession {
    AuditSession(
      id: id, projectID: 1, kind: kind,
      environment: AuditEnvironment(deviceModel: "m", osVersion: "o", toolVersion: "t"),
      inspection: .off, startedAt: Date(timeIntervalSince1970: Double(id) * 1000),
      endedAt: open ? nil : Date(timeIntervalSince1970: Double(id) * 1000 + 10), notes: "")
  }

  func testAnEndedAuditSessionOffersTheProjectsOtherEndedAuditSessionsAndABaselineOffersNone() {
    let release = AuditSessionKind.audit(AppRelease(version: "1", build: "1"))
    let all = [
      session(5, release, open: true), session(4, release), session(3, .baseline),
      session(2, release),
    ]
    let overview = SessionOverview(
      session: all[1], projectName: "P", markers: [], connectionCount: 0, otherSessions: all)
    XCTAssertEqual(
      overview.comparable.map(\.id), [2], "not itself, not the baseline, not the one recording")
    XCTAssertTrue(
      SessionPresentation.text(overview, zone: zone).contains(
        "Compare with\n  Version 1 (1)  tunnelvision compare 4 2\n"))
    XCTAssertEqual(
      SessionOverview(
        session: all[2], projectName: "P", markers: [], connectionCount: 0, otherSessions: all
      ).comparable, [])
    XCTAssertEqual(
      SessionOverview(
        session: all[0], projectName: "P", markers: [], connectionCount: 0, otherSessions: all
      ).comparable, [])
    let alone = SessionOverview(
      session: all[3], projectName: "P", markers: [], connectionCount: 0, otherSessions: [all[3]])
    XCTAssertFalse(
      SessionPresentation.text(alone, zone: zone).contains("Compare with"),
      "absent when there is none")
  }

  func testASizeIsWrittenInDecimalUnitsWithOneDecimalAndCarriesIntoTheNextUnit() {
    for (count, text) in [
      (0, "0 bytes"), (1, "1 byte"), (999, "999 bytes"), (1000, "1.0 kB"), (1049, "1.0 kB"),
      (1050, "1.1 kB"), (1_234_567, "1.2 MB"), (3_000_000, "3.0 MB"), (999_949, "999.9 kB"),
      (999_950, "1.0 MB"), (270_933_657, "270.9 MB"), (64_000_000_000, "64.0 GB"),
      (UInt64.max, "18.4 EB"),
    ] as [(UInt64, String)] {
      XCTAssertEqual(Quantity.byteCount(count), text, "\(count)")
    }
  }

  func testVerifySaysEachCheckListsItsFirstProblemsCountsTheRestAndEndsWithTheOutcome() {
    let holds = VerificationCheck(statement: "The manifest lists every file.", problems: [])
    let fails = VerificationCheck(
      statement: "Every digest matches.", problems: (1...22).map { "file \($0) differs" })
    let text = VerifyPresentation.text(path: "b.zip", [holds, fails])
    XCTAssertTrue(text.hasPrefix("Verifying b.zip\n  ✓ The manifest lists every file.\n  ✗ Every"))
    XCTAssertTrue(text.contains("      file 20 differs\n      … and 2 more\n"), text)
    XCTAssertFalse(text.contains("file 21 differs"))
    XCTAssertTrue(text.hasSuffix("1 check of 2 does not hold.\n"), text)
    XCTAssertEqual(
      VerifyPresentation.refusal(path: "b.zip", [holds, fails]),
      "b.zip does not verify: 1 check of 2 does not hold.")
    XCTAssertNil(VerifyPresentation.refusal(path: "b.zip", [holds]))
    XCTAssertTrue(VerifyPresentation.text(path: "b.zip", [holds]).hasSuffix("Every check holds.\n"))
  }

  func testATimeOnScreenCarriesItsOffsetAndReadsBackAsTheSameInstant() throws {
    let instant = Date(timeIntervalSince1970: 1_791_583_114)  // 2026-10-09T21:58:34Z
    let berlin = try XCTUnwrap(TimeZone(identifier: "Europe/Berlin"))
    let shown = AuditPresentation.dateTime(instant, in: berlin)
    XCTAssertEqual(shown, "2026-10-09 23:58:34+02:00")
    XCTAssertEqual(Instant.parseRFC3339(shown), instant, "what --marker takes, as shown")
    XCTAssertEqual(
      AuditPresentation.dateTime(instant, in: TimeZone(identifier: "UTC")!), "2026-10-09 21:58:34Z")
    XCTAssertEqual(
      AuditPresentation.clock(instant, in: TimeZone(secondsFromGMT: -(5 * 3600 + 30 * 60))!),
      "16:28:34-05:30")
  }
}
