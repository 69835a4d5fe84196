import Audit
import Foundation

public enum AllowlistStanding: Sendable, Hashable {
  /// The first entry that covers it.
  case listed(AllowlistEntry)
  case unlisted
  case allowlistEmpty

  public init(host: String, project: AuditProject) {
    if project.allowlist.isEmpty {
      self = .allowlistEmpty
    } else if let entry = project.allowlistEntry(matching: host) {
      self = .listed(entry)
    } else {
      self = .unlisted
    }
  }
}

public enum TLSFloorShift: String, Sendable, Hashable { case lowered, raised, held, notOrdered }
public enum TLSComparisonGap: String, Sendable, Hashable {
  case notReadInEarlierSession, notReadInLaterSession, notReadInEitherSession
}

/// One domain, one negotiator.
public enum TLSVersionComparison: Sendable, Hashable {
  case same([TLSProtocolVersion])
  case different(earlier: [TLSProtocolVersion], later: [TLSProtocolVersion], floor: TLSFloorShift)
  case notCompared(TLSComparisonGap)

  public init(earlier: [TLSProtocolVersion], later: [TLSProtocolVersion]) {
    switch (earlier.isEmpty, later.isEmpty) {
    case (true, true): self = .notCompared(.notReadInEitherSession)
    case (true, false): self = .notCompared(.notReadInEarlierSession)
    case (false, true): self = .notCompared(.notReadInLaterSession)
    case (false, false):
      if earlier == later {
        self = .same(earlier)
        return
      }
      let floor: TLSFloorShift
      if !(earlier + later).allSatisfy(\.isPublished) {
        floor = .notOrdered
      } else if later.min()! < earlier.min()! {
        floor = .lowered
      } else if later.min()! > earlier.min()! {
        floor = .raised
      } else {
        floor = .held
      }
      self = .different(earlier: earlier, later: later, floor: floor)
    }
  }

  public var isDifferent: Bool {
    if case .different = self { return true }
    return false
  }
}

public enum DomainPresence: String, Sendable, Hashable { case absent, candidateOnly, seen }

public enum DomainStatus: Sendable, Hashable {
  case new
  case gone
  case inBoth(app: TLSVersionComparison, proxy: TLSVersionComparison)
  case undetermined(earlier: DomainPresence, later: DomainPresence)
}

public struct DomainComparison: Sendable, Hashable {
  public let host: String
  public let standing: AllowlistStanding
  /// nil: not in that session.
  public let earlier: DomainObservation?
  public let later: DomainObservation?

  static func presence(_ observation: DomainObservation?) -> DomainPresence {
    guard let observation else { return .absent }
    return observation.isSeen ? .seen : .candidateOnly
  }

  /// Derived from the two observations.
  public var status: DomainStatus {
    let before = Self.presence(earlier)
    let after = Self.presence(later)
    switch (before, after) {
    case (.absent, .seen): return .new
    case (.seen, .absent): return .gone
    case (.seen, .seen):
      return .inBoth(
        app: TLSVersionComparison(
          earlier: earlier!.versions(negotiatedBy: .app), later: later!.versions(negotiatedBy: .app)
        ),
        proxy: TLSVersionComparison(
          earlier: earlier!.versions(negotiatedBy: .proxy),
          later: later!.versions(negotiatedBy: .proxy)))
    default: return .undetermined(earlier: before, later: after)
    }
  }

  public var hasTLSChange: Bool {
    if case .inBoth(let app, let proxy) = status { return app.isDifferent || proxy.isDifferent }
    return false
  }
}

/// Compares two ended audit sessions of one project: new domains, gone ones, and TLS changes.
public struct ReleaseDiff: Sendable, Hashable {
  public enum Refusal: Error, Sendable, Hashable {
    case sameSession, differentProjects, notTheSessionsProject
    case baseline(sessionID: Int64)
    case stillOpen(sessionID: Int64)
  }

  public let earlier: AuditSession
  public let later: AuditSession
  public let domains: [DomainComparison]
  public let earlierUnnamedFlowIDs: [Int64]
  public let laterUnnamedFlowIDs: [Int64]
  /// Hosts whose connections refused the proxy's certificate in the earlier session and
  /// accepted it in the later, both under the same scenario that tests validation: a regression.
  public let validationLost: [String]
  /// The same change under two different scenarios: what one scenario tests the other does not,
  /// so it is not compared.
  public let validationNotComparable: [String]
  /// The test account's values the later session sent to a host the earlier did not send them
  /// to, each once, in the order the later sent them.
  public let newlySent: [ValueRecipient]
  /// Whether the earlier session read any exchange: without, "newly" cannot be told from "not
  /// read then".
  public let earlierReadContent: Bool

