import Audit
import AuditRules
import AuditWording
import Bytes
import Capture
import Crypto
import Foundation

enum StreamOpeningReader {
  static let methods = [
    "GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH", "CONNECT", "TRACE",
  ]

  /// How a client stream opened, once enough of it is there to say; nil while it is not.
  static func opening(_ stream: [UInt8]) -> StreamOpening? {
    guard let first = stream.first else { return nil }
    if first == 0x16 {
      return stream.count >= 2 ? (stream[1] == 3 ? .tlsHandshake : .unrecognised) : nil
    }
    let head = String(decoding: stream.prefix(8192), as: UTF8.self)
    let couldBeMethod = methods.contains {
      $0.hasPrefix(head.prefix($0.count)) || head.hasPrefix($0 + " ")
    }
    guard couldBeMethod else { return .unrecognised }
    guard let lineEnd = head.range(of: "\r\n") else {
      return stream.count >= 8192 ? .unrecognised : nil
    }
    let line = head[..<lineEnd.lowerBound]
    let parts = line.split(separator: " ", omittingEmptySubsequences: false)
    if parts.count == 3, methods.contains(String(parts[0])), !parts[1].isEmpty,
      parts[2] == "HTTP/1.1" || parts[2] == "HTTP/1.0"
    {
      return parts[0] == "CONNECT" ? .httpConnect : .httpRequest
    }
    return .unrecognised
  }

  /// A CONNECT request's host (its authority without the port, RFC 9110 § 9.3.6) and where the
  /// tunnel begins: after the request's head. Nil until the head is whole.
  static func connectRequest(_ stream: [UInt8]) -> (host: String, tunnelStart: Int)? {
    guard let end = headEnd(stream) else { return nil }
    let line = String(decoding: stream.prefix(while: { $0 != 0x0d }), as: UTF8.self)
    let parts = line.split(separator: " ")
    guard parts.count == 3, parts[0] == "CONNECT" else { return nil }
    var authority = Substring(parts[1])
    if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
      authority = authority[authority.index(after: authority.startIndex)..<close]
    } else if let colon = authority.lastIndex(of: ":") {
      authority = authority[..<colon]
    }
    guard !authority.isEmpty else { return nil }
    return (DomainPattern.normalised(host: String(authority)), end)
  }

  /// Where the tunnel begins in the proxy's answer: after a 2xx answer's head. Nil while the head
  /// is not whole, or when the proxy refused (no tunnel then).
  static func connectAnswer(_ stream: [UInt8]) -> Int? {
    guard let end = headEnd(stream) else { return nil }
    let line = String(decoding: stream.prefix(while: { $0 != 0x0d }), as: UTF8.self)
    let parts = line.split(separator: " ")
    guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3,
      parts[1].hasPrefix("2")
    else { return Int.max }
    return end
  }

  /// The offset after an HTTP head's blank line, within the first 8 KiB.
  static func headEnd(_ stream: [UInt8]) -> Int? {
    let limit = min(stream.count, 8192)
    guard limit >= 4 else { return nil }
    for i in 0...(limit - 4)
    where stream[i] == 0x0d && stream[i + 1] == 0x0a && stream[i + 2] == 0x0d
      && stream[i + 3] == 0x0a
    {
      return i + 4
    }
    return nil
  }
}
