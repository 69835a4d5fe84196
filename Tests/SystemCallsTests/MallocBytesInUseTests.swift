import SystemCalls
import XCTest

final class MallocBytesInUseTests: XCTestCase {
  func testTheBytesInUseRiseByWhatIsHeldAndFallWhenItIsGivenBack() {
    let before = MallocArenas.bytesInUse
    let size = 8 << 20
    let held = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
    held.initializeMemory(as: UInt8.self, repeating: 1, count: size)
    let holding = MallocArenas.bytesInUse
    held.deallocate()
    let after = MallocArenas.bytesInUse
    XCTAssertGreaterThanOrEqual(holding - before, size)
    XCTAssertGreaterThanOrEqual(holding - after, size)
  }
}
