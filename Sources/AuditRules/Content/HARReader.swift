import Audit
import Foundation

/// A HAR file (1.2) an assessor brings — PCAPdroid, HTTP Toolkit, Charles, a browser's developer
/// tools, mitmproxy's hardump — read into exchanges, and each joined to the capture's connection
/// it went over: by the server's address (serverIPAddress), the client's port where the
/// `connection` field gives one, and the time; or kept without one. Strict where HAR 1.2 says
/// what an entry holds, lenient where writers differ (bodies already decoded, fields left out).
public enum HARReader {
  public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
    public let reason: String
    public var description: String { reason }
  }

  /// One entry read, with what it says of its connection.
  public struct Entry: Sendable, Hashable {
    public var exchange: HTTPExchange
    public let serverAddress: String?
    /// The `connection` field when it is a port number (PCAPdroid, mitmproxy write the client's).
    public let clientPort: UInt16?
  }

  public struct Read: Sendable, Hashable {
    public var creator: String
    public var creatorVersion: String?
    public var entries: [Entry]
  }

  public static func read(_ data: Data) throws(Problem) -> Read {
    if let failure = JSONSyntax.failure(in: data) {
      throw Problem(reason: "it is not JSON (\(failure.reason) at byte \(failure.at))")
    }
    guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let log = root["log"] as? [String: Any]
    else { throw Problem(reason: "it has no log object, as HAR 1.2 writes one") }
    guard let entries = log["entries"] as? [Any] else {
      throw Problem(reason: "its log has no entries list")
    }
    let creator = log["creator"] as? [String: Any]
    var read = Read(
      creator: creator?["name"] as? String ?? "a tool it does not name",
      creatorVersion: creator?["version"] as? String, entries: [])
    for (index, value) in entries.enumerated() {
      guard let entry = value as? [String: Any] else {
        throw Problem(reason: "entry \(index + 1) is not an object")
      }
      read.entries.append(try Self.entry(entry, number: index + 1))
    }
    return read
  }

  static func entry(_ e: [String: Any], number: Int) throws(Problem) -> Entry {
    func fail(_ reason: String) -> Problem { Problem(reason: "entry \(number): \(reason)") }
    guard let started = e["startedDateTime"] as? String, let start = Instant.parseRFC3339(started)
    else {
      throw fail("startedDateTime is not an instant (ISO 8601 with its zone)")
    }
    guard let request = e["request"] as? [String: Any], let method = request["method"] as? String,
      let urlText = request["url"] as? String, let url = URLComponents(string: urlText),
      let host = url.host, !host.isEmpty
    else { throw fail("request has no method and absolute URL") }
    let scheme = (url.scheme ?? "http").lowercased()
    var target = url.percentEncodedPath.isEmpty ? "/" : url.percentEncodedPath
    if let query = url.percentEncodedQuery { target += "?" + query }
    // content.har (tunnelvision's own) gives the target as it was sent.
    if let sent = e["_target"] as? String { target = sent }
    let milliseconds = JSONNumber.double(e["time"]) ?? 0
    let message = e["_kind"] as? String == HTTPExchange.Kind.webSocketMessage.rawValue
    var exchange = HTTPExchange(
      source: .har, kind: message ? .webSocketMessage : .http, start: start,
      end: milliseconds > 0 && milliseconds.isFinite
        ? start.addingTimeInterval(milliseconds / 1000) : nil,
      method: method, scheme: scheme, host: host,
      port: UInt16(exactly: url.port ?? (scheme == "https" ? 443 : 80)),
      target: target, httpVersion: request["httpVersion"] as? String ?? "",
      requestHeaders: try headers(request["headers"], fail, "request.headers"),
      fromClient: e["_fromClient"] as? Bool ?? true)
    exchange.id = JSONNumber.integer(e["_exchange"]).map(Int64.init) ?? 0
    if let post = request["postData"] as? [String: Any] {
      let bytes: Data
      if let text = post["text"] as? String {
        bytes =
          (post["encoding"] as? String == "base64" ? Data(base64Encoded: text) : nil)
          ?? Data(text.utf8)
      } else if let params = post["params"] as? [[String: Any]] {
        bytes = Data(
          params.map {
            "\($0["name"] as? String ?? "")=\($0["value"] as? String ?? "")"
          }.joined(separator: "&").utf8)
      } else {
        bytes = Data()
      }
      if !bytes.isEmpty {
        exchange.requestBody = HTTPBody(bytes: bytes, sentByteCount: bytes.count, sha256: "")
      }
    }
    if let response = e["response"] as? [String: Any],
      let status = JSONNumber.integer(response["status"]), status > 0
    {
      exchange.status = status
      exchange.responseHeaders = try headers(response["headers"], fail, "response.headers")
      if let content = response["content"] as? [String: Any], let text = content["text"] as? String
      {
        let bytes =
          (content["encoding"] as? String == "base64" ? Data(base64Encoded: text) : nil)
          ?? Data(text.utf8)
        exchange.responseBody = HTTPBody(bytes: bytes, sentByteCount: bytes.count, sha256: "")
      }
    }
    let connection =
      e["connection"] as? String ?? (JSONNumber.integer(e["connection"]).map(String.init))
    let address = (e["serverIPAddress"] as? String).map {
      $0.hasPrefix("[") ? String($0.dropFirst().dropLast()) : $0
    }
    return Entry(
      exchange: exchange, serverAddress: address?.isEmpty == true ? nil : address,
      clientPort: connection.flatMap { UInt16($0) })
  }

  static func headers(_ value: Any?, _ fail: (String) -> Problem, _ key: String) throws(Problem)
    -> [HTTPHeader]
  {
    guard let value, !(value is NSNull) else { return [] }
    guard let list = value as? [[String: Any]] else { throw fail("\(key) is not a list") }
    var headers: [HTTPHeader] = []
    for item in list {
      guard let name = item["name"] as? String, let text = item["value"] as? String else {
        throw fail("\(key) holds a header without a name and a value")
      }
      // HTTP/2's pseudo-headers are the request line's, not headers sent.
      if name.hasPrefix(":") { continue }
      headers.append(HTTPHeader(name: name, value: text))
    }
    return headers
  }

  /// Each entry's flow among the analysed ones (by index), nil for none: a TCP flow open when it
  /// began with the entry's server address and port (and client port, where given); failing
  /// that (the capture saw the device's leg to a proxy), one named by the entry's host. Of
  /// several, the one that began nearest it.
  public static func join(_ entries: [Entry], to flows: [StoredFlow]) -> [Int?] {
    let slack = Double(InspectionJoin.slack) / 1_000_000
    return entries.map { entry in
      let start = entry.exchange.start
      let open = flows.indices.filter { index in
        flows[index].ipProtocol == .tcp
          && flows[index].firstSeen.addingTimeInterval(-slack) <= start
          && flows[index].lastSeen.addingTimeInterval(slack) >= start
      }
      var candidates: [Int] = []
      if let address = entry.serverAddress {
        candidates = open.filter { index in
          let ends = [flows[index].peers.a, flows[index].peers.b]
          guard
            let server = ends.first(where: {
              $0.address == address
                && (entry.exchange.port == nil || $0.port == entry.exchange.port)
            })
          else { return false }
          return entry.clientPort.map { port in ends.contains { $0 != server && $0.port == port } }
            ?? true
        }
      }
      if candidates.isEmpty {
        let host = DomainPattern.normalised(host: entry.exchange.host)
        candidates = open.filter {
          flows[$0].name.map { DomainPattern.normalised(host: $0.text) } == host
        }
      }
      return candidates.min {
        abs(flows[$0].firstSeen.timeIntervalSince(start))
          < abs(flows[$1].firstSeen.timeIntervalSince(start))
      }
    }
  }
}
