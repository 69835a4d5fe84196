import Audit

extension FindingsCheck {
  public static let pinning = FindingsCheck(rawValue: "pinning")
}

extension FindingKind {
  public static let pinningAbsent = FindingKind("pinningAbsent", of: .pinning, meaning: .pinning)
  public static let pinningObserved = FindingKind(
    "pinningObserved", of: .pinning, meaning: .support)
}

extension FindingEvidence {
  public static func pinningAbsent(host: String) -> FindingEvidence {
    FindingEvidence(kind: .pinningAbsent, host: host)
  }
  public static func pinningObserved(host: String) -> FindingEvidence {
    FindingEvidence(kind: .pinningObserved, host: host)
  }
}

/// Whether a connection accepted or refused the inspecting proxy's certificate. Both outcomes are
/// findings, so nothing is ever satisfied.
public enum PinningCheck: FindingsCheckRule {
  public static let check = FindingsCheck.pinning
  public static let runOrder = 70
  public static let kinds: [FindingKind] = [.pinningAbsent, .pinningObserved]
  public static let statedForms: [FindingEvidence] = [
    .pinningAbsent(host: "host.example"), .pinningObserved(host: "host.example"),
  ]

  public static func assess(_ flow: StoredFlow, in context: CheckContext) -> CheckOutcome<
    ProxyCertificateGap
  > {
    switch PinningAssessment(
      of: flow, conditions: context.session.inspection,
      log: context.runs[flow.captureSessionID].map(InspectionLogReading.init))
    {
    case .absent(let name): return .finding(.pinningAbsent(host: name))
    case .observed(let name): return .finding(.pinningObserved(host: name))
    case .notAssessed(let gap): return .notAssessed(gap)
    case .notApplicable: return .notApplicable
    }
  }
}

extension SessionFindings {
  /// `satisfiedFlowIDs` is always empty: both outcomes are findings.
  public var pinning: CheckCoverage<ProxyCertificateGap> { PinningCheck.coverage(in: self) }
}

/// The pinning check's: under the system-trust scenario, whether the app pinned; under the user
/// CA scenario, an acceptance shows it did not. The other scenarios test validation
/// (`CertificateValidationCheck`).
public enum PinningAssessment: Sendable, Hashable {
  case absent(host: String)
  case observed(host: String)
  case notAssessed(ProxyCertificateGap)
  case notApplicable

  public init(
    of flow: borrowing StoredFlow, conditions: InspectionConditions,
    log: InspectionLogReading? = nil
  ) {
    switch ProxyCertificateReading(of: flow, conditions: conditions, log: log) {
    case .notApplicable: self = .notApplicable
    case .notAssessed(let gap): self = .notAssessed(gap)
    case .read(let accepted, let host, let scenario):
      switch scenario {
      case .systemTrust: self = accepted ? .absent(host: host) : .observed(host: host)
      case .userCA: self = accepted ? .absent(host: host) : .notAssessed(.userCARefused)
      case .notInstalled, .wrongHost, .expired: self = .notAssessed(.scenarioTestsValidation)
      }
    }
  }
}

extension ProxyCertificateGap: CheckGap {
  public var key: String {
    switch self {
    case .inspectionOff: return "inspectionOff"
    case .scenarioNotStated: return "certificateScenarioNotStated"
    case .scenarioTestsValidation: return "scenarioTestsValidation"
    case .systemTrustTestsPinning: return "systemTrustTestsPinning"
    case .userCARefused: return "userCARefused"
    case .outcomeWithoutAnnouncedName: return "outcomeWithoutAnnouncedName"
    case .quicNotInspected: return "quicNotInspected"
    case .noInspectionOutcome: return "noInspectionOutcome"
    case .closedAfterHandshake: return "closedAfterHandshake"
    case .inspectionLogNotFollowed: return "inspectionLogNotFollowed"
    case .inspectionLog(.missing): return "inspectionLogMissing"
    case .inspectionLog(.unreadable): return "inspectionLogUnreadable"
    case .inspectionLog(.empty), .inspectionLog(.read): return "inspectionLogEmpty"
    case .inspectionLinesUnreadable: return "inspectionLinesUnreadable"
    }
  }
}

/// What a recorder run made of the inspection log it was to follow.
public struct InspectionLogReading: Sendable, Hashable {
  public let followed: Bool
  public let state: InspectionLogState?
  /// The log's lines it could not read.
  public let unreadableLines: Int
  public init(followed: Bool, state: InspectionLogState?, unreadableLines: Int = 0) {
    self.followed = followed
    self.state = state
    self.unreadableLines = unreadableLines
  }
  public init(_ run: RecorderRun) {
    self.init(
      followed: run.inspectionLog != nil, state: run.inspectionLogState,
      unreadableLines: run.inspectionLinesUnreadable)
  }
}
