/// What a session shows against one requirement: never a test result, never PASS or FAIL.
public enum RequirementVerdict: Sendable, Hashable {
  public enum NotAssessedReason: String, Sendable, Hashable {
    case outsideToolScope, nothingObserved
  }
  case contradicted
  case observedWithoutContradiction
  case notAssessed(NotAssessedReason)

  public var key: String {
    switch self {
    case .contradicted: return "contradicted"
    case .observedWithoutContradiction: return "observedWithoutContradiction"
    case .notAssessed(let reason): return "notAssessed." + reason.rawValue
    }
  }
}

/// How many connections the check behind a rule looked at, could not assess, and does not apply to.
public struct CheckCoverageSummary: Sendable, Hashable {
  public let check: FindingsCheck
  /// Flows behind a finding of this check.
  public let flagged: Int
  public let satisfied: Int
  public let unassessed: Int
  public let notApplicable: Int
  public init(
    check: FindingsCheck, flagged: Int, satisfied: Int, unassessed: Int, notApplicable: Int
  ) {
    self.check = check
    self.flagged = flagged
    self.satisfied = satisfied
    self.unassessed = unassessed
    self.notApplicable = notApplicable
  }
  public var lookedAt: Int { flagged + satisfied }
  public var total: Int { flagged + satisfied + unassessed + notApplicable }
}

public struct RequirementAssessment: Sendable, Hashable {
  public let requirement: Requirement
  public let verdict: RequirementVerdict
  public let contraryFindings: [Finding]
  public let supportingFindings: [Finding]
  /// Of the check behind the rule; nil for a rule that reads no finding.
  public let coverage: CheckCoverageSummary?
}

public struct SessionAssessment: Sendable, Hashable {
  public let catalogue: RequirementCatalogue
  public let findings: SessionFindings
  public let requirements: [RequirementAssessment]

  public init(
    catalogue: RequirementCatalogue, flows: [StoredFlow], project: AuditProject,
    session: AuditSession, markers: [SessionMarker]
  ) {
    let findings = FindingsClassifier.classify(
      flows: flows, project: project, session: session,
      markers: markers, policy: catalogue.policy)
    self.init(catalogue: catalogue, findings: findings)
  }

  public init(catalogue: RequirementCatalogue, findings: SessionFindings) {
    self.catalogue = catalogue
    self.findings = findings
    requirements = catalogue.requirements.map { requirement in
      let rule = requirement.rule
      let contrary = findings.findings.filter { rule.contraryKinds.contains($0.kind) }
      let supporting = findings.findings.filter { rule.supportingKinds.contains($0.kind) }
      let coverage = rule.check.map { findings.summary(of: $0) }
      let verdict: RequirementVerdict
      if rule.check == nil {
        verdict = .notAssessed(.outsideToolScope)
      } else if !contrary.isEmpty {
        verdict = .contradicted
      } else if (coverage?.satisfied ?? 0) > 0 || !supporting.isEmpty {
        verdict = .observedWithoutContradiction
      } else {
        verdict = .notAssessed(.nothingObserved)
      }
      return RequirementAssessment(
        requirement: requirement, verdict: verdict, contraryFindings: contrary,
        supportingFindings: supporting, coverage: coverage)
    }
  }
}

extension SessionFindings {
  public func summary(of check: FindingsCheck) -> CheckCoverageSummary {
    let counts: (Int, Int, Int)
    switch check {
    case .tlsVersion:
      counts = (
        tlsVersion.satisfiedFlowIDs.count, tlsVersion.unassessedCount,
        tlsVersion.notApplicableFlowIDs.count
      )
    case .encryption:
      counts = (
        encryption.satisfiedFlowIDs.count, encryption.unassessedCount,
        encryption.notApplicableFlowIDs.count
      )
    case .host:
      counts = (host.satisfiedFlowIDs.count, host.unassessedCount, host.notApplicableFlowIDs.count)
    case .pinning:
      counts = (
        pinning.satisfiedFlowIDs.count, pinning.unassessedCount, pinning.notApplicableFlowIDs.count
      )
    case .consent:
      counts = (
        consent.satisfiedFlowIDs.count, consent.unassessedCount, consent.notApplicableFlowIDs.count
      )
    }
    return CheckCoverageSummary(
      check: check, flagged: flaggedFlowIDs(of: check).count,
      satisfied: counts.0, unassessed: counts.1, notApplicable: counts.2)
  }
}
