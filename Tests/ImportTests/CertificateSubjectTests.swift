import Foundation
import Import
import TestSupport
import XCTest

final class CertificateSubjectTests: XCTestCase {
  func testASubjectIsReadAsOpenSSLPrintsItAndNonsenseIsNone() throws {
    let dir = TemporaryDirectory("subject")
    let key = dir.url.appendingPathComponent("k.pem").path
    let pem = dir.url.appendingPathComponent("c.pem").path
    let der = dir.url.appendingPathComponent("c.der").path
    guard
      try ExternalTool.run(
        "openssl",
        [
          "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", pem, "-days",
          "1", "-subj", "/O=Example Health/CN=api.example-health.de",
        ])?.status == 0,
      try ExternalTool.run("openssl", ["x509", "-in", pem, "-outform", "der", "-out", der])?.status
        == 0
    else { throw XCTSkip("openssl is not installed") }
    let printed = try XCTUnwrap(
      ExternalTool.run(
        "openssl", ["x509", "-in", pem, "-noout", "-subject", "-nameopt", "RFC2253"])
    ).output
    let subject = try XCTUnwrap(
      CertificateSubject.of(try Data(contentsOf: URL(fileURLWithPath: der))))
    XCTAssertEqual("subject=" + subject + "\n", printed)
    XCTAssertNil(CertificateSubject.of(Data([0x30, 0x03, 0x02, 0x01])))
    XCTAssertNil(CertificateSubject.of(Data()))
  }
}
