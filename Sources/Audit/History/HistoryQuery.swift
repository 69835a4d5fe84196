import Foundation

/// What the Timeline lists: the criteria `flows` takes, combined (all must hold).
public struct HistoryQuery: Sendable, Hashable {
  public var auditSessionID: Int64?
  /// A name (SNI, CONNECT host, DNS name or one of the address's other names) or an address
  /// containing this, case aside.
  public var host: String?
  /// Connections active at or after `since` and begun at or before `until`.
  public var since: Date?, until: Date?
  public var status: TLSInspectionStatus?
  public var ipProtocol: IPProtocolNumber?
  /// Only these flows (those a finding cites).
  public var flowIDs: Set<Int64>?
  /// Only flows written after this one (`--follow`: the store's ids grow as flows are inserted).
  public var afterID: Int64?
  public var oldestFirst = false

  public init() {}

  /// Whether any criterion narrows the history (the order is not one).
  public var isFiltered: Bool {
    var unordered = self
    unordered.oldestFirst = false
    return unordered != HistoryQuery()
  }
}

/// Where a page of the Timeline ends: the next page starts after this flow (by first packet, then
/// id). A cursor, not an offset: a large history's later pages cost what its first does.
public struct HistoryCursor: Sendable, Hashable {
  public let firstSeen: Date
  public let id: Int64
  public init(firstSeen: Date, id: Int64) {
    self.firstSeen = firstSeen
    self.id = id
  }
}
