import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Crypto
import Foundation

/// What the documents of a bundle must agree on: one session and one export instant throughout,
/// a session that ends no earlier than it starts, and flows.json's count of its own flows. Each
/// fact is what a document holds, nil where it holds none that reads.
struct DocumentAgreement {
  /// Each document's session id, in the order they are named.
  var sessionIDs: [(document: String, value: Int64?)]
  var exportedAt: [(document: String, value: String?)]
  var startedAt: String?, endedAt: String?
  var flowCount: Int?, flowsListed: Int

  static let statement = VerifyWording.agreement

  var problems: [String] {
    var problems: [String] = []
    for (document, id) in sessionIDs where id == nil {
      problems.append(VerifyWording.noSessionID(document))
    }
    problems += Self.disagreements(sessionIDs) {
      VerifyWording.sessionDiffers($0, "\($1)", $2, "\($3)")
    }
    for (document, instant) in exportedAt
    where instant.flatMap(Instant.parseWrittenMicroseconds) == nil {
      problems.append(VerifyWording.noExportedAt(document))
    }
    problems += Self.disagreements(exportedAt) {
      VerifyWording.exportedAtDiffers($0, "\($1)", $2, "\($3)")
    }
    if let startedAt, let endedAt,
      let start = Instant.parseWrittenMicroseconds(startedAt),
      let end = Instant.parseWrittenMicroseconds(endedAt), end < start
    {
      problems.append(VerifyWording.endsBeforeStart(ended: endedAt, started: startedAt))
    }
    if flowCount != flowsListed {
      problems.append(VerifyWording.flowCountDiffers(flowCount, listed: flowsListed))
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
