import Audit
import AuditRules
import AuditWording
import Foundation

/// exchanges.json: each exchange of the session — its flow, time, request line's method, scheme,
/// host and path, status, bodies' types, sizes and SHA-256, the names (never the values) of its
/// query parameters, headers and JSON keys — and which of the test account's values it sent,
/// in what form, where. The content itself is content.har's, when the export was asked for it.
public enum EvidenceExchangesDocument {
  public static let fileName = "exchanges.json"

  /// exchanges.json's keys, object by object, each with its value's form: what its writer and
  /// verify's reader (`Decoded`) name keys through, and what docs/bundle-format.md lists.
  public enum DocumentKey: String, CodingKey, DocumentKeys {
    case formatVersion, sessionID, exchangeCount, coordinateTolerance, note, exchanges
    public static let prefix = ""
    public var form: DocumentForm {
      switch self {
      case .formatVersion, .sessionID, .exchangeCount: .integer
      case .coordinateTolerance: .number
      case .note: .string
      case .exchanges: .array(.object(Key.self))
      }
    }
  }

  /// An exchange's keys.
  public enum Key: String, CodingKey, DocumentKeys {
    case id, flowID, source, kind, start, end, method, scheme, host, port, path, httpVersion,
      fromClient, status, request, response, queryNames, headerNames, jsonKeys, matches
    public static let prefix = "exchanges[]."
    public var form: DocumentForm {
      switch self {
      case .id: .integer
      case .flowID, .port, .status: DocumentForm.integer.orNull
      case .source, .kind, .method, .scheme, .host, .path, .httpVersion: .string
      case .start: .instant
      case .end: DocumentForm.instant.orNull
      case .fromClient: .boolean
      case .request, .response: DocumentForm.object(BodyKey.self).orNull
      case .queryNames, .headerNames, .jsonKeys: .array(.string)
      case .matches: .array(.object(MatchKey.self))
      }
    }
  }

  /// A request's or response's body: what was sent and kept of it, never the content.
  public enum BodyKey: String, CodingKey, DocumentKeys {
    case contentType, sentBytes, keptBytes, sha256, encoding, decoding, decodingNote, complete
    public static let prefix = "exchanges[].request."
    public var form: DocumentForm {
      switch self {
      case .contentType, .encoding, .decodingNote: DocumentForm.string.orNull
      case .sentBytes, .keptBytes: .integer
      case .sha256, .decoding: .string
      case .complete: .boolean
      }
    }
  }

  /// Which of the test account's values an exchange sent, in which form, where.
  public enum MatchKey: String, CodingKey, DocumentKeys {
    case label, form, place, name
    public static let prefix = "exchanges[].matches[]."
    public var form: DocumentForm { self == .name ? DocumentForm.string.orNull : .string }
  }

  public static func document(sessionID: Int64, content: SessionContent) -> StreamedJSONObject {
    typealias K = DocumentKey
    return StreamedJSONObject(
      fields: [
        K.formatVersion.rawValue: .int(EvidenceBundle.formatVersion),
        K.sessionID.rawValue: .int(sessionID),
        K.exchangeCount.rawValue: .int(content.exchanges.count),
        K.coordinateTolerance.rawValue: .double(TestDataValue.coordinateTolerance),
        K.note.rawValue: .string(ContentWording.exchangesNote),
      ],
      streamedKey: K.exchanges.rawValue)
  }

  public static func entry(_ r: ExchangeRecord) -> JSONValue {
    .fields([
      Key.id: .int(r.exchangeID), .flowID: r.flowID.map { .int($0) } ?? .null,
      .source: .string(r.source.rawValue), .kind: .string(r.kind.rawValue),
      .start: .string(Instant.rfc3339(r.start)), .end: .optional(r.end.map(Instant.rfc3339)),
      .method: .string(r.method), .scheme: .string(r.scheme), .host: .string(r.host),
      .port: r.port.map { .int($0) } ?? .null, .path: .string(r.path),
      .httpVersion: .string(r.httpVersion), .fromClient: .bool(r.fromClient),
      .status: r.status.map { .int($0) } ?? .null,
      .request: r.request.map(bodyJSON) ?? .null, .response: r.response.map(bodyJSON) ?? .null,
      .queryNames: .strings(r.queryNames), .headerNames: .strings(r.headerNames),
      .jsonKeys: .strings(r.jsonKeys),
      .matches: .array(
        r.matches.map {
          .fields([
            MatchKey.label: .string($0.label), .form: .string($0.form.rawValue),
            .place: .string($0.place.part.rawValue), .name: .optional($0.place.name),
          ])
        }),
    ])
  }

