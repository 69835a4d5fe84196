import SystemCalls
import XCTest

final class MallocBytesInUseTests: XCTestCase {
  func testTheBytesInUseRiseByWhatIsHeldAndFallWhenItIsGivenBack() {
    // The figure is the process's: other threads may allocate or free a little meanwhile, so a
    // large block, and a quarter of it left to them.
    let size = 32 << 20
    let before = MallocArenas.bytesInUse
    let held = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
    held.initializeMemory(as: UInt8.self, repeating: 1, count: size)
    let holding = MallocArenas.bytesInUse
    held.deallocate()
    let after = MallocArenas.bytesInUse
    XCTAssertGreaterThanOrEqual(holding - before, size / 4 * 3)
    XCTAssertGreaterThanOrEqual(holding - after, size / 4 * 3)
  }
}
