import XCTest

@testable import Import

final class AddressKindTests: XCTestCase {
  /// What splitting at the dots and reading each part as `Int` gives: the reading the fast one
  /// must agree with.
  private func splitReading(_ address: String) -> [Int]? {
    let parts = address.split(separator: ".").compactMap { Int($0) }
    return parts.count == 4 ? parts : nil
  }

  func testADottedQuadIsReadAsItsFourNumbersAndOddFormsAsSplittingReadsThem() {
    let addresses = [
      "192.168.1.20", "0.0.0.0", "255.255.255.255", "224.0.0.251", "10.0.0.1", "1.2.3",
      "1.2.3.4.5", "1..2.3.4", ".1.2.3.4", "1.2.3.4.", "01.002.3.4", "300.1.2.3", "1.2.3.x",
      "a.1.2.3.4", "+1.2.3.4", "1.2.3.4 ", "", ".", "1234567890123.1.2.3", "fe80::1", "::1",
    ]
    for address in addresses {
      let read = AddressKind.ipv4Numbers(address).map { [$0.0, $0.1, $0.2, $0.3] }
      XCTAssertEqual(read, splitReading(address), address)
    }
  }

  func testGroupsAndPrivateRangesAreToldByTheirNumbers() {
    let groups = [
      "224.0.0.251": true, "239.255.255.250": true, "255.255.255.255": true, "240.0.0.1": false,
      "255.255.255.254": false, "ff02::fb": true,
    ]
    for (address, isGroup) in groups {
      XCTAssertEqual(AddressKind.isGroup(address), isGroup, address)
    }
    let privates = [
      "172.16.0.1": true, "172.32.0.1": false, "100.64.0.1": true, "100.128.0.1": false,
      "169.254.3.4": true, "93.184.216.34": false,
    ]
    for (address, isPrivate) in privates {
      XCTAssertEqual(AddressKind.isPrivate(address), isPrivate, address)
    }
  }
}
