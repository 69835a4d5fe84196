import CChecksum
import Foundation
import XCTest

@testable import Evidence

/// The CRC-32 every archive entry carries: folded by carry-less multiplication where the processor
/// can, it must agree with zlib's for every length, alignment and running value.
final class CRC32Tests: XCTestCase {
  private var random = SystemRandomNumberGenerator()

  private func bytes(_ count: Int) -> [UInt8] {
    (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
  }

  private func crc(_ start: UInt32, _ bytes: ArraySlice<UInt8>) -> UInt32 {
    bytes.withUnsafeBytes { Deflate.crc32(start, $0) }
  }

  private func zlib(_ start: UInt32, _ bytes: ArraySlice<UInt8>) -> UInt32 {
    bytes.withUnsafeBytes { tunnelvision_crc32_zlib(start, $0.baseAddress, $0.count) }
  }

  func testTheCheckValueOfTheCatalogueIsComputed() {
    // The CRC-32/ISO-HDLC check value: the CRC of the nine ASCII digits "123456789".
    XCTAssertEqual(crc(0, ArraySlice(Array("123456789".utf8))), 0xCBF4_3926)
    // And over more than sixty-four bytes, where the folding starts: 72 × "123456789".
    let long = Array(String(repeating: "123456789", count: 72).utf8)
    XCTAssertEqual(crc(0, long[...]), zlib(0, long[...]))
  }

  func testEveryLengthAndAlignmentAgreesWithZlib() {
    let data = bytes(4096 + 64)
    for offset in 0..<17 {
      for length in 0...700 {
        let piece = data[offset..<(offset + length)]
        let start = UInt32.random(in: 0...UInt32.max, using: &random)
        XCTAssertEqual(crc(start, piece), zlib(start, piece), "offset \(offset), length \(length)")
      }
    }
    for length in [1023, 1024, 1025, 4095, 4096, 4096 + 63] {
      XCTAssertEqual(crc(0, data[0..<length]), zlib(0, data[0..<length]), "length \(length)")
    }
  }

  func testAFileCutAnywhereGivesTheCRCOfTheWhole() {
    let data = bytes(3 << 20)
    let whole = zlib(0, data[...])
    XCTAssertEqual(crc(0, data[...]), whole)
    for _ in 0..<50 {
      var cuts = (0..<Int.random(in: 1...6, using: &random)).map { _ in
        Int.random(in: 0...data.count, using: &random)
      }
      cuts = ([0] + cuts + [data.count]).sorted()
      var running: UInt32 = 0
      for (from, to) in zip(cuts, cuts.dropFirst()) { running = crc(running, data[from..<to]) }
      XCTAssertEqual(running, whole, "cut at \(cuts)")
    }
  }

  func testAFlippedBitAnywhereChangesTheCRC() {
    var data = bytes(1000)
    let original = crc(0, data[...])
    for bit in stride(from: 0, to: data.count * 8, by: 37) {
      data[bit / 8] ^= 1 << UInt8(bit % 8)
      XCTAssertNotEqual(crc(0, data[...]), original, "bit \(bit)")
      data[bit / 8] ^= 1 << UInt8(bit % 8)
    }
  }

  func testThisMachineFolds() throws {
    // The machines this runs on (x86-64 since 2010) multiply carry-less; were this to fail,
    // the comparisons above would only have compared zlib with itself.
    #if arch(x86_64)
      XCTAssertEqual(tunnelvision_crc32_folds(), 1)
    #else
      throw XCTSkip("folding is written for x86-64 only")
    #endif
  }
}
