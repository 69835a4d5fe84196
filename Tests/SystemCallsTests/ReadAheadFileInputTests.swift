import Foundation
import SystemCalls
import XCTest

final class ReadAheadFileInputTests: XCTestCase {
  /// The pieces joined are the file's bytes, whatever its size against the piece's, and nothing
  /// comes after its end however often one asks; on a disk's file system, and on tmpfs, which may
  /// refuse direct I/O.
  func testThePiecesJoinedAreTheFilesBytesWhateverItsSize() throws {
    try read(in: FileManager.default.temporaryDirectory)
    if FileManager.default.fileExists(atPath: "/dev/shm") {
      try read(in: URL(fileURLWithPath: "/dev/shm"))
    }
  }

  func read(in parent: URL) throws {
    let dir = parent.appendingPathComponent("read-ahead-\(getpid())-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let piece = ReadAheadFileInput.pieceSize
    for size in [0, 1, 4_095, piece - 1, piece, piece + 1, 3 * piece + 4_097] {
      let path = dir.appendingPathComponent("file-\(size)").path
      let bytes = SequentialFileOutputTests.pattern(size, seed: UInt32(size % 1_000))
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      let input = try ReadAheadFileInput.open(path: path).get()
      var read: [UInt8] = []
      var pieces = 0
      while true {
        let next = try input.nextPiece()
        if next.isEmpty { break }
        XCTAssertLessThanOrEqual(next.count, piece)
        read += next
        pieces += 1
      }
      XCTAssertEqual(read.count, bytes.count, "\(size) bytes")
      XCTAssertTrue(read == bytes, "\(size) bytes")
      XCTAssertEqual(pieces, (size + piece - 1) / piece, "\(size) bytes")
      XCTAssertEqual(try input.nextPiece().count, 0, "past the end of \(size) bytes")
    }
    // From an offset on: the first piece is short by as much as the offset lies past a block's
    // start, and the bytes joined are the file's from there.
    let size = 3 * piece + 4_097
    let bytes = SequentialFileOutputTests.pattern(size, seed: 5)
    let path = dir.appendingPathComponent("from-offsets").path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    for offset in [0, 1, 4_095, 4_096, 4_097, piece - 1, piece + 5, size - 1, size, size + 9] {
      let input = try ReadAheadFileInput.open(path: path, from: UInt64(offset)).get()
      var read: [UInt8] = []
      while true {
        let next = try input.nextPiece()
        if next.isEmpty { break }
        read += next
      }
      XCTAssertTrue(read == Array(bytes[min(offset, size)...]), "from \(offset)")
    }
    XCTAssertEqual(
      ReadAheadFileInput.open(path: dir.appendingPathComponent("gone").path).map {
        $0.fileDescriptor >= 0
      }, .failure(.noSuchFileOrDirectory))
  }
}
