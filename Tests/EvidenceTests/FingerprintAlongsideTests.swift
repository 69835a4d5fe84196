import Crypto
import Foundation
import TestSupport
import XCTest

@testable import Evidence

/// A file fingerprinted from its first bytes as they were written, and from the file for the
/// rest, is the file read back whole: the same entry, CRC-32 and deflated bytes.
final class FingerprintAlongsideTests: XCTestCase {
  /// Text that deflates, 2.6 buffers long.
  let bytes: [UInt8] = Array(
    (0..<24_000).map { "{\"flow\": \($0), \"host\": \"api\($0 % 97).example.com\"},\n" }
      .joined().utf8)

  /// The file's first `taken` bytes given in pieces, then the file written with its bytes after
  /// them changed (as cairo's dates are), and finished.
  func fingerprinted(_ url: URL, taken: Int, pieces: [Int]) throws -> (WrittenFile, [UInt8]) {
    let alongside = try FingerprintAlongside(deflating: url)
    var at = 0
    var piece = 0
    while at < taken {
      let end = min(taken, at + pieces[piece % pieces.count])
      bytes[at..<end].withUnsafeBytes { alongside.take($0) }
      at = end
      piece += 1
    }
    var file = bytes
    file[taken...].withUnsafeMutableBufferPointer { rest in
      for i in rest.indices where rest[i] == UInt8(ascii: "0") { rest[i] = UInt8(ascii: "D") }
    }
    file += Array("appended\n".utf8)
    try Data(file).write(to: url)
    return (try alongside.file(at: url), file)
  }

  func testTheFileFingerprintedAsWrittenIsTheFileReadBack() throws {
    let dir = TemporaryDirectory("fingerprint-alongside")
    for (taken, pieces) in [
      (0, [1]), (1, [1]), (4_093, [1, 7, 4_093]), (256 * 1024, [256 * 1024]),
      (bytes.count - 5, [65_536, 3]), (bytes.count, [bytes.count]),
    ] {
      let url = dir.url.appendingPathComponent("report-\(taken).pdf")
      let (file, written) = try fingerprinted(url, taken: taken, pieces: pieces)
      let deflatedAsWritten = try Data(contentsOf: DeflatedFile.url(of: url))
      let read = try WrittenFile.reading(url)
      XCTAssertEqual(file.entry, read.entry, "\(taken) bytes taken")
      XCTAssertEqual(file.entry.sha256, SHA256Digest.hex(of: Data(written)))
      XCTAssertEqual(file.crc32, read.crc32, "\(taken) bytes taken")
      XCTAssertEqual(deflatedAsWritten, try Data(contentsOf: DeflatedFile.url(of: url)))
      XCTAssertEqual(file.deflated?.count, UInt64(deflatedAsWritten.count))
    }
  }

  /// Bytes taken that the file no longer has as taken make another digest: the check above can
  /// tell.
  func testBytesTakenThatChangedAfterwardsAreNotTheFile() throws {
    let dir = TemporaryDirectory("fingerprint-alongside-changed")
    let url = dir.url.appendingPathComponent("report.pdf")
    let alongside = try FingerprintAlongside(deflating: url)
    bytes.withUnsafeBytes { alongside.take($0) }
    var changed = bytes
    changed[10] = UInt8(ascii: "X")
    try Data(changed).write(to: url)
    XCTAssertNotEqual(try alongside.file(at: url).entry, try WrittenFile.reading(url).entry)
  }
}
