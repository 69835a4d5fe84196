import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Crypto
import Foundation
import TestSupport
import TunnelVisionCLI
import XCTest

final class CommandLineTests: XCTestCase {
  let golden = Golden.directory().appendingPathComponent("Golden")

  func assertGolden(
    _ text: String, _ name: String, file: StaticString = #filePath, line: UInt = #line
  ) {
    if let difference = Golden.compare(text, file: golden.appendingPathComponent(name)) {
      XCTFail(difference, file: file, line: line)
    }
  }

  /// project → session → three markers → end → show, in text and JSON.
  func testAProjectSessionWithThreeMarkersRoundTripsThroughTheCommandLine() throws {
    let cli = CLIHarness()
    var transcript = ""
    func step(_ words: String..., advancing seconds: TimeInterval = 0, expect status: Int32 = 0) {
      let result = cli.run(words, advancing: seconds)
      XCTAssertEqual(result.status, status, "\(words): \(result.error)")
      // The store's temporary directory, named the same in every run.
      let error = result.error.replacingOccurrences(of: cli.directory.url.path, with: "$DIR")
      transcript += "$ tunnelvision " + words.joined(separator: " ") + "\n" + result.output + error
    }
    step(
      "project", "new", "Example Health", "--bundle-id", "de.example.health",
      "--allow", "api.example-health.de=backend", "--allow", "*.example-cdn.net=images and fonts",
      "--allow", "crash.example.org")
    step(
      "session", "start", "Example Health", "--version", "2.4.0", "--build", "187", "--inspection",
      "--ca-trusted",
      "--notes", "Onboarding, then a login.", advancing: 60)
    step("project", "show", "Example Health", advancing: 1)
    step("mark", "consent-given", advancing: 35.4)
    step("mark", "logged-in", advancing: 20)
    step("mark", "other:Opened the diary", advancing: 7)
    step("session", "end", advancing: 120)
    step("mark", "logged-out", advancing: 1, expect: 1)
    step("session", "show", "1")
    step("session", "list", "Example Health")
    step("project", "list")
    assertGolden(transcript, "round-trip.txt")

    let json = cli.run("session", "show", "1", "--json")
    XCTAssertEqual(json.status, 0)
    assertGolden(json.output, "session-show.json")
    let parsed = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
    let markers = try XCTUnwrap(parsed["markers"] as? [[String: Any]])
    XCTAssertEqual(markers.map { $0["kind"] as? String }, ["consentGiven", "loggedIn", "custom"])
    XCTAssertEqual(markers.last?["label"] as? String, "Opened the diary")
    XCTAssertEqual(parsed["status"] as? String, "ended")
    XCTAssertEqual((parsed["pinning"] as? [String: Any])?["assessable"] as? Bool, true)

    let project = cli.run("project", "show", "1", "--json")
    assertGolden(project.output, "project-show.json")
    let projectJSON = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(project.output.utf8)) as? [String: Any])
    XCTAssertEqual(
      (projectJSON["allowlist"] as? [[String: Any]])?.map { $0["pattern"] as? String },
      ["api.example-health.de", "*.example-cdn.net", "crash.example.org"])
  }

  func testAMarkerSaysToTheSecondWhatItPlacedAndWhere() {
    let cli = CLIHarness()
    cli.run("project", "new", "Example Health")
    cli.run("session", "start", "Example Health", "--version", "2.4.0", "--build", "187")
    cli.now = Date(timeIntervalSince1970: 1_791_575_914.9)  // 19:58:34.9 UTC = 21:58:34 in Berlin
    let result = cli.run("mark", "consent-given")
    XCTAssertEqual(result.output, "“Consent given” marked at 21:58:34+02:00 in Example Health.\n")
  }

  func testWithNoSessionRecordingAMarkerIsRefusedAndSaysSo() {
    let cli = CLIHarness()
    let result = cli.run("mark", "consent-given")
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(result.output, "")
    XCTAssertTrue(
      result.error.hasPrefix("Error: No marker was placed: no session is open."), result.error)
  }

  func testARejectedPatternIsReportedOnItsOwnEntryAndNothingIsCreated() {
    let cli = CLIHarness()
    let result = cli.run(
      "project", "new", "P", "--allow", "ok.example.com", "--allow", "https://api.example.com/v1",
      "--allow", "a..b", "--allow", "=a note without a domain", "--allow", "")
    XCTAssertEqual(result.status, 1)
    let lines = result.error.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.count, 4, result.error)
    XCTAssertTrue(lines[0].contains("entry 2") && lines[0].contains("“:”"), lines[0])
    XCTAssertTrue(lines[1].contains("entry 3") && lines[1].contains("empty label"), lines[1])
    XCTAssertTrue(lines[2].contains("entry 4") && lines[2].contains("no domain"), lines[2])
    XCTAssertTrue(lines[3].contains("entry 5") && lines[3].contains("is empty"), lines[3])
    XCTAssertFalse(FileManager.default.fileExists(atPath: cli.storePath), "not even a store")
  }

  func testStartingASecondSessionNamesTheProjectThatIsRecording() {
    let cli = CLIHarness()
    cli.run("project", "new", "Other App")
    cli.run("project", "new", "Example Health")
    XCTAssertEqual(
      cli.run("session", "start", "Other App", "--version", "1", "--build", "1").status, 0)
    let refused = cli.run("session", "start", "Example Health", "--baseline")
    XCTAssertEqual(refused.status, 1)
    XCTAssertTrue(refused.error.contains("of Other App is open"), refused.error)
    let show = cli.run("project", "show", "Example Health")
    XCTAssertTrue(
      show.output.contains("A session of “Other App” is open (session 1)"), show.output)
  }

  func testEveryLevelHasHelp() {
    let cli = CLIHarness()
    for words in [
      ["--help"], ["project", "--help"], ["project", "new", "--help"], ["session", "start", "-h"],
      ["help", "session", "end"], ["mark", "--help"],
    ] {
      let result = cli.run(words)
      XCTAssertEqual(result.status, 0, "\(words)")
      XCTAssertTrue(result.output.hasPrefix("OVERVIEW: "), "\(words)")
      XCTAssertTrue(result.output.contains("\nUSAGE: tunnelvision"), "\(words)")
      XCTAssertTrue(result.output.contains("\nOPTIONS:\n"), "\(words)")
    }
    assertGolden(cli.run("session", "start", "--help").output, "help-session-start.txt")
  }

  func testUsageErrorsExitWithTwoAndShowTheUsage() {
    let cli = CLIHarness()
    let cases: [([String], String)] = [
      (["project", "new"], "Error: Missing expected argument '<name>'."),
      (["project", "frobnicate"], "Error: Unknown subcommand 'frobnicate'."),
      (["project", "create", "--help"], "Error: Unknown subcommand 'create'."),
      (["help", "project", "create"], "Error: Unknown subcommand 'create'."),
      (["project", "list", "--colour"], "Error: Unknown option '--colour'."),
      (
        ["session", "start", "P"],
        "Error: Say what is recorded: --baseline, or --version <version> --build <build>."
      ),
      (
        ["session", "start", "P", "--baseline", "--version", "1"],
        "Error: A baseline has no release"
      ),
      (
        ["session", "show", "abc"],
        "Error: The argument “abc” for '<session>' is not a session's id"
      ),
      (["mark"], "Error: Missing expected argument '<kind>'."),
      (["project", "show", "a", "b"], "Error: Unexpected argument 'b'."),
    ]
    for (words, prefix) in cases {
      let result = cli.run(words)
      XCTAssertEqual(result.status, 2, "\(words)")
      XCTAssertTrue(result.error.hasPrefix(prefix), "\(words): \(result.error)")
      XCTAssertTrue(result.error.contains("\nUsage: tunnelvision "), "\(words)")
    }
  }

  func testRefusalsExitWithOneAndSaySomethingToDo() {
    let cli = CLIHarness()
    XCTAssertTrue(
      cli.run("project", "list").error.hasPrefix("Error: There is no store at \(cli.storePath)."),
      "a reading command makes no store")
    cli.run("project", "new", "Other")
    let cases: [([String], String)] = [
      (["project", "show", "Nope"], "There is no project named “Nope”."),
      (["session", "show", "9"], "There is no session 9."),
      (["session", "end"], "No session is open, so none was ended."),
      (["project", "new", " "], "A project needs a name."),
    ]
    for (words, sentence) in cases {
      let result = cli.run(words)
      XCTAssertEqual(result.status, 1, "\(words)")
      XCTAssertTrue(result.error.hasPrefix("Error: " + sentence), "\(words): \(result.error)")
    }
  }

  func testANewerStoreIsRefusedWithASentenceAndNotChanged() throws {
    let cli = CLIHarness()
    cli.run("project", "new", "P")
    let db = cli.storePath + "/history.sqlite"
    _ = try ExternalTool.run(
      "sqlite3", [db, "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA user_version = 42"])
    let result = cli.run("project", "list")
    XCTAssertEqual(result.status, 1)
    XCTAssertTrue(
      result.error.contains("was written by a newer version of tunnelvision (schema 42"),
      result.error)
  }

  func testEditingAProjectChangesNotesRemovesAndAddsEntries() throws {
    let cli = CLIHarness()
    cli.run("project", "new", "P", "--allow", "a.example.com=old", "--allow", "b.example.com")
    let result = cli.run(
      "project", "edit", "P", "--name", "Q", "--remove-allow", "b.example.com",
      "--allow", "a.example.com=new", "--allow", "*.c.example.com=cdn", "--json")
    XCTAssertEqual(result.status, 0, result.error)
    let json = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    XCTAssertEqual(json["name"] as? String, "Q")
    let allow = try XCTUnwrap(json["allowlist"] as? [[String: Any]])
    XCTAssertEqual(allow.map { $0["pattern"] as? String }, ["a.example.com", "*.c.example.com"])
    XCTAssertEqual(allow.map { $0["note"] as? String }, ["new", "cdn"])
    XCTAssertEqual(cli.run("project", "edit", "Q", "--remove-allow", "zzz.example.com").status, 1)
  }

  func testDeletingASessionSaysWhatIsKept() {
    let cli = CLIHarness()
    cli.run("project", "new", "P")
    cli.run("session", "start", "P", "--baseline")
    cli.run("session", "end")
    let result = cli.run("session", "delete", "1", "--yes")
    XCTAssertEqual(result.status, 0)
    XCTAssertEqual(
      result.output,
      "Deleted session 1 (Baseline) and its markers. Its 0 connections stay in the history; they are no longer evidence and expire with the storage limits.\n"
    )
    XCTAssertEqual(cli.run("session", "show", "1").status, 1)
  }
}

