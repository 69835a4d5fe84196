import Foundation
import SystemCalls
import XCTest

final class SequentialFileInputTests: XCTestCase {
  func testPiecesFromAnyOffsetAreTheFilesBytesAndNothingComesPastItsEnd() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "sequential-input-\(getpid())-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("file").path
    let bytes = SequentialFileOutputTests.pattern(2_500_123, seed: 3)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    for direct in [true, false] {
      let input = try SequentialFileInput.open(path: path, direct: direct).get()
      // Forward in pieces as an archive's entry is read, from an unaligned start.
      var at = 1_234
      while at < bytes.count {
        let piece = try input.read(at: UInt64(at), count: 1 << 20) { Array($0) }
        guard !piece.isEmpty, at + piece.count <= bytes.count else {
          return XCTFail("direct: \(direct), at \(at): \(piece.count) bytes")
        }
        XCTAssertTrue(
          piece.elementsEqual(bytes[at..<at + piece.count]), "direct: \(direct), at \(at)")
        at += piece.count
      }
      XCTAssertEqual(at, bytes.count)
      // Back and forth, and at and past the end.
      for (offset, count) in [(5, 10), (2_500_000, 500), (4095, 2), (0, 4096), (1_048_577, 3)] {
        let piece = try input.read(at: UInt64(offset), count: count) { Array($0) }
        XCTAssertEqual(piece, Array(bytes[offset..<min(bytes.count, offset + count)]), "\(offset)")
      }
      XCTAssertEqual(try input.read(at: UInt64(bytes.count), count: 10) { $0.count }, 0)
      XCTAssertEqual(try input.read(at: UInt64(bytes.count) + 9_000, count: 10) { $0.count }, 0)
    }
    XCTAssertEqual(
      SequentialFileInput.open(path: dir.appendingPathComponent("gone").path).map { $0.isDirect },
      .failure(.noSuchFileOrDirectory))
  }
}
