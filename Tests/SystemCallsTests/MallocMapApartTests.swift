import SystemCalls
import XCTest

final class MallocMapApartTests: XCTestCase {
  /// Resident pages of this process, from /proc/self/statm (its second field, in pages).
  func residentBytes() throws -> Int {
    let fields = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8).split(
      separator: " ")
    return try XCTUnwrap(Int(fields[1])) * Int(sysconf(Int32(_SC_PAGESIZE)))
  }

  func testABlockFreedGivesItsPagesBackEvenAfterAnotherOfItsSizeWas() throws {
    MallocArenas.mapApart(from: MallocArenas.mappedApartFrom)
    // Left to glibc, the first block freed would raise the threshold to its size, and the
    // second would go into the heap and stay resident once freed.
    let size = 24 << 20
    for round in 1...2 {
      let block = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
      block.initializeMemory(as: UInt8.self, repeating: UInt8(round), count: size)
      let holding = try residentBytes()
      block.deallocate()
      let freed = try residentBytes()
      XCTAssertGreaterThanOrEqual(
        holding - freed, size / 4 * 3, "round \(round): the block's pages stayed resident")
    }
  }
}
