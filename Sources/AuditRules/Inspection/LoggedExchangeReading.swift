import Audit
import Foundation

/// The exchange, message and start lines of the inspection log (format 2), read as
/// docs/inspection.md lists their keys: what is missing or of another type names the line.
public enum LoggedExchangeReading {
  /// The most a body may hold, decoded from its Base64: the addon cuts longer ones.
  public static let largestBody = 16 << 20

  static func exchange(_ o: [String: Any], line: Int) throws(InspectionLog.Problem)
    -> LoggedExchange
  {
    let fields = LineFields(o, line: line)
    guard let client = try fields.endpoint(o["client"], "client") else {
      throw fields.fail("it names no client")
    }
    let server = o["server"] as? [String: Any]
    let serverPeer = try fields.endpoint(server?["peer"], "server.peer")
    let proxy = try fields.endpoint(o["proxy"], "proxy")
    let scenario = try fields.scenario()
    let exchange: HTTPExchange
    if o["type"] as? String == "message" {
      exchange = try message(o, fields)
    } else {
      exchange = try request(o, fields)
    }
    return LoggedExchange(
      line: line, exchange: exchange, client: client, proxy: proxy, serverPeer: serverPeer,
      scenario: scenario)
  }

  static func request(_ o: [String: Any], _ fields: LineFields) throws(InspectionLog.Problem)
    -> HTTPExchange
  {
    guard let start = try fields.instant("start") else { throw fields.fail("it has no start") }
    guard let request = o["request"] as? [String: Any] else {
      throw fields.fail("request is not an object")
    }
    func string(_ object: [String: Any], _ key: String, _ prefix: String) throws(InspectionLog
      .Problem)
      -> String
    {
      guard let value = object[key] as? String else {
        throw fields.fail("\(prefix).\(key) is not text")
      }
      return value
    }
    var exchange = HTTPExchange(
      source: .proxy, start: Instant.date(microseconds: start),
      end: try fields.instant("end").map(Instant.date(microseconds:)),
      method: try string(request, "method", "request"),
      scheme: try string(request, "scheme", "request"),
      host: try string(request, "host", "request"),
      port: try port(request["port"], fields, "request.port"),
      target: try string(request, "target", "request"),
      httpVersion: try string(request, "httpVersion", "request"),
      requestHeaders: try headers(request["headers"], fields, "request.headers"),
      requestBody: try body(request, fields, "request"))
    if let value = o["response"], !(value is NSNull) {
      guard let response = value as? [String: Any],
        let status = JSONNumber.integer(response["status"]), (0...999).contains(status)
      else { throw fields.fail("response is not an object with a status") }
      exchange.status = status
      exchange.responseHeaders = try headers(response["headers"], fields, "response.headers")
      exchange.responseBody = try body(response, fields, "response")
    }
    return exchange
  }

  static func message(_ o: [String: Any], _ fields: LineFields) throws(InspectionLog.Problem)
    -> HTTPExchange
  {
    guard let time = try fields.instant("time") else { throw fields.fail("it has no time") }
    guard let fromClient = o["fromClient"] as? Bool else {
      throw fields.fail("fromClient is not true or false")
    }
    guard let content = o["content"] as? String, let bytes = Data(base64Encoded: content),
      bytes.count <= largestBody
    else { throw fields.fail("content is not Base64") }
    let cut = o["contentCut"] as? Bool ?? false
    return HTTPExchange(
      source: .proxy, kind: .webSocketMessage, start: Instant.date(microseconds: time),
      method: "MESSAGE", scheme: o["scheme"] as? String ?? "wss", host: o["host"] as? String ?? "",
      port: try port(o["port"], fields, "port"), target: o["target"] as? String ?? "/",
      httpVersion: "WebSocket",
      requestBody: HTTPBody(
        bytes: bytes, sentByteCount: bytes.count, sha256: "", isComplete: !cut),
      fromClient: fromClient)
  }

  static func port(_ value: Any?, _ fields: LineFields, _ key: String) throws(InspectionLog.Problem)
    -> UInt16?
  {
    guard let value, !(value is NSNull) else { return nil }
    guard let port = JSONNumber.integer(value), (0...65535).contains(port) else {
      throw fields.fail("\(key) is not a port")
    }
    return UInt16(port)
  }

  /// [[name, value], …] in the order sent.
  static func headers(_ value: Any?, _ fields: LineFields, _ key: String)
    throws(InspectionLog.Problem) -> [HTTPHeader]
  {
    guard let value, !(value is NSNull) else { return [] }
    guard let pairs = value as? [Any] else { throw fields.fail("\(key) is not a list") }
    var headers: [HTTPHeader] = []
    for pair in pairs {
      guard let two = pair as? [Any], two.count == 2, let name = two[0] as? String,
        let text = two[1] as? String
      else { throw fields.fail("\(key) holds what is not a name and a value") }
      headers.append(HTTPHeader(name: name, value: text))
    }
    return headers
  }

  /// A body as sent: its bytes (Base64), how many were sent, whether the addon cut it.
  static func body(_ object: [String: Any], _ fields: LineFields, _ prefix: String)
    throws(InspectionLog.Problem) -> HTTPBody?
  {
    guard let value = object["body"], !(value is NSNull) else { return nil }
    guard let text = value as? String, let bytes = Data(base64Encoded: text),
      bytes.count <= largestBody
    else { throw fields.fail("\(prefix).body is not Base64") }
    let size = JSONNumber.integer(object["bodySize"]) ?? bytes.count
    guard size >= bytes.count else {
      throw fields.fail("\(prefix).bodySize is less than its body holds")
    }
    let encoding = headers(object, named: "content-encoding")
    return HTTPBody(
      bytes: bytes, sentByteCount: size, sha256: "", encoding: encoding,
      isComplete: !(object["bodyCut"] as? Bool ?? false) && size == bytes.count)
  }

  static func headers(_ object: [String: Any], named name: String) -> String? {
    guard let pairs = object["headers"] as? [[Any]] else { return nil }
    for pair in pairs where (pair.first as? String)?.lowercased() == name {
      return (pair.last as? String)?.lowercased().trimmingCharacters(in: .whitespaces)
    }
    return nil
  }

  static func start(_ o: [String: Any], line: Int) -> ProxyStart {
    var options: [String: String] = [:]
    for (key, value) in o["options"] as? [String: Any] ?? [:] {
      options[key] = (value as? String) ?? "\(value)"
    }
    return ProxyStart(
      line: line, tool: o["tool"] as? String ?? "mitmproxy", version: o["version"] as? String,
      options: options, time: try? LineFields(o, line: line).instant("time"))
  }
}
