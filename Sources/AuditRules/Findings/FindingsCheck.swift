import Audit
import Foundation

/// A check's name: what findings.json keys its coverage by, and what a kind belongs to. Each check
/// declares its own (`extension FindingsCheck { static let … }`) beside its rule.
public struct FindingsCheck: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public var description: String { rawValue }

  /// Every check, in the order they run on a flow: `FindingsChecks.all`'s.
  public static var allCases: [FindingsCheck] { FindingsChecks.all.map { $0.check } }
}

/// What a finding means for the requirements it bears on, most serious first: the order in which
/// page 1 lists the findings against them (not the order they happened in).
public enum FindingMeaning: Int, Sendable, Hashable, Comparable, CaseIterable {
  /// The test account's data sent where it should not go, or before consent.
  case personalData
  /// Traffic in the clear.
  case plaintext
  /// A server's certificate accepted that should not have been.
  case certificates
  /// The inspecting proxy's certificate accepted: nothing pinned.
  case pinning
  /// A host outside what the app's purpose needs.
  case thirdParties
  /// Activity before the user consented.
  case consent
  /// A TLS parameter below what the catalogue asks.
  case tls
  /// A connection without a name to judge.
  case unnamed
  /// A finding in a requirement's support, not against it.
  case support

  public static func < (a: FindingMeaning, b: FindingMeaning) -> Bool { a.rawValue < b.rawValue }
}

/// What a finding states. The raw values are what a catalogue refers to: they are format. Each
/// check declares its kinds (`extension FindingKind { static let … }`) beside its rule.
public struct FindingKind: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
  public let rawValue: String
  /// The check whose rule produces this kind.
  public let check: FindingsCheck
  /// What it means, for the order of the findings against the requirements.
  public let meaning: FindingMeaning

  public init(_ rawValue: String, of check: FindingsCheck, meaning: FindingMeaning) {
    self.rawValue = rawValue
    self.check = check
    self.meaning = meaning
  }

  /// A kind some check states; nil for any other name.
  public init?(rawValue: String) {
    guard let kind = FindingsChecks.kindsByName[rawValue] else { return nil }
    self = kind
  }

  public init(from decoder: any Decoder) throws {
    let name = try decoder.singleValueContainer().decode(String.self)
    guard let kind = FindingKind(rawValue: name) else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "not a finding kind: \(name)"))
    }
    self = kind
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }

  public static func == (a: FindingKind, b: FindingKind) -> Bool { a.rawValue == b.rawValue }
  public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
  public var description: String { rawValue }

  /// Every kind, check by check in the order they run.
  public static var allCases: [FindingKind] { FindingsChecks.all.flatMap { $0.kinds } }
}

/// Why a check could not look at a flow. Its key is what findings.json carries: format.
public protocol CheckGap: Sendable, Hashable {
  var key: String { get }
}

/// A reason of any check, for the lists that hold every check's reasons. The check's own wording
/// reads it back as its own type.
public struct AnyCheckGap: CheckGap {
  public let base: any CheckGap
  public init(_ base: any CheckGap) { self.base = base }
  public var key: String { base.key }

  public static func == (a: AnyCheckGap, b: AnyCheckGap) -> Bool { a.base.isEqual(to: b.base) }
  public func hash(into hasher: inout Hasher) { base.hash(into: &hasher) }
}

/// What a rule may read besides the flow: the same for every flow of a session.
public struct CheckContext: Sendable {
  public let project: AuditProject
  public let session: AuditSession
  public let policy: FindingsPolicy
  /// From the session's Consent given markers; nil without one.
  public let consent: ConsentInterval?
  /// The earliest Consent withdrawn marker; nil without one.
  public let withdrawal: Date?
  /// The recorder runs that recorded the session, by id (as they stood at its end).
  public let runs: [Int64: RecorderRun]
  /// The TLS clients of the project's baseline; nil without one.
  public let baseline: TLSClientBaseline?
  /// The tracker lists hosts are compared with; nil when none is installed or given.
  public let trackers: TrackerLists?
  /// What the session's exchanges sent of the test account's values; nil when none was planted.
  public let content: SessionContent?
  /// The servers' scans kept with the session, judged in the session's year.
  public let serverConfigurations: ServerConfigurations
  /// The project's allowlist and the tracker lists asked of each host name once.
  public let hosts: HostLookups

