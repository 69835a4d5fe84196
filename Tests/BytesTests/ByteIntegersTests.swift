import Bytes
import Foundation
import XCTest

final class ByteIntegersTests: XCTestCase {
  /// What an integer's bytes are, composed the long way: a reference the reader must agree with.
  func composed(_ bytes: [UInt8], _ at: Int, _ size: Int, big: Bool) -> UInt64 {
    let part = bytes[at..<(at + size)]
    return (big ? Array(part) : part.reversed()).reduce(0) { $0 << 8 | UInt64($1) }
  }

  func testEveryWidthReadsAtEveryOffsetInEitherOrderAndNothingPastTheEnd() {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<37).map { _ in UInt8.random(in: 0...255, using: &generator) }
    for at in -2...40 {
      for endianness in [Endianness.big, .little] {
        let big = endianness == .big
        func expect<T: FixedWidthInteger>(_ type: T.Type) {
          let size = MemoryLayout<T>.size
          let read = bytes.integer(at: at, endianness: endianness, as: T.self)
          if at < 0 || at + size > bytes.count {
            XCTAssertNil(read, "\(T.self) at \(at)")
          } else {
            let mask: UInt64 = size == 8 ? .max : (1 << (8 * size)) - 1
            XCTAssertEqual(
              read.map { UInt64(truncatingIfNeeded: $0) & mask },
              composed(bytes, at, size, big: big),
              "\(T.self) at \(at), \(endianness)")
          }
        }
        expect(UInt8.self)
        expect(UInt16.self)
        expect(UInt32.self)
        expect(UInt64.self)
        expect(Int32.self)
      }
    }
  }

  func testAllKindsOfByteCollectionReadAlikeAndASliceCountsFromItsOwnStart() {
    let bytes: [UInt8] = [0xde, 0xad, 0xbe, 0xef, 0x01, 0x02]
    let data = Data(bytes)
    XCTAssertEqual(bytes.integer(at: 0, as: UInt32.self), 0xdead_beef)
    XCTAssertEqual(data.integer(at: 2, endianness: .little, as: UInt16.self), 0xefbe)
    XCTAssertEqual(bytes[2...].integer(at: 0, as: UInt16.self), 0xbeef, "an array's slice")
    XCTAssertEqual(data[2...].integer(at: 2, as: UInt16.self), 0x0102, "a Data slice")
    XCTAssertNil(data[2...].integer(at: 3, as: UInt16.self))
    bytes.withUnsafeBytes { raw in
      XCTAssertEqual(raw.integer(at: 1, as: UInt32.self), 0xadbe_ef01)
    }
    XCTAssertEqual(bytes.uint24(at: 1), 0xadbeef)
    XCTAssertNil(bytes.uint24(at: 4))
  }

  func testWhatIsAppendedOrStoredReadsBackAsTheSameInteger() {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<1_000 {
      let value = UInt64.random(in: 0...UInt64.max, using: &generator)
      for endianness in [Endianness.big, .little] {
        var bytes: [UInt8] = [0xff]
        bytes.appendInteger(UInt32(truncatingIfNeeded: value), endianness: endianness)
        bytes.appendInteger(value, endianness: endianness)
        XCTAssertEqual(
          bytes.integer(at: 1, endianness: endianness, as: UInt32.self),
          UInt32(truncatingIfNeeded: value))
        XCTAssertEqual(bytes.integer(at: 5, endianness: endianness, as: UInt64.self), value)
        var stored = [UInt8](repeating: 0, count: 10)
        stored.withUnsafeMutableBytes { $0.storeInteger(value, at: 2, endianness: endianness) }
        XCTAssertEqual(stored.integer(at: 2, endianness: endianness, as: UInt64.self), value)
      }
    }
    var data = Data()
    data.appendInteger(UInt16(0x0102))
    XCTAssertEqual([UInt8](data), [0x01, 0x02], "big-endian unless asked")
  }

  func testACursorReadsInOrderAndWhatWouldRunPastTheEndMovesNothing() {
    var cursor = ByteCursor([UInt8]([0x00, 0x05, 0x41, 0x42, 0x43, 0x44, 0x45, 0x09])[...])
    XCTAssertEqual(cursor.read(UInt16.self), 5)
    XCTAssertEqual(cursor.read(count: 5).map(Array.init), Array("ABCDE".utf8))
    XCTAssertNil(cursor.read(UInt16.self))
    XCTAssertNil(cursor.read(count: 2))
    XCTAssertEqual(cursor.remaining, 1)
    XCTAssertFalse(cursor.skip(-1))
    XCTAssertEqual(cursor.read(UInt8.self), 9)
    XCTAssertTrue(cursor.isAtEnd)
  }
}
