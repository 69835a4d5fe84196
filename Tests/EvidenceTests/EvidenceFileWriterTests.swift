import Crypto
import Foundation
import SystemCalls
import TestSupport
import XCTest

@testable import Evidence

/// The writer every file of a bundle goes through: what it writes does not depend on the sizes of
/// the writes, and its buffer holds one bufferful, never more.
final class EvidenceFileWriterTests: XCTestCase {
  /// Text that deflates, 4.2 buffers long: the writes cross every buffer's end.
  let bytes: [UInt8] = Array(
    (0..<24_000).map { "{\"flow\": \($0), \"host\": \"api\($0 % 97).example.com\"},\n" }
      .joined().utf8)

  /// The same bytes written once whole and then in pieces of many sizes, through each of the
  /// writer's four ways of writing.
  func written(
    _ url: URL, in pieces: [Int], deflation: EvidenceFileWriter.Deflation = .asWritten
  ) throws -> WrittenFile {
    let writer = try EvidenceFileWriter(url: url, deflation: deflation)
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

  /// A file written plain to be deflated when archived is, once deflated, the file written
  /// deflating: the same entry, CRC-32 and deflated bytes. Nothing is deflated before.
  func testAFileDeflatedWhenArchivedIsTheFileDeflatedAsItWasWritten() throws {
    let dir = TemporaryDirectory("file-writer-later")
    let early = try written(dir.url.appendingPathComponent("early.json"), in: [bytes.count])
    let laterURL = dir.url.appendingPathComponent("later.json")
    let later = try written(laterURL, in: [1, 7, 4_093], deflation: .whenArchived)
    XCTAssertTrue(later.deflatesWhenArchived)
    XCTAssertNil(later.deflated)
    XCTAssertFalse(FileManager.default.fileExists(atPath: DeflatedFile.url(of: laterURL).path))
    let deflated = try later.deflatedNow(in: dir.url)
    XCTAssertFalse(deflated.deflatesWhenArchived)
    XCTAssertEqual(deflated.entry.sha256, early.entry.sha256)
    XCTAssertEqual(deflated.crc32, early.crc32)
    XCTAssertEqual(deflated.deflated?.count, early.deflated?.count)
    XCTAssertEqual(
      try Data(contentsOf: DeflatedFile.url(of: laterURL)),
      try Data(contentsOf: DeflatedFile.url(of: dir.url.appendingPathComponent("early.json"))))
    XCTAssertEqual(try deflated.deflatedNow(in: dir.url), deflated, "deflated once only")
    // Inflated again by Python's zlib, the deflated copy is the file.
    let check = try XCTUnwrap(
      ExternalTool.run(
        "python3",
        [
          "-c",
          "import sys, zlib; a = open(sys.argv[1], 'rb').read(); "
            + "b = zlib.decompress(open(sys.argv[2], 'rb').read(), -15); "
            + "sys.exit(0 if a == b else 1)",
          laterURL.path, DeflatedFile.url(of: laterURL).path,
        ]))
    XCTAssertEqual(check.status, 0, check.error)
  }

  /// The plain file gone before the archive takes it: the error names it, nothing is made.
  func testAFileGoneBeforeItIsDeflatedIsNamed() throws {
    let dir = TemporaryDirectory("file-writer-gone")
    let url = dir.url.appendingPathComponent("flows.json")
    let later = try written(url, in: [bytes.count], deflation: .whenArchived)
    try FileManager.default.removeItem(at: url)
    XCTAssertThrowsError(try later.deflatedNow(in: dir.url)) { error in
      XCTAssertEqual(
        "\(error)", "flows.json could not be read back to be deflated: No such file or directory")
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: DeflatedFile.url(of: url).path))
  }

  /// Hashed and written on a thread alongside, each bufferful while the next is filled: the same
  /// file, digest, CRC-32 and count, and the target chosen from the same first bytes, whatever
  /// the writes' sizes.
  func testAFileHashedAlongsideIsTheFileHashedInTurn() throws {
    let dir = TemporaryDirectory("file-writer-alongside")
    // A writer alongside holds larger buffers: the text three times over crosses three ends.
    let bytes = self.bytes + self.bytes + self.bytes
    let wholeWriter = try EvidenceFileWriter(url: dir.url.appendingPathComponent("whole.json"))
    try wholeWriter.write(bytes)
    let whole = try wholeWriter.finishFile()
    let limit = EvidenceFileWriter.alongsideBufferLimit
    for (index, pieces) in [[1, 7, 4_093], [limit - 1, 2], [limit + 5, 100], [bytes.count]]
      .enumerated()
    {
      let url = dir.url.appendingPathComponent("alongside\(index)")
      var chosenFrom: Data?
      let writer = try EvidenceFileWriter(name: "entry", hashingAlongside: true) { first in
        chosenFrom = first
        return (try SequentialFileOutput.create(path: url.path).get(), true)
      }
      var at = 0
      var way = 0
      while at < bytes.count {
        let part = Array(bytes[at..<min(bytes.count, at + pieces[way % pieces.count])])
        if way % 2 == 0 {
          try writer.write(part)
        } else {
          try writer.write(count: part.count) { out in
            part.withUnsafeBytes { out.copyMemory(from: $0) }
          }
        }
        at += part.count
        way += 1
      }
      let file = try writer.finishFile()
      XCTAssertEqual(try Data(contentsOf: url), Data(bytes), "pieces \(pieces)")
      XCTAssertEqual(chosenFrom, Data(bytes[0..<limit]), "pieces \(pieces)")
      XCTAssertEqual(file.entry.sha256, whole.entry.sha256, "pieces \(pieces)")
      XCTAssertEqual(file.entry.byteCount, whole.entry.byteCount, "pieces \(pieces)")
      XCTAssertEqual(file.crc32, whole.crc32, "pieces \(pieces)")
    }
  }

  /// A disk that refuses the bytes of a writer hashing alongside (/dev/full): the writing stops
  /// with the failure, naming the file, at a write once the output has written behind, or at the
  /// end, never lost.
  func testAFailureAlongsideIsThrownNotLost() throws {
    guard FileManager.default.fileExists(atPath: "/dev/full") else {
      throw XCTSkip("/dev/full is not there")
    }
    let limit = EvidenceFileWriter.alongsideBufferLimit
    // Fewer bytes than the output holds: refused at the end. Eight bufferfuls: refused before
    // the end, and the writes stop there.
    for (count, stopsWriting) in [(4_000, false), (8 * limit, true)] {
      let writer = try EvidenceFileWriter(name: "capture.pcapng", hashingAlongside: true) { _ in
        (try SequentialFileOutput.create(path: "/dev/full").get(), true)
      }
      var failure: Error?
      var thrownByWrite = false
      do {
        var at = 0
        while at < count {
          thrownByWrite = true
          try writer.write(Array(bytes[0..<min(4_096, count - at)]))
          thrownByWrite = false
          at += 4_096
        }
        _ = try writer.finishFile()
      } catch { failure = error }
      let error = try XCTUnwrap(failure, "\(count) bytes")
      XCTAssertTrue("\(error)".hasPrefix("capture.pcapng could not be written"), "\(error)")
      XCTAssertEqual(thrownByWrite, stopsWriting, "\(count) bytes")
    }
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
