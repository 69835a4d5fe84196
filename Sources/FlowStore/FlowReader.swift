import Audit
import Foundation

/// A read-only connection of its own to a store's history, for a thread other than the one the
/// store's connection belongs to: a session's flows one at a time, none of them kept.
public final class FlowReader {
    let db: SQLiteConnection
    let path: String

    public init(store: FlowStore) throws {
        path = store.databaseURL.path
        do { db = try SQLiteConnection(path: path, readOnly: true) } catch let error as SQLiteError {
            throw FlowStoreError.of(error, path: path)
        }
    }

    /// The session's flows, oldest first (as `FlowStore.flows(inAuditSession:)` gives them).
    public func forEachFlow(inAuditSession id: Int64, _ body: (StoredFlow) throws -> Void) throws {
        do {
            try FlowStore.forEachFlow(on: db, FlowStore.sessionFlowsSQL, [.integer(id), .int(Int.max)], body)
        } catch let error as SQLiteError {
            throw FlowStoreError.of(error, path: path)
        }
    }
}
