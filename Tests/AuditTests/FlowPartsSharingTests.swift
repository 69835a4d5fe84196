import Audit
import Foundation
import TestSupport
import XCTest

final class FlowPartsSharingTests: XCTestCase {
  /// Where an array's elements are: two arrays at one place share their storage.
  func place<T>(_ array: [T]) -> UnsafeRawPointer? {
    array.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
  }

  func testAFlowIsGivenBackEqualAndEqualPartsOfTwoFlowsShareTheirStorage() throws {
    let sharing = FlowPartsSharing()
    for flow in FlowFixture.everyReading {
      XCTAssertEqual(sharing.share(flow), flow)
    }
    var one = FlowFixture.everyReading[0]
    var other = one
    // The same offer made twice, as two reads of flows.json make it: equal, stored apart.
    func made() -> ClientTLSOffer {
      ClientTLSOffer(
        versionsForm: .listed, versions: [.tls13, .tls12], alpn: ["h2", "http/1.1"],
        droppedALPNCount: 0, encryptedClientHello: false,
        cipherSuites: (0x1301...0x1303).map { UInt16($0) }, extensions: (0..<5).map { UInt16($0) },
        ja4: "t13d1516h2_8daaf6152771_02713d6af862")
    }
    one.clientTLS = made()
    other.clientTLS = made()
    XCTAssertNotEqual(
      place(one.clientTLS!.cipherSuites), place(other.clientTLS!.cipherSuites), "apart at first")
    let sharedOne = sharing.share(one)
    let sharedOther = sharing.share(other)
    XCTAssertEqual(sharedOther, other)
    XCTAssertEqual(
      place(sharedOne.clientTLS!.cipherSuites), place(sharedOther.clientTLS!.cipherSuites))
    XCTAssertEqual(
      place(sharing.list(["F1", "F2"])), place(sharing.list(["F1", "F2"].map { $0 })))
    XCTAssertEqual(sharing.list([]), [])
  }
}
