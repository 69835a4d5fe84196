import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Crypto
import Foundation
import ReportLayout

/// What the documents of a bundle must agree on: one session and one export instant throughout,
/// a session that ends no earlier than it starts, and flows.json's count of its own flows. Each
/// fact is what a document holds, nil where it holds none that reads.
struct DocumentAgreement {
  /// Each document's session id, in the order they are named.
  var sessionIDs: [(document: String, value: Int64?)]
  var exportedAt: [(document: String, value: String?)]
  var startedAt: String?, endedAt: String?
  var flowCount: Int?, flowsListed: Int

  static let statement = "The documents agree on the session, the export instant and the counts."

  var problems: [String] {
    var problems: [String] = []
    for (document, id) in sessionIDs where id == nil {
      problems.append("\(document) has no integer sessionID")
    }
    problems += Self.disagreements(sessionIDs) {
      "\($0) is of session \($1); \($2) says session \($3)"
    }
    for (document, instant) in exportedAt
    where instant.flatMap(Instant.parseWrittenMicroseconds) == nil {
      problems.append("\(document) has no exportedAt instant in RFC 3339 as export writes it")
    }
    problems += Self.disagreements(exportedAt) { "\($0) was exported at \($1); \($2) says \($3)" }
    if let startedAt, let endedAt,
      let start = Instant.parseWrittenMicroseconds(startedAt),
      let end = Instant.parseWrittenMicroseconds(endedAt), end < start
    {
      problems.append("session.json's session ends at \(endedAt), before it starts at \(startedAt)")
    }
    if flowCount != flowsListed {
      problems.append(
        "flows.json's flowCount is \(flowCount.map(String.init) ?? "missing"); it lists \(flowsListed) flows"
      )
    }
    return problems
  }

  /// Where a document's value differs from the first document's that holds one.
  static func disagreements<Value: Equatable>(
    _ facts: [(document: String, value: Value?)],
    _ sentence: (String, Value, String, Value) -> String
  ) -> [String] {
    let held = facts.compactMap { fact in fact.value.map { (fact.document, $0) } }
    guard let (first, value) = held.first else { return [] }
    return held.dropFirst().filter { $0.1 != value }.map { sentence($0.0, $0.1, first, value) }
  }
}
