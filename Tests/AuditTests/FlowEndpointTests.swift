import Audit
import XCTest

/// An endpoint as the documents write it: an IPv6 address in brackets before its port.
final class FlowEndpointTests: XCTestCase {
  func testAnIPv6AddressIsBracketedAndAnIPv4OneIsNot() {
    XCTAssertEqual(FlowEndpoint(address: "2001:db8::1", port: 443).text, "[2001:db8::1]:443")
    XCTAssertEqual(FlowEndpoint(address: "::1", port: 0).text, "[::1]:0")
    XCTAssertEqual(FlowEndpoint(address: "192.0.2.10", port: 53).text, "192.0.2.10:53")
    // A substring's bytes, and a string made from one, are looked at the same way.
    let written = "x 2001:db8::2"
    let address = String(written.dropFirst(2))
    XCTAssertTrue(FlowEndpoint.isIPv6(address))
    XCTAssertFalse(FlowEndpoint.isIPv6("198.51.100.7"))
    XCTAssertFalse(FlowEndpoint.isIPv6(""))
  }
}
