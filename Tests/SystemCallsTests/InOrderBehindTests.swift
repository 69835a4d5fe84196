import Dispatch
import Foundation
import SystemCalls
import XCTest

/// Work handed over behind runs in the order it was handed over, and no more than two pieces are
/// made and waiting: the third is made only once one has run.
final class InOrderBehindTests: XCTestCase {
  /// What the pieces did, under a lock: made by one thread, run by another.
  final class Log: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []
    func add(_ entry: String) { lock.withLock { entries.append(entry) } }
    var all: [String] { lock.withLock { entries } }
  }

  func testPiecesRunInTheOrderHandedOverAndAThirdWaitsForRoom() {
    let behind = InOrderBehind(label: "test.in-order")
    let log = Log()
    let gate = DispatchSemaphore(value: 0)
    let made = DispatchSemaphore(value: 0)
    // The first piece holds the queue until the gate opens: it takes one place, the second the
    // other.
    behind.hand(
      { log.add("made 1") },
      to: { _ in
        gate.wait()
        log.add("ran 1")
      })
    let handing = DispatchGroup()
    DispatchQueue.global().async(group: handing) {
      for index in 2...3 {
        behind.hand(
          {
            log.add("made \(index)")
            made.signal()
          }, to: { _ in log.add("ran \(index)") })
      }
    }
    XCTAssertEqual(made.wait(timeout: .now() + 10), .success, "the second piece has room")
    XCTAssertEqual(
      made.wait(timeout: .now() + 0.3), .timedOut, "the third is not made while two wait")
    gate.signal()
    XCTAssertEqual(made.wait(timeout: .now() + 10), .success, "made once the first has run")
    handing.wait()
    let order = behind.sync { log.all }
    XCTAssertEqual(order.filter { $0.hasPrefix("ran") }, ["ran 1", "ran 2", "ran 3"])
    XCTAssertEqual(Array(order.prefix(3)), ["made 1", "made 2", "ran 1"], "\(order)")
    XCTAssertEqual(Set(order.dropFirst(3)), ["made 3", "ran 2", "ran 3"], "\(order)")
  }

  func testSyncGivesWhatTheBodyGivesOnceEveryPieceHasRun() throws {
    let behind = InOrderBehind(label: "test.in-order.sync")
    let log = Log()
    for index in 0..<100 { behind.hand { log.add("\(index)") } }
    XCTAssertEqual(behind.sync { log.all }, (0..<100).map(String.init))
    struct Refused: Error {}
    XCTAssertThrowsError(try behind.sync { throw Refused() })
  }
}
