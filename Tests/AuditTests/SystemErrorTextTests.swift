import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Foundation
import ReportContent
import ReportLayout
import ReportModel
import XCTest

final class SystemErrorTextTests: XCTestCase {
  struct Own: Error, CustomStringConvertible { var description: String { "the tool's own words" } }

  func testAFileErrorIsGivenInTheSystemsWordsForItsCauseAndTheToolsOwnInItsOwn() throws {
    guard let full = FileHandle(forWritingAtPath: "/dev/full") else {
      throw XCTSkip("no /dev/full here")
    }
    defer { try? full.close() }
    XCTAssertThrowsError(try full.write(contentsOf: Data(count: 1 << 16))) {
      XCTAssertEqual(SystemErrorText.reason($0), "No space left on device")
      XCTAssertTrue("\($0)".contains("Domain"), "the description it replaces is a dump: \($0)")
    }
    XCTAssertThrowsError(try Data(contentsOf: URL(fileURLWithPath: "/nonexistent/file"))) {
      XCTAssertEqual(SystemErrorText.reason($0), "no such file")
    }
    XCTAssertEqual(SystemErrorText.reason(Own()), "the tool's own words")
    XCTAssertEqual(
      SystemErrorText.reason(NSError(domain: NSPOSIXErrorDomain, code: Int(EACCES))),
      "Permission denied")
  }
}
