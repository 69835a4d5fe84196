import Audit
import AuditRules
import AuditWording
import Foundation

/// The project's baseline as a bundle cites it: which session, and the host names its
/// connections went to. What separates the audited app's traffic from the device's is the
/// baseline recorded without it (ux-audit.md); the bundle says which of a finding's hosts the
/// baseline also contacted, and changes no verdict for it.
public struct EvidenceBaseline: Sendable, Hashable {
  public let sessionID: Int64
  /// Lowercased.
  private let lookup: Set<String>

  /// The JA4 fingerprints of its ClientHellos: the TLS clients the device used without the app.
  public let tlsClients: Set<String>

  public init(
    sessionID: Int64, hosts: some Sequence<String>, tlsClients: some Sequence<String> = [String]()
  ) {
    self.sessionID = sessionID
    lookup = Set(hosts.map { $0.lowercased() })
    self.tlsClients = Set(tlsClients)
  }

  /// Sorted, as session.json lists them.
  public var sortedTLSClients: [String] { tlsClients.sorted() }

  /// What the TLS client check compares with.
  public var clientBaseline: TLSClientBaseline {
    TLSClientBaseline(sessionID: sessionID, fingerprints: tlsClients)
  }

  /// Sorted by their bytes, each once, lowercased: as session.json lists them.
  public var hosts: [String] { lookup.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }

  public func contacted(_ host: String) -> Bool { lookup.contains(host.lowercased()) }

  /// What flows.json says of a flow: whether the baseline also contacted its host; nil without a
  /// baseline, or for a flow without a name.
  public static func claim(_ baseline: EvidenceBaseline?, for flow: StoredFlow) -> Bool? {
    guard let baseline, let name = flow.name else { return nil }
    return baseline.contacted(name.text)
  }

  /// The session a bundle of `session` cites as its baseline: the project's baseline session
  /// that ended last, other than the session itself; none for a baseline, which is not
  /// attributed to another.
  public static func session(for session: AuditSession, among sessions: [AuditSession])
    -> AuditSession?
  {
    guard session.kind != .baseline else { return nil }
    return sessions.filter {
      $0.kind == .baseline && $0.projectID == session.projectID && $0.id != session.id
        && $0.endedAt != nil
    }.max { ($0.endedAt!, $0.id) < ($1.endedAt!, $1.id) }
  }
}
