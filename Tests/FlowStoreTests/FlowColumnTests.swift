import Foundation
import TestSupport
import XCTest

@testable import FlowStore

final class FlowColumnTests: StoreTestCase {
  func testTheFlowColumnsAreTheColumnsOfTheTableTheMigrationsMakeInTheirOrder() throws {
    store = nil
    let listed = try XCTUnwrap(
      ExternalTool.run(
        "sqlite3",
        [dir.url.appendingPathComponent("history.sqlite").path, "PRAGMA table_info(flows)"]
      ))
    // sqlite3 prints "cid|name|type|notnull|default|pk" a line each.
    let names = listed.output.split(separator: "\n").map { String($0.split(separator: "|")[1]) }
    XCTAssertEqual(names, FlowColumn.allCases.map(\.name))
  }

  func testAColumnsSQLNameIsItsCaseNameInLowerCaseWithUnderscores() {
    XCTAssertEqual(FlowColumn.addrA.name, "addr_a")
    XCTAssertEqual(FlowColumn.serverFromHrr.name, "server_from_hrr")
    XCTAssertEqual(FlowColumn.auditSessionId.name, "audit_session_id")
    XCTAssertEqual(FlowColumn.protocol.name, "protocol")
  }

  func testAnUpsertWritesEveryColumnButTheRowsKeyAndTheAuditSessionTheStoreTags() {
    XCTAssertEqual(
      FlowColumn.written, FlowColumn.allCases.filter { ![.id, .auditSessionId].contains($0) })
  }
}