  /// `flows`: those whose host names are looked up beforehand (any other is looked up when asked).
  public init(
    project: AuditProject, session: AuditSession, markers: [SessionMarker], policy: FindingsPolicy,
    runs: [RecorderRun] = [], baseline: TLSClientBaseline? = nil, trackers: TrackerLists? = nil,
    content: SessionContent? = nil, serverScans: [ServerScanRun] = [], flows: [StoredFlow] = []
  ) {
    hosts = HostLookups(allowlist: project.allowlist, trackers: trackers, flows: flows)
    serverConfigurations = ServerConfigurations(
      serverScans, judge: ServerConfigurationJudge(policy: policy, year: session.startYear))
    self.content = content
    self.baseline = baseline
    self.trackers = trackers
    self.runs = Dictionary(runs.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    self.project = project
    self.session = session
    self.policy = policy
    consent = ConsentInterval(markers: markers)
    withdrawal = markers.filter { $0.kind == .consentWithdrawn }.map(\.date).min()
  }
}

/// What one check made of one flow.
public enum CheckOutcome<Gap: CheckGap>: Sendable, Hashable {
  /// The flow stands behind a finding: what it states.
  case finding(FindingEvidence)
  /// The flow stands behind several findings of the check (never empty).
  case findings([FindingEvidence])
  /// Looked at, nothing to report.
  case satisfied
  /// Applicable, could not be looked at: why.
  case notAssessed(Gap)
  /// Not what this check looks at.
  case notApplicable
}

/// One check: its name, the kinds it states, and its rule over one flow. A check is one file in
/// Findings/Checks; its sentences are in one wording file beside the others'.
public protocol FindingsCheckRule: Sendable {
  associatedtype Gap: CheckGap
  static var check: FindingsCheck { get }
  /// Where it runs among the checks (`FindingsChecks.all`, which scripts/list-checks.py writes
  /// from these): the order of a flow's findings and of every list of checks. Tens, so that a new
  /// check finds room between two.
  static var runOrder: Int { get }
  /// The kinds its findings state, in the order a reader meets them.
  static var kinds: [FindingKind] { get }
  static func assess(_ flow: StoredFlow, in context: CheckContext) -> CheckOutcome<Gap>
  /// One finding of every form the check states (each kind, each variant): what the tests of the
  /// wording read, so that a new kind's sentences are held to the rules without listing it there.
  static var statedForms: [FindingEvidence] { get }
  /// Whether a flow it could not look at is not assessed for a requirement another check judges
  /// too. A check that only adds findings where it can see (what requests sent) says no: its
  /// gaps leave the other checks' judgement standing.
  static var gapsCountBesideOtherChecks: Bool { get }
  /// The outcomes of the flows in their order (given in the extension below). A requirement, so
  /// that each check's is made for its own outcome type: made once for any check, it looked that
  /// type up at run time for each flow, about 330 instructions each time.
  static func outcomes(
    of flows: inout [StoredFlow], in context: CheckContext,
    into outcomes: inout [CheckOutcome<AnyCheckGap>])
}

extension FindingsCheckRule {
  public static var gapsCountBesideOtherChecks: Bool { true }

  /// The outcome with its reason as any check's, for the classifier's lists. The assessments'
  /// initialisers take the flow `borrowing`: an initialiser takes its arguments owned, and each
  /// flow was copied for each check.
  static func outcome(of flow: inout StoredFlow, in context: CheckContext)
    -> CheckOutcome<AnyCheckGap>
  {
    switch assess(flow, in: context) {
    case .finding(let evidence): return .finding(evidence)
    case .findings(let evidence): return .findings(evidence)
    case .satisfied: return .satisfied
    case .notAssessed(let gap): return .notAssessed(AnyCheckGap(gap))
    case .notApplicable: return .notApplicable
    }
  }

  /// The outcomes of the flows, in their order, in place of those `outcomes` held.
  public static func outcomes(
    of flows: inout [StoredFlow], in context: CheckContext,
    into outcomes: inout [CheckOutcome<AnyCheckGap>]
  ) {
    outcomes.removeAll(keepingCapacity: true)
    // Lent in place (inout): read from an array or a slice, each flow was copied for each check
    // (a retain per field) and let go.
    for index in flows.indices { outcomes.append(outcome(of: &flows[index], in: context)) }
  }

  /// This check's coverage of a session, its reasons in their own type.
  public static func coverage(in findings: SessionFindings) -> CheckCoverage<Gap> {
    let erased = findings.coverage(of: check)
    return CheckCoverage(
      satisfiedFlowIDs: erased.satisfiedFlowIDs,
      unassessed: erased.unassessed.map {
        UnassessedFlows(gap: $0.gap.base as! Gap, flowIDs: $0.flowIDs)
      },
      notApplicableFlowIDs: erased.notApplicableFlowIDs)
  }
}

extension CheckGap {
  /// Equal to another check's reason: of the same type, and equal as that type.
  func isEqual(to other: any CheckGap) -> Bool {
    guard let other = other as? Self else { return false }
    return self == other
  }
}
