import Audit

/// What a session's flows prove, and how far each check got.
public struct SessionFindings: Sendable, Hashable {
  /// In the order things happened: a finding is placed where its first flow began.
  public let findings: [Finding]
  /// Every flow classified, in the order they happened.
  public let flowIDs: [Int64]
  /// Each check's coverage, by check; `FindingsCheck.allCases` orders them.
  private let coverages: [FindingsCheck: CheckCoverage<AnyCheckGap>]

  public init(
    findings: [Finding], flowIDs: [Int64], coverages: [FindingsCheck: CheckCoverage<AnyCheckGap>]
  ) {
    self.findings = findings
    self.flowIDs = flowIDs
    self.coverages = coverages
  }

  /// How far a check got; empty for a check that did not run.
  public func coverage(of check: FindingsCheck) -> CheckCoverage<AnyCheckGap> {
    coverages[check]
      ?? CheckCoverage(satisfiedFlowIDs: [], unassessed: [], notApplicableFlowIDs: [])
  }

  /// The flows behind a finding of the check, in the order they happened.
  public func flaggedFlowIDs(of check: FindingsCheck) -> [Int64] {
    let flagged = Set(findings.filter { $0.kind.check == check }.flatMap(\.flowIDs))
    return flowIDs.filter(flagged.contains)
  }
}

/// Turns a session's flows into what they prove: every check of `FindingsChecks` on every flow.
/// Pure: it decides no verdict.
public enum FindingsClassifier {
  public static func classify(
    flows: [StoredFlow], project: AuditProject, session: AuditSession,
    markers: [SessionMarker], policy: FindingsPolicy, runs: [RecorderRun] = [],
    baseline: TLSClientBaseline? = nil, trackers: TrackerLists? = nil,
    content: SessionContent? = nil, serverScans: [ServerScanRun] = []
  ) -> SessionFindings {
    let ordered = flows.inSessionOrder()
    let context = CheckContext(
      project: project, session: session, markers: markers, policy: policy, runs: runs,
      baseline: baseline, trackers: trackers, content: content, serverScans: serverScans)
    let checks = FindingsChecks.all
    var findings = FindingAccumulator()
    var coverage = Array(repeating: CoverageAccumulator(), count: checks.count)
    for flow in ordered {
      for (index, check) in checks.enumerated() {
        switch check.outcome(of: flow, in: context) {
        case .finding(let evidence): findings.add(evidence, flow.id)
        case .findings(let evidence): for each in evidence { findings.add(each, flow.id) }
        case .satisfied: coverage[index].satisfied.append(flow.id)
        case .notAssessed(let gap): coverage[index].unassessed(gap, flow.id)
        case .notApplicable: coverage[index].notApplicable.append(flow.id)
        }
      }
    }
    return SessionFindings(
      findings: findings.findings, flowIDs: ordered.map(\.id),
      coverages: Dictionary(
        uniqueKeysWithValues: zip(checks, coverage).map { ($0.check, $1.coverage) }))
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

private struct CoverageAccumulator {
  var satisfied: [Int64] = []
  var notApplicable: [Int64] = []
  private var gaps: [AnyCheckGap] = []
  private var gapFlows: [AnyCheckGap: [Int64]] = [:]

  mutating func unassessed(_ gap: AnyCheckGap, _ flow: Int64) {
    if gapFlows[gap] == nil { gaps.append(gap) }
    gapFlows[gap, default: []].append(flow)
  }

  var coverage: CheckCoverage<AnyCheckGap> {
    CheckCoverage(
      satisfiedFlowIDs: satisfied,
      unassessed: gaps.map { UnassessedFlows(gap: $0, flowIDs: gapFlows[$0]!) },
      notApplicableFlowIDs: notApplicable)
  }
}
