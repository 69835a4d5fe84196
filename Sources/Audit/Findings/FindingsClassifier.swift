/// What a session's flows prove, and how far each check got.
public struct SessionFindings: Sendable, Hashable {
  /// In the order things happened: a finding is placed where its first flow began.
  public let findings: [Finding]
  public let tlsVersion: CheckCoverage<TLSVersionGap>
  public let encryption: CheckCoverage<EncryptionGap>
  public let host: CheckCoverage<HostGap>
  /// `satisfiedFlowIDs` is always empty: both outcomes are findings.
  public let pinning: CheckCoverage<PinningGap>
  public let consent: CheckCoverage<ConsentGap>
  /// Every flow classified, in the order they happened.
  public let flowIDs: [Int64]

  /// The flows behind a finding of the check, in the order they happened.
  public func flaggedFlowIDs(of check: FindingsCheck) -> [Int64] {
    let flagged = Set(findings.filter { $0.kind.check == check }.flatMap(\.flowIDs))
    return flowIDs.filter(flagged.contains)
  }
}

/// Turns a session's flows into what they prove. Pure: it decides no verdict.
public enum FindingsClassifier {
  public static func classify(
    flows: [StoredFlow], project: AuditProject, session: AuditSession,
    markers: [SessionMarker], policy: FindingsPolicy
  ) -> SessionFindings {
    let ordered = flows.inSessionOrder()
    var findings = FindingAccumulator()
    var tls = CoverageAccumulator<TLSVersionGap>()
    var encryption = CoverageAccumulator<EncryptionGap>()
    var host = CoverageAccumulator<HostGap>()
    var pinning = CoverageAccumulator<PinningGap>()
    var consent = CoverageAccumulator<ConsentGap>()
    let interval = ConsentInterval(markers: markers)

    for flow in ordered {
      let id = flow.id
      switch TLSVersionAssessment(of: flow, minimum: policy.minimumTLSVersion) {
      case .weak(let observation): findings.add(.weakTLSVersion(observation), id)
      case .acceptable: tls.satisfied.append(id)
      case .notAssessed(let gap): tls.unassessed(gap, id)
      case .notApplicable: tls.notApplicable.append(id)
      }
      switch EncryptionAssessment(of: flow) {
      case .cleartext(let proto): findings.add(.cleartextTraffic(proto), id)
      case .encrypted: encryption.satisfied.append(id)
      case .notAssessed(let gap): encryption.unassessed(gap, id)
      case .notApplicable: encryption.notApplicable.append(id)
      }
      switch HostAssessment(of: flow, project: project) {
      case .notInAllowlist(let name): findings.add(.hostNotInAllowlist(host: name), id)
      case .unnamed(let reason): findings.add(.unnamedFlow(reason), id)
      case .allowed: host.satisfied.append(id)
      case .notAssessed(let gap): host.unassessed(gap, id)
      }
      switch PinningAssessment(of: flow, conditions: session.inspection) {
      case .absent(let name): findings.add(.pinningAbsent(host: name), id)
      case .observed(let name): findings.add(.pinningObserved(host: name), id)
      case .notAssessed(let gap): pinning.unassessed(gap, id)
      case .notApplicable: pinning.notApplicable.append(id)
      }
      switch ConsentAssessment(of: flow, sessionKind: session.kind, consent: interval) {
      case .beforeConsent: findings.add(.activityBeforeConsent, id)
      case .afterConsent: consent.satisfied.append(id)
      case .notAssessed(let gap): consent.unassessed(gap, id)
      case .notApplicable: consent.notApplicable.append(id)
      }
    }
    return SessionFindings(
      findings: findings.findings, tlsVersion: tls.coverage, encryption: encryption.coverage,
      host: host.coverage, pinning: pinning.coverage, consent: consent.coverage,
      flowIDs: ordered.map(\.id))
  }
}

private struct FindingAccumulator {
  private var order: [FindingEvidence] = []
  private var flows: [FindingEvidence: [Int64]] = [:]

  mutating func add(_ evidence: FindingEvidence, _ flow: Int64) {
    if flows[evidence] == nil { order.append(evidence) }
    flows[evidence, default: []].append(flow)
  }

  var findings: [Finding] { order.map { Finding(evidence: $0, flowIDs: flows[$0]!) } }
}

private struct CoverageAccumulator<Gap: Sendable & Hashable> {
  var satisfied: [Int64] = []
  var notApplicable: [Int64] = []
  private var gaps: [Gap] = []
  private var gapFlows: [Gap: [Int64]] = [:]

  mutating func unassessed(_ gap: Gap, _ flow: Int64) {
    if gapFlows[gap] == nil { gaps.append(gap) }
    gapFlows[gap, default: []].append(flow)
  }

  var coverage: CheckCoverage<Gap> {
    CheckCoverage(
      satisfiedFlowIDs: satisfied,
      unassessed: gaps.map { UnassessedFlows(gap: $0, flowIDs: gapFlows[$0]!) },
      notApplicableFlowIDs: notApplicable)
  }
}
