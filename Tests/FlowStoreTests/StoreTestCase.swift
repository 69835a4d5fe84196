import FlowStore
import Foundation
import TestSupport
import XCTest

/// A test case with a fresh store in a temporary directory of its own for each test.
class StoreTestCase: XCTestCase {
  var dir: TemporaryDirectory!
  var store: FlowStore!

  override func setUpWithError() throws {
    dir = TemporaryDirectory()
    store = try FlowStore(directory: dir.url)
  }

  // XCTest keeps every test case object until the process ends, so what setUp made is let go here.
  override func tearDown() {
    store = nil
    dir = nil
    super.tearDown()
  }
}
