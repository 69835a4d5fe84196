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
  public static let kinds: [FindingKind] = [.pinningAbsent, .pinningObserved]
  public static let statedForms: [FindingEvidence] = [
    .pinningAbsent(host: "host.example"), .pinningObserved(host: "host.example"),
  ]

  public static func assess(_ flow: StoredFlow, in context: CheckContext) -> CheckOutcome<
    PinningGap
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
  public var pinning: CheckCoverage<PinningGap> { PinningCheck.coverage(in: self) }
}

public enum PinningGap: Sendable, Hashable {
  case inspectionOff, caNotTrusted, outcomeWithoutAnnouncedName, quicNotInspected,
    noInspectionOutcome
  /// The recorder that recorded it followed no inspection log (`--inspection-log`).
  case inspectionLogNotFollowed
  /// The log it followed did not exist, could not be read, or held no line.
  case inspectionLog(InspectionLogState)
  /// The connection accepted the proxy's certificate in the handshake and closed without a
  /// request: pinning checked in the app's code after the handshake, or nothing to send.
  case closedAfterHandshake
}

/// Whether the app pins, read from what the relay recorded of an inspection attempt.
/// It bypasses nothing: a connection accepted or refused the local CA's certificate.
public enum PinningAssessment: Sendable, Hashable {
  case absent(host: String)
  case observed(host: String)
  case notAssessed(PinningGap)
  case notApplicable

  /// `log`: what the recorder that recorded the flow made of its inspection log (nil for an
  /// imported session, whose log was read whole at the import).
  public init(
    of flow: StoredFlow, conditions: InspectionConditions, log: InspectionLogReading? = nil
  ) {
    let outcome = flow.inspectionOutcome
    let signOfTLS =
      flow.streamOpening == .tlsHandshake || flow.clientTLS != nil || flow.serverTLS != nil
    if flow.streamOpening == .httpRequest || (outcome == nil && !signOfTLS && flow.quic == nil) {
      self = .notApplicable
      return
    }
    if !conditions.inspectionEnabled {
      self = .notAssessed(.inspectionOff)
      return
    }
    if !conditions.caTrusted {
      self = .notAssessed(.caNotTrusted)
      return
    }
    if outcome == .closedAfterHandshake {
      self = .notAssessed(.closedAfterHandshake)
      return
    }
    if let outcome {
      guard let name = flow.announcedName else {
        self = .notAssessed(.outcomeWithoutAnnouncedName)
        return
      }
      let host = DomainPattern.normalised(host: name)
      self = outcome == .inspected ? .absent(host: host) : .observed(host: host)
      return
    }
    if flow.quic != nil && !signOfTLS {
      self = .notAssessed(.quicNotInspected)
    } else if let log, !log.followed {
      self = .notAssessed(.inspectionLogNotFollowed)
    } else if let state = log?.state, state != .read {
      self = .notAssessed(.inspectionLog(state))
    } else {
      self = .notAssessed(.noInspectionOutcome)
    }
  }
}

extension PinningGap: CheckGap {
  public var key: String {
    switch self {
    case .inspectionOff: return "inspectionOff"
    case .caNotTrusted: return "caNotTrusted"
    case .outcomeWithoutAnnouncedName: return "outcomeWithoutAnnouncedName"
    case .quicNotInspected: return "quicNotInspected"
    case .noInspectionOutcome: return "noInspectionOutcome"
    case .closedAfterHandshake: return "closedAfterHandshake"
    case .inspectionLogNotFollowed: return "inspectionLogNotFollowed"
    case .inspectionLog(.missing): return "inspectionLogMissing"
    case .inspectionLog(.unreadable): return "inspectionLogUnreadable"
    case .inspectionLog(.empty), .inspectionLog(.read): return "inspectionLogEmpty"
    }
  }
}

/// What a recorder run made of the inspection log it was to follow.
public struct InspectionLogReading: Sendable, Hashable {
  public let followed: Bool
  public let state: InspectionLogState?
  public init(followed: Bool, state: InspectionLogState?) {
    self.followed = followed
    self.state = state
  }
  public init(_ run: RecorderRun) {
    self.init(followed: run.inspectionLog != nil, state: run.inspectionLogState)
  }
}
