import Audit
import Foundation
import XCTest

@testable import FlowStore

/// A transaction without SQLite's checks of references (an import, a pruning pass) leaves them
/// off for itself alone: on again after it, whether it ended well or not, and never off inside
/// another transaction.
final class FlowStoreTransactionTests: StoreTestCase {
  /// A packet of a flow the store does not hold: what the checks refuse.
  let stray = StoredPacket(
    flowID: 4242, date: Date(timeIntervalSince1970: 1), direction: .inbound, length: 60)

  func packetCount() throws -> Int {
    try store.db.firstRow("SELECT count(*) FROM packets") { $0.int(0) } ?? -1
  }

  func testTheChecksAreOnOutsideSuchATransactionAndOffInsideIt() throws {
    XCTAssertThrowsError(try store.appendPackets([stray]), "checked outside")
    XCTAssertEqual(try packetCount(), 0)
    try store.transaction(checkingReferences: false) { try store.appendPackets([stray]) }
    XCTAssertEqual(try packetCount(), 1, "not checked inside")
    XCTAssertThrowsError(try store.appendPackets([stray]), "checked again after it")
  }

  func testTheChecksAreOnAgainAfterSuchATransactionFails() throws {
    struct Stop: Error {}
    XCTAssertThrowsError(
      try store.transaction(checkingReferences: false) {
        try store.appendPackets([stray])
        throw Stop()
      })
    XCTAssertEqual(try packetCount(), 0, "rolled back")
    XCTAssertThrowsError(try store.appendPackets([stray]), "checked again after it")
  }

  func testInsideAnotherTransactionTheChecksStayOn() throws {
    try store.transaction {
      XCTAssertThrowsError(
        try store.transaction(checkingReferences: false) { try store.appendPackets([stray]) })
    }
    XCTAssertEqual(try packetCount(), 0)
  }
}
