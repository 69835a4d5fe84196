import Foundation

/// Where an exchange's content was read.
public enum ExchangeSource: String, Sendable, Hashable, CaseIterable {
  /// The inspecting proxy's log: what it decrypted.
  case proxy
  /// The capture itself: HTTP/1 in the clear, from the reassembled stream.
  case capture
  /// A HAR file the assessor brought.
  case har
}

public struct HTTPHeader: Sendable, Hashable {
  public let name: String
  public let value: String
  public init(name: String, value: String) {
    self.name = name
    self.value = value
  }
}

/// What was done to a body's bytes before they were kept.
public enum BodyDecoding: Sendable, Hashable {
  /// Kept as sent: no Content-Encoding, or identity.
  case asSent
  /// Content-Encoding undone (gzip, deflate, br): the bytes are what it encoded.
  case decoded
  /// The Content-Encoding could not be undone: kept as sent, and why.
  case notDecoded(String)
}

/// A request's or a response's body as kept.
public struct HTTPBody: Sendable, Hashable {
  /// Decoded where the Content-Encoding could be undone, else as sent; at most what was read.
  public var bytes: Data
  /// How many bytes were sent (before decoding), as far as they were read.
  public var sentByteCount: Int
  /// SHA-256 of the body as sent, in hex.
  public var sha256: String
  /// The Content-Encoding named, lowercased; nil for none.
  public var encoding: String?
  public var decoding: BodyDecoding
  /// Whether the body was cut before its end (a capture that stopped, a bound reached).
  public var isComplete: Bool

  public init(
    bytes: Data, sentByteCount: Int, sha256: String, encoding: String? = nil,
    decoding: BodyDecoding = .asSent, isComplete: Bool = true
  ) {
    self.bytes = bytes
    self.sentByteCount = sentByteCount
    self.sha256 = sha256
    self.encoding = encoding
    self.decoding = decoding
    self.isComplete = isComplete
  }
}

/// One request and its response, or one WebSocket message, as read from the proxy's log, the
/// capture or a HAR file: what the app sent, to where, and what came back.
public struct HTTPExchange: Sendable, Hashable, Identifiable {
  public enum Kind: String, Sendable, Hashable {
    case http
    /// A WebSocket message: its text or bytes are the request's body; `fromClient` says which end
    /// sent it.
    case webSocketMessage
  }
  public var id: Int64
  /// The connection it went over, when it was joined to one.
  public var flowID: Int64?
  public var source: ExchangeSource
  public var kind: Kind
  /// When the request began, and when the response ended (nil when none came).
  public var start: Date
  public var end: Date?
  public var method: String
  public var scheme: String
  public var host: String
  public var port: UInt16?
  /// The request target: the path with its query, as sent.
  public var target: String
  public var httpVersion: String
  public var requestHeaders: [HTTPHeader]
  public var requestBody: HTTPBody?
  /// A WebSocket message's direction: true when the app sent it.
  public var fromClient: Bool
  public var status: Int?
  public var responseHeaders: [HTTPHeader]
  public var responseBody: HTTPBody?

  public init(
    id: Int64 = 0, flowID: Int64? = nil, source: ExchangeSource, kind: Kind = .http,
    start: Date, end: Date? = nil, method: String, scheme: String, host: String,
    port: UInt16? = nil, target: String, httpVersion: String, requestHeaders: [HTTPHeader] = [],
    requestBody: HTTPBody? = nil, fromClient: Bool = true, status: Int? = nil,
    responseHeaders: [HTTPHeader] = [], responseBody: HTTPBody? = nil
  ) {
    self.id = id
    self.flowID = flowID
    self.source = source
    self.kind = kind
    self.start = start
    self.end = end
    self.method = method
    self.scheme = scheme
    self.host = host
    self.port = port
    self.target = target
    self.httpVersion = httpVersion
    self.requestHeaders = requestHeaders
    self.requestBody = requestBody
    self.fromClient = fromClient
    self.status = status
    self.responseHeaders = responseHeaders
    self.responseBody = responseBody
  }

  /// The target's path, without its query.
  public var path: String {
    target.firstIndex(of: "?").map { String(target[..<$0]) } ?? target
  }

  /// The target's query, without its "?"; nil for none.
  public var query: String? {
    target.firstIndex(of: "?").map { String(target[target.index(after: $0)...]) }
  }

  /// The first value of a header, by name in any case.
  public func requestHeader(_ name: String) -> String? {
    requestHeaders.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
  }

  public func responseHeader(_ name: String) -> String? {
    responseHeaders.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
  }

  /// What the app sent: the request line's words, "POST /v1/diary".
  public var requestLine: String { "\(method) \(path)" }
}
