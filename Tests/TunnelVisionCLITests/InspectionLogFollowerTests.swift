import Audit
import AuditRules
import Foundation
import TestSupport
import XCTest

@testable import Record

/// #34.4: the follower read a log truncated and rewritten shorter never again, resumed a longer
/// rewrite mid-line, and never read a file renamed over it or made anew. It follows as `tail -F`
/// does now, and counts each turn.
final class InspectionLogFollowerTests: XCTestCase {
  func line(_ port: Int) -> String {
    let object: [String: Any] = [
      "format": 1, "start": 1_800_000_000 + port, "end": 1_800_000_001 + port,
      "client": ["address": "::ffff:10.0.0.2", "port": port],
      "server": [
        "address": "api.example-health.de", "port": 443,
        "peer": ["address": "192.0.2.7", "port": 443],
      ] as [String: Any],
      "sni": "api.example-health.de", "clientHandshake": "established", "requests": 1,
    ]
    return String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self)
      + "\n"
  }

  func ports(_ entries: [InspectionLogEntry]) -> [Int] { entries.map { Int($0.client.port) } }

  func write(_ text: String, to url: URL, appending: Bool = false) throws {
    if appending, let handle = FileHandle(forWritingAtPath: url.path) {
      try handle.seekToEnd()
      try handle.write(contentsOf: Data(text.utf8))
      try handle.close()
    } else {
      try Data(text.utf8).write(to: url)
    }
  }

  func testATruncatedRewrittenOrReplacedLogIsReadAgainFromItsStart() throws {
    let dir = TemporaryDirectory("follower")
    let url = dir.url.appendingPathComponent("inspection.jsonl")
    let follower = InspectionLogFollower(url: url)
    XCTAssertEqual(follower.newLines().entries.count, 0, "not there yet")
    try write(line(1) + line(2) + line(3), to: url)
    XCTAssertEqual(ports(follower.newLines().entries), [1, 2, 3])

    // Truncated and written shorter.
    try write(line(4), to: url)
    XCTAssertEqual(ports(follower.newLines().entries), [4])
    XCTAssertEqual(follower.restarts, 1)

    // Rewritten longer than what was read, between two looks: not resumed mid-line.
    try write(line(5) + line(6) + line(7) + line(8), to: url)
    XCTAssertEqual(ports(follower.newLines().entries), [5, 6, 7, 8])
    XCTAssertEqual(follower.restarts, 2)
    XCTAssertEqual(follower.unreadableCount, 0, "no line read from its middle")

    // A half-written line, then another file renamed over the log.
    try write(String(line(9).prefix(20)), to: url, appending: true)
    XCTAssertEqual(ports(follower.newLines().entries), [])
    let other = dir.url.appendingPathComponent("next.jsonl")
    try write(line(10) + line(11), to: other)
    XCTAssertEqual(rename(other.path, url.path), 0)
    XCTAssertEqual(ports(follower.newLines().entries), [10, 11])
    XCTAssertEqual(follower.replacements, 1)
    XCTAssertEqual(follower.linesCut, 1, "the half line of the old file")

    // Deleted and made anew.
    try FileManager.default.removeItem(at: url)
    try write(line(12), to: url)
    XCTAssertEqual(ports(follower.newLines().entries), [12])
    XCTAssertEqual(follower.replacements, 2)
    // And followed as it grows.
    try write(line(13), to: url, appending: true)
    XCTAssertEqual(ports(follower.newLines().entries), [13])
    XCTAssertEqual(follower.restarts, 2)
  }

  /// #34.3: reading was quadratic in the log (the rest of the buffer copied after each line;
  /// 40,000 lines took 8.6 s). Every line of a long log, written at once, is read in one call.
  /// #41.2: a restarted recorder's follower, before its first poll, called a log with lines in it
  /// unreadable, and the session's notes kept it.
  func testALogWithLinesIsReadableBeforeTheFirstPollAndADirectoryIsNot() throws {
    let dir = TemporaryDirectory("follower-state")
    let url = dir.url.appendingPathComponent("inspection.jsonl")
    XCTAssertEqual(InspectionLogFollower(url: url).state, .missing)
    try write("", to: url)
    XCTAssertEqual(InspectionLogFollower(url: url).state, .empty)
    try write(line(1) + line(2), to: url)
    let follower = InspectionLogFollower(url: url)
    XCTAssertEqual(follower.state, .read, "readable, with lines not yet polled")
    XCTAssertEqual(ports(follower.newLines().entries), [1, 2], "judging it consumed no line")
    XCTAssertEqual(follower.state, .read)
    let directory = dir.url.appendingPathComponent("a-directory")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
    XCTAssertEqual(InspectionLogFollower(url: directory).state, .unreadable)
  }

  func testALongLogIsReadWholeInOneCall() throws {
    let dir = TemporaryDirectory("follower-long")
    let url = dir.url.appendingPathComponent("inspection.jsonl")
    try write((1...20_000).map(line).joined(), to: url)
    let follower = InspectionLogFollower(url: url)
    let entries = follower.newLines().entries
    XCTAssertEqual(entries.count, 20_000)
    XCTAssertEqual(ports(entries).last, 20_000)
    XCTAssertEqual(follower.unreadableCount, 0)
  }
}