  static func bodyJSON(_ b: BodyRecord) -> JSONValue {
    var decoding = "asSent"
    var note: String?
    switch b.decoding {
    case .asSent: break
    case .decoded: decoding = "decoded"
    case .notDecoded(let why):
      decoding = "notDecoded"
      note = why
    }
    return .fields([
      BodyKey.contentType: .optional(b.contentType), .sentBytes: .int(b.sentBytes),
      .keptBytes: .int(b.keptBytes), .sha256: .string(b.sha256),
      .encoding: .optional(b.encoding), .decoding: .string(decoding),
      .decodingNote: .optional(note), .complete: .bool(b.isComplete),
    ])
  }

  /// An entry read back (verify), strictly: each key the entry writes, of its type.
  public struct Decoded: Decodable, Sendable {
    public let record: ExchangeRecord

    struct Body: Decodable {
      typealias CodingKeys = BodyKey
      let contentType: String?
      let sentBytes: Int
      let keptBytes: Int
      let sha256: String
      let encoding: String?
      let decoding: String
      let decodingNote: String?
      let complete: Bool
      var record: BodyRecord? {
        let d: BodyDecoding
        switch decoding {
        case "asSent": d = .asSent
        case "decoded": d = .decoded
        case "notDecoded": d = .notDecoded(decodingNote ?? "")
        default: return nil
        }
        return BodyRecord(
          contentType: contentType, sentBytes: sentBytes, keptBytes: keptBytes, sha256: sha256,
          encoding: encoding, decoding: d, isComplete: complete)
      }
    }
    struct Match: Decodable {
      typealias CodingKeys = MatchKey
      let label: String
      let form: String
      let place: String
      let name: String?
    }
    public init(from decoder: Decoder) throws {
      let c = try decoder.container(keyedBy: Key.self)
      func fail(_ key: Key, _ what: String) -> DecodingError {
        .dataCorruptedError(forKey: key, in: c, debugDescription: what)
      }
      guard let source = ExchangeSource(rawValue: try c.decode(String.self, forKey: .source))
      else { throw fail(.source, "not a source") }
      guard let kind = HTTPExchange.Kind(rawValue: try c.decode(String.self, forKey: .kind)) else {
        throw fail(.kind, "not a kind")
      }
      guard let start = Instant.parseWritten(try c.decode(String.self, forKey: .start)) else {
        throw fail(.start, "not an instant as written")
      }
      var end: Date?
      if let text = try c.decode(String?.self, forKey: .end) {
        guard let date = Instant.parseWritten(text) else { throw fail(.end, "not an instant") }
        end = date
      }
      func body(_ key: Key) throws -> BodyRecord? {
        guard let b = try c.decode(Body?.self, forKey: key) else { return nil }
        guard let record = b.record else { throw fail(key, "decoding is not one the format names") }
        return record
      }
      var matches: [ContentMatch] = []
      for m in try c.decode([Match].self, forKey: .matches) {
        guard let form = ValueForm(rawValue: m.form), let part = MatchPlace.Part(rawValue: m.place)
        else { throw fail(.matches, "a match's form or place is not one the format names") }
        matches.append(ContentMatch(label: m.label, form: form, place: MatchPlace(part, m.name)))
      }
      record = ExchangeRecord(
        exchangeID: try c.decode(Int64.self, forKey: .id),
        flowID: try c.decode(Int64?.self, forKey: .flowID), source: source, kind: kind,
        start: start, end: end, method: try c.decode(String.self, forKey: .method),
        scheme: try c.decode(String.self, forKey: .scheme),
        host: try c.decode(String.self, forKey: .host),
        port: try c.decode(UInt16?.self, forKey: .port),
        path: try c.decode(String.self, forKey: .path),
        httpVersion: try c.decode(String.self, forKey: .httpVersion),
        fromClient: try c.decode(Bool.self, forKey: .fromClient),
        status: try c.decode(Int?.self, forKey: .status), request: try body(.request),
        response: try body(.response),
        queryNames: try c.decode([String].self, forKey: .queryNames),
        headerNames: try c.decode([String].self, forKey: .headerNames),
        jsonKeys: try c.decode([String].self, forKey: .jsonKeys), matches: matches)
    }
  }
}

