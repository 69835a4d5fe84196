import Audit
import AuditRules
import Foundation

extension ContentMatcher {
  /// The exchange as the documents describe it, with the values it sent: the names of its query
  /// parameters, headers and JSON body's leaves (paths), each once in order, never their values.
  public func record(_ exchange: HTTPExchange) -> ExchangeRecord {
    var queryNames: [String] = []
    var jsonKeys: [String] = []
    for field in RequestFields.of(exchange) {
      if field.part == .query, let name = field.name, !name.isEmpty, !queryNames.contains(name) {
        queryNames.append(name)
      }
      if field.part == .body || field.part == .message {
        for (_, name) in field.spans where name.hasPrefix("$") && !jsonKeys.contains(name) {
          if jsonKeys.count < Self.namesKept { jsonKeys.append(name) }
        }
      }
    }
    var headerNames: [String] = []
    for header in exchange.requestHeaders where !headerNames.contains(header.name) {
      headerNames.append(header.name)
    }
    return ExchangeRecord(
      exchangeID: exchange.id, flowID: exchange.flowID, source: exchange.source,
      kind: exchange.kind, start: exchange.start, end: exchange.end, method: exchange.method,
      scheme: exchange.scheme.lowercased(), host: DomainPattern.normalised(host: exchange.host),
      port: exchange.port, path: exchange.path, httpVersion: exchange.httpVersion,
      fromClient: exchange.fromClient, status: exchange.status,
      request: exchange.requestBody.map {
        BodyRecord($0, contentType: exchange.requestHeader("content-type"))
      },
      response: exchange.responseBody.map {
        BodyRecord($0, contentType: exchange.responseHeader("content-type"))
      },
      queryNames: queryNames, headerNames: headerNames, jsonKeys: jsonKeys,
      matches: matches(in: exchange))
  }

  /// The most JSON leaf paths a record names: a body of ten thousand leaves names the first.
  public static let namesKept = 256
}
