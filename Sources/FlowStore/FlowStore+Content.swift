import Audit
import AuditRules
import Foundation

/// The columns of `audit_test_data` read back.
enum TestDataColumn: Int, TableColumns {
  case label, value, category
}

/// The columns of `exchanges`, in the table's order.
enum ExchangeColumn: Int, TableColumns {
  case id, flowId, auditSessionId, source, kind, startedAt, endedAt, method, scheme, host, port,
    target, httpVersion, fromClient, status, requestHeaders, responseHeaders, requestBody,
    requestSent, requestSha256, requestEncoding, requestDecoding, requestDecodingReason,
    requestComplete, responseBody, responseSent, responseSha256, responseEncoding,
    responseDecoding, responseDecodingReason, responseComplete
}

extension FlowStore {
  // MARK: The test account

  /// A project's values, in the order they were planted.
  public func testData(forProject id: Int64) throws -> [TestDataValue] {
    try wrap {
      try db.rows(
        "SELECT \(TestDataColumn.selectList()) FROM audit_test_data WHERE project_id = ? ORDER BY added_at, id",
        [.integer(id)]
      ) { row in
        TestDataValue(
          label: row.string(column: TestDataColumn.label),
          value: row.string(column: TestDataColumn.value),
          category: TestDataCategory.allCases[
            min(row.int(column: TestDataColumn.category), TestDataCategory.allCases.count - 1)])
      }
    }
  }

  /// Plants a value; one with its label already there is refused, as is one the rules refuse.
  public func addTestData(_ value: TestDataValue, toProject id: Int64, at date: Date) throws {
    if let problem = TestDataRules.problem(
      label: value.label, value: value.value, category: value.category)
    {
      throw problem
    }
    try transaction {
      guard
        try db.firstRow("SELECT 1 FROM audit_projects WHERE id = ?", [.integer(id)], { _ in 1 })
          != nil
      else { throw AuditStoreError.projectNotFound(id) }
      if try db.firstRow(
        "SELECT 1 FROM audit_test_data WHERE project_id = ? AND label = ?",
        [.integer(id), .text(value.label)], { _ in 1 }) != nil
      {
        throw AuditStoreError.testDataLabelTaken(value.label)
      }
      try db.run(
        "INSERT INTO audit_test_data (project_id, label, value, category, added_at) VALUES (?, ?, ?, ?, ?)",
        [
          .integer(id), .text(value.label), .text(value.value),
          .int(TestDataCategory.allCases.firstIndex(of: value.category)!),
          .integer(Instant.nanoseconds(date)),
        ])
    }
  }

  public func removeTestData(label: String, fromProject id: Int64) throws {
    try transaction {
      try db.run(
        "DELETE FROM audit_test_data WHERE project_id = ? AND label = ?",
        [.integer(id), .text(label)])
      guard db.changes == 1 else { throw AuditStoreError.testDataLabelNotFound(label) }
    }
  }

  // MARK: Exchanges

  /// Writes an exchange of an audit session (nil: of the history), inside the caller's
  /// transaction or one of its own; returns its id.
  @discardableResult
  public func insertExchange(_ exchange: HTTPExchange, session: Int64?) throws -> Int64 {
    try wrap {
      var values = ColumnValues<ExchangeColumn, SQLiteValue>(filledWith: .null)
      values[.flowId] = .int(exchange.flowID)
      values[.auditSessionId] = .int(session)
      values[.source] = .int(ExchangeSource.allCases.firstIndex(of: exchange.source)!)
      values[.kind] = .int(exchange.kind == .http ? 1 : 2)
      values[.startedAt] = .integer(Instant.nanoseconds(exchange.start))
      values[.endedAt] = .int(exchange.end.map(Instant.nanoseconds))
      values[.method] = .text(exchange.method)
      values[.scheme] = .text(exchange.scheme)
      values[.host] = .text(exchange.host)
      values[.port] = .int(exchange.port)
      values[.target] = .text(exchange.target)
      values[.httpVersion] = .text(exchange.httpVersion)
      values[.fromClient] = .bool(exchange.fromClient)
      values[.status] = .int(exchange.status)
      values[.requestHeaders] = .blob(Self.headerData(exchange.requestHeaders))
      values[.responseHeaders] = .blob(Self.headerData(exchange.responseHeaders))
      Self.fill(&values, exchange.requestBody, request: true)
      Self.fill(&values, exchange.responseBody, request: false)
      let columns = ExchangeColumn.allCases.dropFirst()
      try db.run(
        "INSERT INTO exchanges (\(columns.map(\.snakeCaseIdentifier).joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))",
        values.values(of: Array(columns)))
      return db.lastInsertRowID
    }
  }

  /// An audit session's exchanges, in the order they began.
  public func exchanges(inAuditSession id: Int64) throws -> [HTTPExchange] {
    try wrap {
      try db.rows(
        "SELECT \(ExchangeColumn.selectList()) FROM exchanges WHERE audit_session_id = ? ORDER BY started_at, id",
        [.integer(id)], Self.exchange)
    }
  }

  /// An audit session's exchanges one at a time, in the order they began: their bodies are not
  /// held together.
  public func forEachExchange(inAuditSession id: Int64, _ body: (HTTPExchange) throws -> Void)
    throws
  {
    try wrap {
      try db.query(
        "SELECT \(ExchangeColumn.selectList()) FROM exchanges WHERE audit_session_id = ? ORDER BY started_at, id",
        [.integer(id)]
      ) { try body(Self.exchange($0)) }
    }
  }

