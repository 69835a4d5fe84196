import Audit
import AuditRules

/// Every sentence the bundle writes, in one place. Each is a limit an earlier check set:
/// a sentence states what the traffic showed and carries no data (the host and the version
/// are in their own fields). None says passed, compliant or fulfilled; a test holds that.
public enum EvidenceWording {
  // MARK: Findings

  public static func statement(of evidence: FindingEvidence, minimum: TLSProtocolVersion) -> String
  {
    CheckWordings.of(evidence.kind.check).statement(evidence, minimum: minimum)
  }

  /// What a finding states, in a few words: a group's heading in the report, a key finding's
  /// line. One for each statement, so that no two groups share a heading.
  public static func shortStatement(_ evidence: FindingEvidence) -> String {
    CheckWordings.of(evidence.kind.check).shortStatement(evidence)
  }

  /// What a finding is stated about: the host, or the version with where it was read.
  public static func subject(of evidence: FindingEvidence) -> String? {
    CheckWordings.of(evidence.kind.check).subject(evidence)
  }

  // MARK: Verdicts

  /// A verdict in a symbol and a word, for a table read at a glance: never colour alone, and
  /// never a word that passes or fails. "where recorded" when stretches of the session were not.
  public static func verdictMark(_ r: RequirementAssessment) -> String {
    let qualifier = r.onlyWhereRecorded == nil ? "" : " where recorded"
    switch r.verdict {
    case .contradicted: return "✗ Contradicted"
    case .observedWithoutContradiction: return "● Observed without contradiction" + qualifier
    case .notAssessed(.outsideToolScope): return "○ Not assessed by this tool"
    case .notAssessed(.nothingObserved): return "– Not assessed: nothing observed" + qualifier
    }
  }

  public static func verdict(_ r: RequirementAssessment) -> String {
    switch (r.verdict, r.onlyWhereRecorded) {
    case (.contradicted, _):
      return "Contradicted: the session holds findings against this requirement."
    case (.observedWithoutContradiction, nil):
      return
        "Observed without contradiction: what this tool looks at for this requirement was seen, and nothing in it runs against the requirement."
    case (.observedWithoutContradiction, let unrecorded?):
      return
        "Observed without contradiction where recorded (\(CoverageWording.notRecorded(unrecorded))): what this tool looks at for this requirement was seen, and nothing in it runs against the requirement; what happened while no recorder ran is not in the evidence."
    case (.notAssessed(.outsideToolScope), _):
      return "Not assessed by this tool."
    case (.notAssessed(.nothingObserved), nil):
      return
        "Not assessed: nothing this tool looks at for this requirement was observed in the session."
    case (.notAssessed(.nothingObserved), let unrecorded?):
      return
        "Not assessed: nothing this tool looks at for this requirement was observed where the session was recorded (\(CoverageWording.notRecorded(unrecorded)))."
    }
  }

  public static let verdictsNote =
    "A verdict here is not one of the four test results of TR-03161-1 (its table 3), which are the assessor's to give. It states what the recorded traffic showed against each requirement, within what the requirement's toolCoverage says this tool looks at. None states that a requirement is met: that judgement is the assessor's, on all the evidence."

  // MARK: The checks

  /// Why a check could not look at a flow.
  public static func reason(_ gap: AnyCheckGap, of check: FindingsCheck) -> String {
    CheckWordings.of(check).reason(of: gap)
  }

  public static func checkName(_ check: FindingsCheck) -> String { CheckWordings.of(check).name }

  /// "each of the five checks": how many checks there are, in words, derived from the checks.
  public static var eachCheck: String {
    "each of the \(Quantity.spelled(FindingsCheck.allCases.count)) checks"
  }

  /// The checks' names inside a sentence: "the TLS version check", "the TLS version and host checks".
  public static func checksNoun(_ checks: [FindingsCheck]) -> String {
    let nouns = checks.map { CheckWordings.of($0).noun }
    guard let last = nouns.last else { return "" }
    if nouns.count == 1 { return "\(last) check" }
    return nouns.dropLast().joined(separator: ", ") + " and \(last) checks"
  }

  /// Words that no sentence of the bundle may contain.
  public static let forbiddenWords = [
    "passed", "pass", "compliant", "compliance", "fulfilled", "fulfils", "fulfills",
  ]
}

/// A check's coverage with its reasons already worded: the one shape documents and screens read.
public struct CheckCoverageReport: Sendable, Hashable {
  public struct Reason: Sendable, Hashable {
    public let key: String
    public let sentence: String
    public let flowIDs: FlowIDList
  }
  public let check: FindingsCheck
  public let flaggedFlowIDs: [Int64]
  public let satisfiedFlowIDs: FlowIDList
  public let unassessed: [Reason]
  public let notApplicableFlowIDs: FlowIDList
  public var unassessedCount: Int { unassessed.reduce(0) { $0 + $1.flowIDs.count } }
  public var total: Int {
    flaggedFlowIDs.count + satisfiedFlowIDs.count + unassessedCount + notApplicableFlowIDs.count
  }
}

extension SessionFindings {
  /// Every check, each with its reasons worded, in the order of `FindingsCheck.allCases`.
  public var coverageReports: [CheckCoverageReport] {
    FindingsCheck.allCases.map { check in
      let coverage = coverage(of: check)
      return CheckCoverageReport(
        check: check, flaggedFlowIDs: flaggedFlowIDs(of: check),
        satisfiedFlowIDs: coverage.satisfiedFlowIDs,
        unassessed: coverage.unassessed.map {
          .init(
            key: $0.gap.key, sentence: EvidenceWording.reason($0.gap, of: check),
            flowIDs: $0.flowIDs)
        },
        notApplicableFlowIDs: coverage.notApplicableFlowIDs)
    }
  }
}
