import Audit

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

/// How many connections the checks behind a rule looked at, could not assess, and do not apply
/// to. Each connection is counted once: behind a finding of any of the checks; else not assessed
/// when any applicable check could not look at it; else looked at when any did; else not applicable.
public struct CheckCoverageSummary: Sendable, Hashable {
  /// In the order they run; never empty.
  public let checks: [FindingsCheck]
  /// Flows behind a finding of these checks.
  public let flagged: Int
  public let satisfied: Int
  public let unassessed: Int
  public let notApplicable: Int
  public init(
    checks: [FindingsCheck], flagged: Int, satisfied: Int, unassessed: Int, notApplicable: Int
  ) {
    self.checks = checks
    self.flagged = flagged
    self.satisfied = satisfied
    self.unassessed = unassessed
    self.notApplicable = notApplicable
  }
  public init(
    check: FindingsCheck, flagged: Int, satisfied: Int, unassessed: Int, notApplicable: Int
  ) {
    self.init(
      checks: [check], flagged: flagged, satisfied: satisfied, unassessed: unassessed,
      notApplicable: notApplicable)
  }
  public var lookedAt: Int { flagged + satisfied }
  public var total: Int { flagged + satisfied + unassessed + notApplicable }
}

public struct RequirementAssessment: Sendable, Hashable {
  public let requirement: Requirement
  public let verdict: RequirementVerdict
  public let contraryFindings: [Finding]
  public let supportingFindings: [Finding]
  /// Of the checks behind the rule; nil for a rule that reads no finding.
  public let coverage: CheckCoverageSummary?
  /// A verdict that found nothing against the requirement in a session with stretches no
  /// recorder saw holds only where it was recorded: those stretches. nil otherwise.
  public let onlyWhereRecorded: SessionCoverage.Unrecorded?
}

public struct SessionAssessment: Sendable, Hashable {
  public let catalogue: RequirementCatalogue
  public let findings: SessionFindings
  public let requirements: [RequirementAssessment]
  /// What the session's exchanges sent of the test account's values, as judged with.
  public private(set) var content: SessionContent?

  public init(
    catalogue: RequirementCatalogue, flows: [StoredFlow], project: AuditProject,
    session: AuditSession, markers: [SessionMarker], runs: [RecorderRun] = [],
    baseline: TLSClientBaseline? = nil, trackers: TrackerLists? = nil,
    content: SessionContent? = nil, serverScans: [ServerScanRun] = [],
    recording: SessionCoverage? = nil
  ) {
    let findings = FindingsClassifier.classify(
      flows: flows, project: project, session: session,
      markers: markers, policy: catalogue.policy, runs: runs, baseline: baseline,
      trackers: trackers, content: content, serverScans: serverScans)
    self.init(catalogue: catalogue, findings: findings, recording: recording)
    self.content = content
  }

  /// `recording`: the session's coverage, which qualifies a verdict that found nothing against a
  /// requirement when some of the session was not recorded.
  public init(
    catalogue: RequirementCatalogue, findings: SessionFindings, recording: SessionCoverage? = nil
  ) {
    let unrecorded = recording?.unrecorded
    self.catalogue = catalogue
    self.findings = findings
    requirements = catalogue.requirements.map { requirement in
      let rule = requirement.rule
      let contrary = findings.findings.filter { rule.contraryKinds.contains($0.kind) }
      let supporting = findings.findings.filter { rule.supportingKinds.contains($0.kind) }
      let coverage = rule.readsFindings ? findings.summary(of: rule.checks) : nil
      let verdict: RequirementVerdict
      if !rule.readsFindings {
        verdict = .notAssessed(.outsideToolScope)
      } else if !contrary.isEmpty {
        verdict = .contradicted
      } else if (coverage?.satisfied ?? 0) > 0 || !supporting.isEmpty {
        verdict = .observedWithoutContradiction
      } else {
        verdict = .notAssessed(.nothingObserved)
      }
      let qualified = rule.readsFindings && verdict != .contradicted
      return RequirementAssessment(
        requirement: requirement, verdict: verdict, contraryFindings: contrary,
        supportingFindings: supporting, coverage: coverage,
        onlyWhereRecorded: qualified ? unrecorded : nil)
    }
  }
}

extension SessionFindings {
  /// The coverage of one or more checks, each flow counted once (`CheckCoverageSummary`).
  public func summary(of checks: [FindingsCheck]) -> CheckCoverageSummary {
    var flagged = Set<Int64>()
    var unassessed = Set<Int64>()
    var satisfied = Set<Int64>()
    let others = checks.contains { !FindingsChecks.supplementary.contains($0) }
    for check in checks {
      let coverage = coverage(of: check)
      flagged.formUnion(flaggedFlowIDs(of: check))
      if !(others && FindingsChecks.supplementary.contains(check)) {
        unassessed.formUnion(coverage.unassessed.flatMap(\.flowIDs))
      }
      satisfied.formUnion(coverage.satisfiedFlowIDs)
    }
    unassessed.subtract(flagged)
    satisfied.subtract(flagged.union(unassessed))
    return CheckCoverageSummary(
      checks: checks, flagged: flagged.count, satisfied: satisfied.count,
      unassessed: unassessed.count,
      notApplicable: flowIDs.count - flagged.count - unassessed.count - satisfied.count)
  }

  public func summary(of check: FindingsCheck) -> CheckCoverageSummary { summary(of: [check]) }
}
