import Foundation
import XCTest

@testable import Audit

final class TLSRegistryTests: XCTestCase {
  func testEveryCodeIsWrittenAsFourUppercaseHexDigitsAfter0x() {
    XCTAssertEqual(TLSRegistry.hex(0x002F), "0x002F")
    XCTAssertEqual(TLSRegistry.hex(0), "0x0000")
    XCTAssertEqual(TLSRegistry.hex(0xFFFF), "0xFFFF")
    for value in 0...UInt16.max {
      XCTAssertEqual(TLSRegistry.hex(value), String(format: "0x%04X", value))
    }
  }

  func testACodeWithANameIsWrittenWithItsCodeBesideIt() {
    XCTAssertEqual(
      TLSRegistry.cipherSuiteText(0x002F), "TLS_RSA_WITH_AES_128_CBC_SHA (0x002F)")
    XCTAssertEqual(TLSRegistry.cipherSuiteText(0x0A0A), "0x0A0A")
  }
}
