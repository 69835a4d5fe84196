import Audit
import Dispatch

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
    classify(
      flows: flows, project: project, session: session, markers: markers, policy: policy,
      runs: runs, baseline: baseline, trackers: trackers, content: content,
      serverScans: serverScans, parts: flows.count < flowsWorthTwoParts ? 1 : 2)
  }

  /// Fewer flows than this are classified in one part: a thread started costs more.
  static let flowsWorthTwoParts = 1_000

  /// As above, the flows in `parts` parts (any number gives the same).
  static func classify(
    flows: [StoredFlow], project: AuditProject, session: AuditSession,
    markers: [SessionMarker], policy: FindingsPolicy, runs: [RecorderRun],
    baseline: TLSClientBaseline?, trackers: TrackerLists?, content: SessionContent?,
    serverScans: [ServerScanRun], parts count: Int
  ) -> SessionFindings {
    let ordered = flows.inSessionOrder()
    let context = CheckContext(
      project: project, session: session, markers: markers, policy: policy, runs: runs,
      baseline: baseline, trackers: trackers, content: content, serverScans: serverScans,
      flows: ordered)
    let checks = FindingsChecks.all
    // Every check of a flow is decided by the flow and the context alone, so the flows are
    // classified in parts, one on each core, and the parts' findings and coverage joined in
    // order: what the sequence would have found, where it would have found it.
    let size = max(1, (ordered.count + count - 1) / max(1, count))
    let parts = stride(from: 0, to: max(ordered.count, 1), by: size).map {
      ordered[min($0, ordered.count)..<min($0 + size, ordered.count)]
    }
    var classified = Array(repeating: Classified(checks: checks.count), count: parts.count)
    classified.withUnsafeMutableBufferPointer { results in
      let results = UncheckedResults(results)
      DispatchQueue.concurrentPerform(iterations: parts.count) { part in
        results.buffer[part] = Self.classify(parts[part], checks: checks, in: context)
      }
    }
    // Joined in place: the first part's arrays, held once, take the others'.
    var joined = classified.removeFirst()
    for part in classified { joined.append(part) }
    classified = []
    return SessionFindings(
      findings: joined.findings.findings, flowIDs: ordered.map(\.id),
      coverages: Dictionary(
        uniqueKeysWithValues: zip(checks, joined.coverage).map { ($0.check, $1.coverage) }))
  }

  /// Flows a check is run over at a time: each check's type is opened once for them, where
  /// opening it for every flow looked its outcome's generic type up again each time.
  static let flowsAtATime = 64

  private static func classify(
    _ flows: ArraySlice<StoredFlow>, checks: [any FindingsCheckRule.Type], in context: CheckContext
  ) -> Classified {
    var part = Classified(checks: checks.count)
    var outcomes: [[CheckOutcome<AnyCheckGap>]] = Array(repeating: [], count: checks.count)
    var start = flows.startIndex
    while start < flows.endIndex {
      var some = Array(flows[start..<min(start + flowsAtATime, flows.endIndex)])
      for (index, check) in checks.enumerated() {
        check.outcomes(of: &some, in: context, into: &outcomes[index])
      }
      // In the order of the flows, each flow's in the order of the checks, as one at a time.
      for offset in some.indices {
        let id = some[offset].id
        for index in checks.indices {
          switch outcomes[index][offset] {
          case .finding(let evidence): part.findings.add(evidence, id)
          case .findings(let evidence): for each in evidence { part.findings.add(each, id) }
          case .satisfied: part.coverage[index].satisfied.append(id)
          case .notAssessed(let gap): part.coverage[index].unassessed(gap, id)
          case .notApplicable: part.coverage[index].notApplicable.append(id)
          }
        }
      }
      start += some.count
    }
    return part
  }
}

/// What one part of the flows gave: its findings, and each check's coverage.
private struct Classified {
  var findings = FindingAccumulator()
  var coverage: [CoverageAccumulator]

  init(checks: Int) { coverage = Array(repeating: CoverageAccumulator(), count: checks) }

  /// `later` (the flows after this part's) after this part.
  mutating func append(_ later: Classified) {
    findings.append(later.findings)
    for index in coverage.indices { coverage[index].append(later.coverage[index]) }
  }
}

