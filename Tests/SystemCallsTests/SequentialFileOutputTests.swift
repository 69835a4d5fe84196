import Foundation
import SystemCalls
import XCTest

final class SequentialFileOutputTests: XCTestCase {
  var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "sequential-output-\(getpid())-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  /// Bytes that differ from place to place, so that a piece written at the wrong offset shows.
  static func pattern(_ count: Int, seed: UInt32) -> [UInt8] {
    var state = seed | 1
    return (0..<count).map { _ in
      state ^= state << 13
      state ^= state >> 17
      state ^= state << 5
      return UInt8(truncatingIfNeeded: state)
    }
  }

  func testPiecesCopiesAndBytesWrittenOverEndUpAsWrittenWithTheExactLength() throws {
    let source = directory.appendingPathComponent("source")
    let copied = Self.pattern(1_300_000, seed: 7)
    try Data(copied).write(to: source)
    let input = open(source.path, O_RDONLY)
    defer { close(input) }
    // The default buffers, an archive's, and an odd size (rounded up to two blocks).
    for capacity in [SequentialFileOutput.defaultCapacity, 1 << 20, 5_000] {
      try writePiecesCopiesAndBytesOver(from: input, copied, capacity: capacity)
    }
  }

  func writePiecesCopiesAndBytesOver(from input: Int32, _ copied: [UInt8], capacity: Int) throws {
    for direct in [true, false] {
      let path = directory.appendingPathComponent("out-\(direct)-\(capacity)").path
      let output = try SequentialFileOutput.create(path: path, direct: direct, capacity: capacity)
        .get()
      let startedDirect = output.isDirect
      var expected: [UInt8] = []
      // Odd pieces across the buffers' boundaries.
      for (i, size) in [1, 4095, 4097, 700_001, 3, 1_048_576, 12_345].enumerated() {
        let piece = Self.pattern(size, seed: UInt32(i + 1))
        try piece.withUnsafeBytes { try output.write($0) }
        expected += piece
      }
      XCTAssertEqual(try output.copy(from: input, at: 100, count: 1_200_000), 1_200_000)
      expected += copied[100..<1_200_100]
      XCTAssertEqual(
        try output.copy(from: input, at: 1_299_990, count: 50), 10, "the input's end comes first")
      expected += copied[1_299_990...]
      // Over bytes long in the file, over the file's end and the buffer, and in the buffer.
      let position = Int(output.position)
      XCTAssertEqual(position, expected.count)
      // Whole blocks a write, whatever size was asked for: still direct where it began so.
      XCTAssertEqual(output.isDirect, startedDirect, "capacity \(capacity)")
      for offset in [5, 4094, 2_097_150, position - 30] {
        let patch = Self.pattern(20, seed: UInt32(offset))
        try patch.withUnsafeBytes { try output.overwrite($0, at: UInt64(offset)) }
        expected.replaceSubrange(offset..<offset + 20, with: patch)
      }
      try output.finish()
      let written = try XCTUnwrap(FileManager.default.contents(atPath: path))
      XCTAssertEqual(written.count, expected.count, "direct: \(direct), capacity \(capacity)")
      XCTAssertTrue(written.elementsEqual(expected), "direct: \(direct), capacity \(capacity)")
    }
  }

  func testEveryPushedByteIsInTheFileForAnotherReaderAndWritingGoesOnAfter() throws {
    for direct in [true, false] {
      let path = directory.appendingPathComponent("pushed-\(direct)").path
      let output = try SequentialFileOutput.create(path: path, direct: direct).get()
      var expected: [UInt8] = []
      for (i, size) in [10, 5000, 4086, 1_100_000, 1, 0, 300].enumerated() {
        let piece = Self.pattern(size, seed: UInt32(100 + i))
        try piece.withUnsafeBytes { try output.write($0) }
        expected += piece
        try output.push()
        let seen = try XCTUnwrap(FileManager.default.contents(atPath: path))
        XCTAssertTrue(seen.elementsEqual(expected), "after piece \(i), direct: \(direct)")
      }
      let patch: [UInt8] = [1, 2, 3]
      try patch.withUnsafeBytes { try output.overwrite($0, at: UInt64(expected.count - 3)) }
      try patch.withUnsafeBytes { try output.write($0) }
      expected.replaceSubrange((expected.count - 3)..., with: patch)
      expected += patch
      try output.finish()
      let written = try XCTUnwrap(FileManager.default.contents(atPath: path))
      XCTAssertTrue(written.elementsEqual(expected), "direct: \(direct)")
    }
  }

  func testAFullDeviceIsAnErrorNumberNotACrash() throws {
    guard FileManager.default.fileExists(atPath: "/dev/full") else {
      throw XCTSkip("/dev/full is not there")
    }
    let output = try SequentialFileOutput.create(path: "/dev/full").get()
    let piece = [UInt8](repeating: 1, count: 2 << 20)
    XCTAssertThrowsError(try piece.withUnsafeBytes { try output.write($0) }) {
      XCTAssertEqual($0 as? Errno, Errno(rawValue: ENOSPC))
    }
    output.close()
    // One buffer full and a little more: the full one is written behind, and its failure is what
    // finishing throws, not lost.
    let behind = try SequentialFileOutput.create(path: "/dev/full").get()
    let little = [UInt8](repeating: 2, count: (256 << 10) + 10)
    try little.withUnsafeBytes { try behind.write($0) }
    XCTAssertThrowsError(try behind.finish()) {
      XCTAssertEqual($0 as? Errno, Errno(rawValue: ENOSPC))
    }
    XCTAssertEqual(
      SequentialFileOutput.create(path: directory.appendingPathComponent("no/such").path).map {
        $0.position
      }, .failure(.noSuchFileOrDirectory))
  }
}