final class DeletionTests: XCTestCase {
  func testEvidenceIsDeletedOnlyWhenThePersonSaysSoAndAnOpenSessionNotAtAll() {
    let cli = CLIHarness()
    cli.run("project", "new", "P")
    cli.run("session", "start", "P", "--baseline")
    let open = cli.run("session", "delete", "1", "--yes")
    XCTAssertEqual(open.status, 1)
    XCTAssertTrue(open.error.contains("Session 1 is open; end it first"), open.error)
    XCTAssertEqual(cli.run("project", "delete", "P", "--yes").status, 1, "nor its project")
    cli.run("session", "end")
    let unasked = cli.run("session", "delete", "1")
    XCTAssertEqual(unasked.status, 1)
    XCTAssertTrue(unasked.error.contains("Add --yes to delete."), unasked.error)
    cli.answer = false
    let declined = cli.run("project", "delete", "P")
    XCTAssertEqual(declined.error, "Error: Nothing was deleted.\n")
    XCTAssertEqual(cli.questions.last, "Delete project “P” and the evidence of its 1 session?")
    XCTAssertEqual(cli.run("session", "show", "1").status, 0, "still there")
    cli.answer = true
    XCTAssertEqual(cli.run("project", "delete", "P").status, 0)
    XCTAssertEqual(cli.run("session", "show", "1").status, 1, "gone once confirmed")
  }
}

