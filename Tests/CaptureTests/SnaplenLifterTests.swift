import Capture
import XCTest

final class SnaplenLifterTests: XCTestCase {
  /// The stream through the lifter, handed over `chunk` bytes at a time.
  func lifted(_ bytes: [UInt8], chunk: Int) -> [UInt8] {
    var lifter = SnaplenLifter()
    var pending: [UInt8] = []
    var out: [UInt8] = []
    var index = 0
    while index < bytes.count {
      pending += bytes[index..<min(index + chunk, bytes.count)]
      index += chunk
      let settled = lifter.settle(&pending, ended: index >= bytes.count)
      out += pending[..<settled]
      pending.removeFirst(settled)
    }
    XCTAssertTrue(pending.isEmpty)
    return out
  }

  func le(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
  func be(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }

  func testAPcapHeadersSnaplenBecomesNoneAndNothingElseChanges() {
    let header = le(0xa1b2_c3d4) + [2, 0, 4, 0] + le(0) + le(0) + le(64) + le(101)
    let record = le(1) + le(2) + le(8) + le(8) + [1, 2, 3, 4, 5, 6, 7, 8]
    let expected = Array(header[..<16]) + le(0) + le(101) + record
    for chunk in [1, 3, 24, 1000] {
      XCTAssertEqual(lifted(header + record, chunk: chunk), expected, "chunk \(chunk)")
    }
    let swapped = be(0xa1b2_c3d4) + [0, 2, 0, 4] + be(0) + be(0) + be(64) + be(101)
    XCTAssertEqual(Array(lifted(swapped, chunk: 5)[16..<20]), [0, 0, 0, 0])
  }

  /// A section of each byte order, each with an interface saying 64 and a packet block.
  func testEachPcapngInterfacesSnaplenBecomesNoneInEitherByteOrder() {
    func section(_ word: (UInt32) -> [UInt8]) -> (input: [UInt8], expected: [UInt8]) {
      let shb =
        word(0x0A0D_0D0A) + word(28) + word(0x1A2B_3C4D) + [0, 1, 0, 0].map { $0 }
        + [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff] + word(28)
      let idb = word(1) + word(20) + word(101) + word(64) + word(20)
      let epb =
        word(6) + word(36) + word(0) + word(0) + word(0) + word(4) + word(4)
        + [9, 9, 9, 9] + word(36)
      let lifted = word(1) + word(20) + word(101) + word(0) + word(20)
      return (shb + idb + epb, shb + lifted + epb)
    }
    let little = section(le)
    let big = section(be)
    for chunk in [1, 7, 16, 4096] {
      XCTAssertEqual(
        lifted(little.input + big.input, chunk: chunk), little.expected + big.expected,
        "chunk \(chunk)")
    }
  }

  func testALengthThatLiesIsPassedOnAsItIs() {
    let shb =
      le(0x0A0D_0D0A) + le(28) + le(0x1A2B_3C4D) + [1, 0, 0, 0] + [UInt8](repeating: 0xff, count: 8)
      + le(28)
    let lying = le(1) + le(7) + le(101) + le(64) + le(7)
    let idb = le(1) + le(20) + le(101) + le(64) + le(20)
    XCTAssertEqual(lifted(shb + lying + idb, chunk: 3), shb + lying + idb)
    XCTAssertEqual(lifted([1, 2, 3], chunk: 2), [1, 2, 3])
    XCTAssertEqual(
      lifted(Array("not a capture at all, but long enough".utf8), chunk: 4),
      Array("not a capture at all, but long enough".utf8))
  }
}
