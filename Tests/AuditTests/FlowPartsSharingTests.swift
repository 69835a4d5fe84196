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

  func testAFlowHoldsItsTLSReadingsByReferenceSoThatItTakesAFewHundredBytes() {
    // 496 bytes while the offer, the server's answer, its key and the readings few flows have
    // were held inline.
    XCTAssertLessThanOrEqual(MemoryLayout<StoredFlow>.stride, 240)
    XCTAssertEqual(MemoryLayout<ClientTLSOffer?>.size, MemoryLayout<Int>.size)
    XCTAssertEqual(MemoryLayout<CertificateKeyReading?>.size, MemoryLayout<Int>.size)
  }

  func testReadingsMadeApartAreEqualByWhatTheyHoldAndHashAlike() {
    func key(_ bits: Int) -> CertificateKeyReading {
      CertificateKeyReading(
        algorithm: "EC", bits: bits, curve: "prime256v1", signature: "ecdsa-with-SHA256",
        source: .serverHello)
    }
    XCTAssertEqual(key(256), key(256))
    XCTAssertEqual(key(256).hashValue, key(256).hashValue)
    XCTAssertNotEqual(key(256), key(384))
    let offer = { (ja4: String) in
      ClientTLSOffer(versionsForm: .listed, versions: [.tls13], cipherSuites: [0x1301], ja4: ja4)
    }
    XCTAssertEqual(offer("t13d0101h2_a"), offer("t13d0101h2_a"))
    XCTAssertEqual(Set([offer("t13d0101h2_a"), offer("t13d0101h2_a")]).count, 1)
    XCTAssertNotEqual(offer("t13d0101h2_a"), offer("t13d0101h2_b"))
  }

  func testAFlowWhoseSeldomReadingsWereSetAndClearedEqualsOneThatNeverHadThem() {
    let plain = FlowFixture.everyReading[0]
    var changed = plain
    changed.connectHost = "proxy.example"
    changed.dnsQuestions = ["a.example"]
    changed.streamConflicts = [StreamConflict(fromDevice: true, firstByte: 1, lastByte: 4)]
    XCTAssertEqual(changed.connectHost, "proxy.example")
    XCTAssertEqual(changed.dnsQuestions, ["a.example"])
    XCTAssertNotEqual(changed, plain)
    changed.connectHost = plain.connectHost
    changed.dnsQuestions = plain.dnsQuestions
    changed.streamConflicts = plain.streamConflicts
    XCTAssertEqual(changed, plain)
    XCTAssertEqual(Set([changed, plain]).count, 1)
  }
}
