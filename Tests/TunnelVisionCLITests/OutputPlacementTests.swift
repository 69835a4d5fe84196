import Foundation
import TestSupport
import XCTest

/// Outputs go only where a regular file may, never into a store, over a file only with --force;
/// what the tool writes is readable by its user alone. Run through the binary, as a user would.
final class OutputPlacementTests: XCTestCase {
  var binary: URL!
  var dir: TemporaryDirectory!
  var store: String!

  override func setUpWithError() throws {
    binary = try TunnelVisionExecutable.url()
    dir = TemporaryDirectory("outputs")
    store = dir.url.appendingPathComponent("store").path
    XCTAssertEqual(try ExternalTool.run(binary.path, ["sample", "--store", store])?.status, 0)
  }

  override func tearDown() {
    dir = nil
    super.tearDown()
  }

  func export(_ arguments: String...) throws -> (status: Int32, output: String, error: String) {
    try XCTUnwrap(
      ExternalTool.run(binary.path, ["export", "3", "--no-report", "--store", store] + arguments))
  }

  func mode(_ path: String) throws -> Int {
    let number = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]
    return try XCTUnwrap(number as? Int)
  }

  func testAFileAlreadyThereIsKeptUnlessForceIsGiven() throws {
    let path = dir.url.appendingPathComponent("mine.zip").path
    try Data("the assessor's own file".utf8).write(to: URL(fileURLWithPath: path))
    let refused = try export("-o", path)
    XCTAssertEqual(refused.status, 1)
    XCTAssertEqual(
      refused.error,
      "Error: \(path) already exists and was left as it is; give --force to replace it, or another path.\n"
    )
    XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "the assessor's own file")
    XCTAssertEqual(try export("-o", path, "--force").status, 0)
    XCTAssertEqual(try ExternalTool.run("unzip", ["-tq", path])?.status, 0)
  }

  func testNothingInsideAStoreIsWrittenOverForceOrNot() throws {
    let database = store + "/history.sqlite"
    let capture = store + "/captures/00000001.pcap"
    let before = try [database, capture].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
    for path in [database, capture, store + "/bundle.zip", store + "/captures/new.zip"] {
      let refused = try export("-o", path, "--force")
      XCTAssertEqual(refused.status, 1, path)
      XCTAssertTrue(refused.error.contains("lies inside the store \(store!)"), refused.error)
    }
    XCTAssertEqual(
      try [database, capture].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }, before)
    XCTAssertFalse(FileManager.default.fileExists(atPath: store + "/bundle.zip"))
  }

  func testADeviceAFIFOOrALinkIsNeverReplaced() throws {
    let fifo = dir.url.appendingPathComponent("pipe").path
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let target = dir.url.appendingPathComponent("target.txt").path
    try Data("kept".utf8).write(to: URL(fileURLWithPath: target))
    let link = dir.url.appendingPathComponent("link.zip").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
    for (path, what) in [
      ("/dev/null", "a character device"), (fifo, "a FIFO (named pipe)"),
      (link, "a symbolic link"),
    ] {
      let refused = try export("-o", path, "--force")
      XCTAssertEqual(refused.status, 1, path)
      XCTAssertTrue(refused.error.contains("\(path) is \(what);"), refused.error)
    }
    var info = stat()
    XCTAssertEqual(lstat("/dev/null", &info), 0)
    XCTAssertEqual(info.st_mode & S_IFMT, S_IFCHR, "/dev/null is still a device")
    XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "kept")
    // report.pdf is held to the same rules.
    let kept = dir.url.appendingPathComponent("kept.pdf").path
    try Data("mine".utf8).write(to: URL(fileURLWithPath: kept))
    for path in ["/dev/null", fifo, link, kept, store + "/history.sqlite", store + "/r.pdf"] {
      let report = try XCTUnwrap(
        ExternalTool.run(binary.path, ["report", "3", "--store", store, "-o", path]))
      XCTAssertEqual(report.status, 1, path)
    }
    XCTAssertEqual(try String(contentsOfFile: kept, encoding: .utf8), "mine")
  }

  func testWhatTheToolWritesIsReadableByItsUserAloneUnlessAModeIsGiven() throws {
    XCTAssertEqual(try mode(store), 0o700)
    XCTAssertEqual(try mode(store + "/history.sqlite"), 0o600)
    XCTAssertEqual(try mode(store + "/captures/00000001.pcap"), 0o600)
    let bundle = dir.url.appendingPathComponent("bundle.zip").path
    XCTAssertEqual(try export("-o", bundle).status, 0)
    XCTAssertEqual(try mode(bundle), 0o600)
    let shared = dir.url.appendingPathComponent("shared.zip").path
    XCTAssertEqual(try export("-o", shared, "--mode", "640").status, 0)
    XCTAssertEqual(try mode(shared), 0o640)
    let report = dir.url.appendingPathComponent("report.pdf").path
    XCTAssertEqual(
      try ExternalTool.run(binary.path, ["report", "3", "--store", store, "-o", report])?.status, 0)
    XCTAssertEqual(try mode(report), 0o600)
    let bad = try export("-o", dir.url.appendingPathComponent("x.zip").path, "--mode", "999")
    XCTAssertEqual(bad.status, 2)
    XCTAssertTrue(bad.error.contains("is not permissions in octal"), bad.error)
  }
}
