import Audit
import Foundation

/// One body as the documents describe it: never its bytes, which only content.har holds.
public struct BodyRecord: Sendable, Hashable {
  public let contentType: String?
  /// As sent, and as kept (decoded, or cut).
  public let sentBytes: Int
  public let keptBytes: Int
  public let sha256: String
  public let encoding: String?
  public let decoding: BodyDecoding
  public let isComplete: Bool

  public init(
    contentType: String?, sentBytes: Int, keptBytes: Int, sha256: String, encoding: String?,
    decoding: BodyDecoding, isComplete: Bool
  ) {
    self.contentType = contentType
    self.sentBytes = sentBytes
    self.keptBytes = keptBytes
    self.sha256 = sha256
    self.encoding = encoding
    self.decoding = decoding
    self.isComplete = isComplete
  }

  public init(_ body: HTTPBody, contentType: String?) {
    self.init(
      contentType: contentType, sentBytes: body.sentByteCount, keptBytes: body.bytes.count,
      sha256: body.sha256, encoding: body.encoding, decoding: body.decoding,
      isComplete: body.isComplete)
  }
}

/// An exchange as exchanges.json describes it — what was sent where, when, and which of the test
/// account's values it carried — without the values of what it sent: the names of its query
/// parameters, headers and JSON body's leaves, never their contents.
public struct ExchangeRecord: Sendable, Hashable {
  public let exchangeID: Int64
  public let flowID: Int64?
  public let source: ExchangeSource
  public let kind: HTTPExchange.Kind
  public let start: Date
  public let end: Date?
  public let method: String
  public let scheme: String
  /// Normalised.
  public let host: String
  public let port: UInt16?
  public let path: String
  public let httpVersion: String
  public let fromClient: Bool
  public let status: Int?
  public let request: BodyRecord?
  public let response: BodyRecord?
  public let queryNames: [String]
  public let headerNames: [String]
  public let jsonKeys: [String]
  public let matches: [ContentMatch]

  public init(
    exchangeID: Int64, flowID: Int64?, source: ExchangeSource, kind: HTTPExchange.Kind,
    start: Date, end: Date?, method: String, scheme: String, host: String, port: UInt16?,
    path: String, httpVersion: String, fromClient: Bool, status: Int?, request: BodyRecord?,
    response: BodyRecord?, queryNames: [String], headerNames: [String], jsonKeys: [String],
    matches: [ContentMatch]
  ) {
    self.exchangeID = exchangeID
    self.flowID = flowID
    self.source = source
    self.kind = kind
    self.start = start
    self.end = end
    self.method = method
    self.scheme = scheme
    self.host = host
    self.port = port
    self.path = path
    self.httpVersion = httpVersion
    self.fromClient = fromClient
    self.status = status
    self.request = request
    self.response = response
    self.queryNames = queryNames
    self.headerNames = headerNames
    self.jsonKeys = jsonKeys
    self.matches = matches
  }

  /// Sent where a capture can read it: over plain HTTP (ws:), or read in the clear.
  public var inCleartext: Bool { source == .capture || scheme == "http" || scheme == "ws" }
}

/// A session's content as the checks read it: the values planted for it and every exchange with
/// what it sent of them. Built by the shell (the matcher runs over the store's exchanges, or the
/// bundle's); pure values here.
public struct SessionContent: Sendable, Hashable {
  public let values: [TestDataValue]
  public let exchanges: [ExchangeRecord]
  private let byFlow: [Int64: [Int]]

  public init(values: [TestDataValue], exchanges: [ExchangeRecord]) {
    self.values = values
    self.exchanges = exchanges
    var byFlow: [Int64: [Int]] = [:]
    for (index, exchange) in exchanges.enumerated() {
      if let flow = exchange.flowID { byFlow[flow, default: []].append(index) }
    }
    self.byFlow = byFlow
  }

  /// The exchanges read of a flow, in the order they began.
  public func exchanges(ofFlow id: Int64) -> [ExchangeRecord] {
    (byFlow[id] ?? []).map { exchanges[$0] }
  }

  public func category(of label: String) -> TestDataCategory {
    values.first { $0.label == label }?.category ?? .other
  }
}
