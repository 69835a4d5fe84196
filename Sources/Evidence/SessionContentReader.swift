import Audit
import AuditRules
import ContentMatching
import FlowStore
import Foundation

/// A session's content as the checks and documents read it: its exchanges, read from the store
/// one at a time, each searched for the project's test account values (what the session is
/// judged with now).
public enum SessionContentReader {
  public static func content(of session: AuditSession, in store: FlowStore) throws
    -> SessionContent
  {
    let values = try store.testData(forProject: session.projectID)
    let matcher = ContentMatcher(values: values)
    var records: [ExchangeRecord] = []
    try store.forEachExchange(inAuditSession: session.id) { records.append(matcher.record($0)) }
    return SessionContent(values: values, exchanges: records)
  }
}
