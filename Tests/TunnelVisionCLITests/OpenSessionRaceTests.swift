import Foundation
import TestSupport
import XCTest

/// One open session across processes: the store's rule has to hold when two `tunnelvision`
/// processes race to start one, not only inside one process.
final class OpenSessionRaceTests: XCTestCase {
  func testProcessesRacingToStartASessionLeaveExactlyOneOpen() throws {
    let binary = try TunnelVisionExecutable.url()
    let dir = TemporaryDirectory("race")
    let store = dir.url.appendingPathComponent("store").path
    for name in ["A", "B", "C", "D"] {
      XCTAssertEqual(
        try ExternalTool.run(binary.path, ["project", "new", name, "--store", store])?.status, 0)
    }
    // Eight processes at once, two per project.
    let finished = try TunnelVisionBinary.runAtOnce(
      binary,
      (0..<8).map { i in
        [
          "session", "start", ["A", "B", "C", "D"][i % 4], "--version", "1.\(i)", "--build", "\(i)",
          "--store", store,
        ]
      })
    let statuses = finished.map(\.status)
    let errors = finished.filter { $0.status != 0 }.map(\.error)
    XCTAssertEqual(statuses.filter { $0 == 0 }.count, 1, "\(statuses) \(errors)")
    XCTAssertEqual(statuses.filter { $0 == 1 }.count, 7, "\(statuses) \(errors)")
    for text in errors {
      XCTAssertTrue(text.contains("is open, and only one session can be open at a time"), text)
    }
    let open = try XCTUnwrap(
      ExternalTool.run(
        "sqlite3",
        [store + "/history.sqlite", "SELECT count(*) FROM audit_sessions WHERE ended_at IS NULL"]))
    XCTAssertEqual(open.output.trimmingCharacters(in: .whitespacesAndNewlines), "1")
  }
}

/// The built `tunnelvision` executable, beside the test bundle.
enum TunnelVisionBinary {
  /// Starts one process per argument list, all before any is waited for; their exit statuses and stderr, in order.
  static func runAtOnce(_ binary: URL, _ argumentLists: [[String]]) throws -> [(
    status: Int32, error: String
  )] {
    let started = argumentLists.map { arguments -> (Process, Pipe) in
      let process = Process()
      process.executableURL = binary
      process.arguments = arguments
      let err = Pipe()
      process.standardError = err
      process.standardOutput = Pipe()
      return (process, err)
    }
    for (process, _) in started { try process.run() }
    return started.map { process, err in
      let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      return (process.terminationStatus, text)
    }
  }

}

/// Exports running at once from separate processes: each works in a directory of its own, so
/// none clears another's files and every bundle comes out whole.
final class ConcurrentExportTests: XCTestCase {
  /// The binary and a sample store in a directory of its own.
  func sampleStore(_ name: String) throws -> (binary: URL, dir: TemporaryDirectory, store: String) {
    let binary = try TunnelVisionExecutable.url()
    let dir = TemporaryDirectory(name)
    let store = dir.url.appendingPathComponent("store").path
    XCTAssertEqual(try ExternalTool.run(binary.path, ["sample", "--store", store])?.status, 0)
    return (binary, dir, store)
  }

  func testFourExportsRunningAtOnceEachWriteAWholeBundle() throws {
    let (binary, dir, store) = try sampleStore("concurrent-export")
    let bundles = (0..<4).map { dir.url.appendingPathComponent("bundle-\($0).zip").path }
    let finished = try TunnelVisionBinary.runAtOnce(
      binary,
      bundles.indices.map { i in
        [
          "export", i % 2 == 0 ? "2" : "3", "-o", bundles[i], "--no-report", "--at",
          "2026-10-09T10:00:00Z", "--store", store,
        ]
      })
    for (result, bundle) in zip(finished, bundles) {
      XCTAssertEqual(result.status, 0, result.error)
      let test = try XCTUnwrap(ExternalTool.run("unzip", ["-t", bundle]))
      XCTAssertEqual(test.status, 0, test.output)
      XCTAssertTrue(test.output.contains("No errors detected"), test.output)
    }
    // The two exports of one session at one instant are the same bytes.
    let digests = try bundles.map {
      try XCTUnwrap(ExternalTool.run("sha256sum", [$0])).output.prefix(64)
    }
    XCTAssertEqual(digests[0], digests[2])
    XCTAssertEqual(digests[1], digests[3])
    XCTAssertNotEqual(digests[0], digests[1])
  }

  func testExportsRacingToOneDestinationLeaveOneWholeBundleAndNoPartialFiles() throws {
    let (binary, dir, store) = try sampleStore("same-destination")
    let out = dir.url.appendingPathComponent("out", isDirectory: true)
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    let bundle = out.appendingPathComponent("bundle.zip").path
    let reference = dir.url.appendingPathComponent("reference.zip").path
    // --force: each of them may find another's bundle there already, and replaces it.
    let arguments = [
      "export", "3", "--no-report", "--at", "2026-10-09T10:00:00Z", "--force", "--store", store,
      "-o",
    ]
    XCTAssertEqual(try ExternalTool.run(binary.path, arguments + [reference])?.status, 0)
    for result in try TunnelVisionBinary.runAtOnce(
      binary, Array(repeating: arguments + [bundle], count: 4))
    {
      XCTAssertEqual(result.status, 0, result.error)
    }
    XCTAssertEqual(
      try Data(contentsOf: URL(fileURLWithPath: bundle)),
      try Data(contentsOf: URL(fileURLWithPath: reference)))
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path), ["bundle.zip"])
  }

  func testADestinationThatCannotBeReplacedIsNamedAndKept() throws {
    let (binary, dir, store) = try sampleStore("unreplaceable")
    // `-o` names a directory, and where the bundle would go in it under its default name is a
    // directory with something in it: no output replaces a directory, --force or not.
    let out = dir.url.appendingPathComponent("out", isDirectory: true)
    let name = "Example-Health-2.4.0-187-session-3-evidence.zip"
    let destination = out.appendingPathComponent(name, isDirectory: true)
    try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
    try Data("kept".utf8).write(to: destination.appendingPathComponent("inside"))
    let result = try XCTUnwrap(
      ExternalTool.run(
        binary.path, ["export", "3", "--no-report", "--force", "--store", store, "-o", out.path]))
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(
      result.error,
      "Error: \(destination.path) is a directory; an output is written only as a regular file, and what is there was left as it is. Give a file's path.\n"
    )
    XCTAssertEqual(
      try String(contentsOf: destination.appendingPathComponent("inside"), encoding: .utf8), "kept")
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path), [name])
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: destination.path), ["inside"])
  }

}
