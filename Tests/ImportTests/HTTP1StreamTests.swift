import Audit
import Foundation
import Import
import XCTest

/// HTTP/1 read from a TCP direction in the clear: framing by Content-Length, chunked coding and
/// the connection's end; pipelined messages; a response's framing from its request's method; the
/// same messages however the bytes are cut into segments.
final class HTTP1StreamTests: XCTestCase {
  func read(_ text: String, _ role: HTTP1Stream.Role, pieces: Int? = nil, methods: [String] = [])
    -> HTTP1Stream
  {
    var stream = HTTP1Stream(role: role)
    stream.methods = methods
    let bytes = Array(text.utf8)
    let size = pieces ?? max(bytes.count, 1)
    var at = 0
    while at < bytes.count {
      stream.feed(Array(bytes[at..<min(bytes.count, at + size)]), at: Int64(at))
      at += size
    }
    stream.close()
    return stream
  }

  let requests =
    "POST /v1/records HTTP/1.1\r\nHost: api.example-health.de\r\nContent-Length: 11\r\n\r\n{\"a\":\"bc\"}\n"
    + "POST /c HTTP/1.1\r\nHost: api.example-health.de\r\nTransfer-Encoding: chunked\r\n\r\n5;x=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: 1\r\n\r\n"
    + "GET /x?y=1 HTTP/1.1\r\nHost: api.example-health.de\r\n\r\n"

  func testPipelinedRequestsAreReadEachWithItsBodyWhateverTheSegments() {
    for pieces in [nil, 1, 2, 7, 64] {
      var stream = read(requests, .requests, pieces: pieces)
      XCTAssertNil(stream.failure)
      let messages = stream.take()
      XCTAssertEqual(
        messages.map { $0.startLine.joined(separator: " ") },
        [
          "POST /v1/records HTTP/1.1", "POST /c HTTP/1.1", "GET /x?y=1 HTTP/1.1",
        ], "pieces of \(pieces ?? 0)")
      XCTAssertEqual(
        messages.map { String(decoding: $0.body, as: UTF8.self) },
        ["{\"a\":\"bc\"}\n", "hello world", ""])
      XCTAssertEqual(messages.map(\.complete), [true, true, true])
      XCTAssertEqual(
        messages.first?.headers.first, HTTPHeader(name: "Host", value: "api.example-health.de"))
    }
  }

  func testAResponseToAHeadHasNoBodyAndOneWithoutLengthRunsToTheEnd() {
    let text =
      "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n"
      + "HTTP/1.1 204 No Content\r\n\r\n"
      + "HTTP/1.1 200 OK\r\n\r\nuntil the close"
    var stream = read(text, .responses, methods: ["HEAD", "GET", "GET"])
    let messages = stream.take()
    XCTAssertEqual(messages.map { $0.startLine.dropFirst().first ?? "" }, ["200", "204", "200"])
    XCTAssertEqual(
      messages.map { String(decoding: $0.body, as: UTF8.self) }, ["", "", "until the close"])
  }

  func testAHeadComingAByteASegmentIsFoundAndOneOverTheBoundIsRefusedByName() {
    let long = "GET / HTTP/1.1\r\nX-Pad: " + String(repeating: "a", count: 60_000) + "\r\n\r\n"
    var stream = read(long, .requests, pieces: 1)
    XCTAssertNil(stream.failure)
    XCTAssertEqual(stream.take().first?.headers.first?.value.count, 60_000)
    let over = "GET / HTTP/1.1\r\nX-Pad: " + String(repeating: "a", count: 70_000)
    let refused = read(over, .requests, pieces: 1000)
    XCTAssertEqual(
      refused.failure, "a message's head is longer than \(ReadingLimits.httpHeadBytes) bytes")
  }
}
