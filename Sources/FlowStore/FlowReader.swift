import Audit
import AuditRules
import Foundation

/// A read-only connection of its own to a store's history, for a thread other than the one the
/// store's connection belongs to: a session's flows one at a time, none of them kept, and its
/// packet counts.
public final class FlowReader {
  let db: SQLiteConnection
  let path: String

  public init(store: FlowStore) throws {
    let path = store.databaseURL.path
    self.path = path
    // A store opened to read alone (it cannot be written) is read as the store reads it.
    db = try FlowStore.wrap(path) {
      try SQLiteConnection(path: path, readOnly: true, immutable: store.isReadOnly)
    }
  }

  /// The session's flows, oldest first (as `FlowStore.flows(inAuditSession:)` gives them).
  public func forEachFlow(inAuditSession id: Int64, _ body: (StoredFlow) throws -> Void) throws {
    try FlowStore.wrap(path) {
      try FlowStore.forEachFlow(
        on: db, FlowStore.sessionFlowsSQL, [.integer(id), .int(Int.max)], body)
    }
  }

  /// Begins a read transaction: from its first read on, everything this connection reads is the
  /// history as it stood then, whatever is committed meanwhile.
  public func beginSnapshot() throws {
    try FlowStore.wrap(path) {
      try db.execute("BEGIN")
      _ = try db.firstRow("SELECT count(*) FROM audit_sessions") { $0.int64(0) }
    }
  }

  /// Ends the read transaction `beginSnapshot` began.
  public func endSnapshot() throws {
    try FlowStore.wrap(path) { try db.execute("COMMIT") }
  }

  /// `FlowStore.packetCounts(inAuditSession:start:end:)` and then
  /// `FlowStore.auditSessionFingerprint(id:)`, read on this connection, the session's packets read
  /// once for both.
  public func packetCountsAndFingerprint(inAuditSession id: Int64, start: Int64, end: Int64)
    throws -> (counts: [SessionPacketCount], fingerprint: String)
  {
    try FlowStore.wrap(path) {
      let pass = try FlowStore.packetPass(on: db, inAuditSession: id, start: start, end: end)
      return (
        pass.counts,
        try FlowStore.auditSessionFingerprint(on: db, id: id, packets: pass.fingerprint)
      )
    }
  }
}