  /// The later session is the one that started later, whatever its version.
  public init(
    between first: AuditSession, flows firstFlows: [StoredFlow],
    and second: AuditSession, flows secondFlows: [StoredFlow], project: AuditProject,
    content: (first: SessionContent?, second: SessionContent?) = (nil, nil)
  ) throws(Refusal) {
    if first.id == second.id { throw .sameSession }
    if first.projectID != second.projectID { throw .differentProjects }
    if first.projectID != project.id { throw .notTheSessionsProject }
    for session in [first, second] where session.kind == .baseline {
      throw .baseline(sessionID: session.id)
    }
    for session in [first, second] where session.isOpen { throw .stillOpen(sessionID: session.id) }
    let firstIsEarlier = (first.startedAt, first.id) < (second.startedAt, second.id)
    earlier = firstIsEarlier ? first : second
    later = firstIsEarlier ? second : first
    let before = SessionDomains(flows: firstIsEarlier ? firstFlows : secondFlows)
    let after = SessionDomains(flows: firstIsEarlier ? secondFlows : firstFlows)
    var hosts = after.domains.map(\.host)
    let laterHosts = Set(hosts)
    hosts += before.domains.map(\.host).filter { !laterHosts.contains($0) }
    domains = hosts.map { host in
      DomainComparison(
        host: host, standing: AllowlistStanding(host: host, project: project),
        earlier: before.observation(of: host), later: after.observation(of: host))
    }
    earlierUnnamedFlowIDs = before.unnamedFlowIDs
    laterUnnamedFlowIDs = after.unnamedFlowIDs
    let validated = Self.hosts(firstIsEarlier ? firstFlows : secondFlows, earlier, accepted: false)
    let accepted = Self.hosts(firstIsEarlier ? secondFlows : firstFlows, later, accepted: true)
    let changed = validated.intersection(accepted).sorted()
    let alike = earlier.inspection.scenario == later.inspection.scenario
    validationLost = alike ? changed : []
    validationNotComparable = alike ? [] : changed
    let (earlierContent, laterContent) =
      firstIsEarlier ? (content.first, content.second) : (content.second, content.first)
    earlierReadContent = !(earlierContent?.exchanges.isEmpty ?? true)
    newlySent = ValueRecipient.newly(in: laterContent, since: earlierContent)
  }

  /// The hosts whose connections accepted (or refused) the proxy's certificate under a scenario
  /// that tests validation (any but the system's trust, which tests pinning).
  static func hosts(_ flows: [StoredFlow], _ session: AuditSession, accepted: Bool) -> Set<String> {
    var hosts = Set<String>()
    for flow in flows {
      if case .read(accepted, let host, let scenario) = ProxyCertificateReading(
        of: flow, conditions: session.inspection, log: nil), scenario != .systemTrust
      {
        hosts.insert(host)
      }
    }
    return hosts
  }

  /// Whether the two sessions were recorded under different certificate scenarios or inspection.
  public var conditionsDiffer: Bool { earlier.inspection != later.inspection }

  public var newDomains: [DomainComparison] { domains.filter { $0.status == .new } }
  public var goneDomains: [DomainComparison] { domains.filter { $0.status == .gone } }
  public var domainsInBoth: [DomainComparison] {
    domains.filter {
      if case .inBoth = $0.status { return true }
      return false
    }
  }
  public var undeterminedDomains: [DomainComparison] {
    domains.filter {
      if case .undetermined = $0.status { return true }
      return false
    }
  }
  /// New and unlisted: the headline.
  public var unexpectedNewDomains: [DomainComparison] {
    newDomains.filter { $0.standing == .unlisted }
  }
  public var domainsWithTLSChange: [DomainComparison] { domains.filter(\.hasTLSChange) }
}

/// One of the test account's values and a host a request sent it to.
public struct ValueRecipient: Sendable, Hashable {
  public let label: String
  public let host: String

  public init(label: String, host: String) {
    self.label = label
    self.host = host
  }

  /// Each value and host `later` sent that `earlier` did not, once, in the order later sent them.
  static func newly(in later: SessionContent?, since earlier: SessionContent?) -> [ValueRecipient] {
    func pairs(_ content: SessionContent?) -> [ValueRecipient] {
      (content?.exchanges ?? []).flatMap { exchange in
        exchange.matches.map { ValueRecipient(label: $0.label, host: exchange.host) }
      }
    }
    var seen = Set(pairs(earlier))
    return pairs(later).filter { seen.insert($0).inserted }
  }
}