extension EvidenceBundle {
  public var exchangesDocument: StreamedJSONObject {
    EvidenceExchangesDocument.document(sessionID: session.id, content: content)
  }

  /// session.json's testAccount: the values the session was judged with.
  public var testAccountJSON: JSONValue {
    .fields([
      SessionDocument.TestAccountKey.note: .string(ContentWording.testAccountNote),
      .values: .array(
        content.values.map {
          .fields([
            SessionDocument.TestValueKey.label: .string($0.label),
            .category: .string($0.category.rawValue), .value: .string($0.value),
          ])
        }),
    ])
  }
}

/// content.har: the exchanges' content itself, as HAR 1.2 holds it, in a bundle exported with
/// `--with-content` only.
public enum EvidenceContentHAR {
  public static let fileName = "content.har"
}

extension EvidenceContentHAR {
  /// The file up to its first entry: HAR 1.2's log, tunnelvision as its creator.
  public static func prefix(toolVersion: String) -> String {
    "{\n  \"log\": {\n    \"creator\": "
      + JSONValue.object(["name": .string("tunnelvision"), "version": .string(toolVersion)])
      .serialized().replacingOccurrences(of: "\n", with: " ")
      + ",\n    \"entries\": [\n"
  }
  public static let suffix = "\n    ],\n    \"version\": \"1.2\"\n  }\n}\n"
  public static let separator = ",\n"

  /// One exchange as a HAR entry: the request and response as kept (bodies decoded where they
  /// could be; text as UTF-8, else Base64), with what HAR has no field for under "_" keys: the
  /// exchange and flow it is in exchanges.json, the target as sent, a WebSocket message's kind.
  public static func entry(_ e: HTTPExchange) -> JSONValue {
    func headers(_ list: [HTTPHeader]) -> JSONValue {
      .array(list.map { .object(["name": .string($0.name), "value": .string($0.value)]) })
    }
    func text(_ body: HTTPBody?) -> [String: JSONValue] {
      guard let body else { return [:] }
      if let string = String(data: body.bytes, encoding: .utf8) {
        return ["text": .string(string)]
      }
      return ["text": .string(body.bytes.base64EncodedString()), "encoding": .string("base64")]
    }
    let portPart = e.port.map { ":\($0)" } ?? ""
    let host = e.host.contains(":") ? "[\(e.host)]" : e.host
    var post = text(e.requestBody)
    post["mimeType"] = .string(e.requestHeader("content-type") ?? "")
    var content = text(e.responseBody)
    content["size"] = .int(e.responseBody?.bytes.count ?? 0)
    content["mimeType"] = .string(e.responseHeader("content-type") ?? "")
    let milliseconds = e.end.map { max(0, $0.timeIntervalSince(e.start) * 1000) } ?? -1
    var entry: [String: JSONValue] = [
      "startedDateTime": .string(Instant.rfc3339(e.start)),
      "time": .double((milliseconds * 1000).rounded() / 1000),
      "request": .object([
        "method": .string(e.method),
        "url": .string("\(e.scheme)://\(host)\(portPart)\(e.target)"),
        "httpVersion": .string(e.httpVersion), "headers": headers(e.requestHeaders),
        "queryString": .array([]), "cookies": .array([]), "headersSize": .int(-1),
        "bodySize": .int(e.requestBody?.sentByteCount ?? 0),
        "postData": e.requestBody == nil ? .null : .object(post),
      ]),
      "response": .object([
        "status": .int(e.status ?? 0), "statusText": .string(""),
        "httpVersion": .string(e.httpVersion), "headers": headers(e.responseHeaders),
        "cookies": .array([]), "content": .object(content), "redirectURL": .string(""),
        "headersSize": .int(-1), "bodySize": .int(e.responseBody?.sentByteCount ?? -1),
      ]),
      "cache": .object([:]),
      "timings": .object([
        "send": .int(0), "wait": .double(max(0, milliseconds)), "receive": .int(0),
      ]),
      "_exchange": .int(e.id), "_target": .string(e.target),
      "_kind": .string(e.kind.rawValue), "_fromClient": .bool(e.fromClient),
    ]
    entry["_flow"] = e.flowID.map { .int($0) } ?? .null
    return .object(entry)
  }
}
