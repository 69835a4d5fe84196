import Foundation
import TestSupport
import XCTest

extension XCTestCase {
  /// Skips with a message where the test cannot run; under CI (which runs as root) it must.
  func requireRoot(_ what: String) throws {
    guard getuid() != 0 else { return }
    if ProcessInfo.processInfo.environment["CI"] == "true" {
      XCTFail("CI runs as root: \(what) must be tested there")
    }
    throw XCTSkip("\(what) needs root; CI runs it")
  }
}

/// A store an assessor can only read (a read-only mount of evidence handed over) is read as it is:
/// every reading command works on it, and a writing one says it needs write access.
final class ReadOnlyStoreTests: XCTestCase {
  func testEveryReadingCommandReadsAStoreOnAReadOnlyMountAndAWritingOneSaysWhy() throws {
    try requireRoot("a read-only bind mount")
    let binary = try TunnelVisionExecutable.url()
    let dir = TemporaryDirectory("read-only")
    let source = dir.url.appendingPathComponent("store").path
    let mounted = dir.url.appendingPathComponent("mounted").path
    XCTAssertEqual(try ExternalTool.run(binary.path, ["sample", "--store", source])?.status, 0)
    try FileManager.default.createDirectory(atPath: mounted, withIntermediateDirectories: true)
    XCTAssertEqual(try ExternalTool.run("mount", ["--bind", source, mounted])?.status, 0)
    defer { _ = try? ExternalTool.run("umount", [mounted]) }
    XCTAssertEqual(
      try ExternalTool.run("mount", ["-o", "remount,bind,ro", mounted])?.status, 0)
    XCTAssertNotEqual(access(mounted, W_OK), 0, "the mount is read-only")

    let bundle = dir.url.appendingPathComponent("bundle.zip").path
    for arguments in [
      ["project", "list"], ["project", "show", "Example Health"], ["session", "show", "3"],
      ["session", "list", "Example Health"], ["findings", "3"], ["compare", "2", "3"],
      ["storage"], ["export", "3", "--no-report", "-o", bundle],
      ["report", "3", "-o", dir.url.appendingPathComponent("report.pdf").path],
    ] {
      let result = try XCTUnwrap(ExternalTool.run(binary.path, ["--store", mounted] + arguments))
      XCTAssertEqual(result.status, 0, "\(arguments): \(result.error)")
    }
    XCTAssertEqual(try ExternalTool.run(binary.path, ["verify", bundle])?.status, 0)
    let write = try XCTUnwrap(
      ExternalTool.run(binary.path, ["--store", mounted, "project", "new", "Another"]))
    XCTAssertEqual(write.status, 1)
    XCTAssertTrue(write.error.contains("cannot be written"), write.error)
  }

  func testReadingCommandsWorkOnAFullDisk() throws {
    try requireRoot("mounting a small tmpfs")
    let binary = try TunnelVisionExecutable.url()
    let dir = TemporaryDirectory("full-disk")
    let mountPoint = dir.url.appendingPathComponent("disk").path
    try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
    XCTAssertEqual(
      try ExternalTool.run("mount", ["-t", "tmpfs", "-o", "size=3m", "tmpfs", mountPoint])?.status,
      0)
    defer { _ = try? ExternalTool.run("umount", [mountPoint]) }
    let store = mountPoint + "/store"
    XCTAssertEqual(try ExternalTool.run(binary.path, ["sample", "--store", store])?.status, 0)
    // Fill what is left of the disk.
    _ = try ExternalTool.run("dd", ["if=/dev/zero", "of=\(mountPoint)/fill", "bs=64k"])
    var info = statvfs()
    XCTAssertEqual(statvfs(mountPoint, &info), 0)
    XCTAssertEqual(info.f_bavail, 0, "the disk is full")
    for arguments in [
      ["project", "list"], ["project", "show", "Example Health"], ["session", "show", "3"],
      ["session", "list", "Example Health"], ["findings", "3"], ["compare", "2", "3"],
      ["storage"], ["report", "3", "-o", dir.url.appendingPathComponent("report.pdf").path],
    ] {
      let result = try XCTUnwrap(ExternalTool.run(binary.path, ["--store", store] + arguments))
      XCTAssertEqual(result.status, 0, "\(arguments): \(result.error)")
    }
    let bundle = dir.url.appendingPathComponent("bundle.zip").path
    XCTAssertEqual(
      try ExternalTool.run(binary.path, ["--store", store, "export", "3", "-o", bundle])?.status, 0,
      "exported to another disk")
  }
}