/// The parts' results, each written by its own iteration only.
private struct UncheckedResults: @unchecked Sendable {
  let buffer: UnsafeMutableBufferPointer<Classified>
  init(_ buffer: UnsafeMutableBufferPointer<Classified>) { self.buffer = buffer }
}

/// The findings in the order first seen, each with its flows. Each evidence is held once: a
/// dictionary keyed by the evidence itself held a second copy of every one (3.2 MB of 20 000
/// flows' classification); the places are found by the evidence's hash instead (`hash`: the
/// tests' own, to make evidences collide).
struct FindingAccumulator {
  var hash: (FindingEvidence) -> Int = { $0.hashValue }
  /// Each evidence behind a reference of its own, which its finding keeps: 2 400 evidences
  /// inline, in each part's array as it doubled, were megabytes at the classification's peak.
  private var order: [Indirect<FindingEvidence>] = []
  private var flows: [[Int64]] = []
  /// The first place of each hash, and per place the next one of the same hash (-1: none).
  private var firstPlace: [Int: Int] = [:]
  private var nextPlace: [Int] = []

  private func place(of evidence: FindingEvidence, hash: Int) -> Int? {
    var candidate = firstPlace[hash] ?? -1
    while candidate >= 0 {
      if order[candidate].value == evidence { return candidate }
      candidate = nextPlace[candidate]
    }
    return nil
  }

  private mutating func insert(
    _ evidence: Indirect<FindingEvidence>, hash: Int, _ flowIDs: [Int64]
  ) {
    nextPlace.append(firstPlace[hash] ?? -1)
    firstPlace[hash] = order.count
    order.append(evidence)
    flows.append(flowIDs)
  }

  mutating func add(_ evidence: FindingEvidence, _ flow: Int64) {
    let hash = self.hash(evidence)
    if let at = place(of: evidence, hash: hash) {
      flows[at].append(flow)
    } else {
      insert(Indirect(evidence), hash: hash, [flow])
    }
  }

  var findings: [Finding] { zip(order, flows).map { Finding(held: $0, flowIDs: $1) } }

  /// `later`'s findings after these: one seen here keeps its place and takes its flows after.
  mutating func append(_ later: FindingAccumulator) {
    for (evidence, flowIDs) in zip(later.order, later.flows) {
      let hash = self.hash(evidence.value)
      if let at = place(of: evidence.value, hash: hash) {
        flows[at] += flowIDs
      } else {
        insert(evidence, hash: hash, flowIDs)
      }
    }
  }
}

private struct CoverageAccumulator {
  var satisfied = FlowIDList()
  var notApplicable = FlowIDList()
  /// The gaps in the order first seen, each with its flows.
  private var gaps: [AnyCheckGap] = []
  private var gapFlows: [FlowIDList] = []
  private var places: [AnyCheckGap: Int] = [:]
  /// The place of the gap last given: the flows a check cannot assess mostly share their reason
  /// one after another, and comparing with it spares hashing a gap (a key of strings) each time.
  private var lastPlace = -1

  mutating func unassessed(_ gap: AnyCheckGap, _ flow: Int64) {
    gapFlows[place(of: gap)].append(flow)
  }

  private mutating func place(of gap: AnyCheckGap) -> Int {
    if lastPlace >= 0, gaps[lastPlace] == gap { return lastPlace }
    if let at = places[gap] {
      lastPlace = at
    } else {
      lastPlace = gaps.count
      places[gap] = lastPlace
      gaps.append(gap)
      gapFlows.append([])
    }
    return lastPlace
  }

  /// `later`'s flows after these, a gap seen here keeping its place.
  mutating func append(_ later: CoverageAccumulator) {
    satisfied.append(contentsOf: later.satisfied)
    notApplicable.append(contentsOf: later.notApplicable)
    for (gap, flows) in zip(later.gaps, later.gapFlows) {
      gapFlows[place(of: gap)].append(contentsOf: flows)
    }
  }

  var coverage: CheckCoverage<AnyCheckGap> {
    CheckCoverage(
      satisfiedFlowIDs: satisfied,
      unassessed: zip(gaps, gapFlows).map { UnassessedFlows(gap: $0, flowIDs: $1) },
      notApplicableFlowIDs: notApplicable)
  }
}
