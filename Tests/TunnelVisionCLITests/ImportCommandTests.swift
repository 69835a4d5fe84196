import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Bytes
import Capture
import Crypto
import Foundation
import Sample
import TestSupport
import XCTest

final class ImportCommandTests: XCTestCase {
  /// A pcap of one TLS connection, byte by byte.
  func capture(in dir: URL, serverName: String = "api.example-health.de") throws -> URL {
    var frames = Data([
      0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0, 101, 0, 0, 0,
    ])
    let hello = TLSMessageBuilder.clientHello(
      serverName: serverName, versions: [0x0304, 0x0303], alpn: ["h2"])
    let packets = [
      DatagramBuilder.datagram(
        from: ("10.0.0.2", 50000), to: ("203.0.113.7", 443),
        transport: .tcp(sequence: 1, acknowledgement: 0, flags: 0x02), payload: Data()),
      DatagramBuilder.datagram(
        from: ("203.0.113.7", 443), to: ("10.0.0.2", 50000),
        transport: .tcp(sequence: 9, acknowledgement: 2, flags: 0x12), payload: Data()),
      DatagramBuilder.datagram(
        from: ("10.0.0.2", 50000), to: ("203.0.113.7", 443),
        transport: .tcp(sequence: 2, acknowledgement: 10, flags: 0x18), payload: hello),
      DatagramBuilder.datagram(
        from: ("203.0.113.7", 443), to: ("10.0.0.2", 50000),
        transport: .tcp(sequence: 10, acknowledgement: 2, flags: 0x18),
        payload: TLSMessageBuilder.serverHello(supportedVersion: 0x0304, cipherSuite: 0x1301)),
    ]
    for (i, packet) in packets.enumerated() {
      for value in [UInt32(1_791_540_000 + i), 0, UInt32(packet.count), UInt32(packet.count)] {
        frames.appendInteger(value, endianness: .little)
      }
      frames.append(packet)
    }
    let url = dir.appendingPathComponent("phone.pcap")
    try frames.write(to: url)
    return url
  }

  func testAnImportSaysWhatItReadAndCreatesAnEndedSession() throws {
    let cli = CLIHarness()
    cli.run("project", "new", "Example Health", "--allow", "*.example-health.de")
    let file = try capture(in: cli.directory.url)
    let result = cli.run(
      "import", file.path, "--project", "Example Health", "--version", "2.4.0", "--build", "187",
      "--marker", "consent-given@2026-10-09T10:00:02Z", "--device-model", "Pixel 8")
    XCTAssertEqual(result.status, 0, result.error)
    XCTAssertTrue(
      result.output.hasPrefix(
        "Imported \(file.path) into session 1: Version 2.4.0 (187) of Example Health."),
      result.output)
    XCTAssertTrue(
      result.output.contains("4 frames read, 4 packets in 1 connection."), result.output)
    XCTAssertTrue(result.output.contains("Names: 1 from a ClientHello's SNI"), result.output)
    let show = cli.run("session", "show", "1")
    XCTAssertTrue(show.output.contains("Started  2026-10-09 12:00:00"), show.output)
    XCTAssertTrue(show.output.contains("Ended    2026-10-09 12:00:03"), show.output)
    XCTAssertTrue(show.output.contains("Consent given"), show.output)
    XCTAssertTrue(show.output.contains("Device side inferred"), show.output)
    XCTAssertTrue(
      cli.run("findings", "1").output.contains("api.example-health.de") == false,
      "an allowed host is no finding")
  }

