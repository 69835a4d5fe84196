import Foundation
import SystemCalls
import XCTest

final class FileStatusTests: XCTestCase {
  func testAFilesSizeKindAndBirthAreReadWithoutFollowingALink() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "file-status-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("00000001.pcap")
    let before = Date().addingTimeInterval(-1)
    try Data(count: 1_234).write(to: file)
    let status = try FileStatus.of(path: file.path).get()
    XCTAssertEqual(status.size, 1_234)
    XCTAssertTrue(status.isRegularFile)
    if let birth = status.birth {
      XCTAssertTrue((before...Date().addingTimeInterval(1)).contains(birth), "\(birth)")
    }
    XCTAssertFalse(try FileStatus.of(path: dir.path).get().isRegularFile)
    let link = dir.appendingPathComponent("link.pcap")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
    XCTAssertFalse(try FileStatus.of(path: link.path).get().isRegularFile, "the link itself")
    XCTAssertEqual(
      FileStatus.of(path: dir.appendingPathComponent("gone").path).map(\.size),
      .failure(.noSuchFileOrDirectory))
  }
}
