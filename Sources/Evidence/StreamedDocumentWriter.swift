import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Crypto
import Foundation

/// A JSON document whose array is written an element at a time, deflated as it goes (or when
/// archived).
final class StreamedDocumentWriter {
  private let document: StreamedJSONObject
  private let file: EvidenceFileWriter
  private var first = true
  private var bytes: [UInt8] = []
  private let orders = JSONKeyOrders()

  init(
    _ document: StreamedJSONObject, url: URL,
    deflation: EvidenceFileWriter.Deflation = .asWritten
  ) throws {
    self.document = document
    file = try EvidenceFileWriter(url: url, deflation: deflation)
    try document.writePrefix(to: file.write)
  }

  func append(_ element: JSONValue) throws { try append { $0.value(element) } }

  /// One element, written by `body`.
  func append(_ body: (inout JSONWriter) -> Void) throws {
    bytes.removeAll(keepingCapacity: true)
    document.append(first: first, to: &bytes, orders: orders, body)
    try file.write(bytes)
    first = false
  }

  func finish() throws -> WrittenFile {
    try file.write(document.suffix(empty: first))
    return try file.finishFile()
  }
}
