import Audit

extension FindingsCheck {
  public static let host = FindingsCheck(rawValue: "host")
}

extension FindingKind {
  public static let hostNotInAllowlist = FindingKind(
    "hostNotInAllowlist", of: .host, meaning: .thirdParties)
  public static let unnamedFlow = FindingKind("unnamedFlow", of: .host, meaning: .unnamed)
  /// The connection's stream carried two different copies of the same bytes.
  public static let streamConflict = FindingKind(
    "streamConflict", of: .host, meaning: .unnamed)
}

public enum UnnamedFlowReason: String, Sendable, Hashable, CaseIterable {
  case noClientHelloRead, serverNameNotAnnounced, encryptedClientHello
}

extension FindingEvidence {
  /// The host, normalised.
  public static func hostNotInAllowlist(host: String) -> FindingEvidence {
    FindingEvidence(kind: .hostNotInAllowlist, host: host)
  }
  /// `host`: the flow's name as read (from the first copy), normalised; nil without one.
  public static func streamConflict(host: String?) -> FindingEvidence {
    FindingEvidence(kind: .streamConflict, host: host)
  }
  public static func unnamedFlow(_ reason: UnnamedFlowReason) -> FindingEvidence {
    FindingEvidence(kind: .unnamedFlow, reason: reason.rawValue)
  }
  /// Why an unnamed flow had no name; nil for any other kind.
  public var unnamedReason: UnnamedFlowReason? {
    kind == .unnamedFlow ? reason.flatMap(UnnamedFlowReason.init(rawValue:)) : nil
  }
}

/// Where each flow went, against the project's allowlist.
public enum HostCheck: FindingsCheckRule {
  public static let check = FindingsCheck.host
  public static let runOrder = 60
  public static let kinds: [FindingKind] = [.hostNotInAllowlist, .unnamedFlow, .streamConflict]
  public static let statedForms: [FindingEvidence] =
    [.hostNotInAllowlist(host: "host.example")]
    + UnnamedFlowReason.allCases.map(FindingEvidence.unnamedFlow)
    + [.streamConflict(host: "host.example"), .streamConflict(host: nil)]

  /// Where the flow went; and, beside it, a stream whose bytes came in two different copies: the
  /// name read may be one the server never saw.
  public static func assess(_ flow: StoredFlow, in context: CheckContext) -> CheckOutcome<HostGap> {
    let outcome = assessName(flow, in: context)
    guard !flow.streamConflicts.isEmpty else { return outcome }
    let conflict = FindingEvidence.streamConflict(
      host: flow.name.map { DomainPattern.normalised(host: $0.text) })
    if case .finding(let evidence) = outcome { return .findings([evidence, conflict]) }
    return .finding(conflict)
  }

  static func assessName(_ flow: StoredFlow, in context: CheckContext) -> CheckOutcome<HostGap> {
    switch HostAssessment(of: flow, project: context.project, hosts: context.hosts) {
    case .notInAllowlist(let name): return .finding(.hostNotInAllowlist(host: name))
    case .unnamed(let reason): return .finding(.unnamedFlow(reason))
    case .allowed: return .satisfied
    case .notAssessed(let gap): return .notAssessed(gap)
    case .infrastructure: return .notApplicable
    }
  }
}

extension SessionFindings {
  public var host: CheckCoverage<HostGap> { HostCheck.coverage(in: self) }
}

public enum HostGap: Sendable, Hashable {
  case allowlistEmpty
  case candidatesDisagree(attributedNameAllowed: Bool)
  /// A TCP connection without a name whose opening was not captured (it began before the capture
  /// or the recording, and no earlier row of it was found to continue): its name may have been in
  /// what was not seen, so it is listed, not held against the app.
  case beganBeforeCapture
}

/// Where a flow went, against the project's allowlist. Reads the flow's name, never the SNI column.
/// Every flow of the app went somewhere, so an unnamed one is a finding; the network's own traffic
/// (`InfrastructureService`) went to no host of the app's.
public enum HostAssessment: Sendable, Hashable {
  case notInAllowlist(host: String)
  case unnamed(UnnamedFlowReason)
  case allowed
  case notAssessed(HostGap)
  case infrastructure(InfrastructureService)

  public init(of flow: borrowing StoredFlow, project: AuditProject) {
    self.init(
      of: flow, project: project, hosts: HostLookups(allowlist: project.allowlist, trackers: nil))
  }

  /// The same, with the allowlist asked through `hosts` (a session's checks ask once a name).
  init(of flow: borrowing StoredFlow, project: AuditProject, hosts: HostLookups) {
    if let service = InfrastructureService(of: flow) {
      self = .infrastructure(service)
      return
    }
    guard let name = flow.name else {
      if flow.beganBeforeCapture, flow.clientTLS == nil {
        self = .notAssessed(.beganBeforeCapture)
        return
      }
      if let offer = flow.clientTLS {
        self = .unnamed(
          offer.encryptedClientHello ? .encryptedClientHello : .serverNameNotAnnounced)
      } else {
        self = .unnamed(.noClientHelloRead)
      }
      return
    }
    guard !project.allowlist.isEmpty else {
      self = .notAssessed(.allowlistEmpty)
      return
    }
    let host = DomainPattern.normalised(host: name.text)
    let covered = { (candidate: String) in hosts.allowlistEntry(matching: candidate) != nil }
    switch name.origin {
    case .sni, .connect, .host:
      self = covered(host) ? .allowed : .notInAllowlist(host: host)
    case .dns:
      let others = flow.dnsOtherNames.map(DomainPattern.normalised(host:))
      let verdicts = ([host] + others).map(covered)
      if verdicts.allSatisfy({ $0 }) {
        self = .allowed
      } else if verdicts.allSatisfy({ !$0 }) {
        self = .notInAllowlist(host: host)
      } else {
        self = .notAssessed(.candidatesDisagree(attributedNameAllowed: covered(host)))
      }
    }
  }
}

extension HostGap: CheckGap {
  public var key: String {
    switch self {
    case .allowlistEmpty: return "allowlistEmpty"
    case .candidatesDisagree(true): return "candidatesDisagree.attributedNameAllowed"
    case .candidatesDisagree(false): return "candidatesDisagree.attributedNameNotAllowed"
    case .beganBeforeCapture: return "beganBeforeCapture"
    }
  }
}
