import Audit
import Foundation

/// What the documents of a bundle must agree on: one session and one export instant throughout,
/// a session that ends no earlier than it starts, and flows.json's count of its own flows. Each
/// fact is what a document holds, nil where it holds none that reads.
struct DocumentAgreement {
  /// Each document's session id, in the order they are named.
  var sessionIDs: [(document: String, id: Int64?)]
  var exportedAt: [(document: String, instant: String?)]
  var startedAt: String?, endedAt: String?
  var flowCount: Int?, flowsListed: Int

  static let statement = "The documents agree on the session, the export instant and the counts."

  var problems: [String] {
    var problems: [String] = []
    for (document, id) in sessionIDs where id == nil {
      problems.append("\(document) has no integer sessionID")
    }
    let ids = sessionIDs.compactMap { fact in fact.id.map { (fact.document, $0) } }
    if let (first, id) = ids.first {
      for (document, other) in ids.dropFirst() where other != id {
        problems.append("\(document) is of session \(other); \(first) says session \(id)")
      }
    }
    for (document, instant) in exportedAt
    where instant.flatMap(Instant.parseWrittenMicroseconds) == nil {
      problems.append("\(document) has no exportedAt instant in RFC 3339 as export writes it")
    }
    let instants = exportedAt.compactMap { fact in fact.instant.map { (fact.document, $0) } }
    if let (first, instant) = instants.first {
      for (document, other) in instants.dropFirst() where other != instant {
        problems.append("\(document) was exported at \(other); \(first) says \(instant)")
      }
    }
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
}
