import Audit
import Crypto
import Foundation
import Import

/// The test account of the sample project and what its 2.4.0 session's connections carried: the
/// e-mail hashed to a tracker before consent, the diagnosis to the backend, one value never sent.
enum SampleExchanges {
  static let testData = [
    TestDataValue(label: "e-mail", value: "lea.tester@example.org", category: .contact),
    TestDataValue(label: "diagnosis", value: "E11.9 Diabetes mellitus Typ 2", category: .health),
    TestDataValue(label: "insurance number", value: "A123456780", category: .identifier),
  ]

  /// The tracker's beacon: the e-mail as its SHA-256 in the query, as analytics SDKs send it.
  static func beacon(host: String, at start: Date) -> HTTPExchange {
    let uid = SHA256Digest.hex(of: Data(testData[0].value.utf8))
    return HTTPExchange(
      source: .proxy, start: start.addingTimeInterval(0.2), end: start.addingTimeInterval(0.3),
      method: "GET", scheme: "https", host: host, port: 443,
      target: "/v1/collect?ev=app_open&uid=\(uid)", httpVersion: "HTTP/2.0",
      requestHeaders: [
        HTTPHeader(name: "user-agent", value: "ExampleHealth/2.4.0 (Android 15)"),
        HTTPHeader(name: "accept", value: "*/*"),
      ], status: 204)
  }

  /// The backend's record upload: the diagnosis in a JSON body.
  static func record(host: String, at start: Date) -> HTTPExchange {
    json(
      "POST", host: host, target: "/v1/records", at: start,
      body: #"{"record":{"kind":"condition","diagnosis":"E11.9 Diabetes mellitus Typ 2"}}"#,
      status: 201, response: #"{"id":"r-20481"}"#)
  }

  /// The configuration fetched between the consent markers: none of the values.
  static func config(host: String, at start: Date) -> HTTPExchange {
    json(
      "GET", host: host, target: "/v3/config?platform=android", at: start, body: nil,
      status: 200, response: #"{"banner":true,"sync":"hourly"}"#)
  }

  /// The plaintext measurement upload, as the capture shows it (SampleFlowMaker.http).
  static func measurements(host: String, path: String, at start: Date) -> HTTPExchange {
    var exchange = json(
      "POST", host: host, target: path, at: start, body: #"{"steps":8421,"pulse":72}"# + "\n",
      status: 204, response: nil)
    exchange.source = .capture
    exchange.scheme = "http"
    exchange.port = 80
    exchange.httpVersion = "HTTP/1.1"
    return exchange
  }

  private static func json(
    _ method: String, host: String, target: String, at start: Date, body: String?, status: Int,
    response: String?
  ) -> HTTPExchange {
    HTTPExchange(
      source: .proxy, start: start.addingTimeInterval(0.2), end: start.addingTimeInterval(0.35),
      method: method, scheme: "https", host: host, port: 443, target: target,
      httpVersion: "HTTP/2.0",
      requestHeaders: [HTTPHeader(name: "user-agent", value: "ExampleHealth/2.4.0 (Android 15)")]
        + (body == nil ? [] : [HTTPHeader(name: "content-type", value: "application/json")]),
      requestBody: body.map { ContentDecoder.body(Data($0.utf8), encoding: nil) }, status: status,
      responseHeaders: response == nil
        ? [] : [HTTPHeader(name: "content-type", value: "application/json")],
      responseBody: response.map { ContentDecoder.body(Data($0.utf8), encoding: nil) })
  }
}
