import Crypto
import Foundation
import TestSupport
import XCTest

final class SHA256DigestTests: XCTestCase {
  /// A file read a piece at a time has the digest sha256sum gives it, whether it is shorter than
  /// a piece, a whole number of pieces or ends in a short one.
  func testAFileReadInPiecesHasTheDigestSha256sumGives() throws {
    let directory = TemporaryDirectory("sha256")
    for count in [0, 1, 63, 64, 65, 1000] {
      let url = directory.url.appendingPathComponent("file-\(count)")
      try Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ count) }).write(to: url)
      let sum = try XCTUnwrap(ExternalTool.run("sha256sum", [url.path]))
      XCTAssertEqual(
        try SHA256Digest.hex(ofFileAt: url, pieceSize: 64), String(sum.output.prefix(64)),
        "\(count) bytes")
      XCTAssertEqual(try SHA256Digest.hex(ofFileAt: url), String(sum.output.prefix(64)))
    }
  }

  func testAFileThatIsNotThereIsAnError() {
    XCTAssertThrowsError(
      try SHA256Digest.hex(ofFileAt: URL(fileURLWithPath: "/nonexistent/report.pdf")))
  }
}