  /// A flow's exchanges, in the order they began.
  public func exchanges(ofFlow id: Int64) throws -> [HTTPExchange] {
    try wrap {
      try db.rows(
        "SELECT \(ExchangeColumn.selectList()) FROM exchanges WHERE flow_id = ? ORDER BY started_at, id",
        [.integer(id)], Self.exchange)
    }
  }

  static func exchange(_ row: SQLiteRow) -> HTTPExchange {
    func body(request: Bool) -> HTTPBody? {
      let column: ExchangeColumn = request ? .requestBody : .responseBody
      guard !row.isNull(column: column) else { return nil }
      let decodingColumn: ExchangeColumn = request ? .requestDecoding : .responseDecoding
      let reason = row.optionalString(
        column: request ? ExchangeColumn.requestDecodingReason : .responseDecodingReason)
      let decoding: BodyDecoding
      switch row.int(column: decodingColumn) {
      case 2: decoding = .decoded
      case 3: decoding = .notDecoded(reason ?? "")
      default: decoding = .asSent
      }
      return HTTPBody(
        bytes: row.data(column: column),
        sentByteCount: row.int(column: request ? ExchangeColumn.requestSent : .responseSent),
        sha256: row.optionalString(column: request ? ExchangeColumn.requestSha256 : .responseSha256)
          ?? "",
        encoding: row.optionalString(
          column: request ? ExchangeColumn.requestEncoding : .responseEncoding),
        decoding: decoding,
        isComplete: row.bool(column: request ? ExchangeColumn.requestComplete : .responseComplete))
    }
    let sourceIndex = row.int(column: ExchangeColumn.source)
    return HTTPExchange(
      id: row.int64(column: ExchangeColumn.id),
      flowID: row.optionalInt64(column: ExchangeColumn.flowId),
      source: ExchangeSource.allCases.indices.contains(sourceIndex)
        ? ExchangeSource.allCases[sourceIndex] : .proxy,
      kind: row.int(column: ExchangeColumn.kind) == 2 ? .webSocketMessage : .http,
      start: row.date(column: ExchangeColumn.startedAt),
      end: row.optionalDate(column: ExchangeColumn.endedAt),
      method: row.string(column: ExchangeColumn.method),
      scheme: row.string(column: ExchangeColumn.scheme),
      host: row.string(column: ExchangeColumn.host),
      port: row.optionalInt64(column: ExchangeColumn.port).flatMap { UInt16(exactly: $0) },
      target: row.string(column: ExchangeColumn.target),
      httpVersion: row.string(column: ExchangeColumn.httpVersion),
      requestHeaders: headers(row.data(column: ExchangeColumn.requestHeaders)),
      requestBody: body(request: true),
      fromClient: row.bool(column: ExchangeColumn.fromClient),
      status: row.optionalInt64(column: ExchangeColumn.status).map(Int.init),
      responseHeaders: headers(row.data(column: ExchangeColumn.responseHeaders)),
      responseBody: body(request: false))
  }

  static func fill(
    _ values: inout ColumnValues<ExchangeColumn, SQLiteValue>, _ body: HTTPBody?, request: Bool
  ) {
    guard let body else { return }
    values[request ? .requestBody : .responseBody] = .blob(body.bytes)
    values[request ? .requestSent : .responseSent] = .int(body.sentByteCount)
    values[request ? .requestSha256 : .responseSha256] = .text(body.sha256)
    values[request ? .requestEncoding : .responseEncoding] = .string(body.encoding)
    let (code, reason): (Int, String?) =
      switch body.decoding {
      case .asSent: (1, nil)
      case .decoded: (2, nil)
      case .notDecoded(let why): (3, why)
      }
    values[request ? .requestDecoding : .responseDecoding] = .int(code)
    values[request ? .requestDecodingReason : .responseDecodingReason] = .string(reason)
    values[request ? .requestComplete : .responseComplete] = .bool(body.isComplete)
  }

  /// Headers as the store keeps them: each name and value as its UTF-8 byte count (four bytes,
  /// big-endian) and its bytes, in order.
  static func headerData(_ headers: [HTTPHeader]) -> Data {
    var data = Data()
    for text in headers.flatMap({ [$0.name, $0.value] }) {
      let bytes = Data(text.utf8)
      let count = UInt32(bytes.count)
      data += [
        UInt8(count >> 24), UInt8(count >> 16 & 0xff), UInt8(count >> 8 & 0xff),
        UInt8(count & 0xff),
      ]
      data += bytes
    }
    return data
  }

  /// What `headerData` wrote; what does not read so ends the list.
  static func headers(_ data: Data) -> [HTTPHeader] {
    let bytes = [UInt8](data)
    var texts: [String] = []
    var at = 0
    while at + 4 <= bytes.count {
      let count =
        Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8
        | Int(bytes[at + 3])
      at += 4
      guard count <= bytes.count - at else { break }
      texts.append(String(decoding: bytes[at..<at + count], as: UTF8.self))
      at += count
    }
    return stride(from: 0, to: texts.count - 1, by: 2).map {
      HTTPHeader(name: texts[$0], value: texts[$0 + 1])
    }
  }
}
