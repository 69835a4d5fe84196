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
    let counts =
      FlowIDBits.spanning(flowIDs).flatMap { bits in tally(checks, in: { bits.empty() }) }
      ?? tally(checks, in: { Set<Int64>() })!
    return CheckCoverageSummary(
      checks: checks, flagged: counts.flagged, satisfied: counts.satisfied,
      unassessed: counts.unassessed,
      notApplicable: flowIDs.count - counts.flagged - counts.unassessed - counts.satisfied)
  }

  /// The counts of `summary(of:)` in `M`s made by `empty`; nil when one cannot hold an id.
  private func tally<M: FlowIDMembership>(_ checks: [FindingsCheck], in empty: () -> M)
    -> (flagged: Int, satisfied: Int, unassessed: Int)?
  {
    func adding<S: Sequence<Int64>>(_ ids: S, to membership: inout M) -> Bool {
      for id in ids where !membership.insert(id) { return false }
      return true
    }
    var classified = empty()
    var flagged = empty()
    var unassessed = empty()
    var satisfied = empty()
    let others = checks.contains { !FindingsChecks.supplementary.contains($0) }
    guard adding(flowIDs, to: &classified) else { return nil }
    for finding in findings where checks.contains(finding.kind.check) {
      guard adding(finding.flowIDs, to: &flagged) else { return nil }
    }
    // A finding's flows count as flagged where they are the session's (`flaggedFlowIDs`).
    flagged.formIntersection(classified)
    for check in checks {
      let coverage = coverage(of: check)
      if !(others && FindingsChecks.supplementary.contains(check)) {
        for gap in coverage.unassessed {
          guard adding(gap.flowIDs, to: &unassessed) else { return nil }
        }
      }
      guard adding(coverage.satisfiedFlowIDs, to: &satisfied) else { return nil }
    }
    unassessed.subtract(flagged)
    satisfied.subtract(flagged)
    satisfied.subtract(unassessed)
    return (flagged.count, satisfied.count, unassessed.count)
  }

  public func summary(of check: FindingsCheck) -> CheckCoverageSummary { summary(of: [check]) }
}
