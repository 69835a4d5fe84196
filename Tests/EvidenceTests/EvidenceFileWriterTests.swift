import Crypto
import Foundation
import SystemCalls
import TestSupport
import XCTest

@testable import Evidence

/// The writer every file of a bundle goes through: what it writes does not depend on the sizes of
/// the writes, and its buffer holds one bufferful, never more.
final class EvidenceFileWriterTests: XCTestCase {
  /// Text that deflates, 2.6 buffers long: the writes cross every buffer's end.
  let bytes: [UInt8] = Array(
    (0..<24_000).map { "{\"flow\": \($0), \"host\": \"api\($0 % 97).example.com\"},\n" }
      .joined().utf8)

  /// The same bytes written once whole and then in pieces of many sizes, through each of the
  /// writer's four ways of writing.
  func written(_ url: URL, in pieces: [Int]) throws -> WrittenFile {
    let writer = try EvidenceFileWriter(url: url, deflating: true)
    var at = 0
    var way = 0
    while at < bytes.count {
      let part = Array(bytes[at..<min(bytes.count, at + pieces[way % pieces.count])])
      switch way % 4 {
      case 0: try writer.write(part)
      case 1: try writer.write(Data(part))
      case 2: try writer.write(String(decoding: part, as: UTF8.self))
      default:
        try writer.write(count: part.count) { out in
          part.withUnsafeBytes { out.copyMemory(from: $0) }
        }
      }
      at += part.count
      way += 1
    }
    return try writer.finishFile()
  }

  func testTheFileItsDigestAndItsDeflatedBytesAreTheSameWhateverTheSizesOfTheWrites() throws {
    XCTAssertGreaterThan(bytes.count, 2 * EvidenceFileWriter.bufferLimit)
    let dir = TemporaryDirectory("file-writer")
    let whole = try written(dir.url.appendingPathComponent("whole.json"), in: [bytes.count])
    let limit = EvidenceFileWriter.bufferLimit
    for (index, pieces) in [[1, 7, 4_093], [limit - 1, 2], [limit + 5, 100], [300_000, limit]]
      .enumerated()
    {
      let url = dir.url.appendingPathComponent("pieces\(index).json")
      let file = try written(url, in: pieces)
      XCTAssertEqual(try Data(contentsOf: url), Data(bytes), "pieces \(pieces)")
      XCTAssertEqual(file.entry.sha256, whole.entry.sha256, "pieces \(pieces)")
      XCTAssertEqual(file.entry.byteCount, whole.entry.byteCount, "pieces \(pieces)")
      XCTAssertEqual(file.crc32, whole.crc32, "pieces \(pieces)")
      XCTAssertEqual(
        try Data(contentsOf: DeflatedFile.url(of: url)),
        try Data(contentsOf: DeflatedFile.url(of: dir.url.appendingPathComponent("whole.json"))),
        "pieces \(pieces)")
    }
    XCTAssertEqual(whole.entry.sha256, SHA256Digest.hex(of: Data(bytes)))
    XCTAssertEqual(whole.entry.byteCount, UInt64(bytes.count))
  }

  /// The archive chooses an entry's method from its first bytes: exactly one bufferful of them,
  /// however the writes fell (a write that went past the buffer's end used to be given whole);
  /// none, for a file nothing was written to.
  func testTheTargetIsChosenFromExactlyTheFirstBufferfulOfBytes() throws {
    let dir = TemporaryDirectory("file-writer-choice")
    let limit = EvidenceFileWriter.bufferLimit
    for (pieces, expected) in [
      ([200_000, 100_000], limit), ([limit], limit), ([limit + 1], limit), ([1_000], 1_000),
      ([], 0),
    ] {
      var chosenFrom: Data?
      let url = dir.url.appendingPathComponent("entry")
      let writer = try EvidenceFileWriter(name: "entry") { first in
        chosenFrom = first
        guard case .success(let output) = SequentialFileOutput.create(path: url.path) else {
          throw EvidenceWriteError("not created")
        }
        return (output, true)
      }
      var at = 0
      for piece in pieces {
        try writer.write(Array(bytes[at..<at + piece]))
        at += piece
      }
      _ = try writer.finishFile()
      XCTAssertEqual(chosenFrom, Data(bytes[0..<expected]), "writes of \(pieces)")
      XCTAssertEqual(try Data(contentsOf: url), Data(bytes[0..<at]), "writes of \(pieces)")
    }
  }
}
