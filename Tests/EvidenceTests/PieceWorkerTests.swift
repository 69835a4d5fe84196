import Dispatch
import Foundation
import XCTest

@testable import Evidence

final class PieceWorkerTests: XCTestCase {
  /// What the pieces did, in the order they did it.
  final class Log: @unchecked Sendable {
    private let lock = NSLock()
    private var numbers: [Int] = []
    func note(_ n: Int) {
      lock.lock()
      numbers.append(n)
      lock.unlock()
    }
    var noted: [Int] {
      lock.lock()
      defer { lock.unlock() }
      return numbers
    }
  }

  /// Pieces are done one at a time in the order handed over; with a depth of two, a piece is
  /// handed over while the one before is still being done, and `notDone` counts both.
  func testPiecesAreDoneInOrderAndADepthLetsTheCallerGoOn() {
    let worker = PieceWorker()
    let gate = DispatchSemaphore(value: 0)
    let log = Log()
    worker.handOver(depth: 2) {
      gate.wait()
      log.note(0)
    }
    let handed = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      worker.handOver(depth: 2) { log.note(1) }
      handed.signal()
    }
    XCTAssertEqual(
      handed.wait(timeout: .now() + 10), .success, "the second piece waits for no other")
    XCTAssertEqual(worker.notDone, 2)
    gate.signal()
    for n in 2..<40 { worker.handOver(depth: 1 + n % 3) { log.note(n) } }
    worker.finish()
    XCTAssertEqual(worker.notDone, 0)
    XCTAssertEqual(log.noted, Array(0..<40))
    worker.stop()
  }
}