  /// A name read off the wire is anyone's to choose: an escape sequence in a ClientHello's SNI (or
  /// in a marker's label) reaches the terminal as text, never as a command to it.
  func testControlCharactersFromACaptureOrALabelAreShownNotObeyed() throws {
    let cli = CLIHarness()
    cli.run("project", "new", "P", "--allow", "*.example-health.de")
    let file = try capture(
      in: cli.directory.url, serverName: "evil\u{1B}]0;pwned\u{7}\u{1B}[2J.example.net")
    XCTAssertEqual(cli.run("import", file.path, "--project", "P", "--baseline").status, 0)
    let findings = cli.run("findings", "1")
    XCTAssertEqual(findings.status, 0, findings.error)
    // (Host names are compared in lower case: the J of the erase sequence is shown as j.)
    XCTAssertTrue(
      findings.output.contains("evil\\x1B]0;pwned\\x07\\x1B[2j.example.net"), findings.output)
    cli.run("session", "start", "P", "--baseline", advancing: 3600)
    XCTAssertEqual(cli.run("mark", "other:\u{1B}[31mred\u{202E}").status, 0)
    cli.run("session", "end", advancing: 1)
    let show = cli.run("session", "show", "2")
    XCTAssertTrue(show.output.contains("\\x1B[31mred\\u{202E}"), show.output)
    let missing = cli.run("project", "show", "no\u{1B}[2Jsuch")
    XCTAssertEqual(missing.status, 1)
    for text in [
      findings.output, findings.error, show.output, missing.error,
      cli.run("findings", "1", "--json").output,
    ] {
      XCTAssertFalse(
        text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E },
        text)
    }
  }

  func testAnImportIsRefusedWithASentenceWhenItCannotBeDone() throws {
    let cli = CLIHarness()
    cli.run("project", "new", "P")
    let file = try capture(in: cli.directory.url)
    XCTAssertEqual(cli.run("import", file.path, "--version", "1", "--build", "1").status, 2)
    let outside = cli.run(
      "import", file.path, "--project", "P", "--baseline", "--marker",
      "logged-in@2020-01-01T00:00:00Z")
    XCTAssertEqual(outside.status, 1)
    XCTAssertTrue(outside.error.contains("lies outside the capture"), outside.error)
    let garbage = cli.directory.url.appendingPathComponent("notes.txt")
    try Data("not a capture".utf8).write(to: garbage)
    let refused = cli.run("import", garbage.path, "--project", "P", "--baseline")
    XCTAssertEqual(refused.status, 1)
    XCTAssertTrue(
      refused.error.contains("at byte 0: this is neither a pcap nor a pcapng file"), refused.error)
    let directory = cli.run("import", cli.directory.url.path, "--project", "P", "--baseline")
    XCTAssertEqual(directory.status, 1)
    XCTAssertEqual(
      directory.error,
      "Error: \(cli.directory.url.path) is a directory; import takes one capture file (pcap or pcapng).\n"
    )
    let missing = cli.run("import", file.path + ".gone", "--project", "P", "--baseline")
    XCTAssertEqual(missing.status, 1)
    XCTAssertEqual(missing.error, "Error: There is no readable file \(file.path).gone.\n")
    XCTAssertTrue(
      cli.run("session", "list", "P").output.contains("no sessions yet"), "nothing half-written")
  }

  func testACaptureWithoutAnIPPacketSaysWhyItsFramesWereNotRead() throws {
    let cli = CLIHarness()
    cli.run("project", "new", "P")
    // Link type 147 (USER0): two frames tunnelvision cannot read as IP.
    var frames = Data([
      0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0, 147, 0, 0, 0,
    ])
    for i in 0..<2 {
      for value in [UInt32(1_791_540_000 + i), 0, 8, 8] {
        frames.appendInteger(value, endianness: .little)
      }
      frames.append(Data(repeating: 0x45, count: 8))
    }
    let file = cli.directory.url.appendingPathComponent("user0.pcap")
    try frames.write(to: file)
    let refused = cli.run("import", file.path, "--project", "P", "--baseline")
    XCTAssertEqual(refused.status, 1)
    XCTAssertEqual(
      refused.error,
      "Error: \(file.path) holds no IP packet that could be read (2 frames: link type 147 is not read); no session was created.\n"
    )
    XCTAssertTrue(cli.run("session", "list", "P").output.contains("no sessions yet"))
  }

  func testTheSameCaptureImportedTwiceIsRefusedNamingTheFirstSessionUnlessAgain() throws {
    let cli = CLIHarness()
    cli.run("project", "new", "Example Health")
    let file = try capture(in: cli.directory.url)
    let args = ["import", file.path, "--project", "Example Health", "--version", "2.4.0"]
    XCTAssertEqual(cli.run(args + ["--build", "187"]).status, 0)
    let again = cli.run(args + ["--build", "188"])
    XCTAssertEqual(again.status, 1)
    XCTAssertEqual(
      again.error,
      "Error: phone.pcap was imported already, as session 1 (Version 2.4.0 (187) of Example Health): a second import would make a second session of the same traffic. Add --again to import it anyway.\n"
    )
    let sessions = try JSONSerialization.jsonObject(
      with: Data(cli.run("session", "list", "Example Health", "--json").output.utf8))
    XCTAssertEqual((sessions as? [Any])?.count, 1, "nothing was created")
    let forced = cli.run(args + ["--build", "188", "--again"])
    XCTAssertEqual(forced.status, 0, forced.error)
    let show = cli.run("session", "show", "2")
    XCTAssertTrue(show.output.contains("Device model  not stated"), show.output)
    XCTAssertTrue(show.output.contains("an application the capture does not name"), show.output)
    XCTAssertTrue(show.output.contains("Capture file  phone.pcap, SHA-256 "), show.output)
  }

  func testEveryDeviceAddressIsListedOrTheRestCountedAndTheNotesListThemAll() {
    var summary = ImportSummary()
    summary.deviceAddresses = (1...15).map { "10.0.0.\($0)" }
    let session = AuditSession(
      id: 4, projectID: 1, kind: .baseline,
      environment: AuditEnvironment(deviceModel: "x", osVersion: "y", toolVersion: "z"),
      inspection: .off, startedAt: Date(timeIntervalSince1970: 0),
      endedAt: Date(timeIntervalSince1970: 1), notes: "")
    let text = ImportPresentation.text(summary, session: session, projectName: "P", file: "f")
    XCTAssertTrue(
      text.contains(
        "10.0.0.11, 10.0.0.12, and 3 more (the session's notes list all 15)"), text)
    let notes = SessionNotes.devicesNote(summary, fileName: "f")
    for address in summary.deviceAddresses {
      XCTAssertTrue(notes.contains(address + ",") || notes.contains(address + "."))
    }
  }

  func testALineFeedInANameReadOffTheWireAddsNoLineToWhatIsPrinted() throws {
    let cli = CLIHarness()
    cli.run("project", "new", "Example Health", "--allow", "api.example-health.de")
    let file = try capture(in: cli.directory.url, serverName: "a\nb.example  ✓ Every check holds.")
    XCTAssertEqual(
      cli.run("import", file.path, "--project", "Example Health", "--version", "1", "--build", "1")
        .status, 0)
    let findings = cli.run("findings", "1")
    XCTAssertTrue(
      findings.output.contains("a\\x0Ab.example  ✓ every check holds"), findings.output)
    for line in findings.output.split(separator: "\n") {
      XCTAssertFalse(line.hasPrefix("b.example"), "no line begins with what followed the line feed")
    }
  }
}
