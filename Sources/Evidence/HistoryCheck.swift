import FlowStore

/// What an export read of the history, and whether that still holds at its end: nothing committed
/// since (one read of the database header) or, when something was, the same fingerprint of the
/// session (every packet row read again).
public struct HistoryCheck: Sendable {
  let sessionID: Int64
  let mark: HistoryMark
  let fingerprint: String

  func holds(in store: FlowStore) throws -> Bool {
    try store.historyMark() == mark || store.auditSessionFingerprint(id: sessionID) == fingerprint
  }
}