extension CommandLineTests {
  func testTheStoreOptionMayComeBeforeTheSubcommand() {
    let cli = CLIHarness()
    let other = cli.directory.url.appendingPathComponent("other").path
    XCTAssertEqual(cli.run("--store", other, "project", "new", "Elsewhere").status, 0)
    XCTAssertTrue(cli.run("--store=\(other)", "project", "list").output.contains("Elsewhere"))
    XCTAssertFalse(
      cli.run("project", "list").output.contains("Elsewhere"), "the default store is another one")
  }
}

extension CommandLineTests {
  func testAProjectTakesABundledCatalogueOrAnAssessorsOwnKeptInTheStore() throws {
    let cli = CLIHarness()
    let refused = cli.run("project", "new", "P", "--catalogue", "tr-03161-1_9.9")
    XCTAssertEqual(refused.status, 1)
    XCTAssertTrue(
      refused.error.contains("does not include the catalogue “tr-03161-1_9.9”"), refused.error)
    XCTAssertEqual(cli.run("project", "new", "P", "--catalogue", "tr-03161-1_3.0").status, 0)

    // An assessor's own catalogue: the bundled one with another identifier and one requirement fewer.
    let root = Golden.directory().deletingLastPathComponent().deletingLastPathComponent()
    var object = try XCTUnwrap(
      JSONSerialization.jsonObject(
        with: Data(contentsOf: root.appendingPathComponent("Catalogues/tr-03161-1_3.0.json")))
        as? [String: Any])
    object["identifier"] = "lab-tls-only_1"
    object["requirements"] = (object["requirements"] as! [[String: Any]]).filter {
      $0["id"] as? String == "O.Ntwk_2"
    }
    let file = cli.directory.url.appendingPathComponent("mine.json")
    try JSONSerialization.data(withJSONObject: object).write(to: file)
    let edited = cli.run("project", "edit", "P", "--catalogue-file", file.path, "--json")
    XCTAssertEqual(edited.status, 0, edited.error)
    XCTAssertTrue(edited.output.contains("\"catalogue\": \"lab-tls-only_1\""), edited.output)
    // kept in the store: the original is not needed any more
    try FileManager.default.removeItem(at: file)
    cli.run("session", "start", "P", "--baseline")
    cli.run("session", "end")
    let findings = cli.run("findings", "1", "--json")
    XCTAssertEqual(findings.status, 0, findings.error)
    let json = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(findings.output.utf8)) as? [String: Any])
    XCTAssertEqual(json["catalogue"] as? String, "lab-tls-only_1")
    XCTAssertEqual(
      (json["requirements"] as? [[String: Any]])?.map { $0["id"] as? String }, ["O.Ntwk_2"])
    // Its bundle's findings cannot be re-derived here: verify says so, and not that every check holds.
    let bundle = cli.directory.url.appendingPathComponent("mine.zip").path
    XCTAssertEqual(cli.run("export", "1", "-o", bundle, "--no-report").status, 0)
    let verified = cli.run("verify", bundle)
    XCTAssertEqual(verified.status, 0, verified.error)
    XCTAssertTrue(
      verified.output.contains(
        "  ○ " + VerifyWording.notRederived(catalogue: "lab-tls-only_1")), verified.output)
    XCTAssertTrue(verified.output.contains(VerifyPresentation.incomplete), verified.output)
    XCTAssertFalse(verified.output.contains("Every check holds."), verified.output)
    let verifiedJSON = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(cli.run("verify", bundle, "--json").output.utf8))
        as? [String: Any])
    XCTAssertEqual(verifiedJSON["complete"] as? Bool, false)
    XCTAssertEqual(verifiedJSON["holds"] as? Bool, true)

    // A miswritten file is refused with the requirement it is in, and nothing changes.
    object["identifier"] = "broken"
    var requirements = object["requirements"] as! [[String: Any]]
    requirements[0]["toolCoverage"] = nil
    object["requirements"] = requirements
    try JSONSerialization.data(withJSONObject: object).write(to: file)
    let broken = cli.run("project", "edit", "P", "--catalogue-file", file.path)
    XCTAssertEqual(broken.status, 1)
    XCTAssertTrue(
      broken.error.contains("Requirement O.Ntwk_2 reads findings but has no toolCoverage"),
      broken.error)
    XCTAssertTrue(cli.run("project", "show", "P").output.contains("lab-tls-only_1"))
  }

  func testAValueThatIsNotWhatItsOptionTakesIsAUsageErrorBeforeAnythingRuns() {
    let cli = CLIHarness()
    let sample = cli.run("sample", "--flows", "ten")
    XCTAssertEqual(sample.status, 2)
    XCTAssertTrue(
      sample.error.hasPrefix(
        "Error: The value “ten” of '--flows <n>' is not a positive whole number.\n"),
      sample.error)
    XCTAssertFalse(
      FileManager.default.fileExists(atPath: cli.storePath + "/history.sqlite"),
      "nothing was written")
    XCTAssertEqual(cli.run("sample", "--flows", "1_000", "--help").status, 0, "a valid value")
  }

  func testVersionSaysWhichTunnelvisionThisIs() {
    let cli = CLIHarness()
    let version = cli.run("--version")
    XCTAssertEqual(version.status, 0)
    XCTAssertEqual(version.output, "tunnelvision 0.1.0\n")
    // With global options before it, as git answers `git --git-dir=x --version`.
    let withStore = cli.run("--store", cli.storePath, "--version")
    XCTAssertEqual(withStore.status, 0, withStore.error)
    XCTAssertEqual(withStore.output, "tunnelvision 0.1.0\n")
    XCTAssertEqual(cli.run("--store", cli.storePath).status, 2, "a missing subcommand")
    XCTAssertEqual(cli.run("nosuchcommand", "--help").status, 2, "an unknown subcommand")
    XCTAssertTrue(cli.run("--help").output.contains("--version"), "the root's help lists it")
  }

  func testASampleLargerThanTheMachineIsMadeForIsRefusedBeforeAnythingIsWritten() {
    let cli = CLIHarness()
    for (option, value) in [
      ("--flows", "9999999999999999"), ("--packets", "99999999999"),
      ("--capture-bytes", "99999999999"),
    ] {
      let result = cli.run("sample", option, value)
      XCTAssertEqual(result.status, 2, option)
      XCTAssertTrue(result.error.contains("\(option) takes at most"), result.error)
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: cli.storePath))
  }

  func testAnIdWithASignAndPatternsNoHostCanHaveAreRefused() {
    let cli = CLIHarness()
    cli.run("project", "new", "P")
    cli.run("session", "start", "P", "--baseline")
    cli.run("session", "end")
    XCTAssertEqual(cli.run("session", "show", "1").status, 0)
    let signed = cli.run("session", "show", "+1")
    XCTAssertEqual(signed.status, 2)
    XCTAssertTrue(signed.error.contains("“+1” for '<session>' is not a session's id"), signed.error)
    XCTAssertEqual(cli.run("project", "show", "+1").status, 1, "no project is named “+1”")
    for pattern in ["-x.com", "x-.example.com", "*.com"] {
      XCTAssertEqual(cli.run("project", "new", "Q", "--allow", pattern).status, 1, pattern)
    }
    XCTAssertEqual(cli.run("project", "new", "Q", "--allow", "*.co.uk").status, 0)
  }

  func testEachKindOfMistakeHasOneExitCodeAndASentenceThatSaysWhatIsThere() throws {
    let cli = CLIHarness()
    cli.run("project", "new", "P")
    cli.run("session", "start", "P", "--baseline")
    let consent = cli.run("mark", "consent-given")
    XCTAssertEqual(consent.status, 1)
    XCTAssertTrue(consent.error.contains("A baseline records the device without"), consent.error)
    XCTAssertEqual(cli.run("mark", "other:").status, 2, "as an unknown kind is")
    XCTAssertEqual(cli.run("mark", "consent").status, 2)
    cli.run("session", "end")
    for (arguments, expected) in [
      (["--store", "", "project", "list"], "The value “” of '--store <dir>' is not a path"),
      (["export", "1", "-o", ""], "The value “” of '--output <file>' is not a path"),
    ] {
      let result = cli.run(arguments)
      XCTAssertEqual(result.status, 2, "\(arguments)")
      XCTAssertTrue(result.error.hasPrefix("Error: " + expected), result.error)
    }
    for (path, expected) in [
      ("/nonexistent/catalogue.json", "There is no catalogue file /nonexistent/catalogue.json."),
      (cli.directory.url.path, "\(cli.directory.url.path) is a directory, not a catalogue file"),
      ("/dev/zero", "/dev/zero is a character device, not a catalogue file"),
    ] {
      let result = cli.run("findings", "1", "--catalogue-file", path)
      XCTAssertEqual(result.status, 1, path)
      XCTAssertTrue(result.error.hasPrefix("Error: " + expected), result.error)
    }
    let file = cli.directory.url.appendingPathComponent("plain-file").path
    try Data("x".utf8).write(to: URL(fileURLWithPath: file))
    let store = cli.run("--store", file, "project", "list")
    XCTAssertEqual(store.status, 1)
    XCTAssertEqual(
      store.error,
      "Error: The store directory \(file) cannot be used: it is a file, and a store is a directory.\n"
    )
  }

  func testNothingIsSaidToRecordWhenNothingRecords() {
    let cli = CLIHarness()
    cli.run("project", "new", "P")
    let start = cli.run("session", "start", "P", "--version", "1", "--build", "1")
    XCTAssertTrue(start.output.contains("Nothing is recording: no recorder runs"), start.output)
    for words in [["session", "show", "1"], ["project", "list"], ["session", "list", "P"]] {
      let output = cli.run(words).output
      XCTAssertTrue(output.contains("Open, nothing is recording"), "\(words): \(output)")
      XCTAssertFalse(output.contains("● Recording"), "\(words)")
    }
  }
}

extension CommandLineTests {
  func testACertificateScenarioIsStatedWithInspectionOnAndOnlyOnce() {
    let cli = CLIHarness()
    XCTAssertEqual(cli.run("project", "new", "P").status, 0)
    let alone = cli.run("session", "start", "P", "--baseline", "--ca", "expired")
    XCTAssertEqual(alone.status, 2)
    XCTAssertTrue(alone.error.contains("give --inspection too"), alone.error)
    let twice = cli.run(
      "session", "start", "P", "--baseline", "--inspection", "--ca", "user", "--ca-trusted")
    XCTAssertEqual(twice.status, 2)
    XCTAssertTrue(twice.error.contains("--ca-trusted is --ca system"), twice.error)
    let stated = cli.run("session", "start", "P", "--baseline", "--inspection", "--ca", "user")
    XCTAssertEqual(stated.status, 0, stated.error)
    XCTAssertTrue(
      cli.run("session", "show", "1").output.contains(
        "certificate scenario: the proxy's CA installed in the device's user store"))
  }
}
