import Audit

/// Why a connection's answer to the inspecting proxy's certificate could not be read, or means
/// nothing for a check.
public enum ProxyCertificateGap: Sendable, Hashable {
  case inspectionOff, outcomeWithoutAnnouncedName, quicNotInspected, noInspectionOutcome
  /// The session does not state how the proxy's certificate stood with the device.
  case scenarioNotStated
  /// The scenario tests certificate validation, not pinning (pinning check).
  case scenarioTestsValidation
  /// With the system trusting the proxy's CA, accepting is what a validating app does: only
  /// pinning is read (validation check).
  case systemTrustTestsPinning
  /// A certificate from a user-installed CA refused: that says nothing about pinning.
  case userCARefused
  /// The recorder that recorded it followed no inspection log (`--inspection-log`).
  case inspectionLogNotFollowed
  /// The log it followed did not exist, could not be read, or held no line.
  case inspectionLog(InspectionLogState)
  /// No outcome, and the recorder could not read this many of the log's lines: the connection's
  /// may have been among them.
  case inspectionLinesUnreadable(Int)
  /// The connection accepted the proxy's certificate in the handshake and closed without a
  /// request: pinning checked in the app's code after the handshake, or nothing to send.
  case closedAfterHandshake
}

/// What a connection did with the certificate the inspecting proxy served it, under the
/// session's stated scenario: accepted (completed the handshake and sent requests) or refused.
/// It bypasses nothing; the checks read what it means for each scenario.
public enum ProxyCertificateReading: Sendable, Hashable {
  case read(accepted: Bool, host: String, scenario: CertificateScenario)
  case notAssessed(ProxyCertificateGap)
  case notApplicable

  /// `log`: what the recorder that recorded the flow made of its inspection log (nil for an
  /// imported session, whose log was read whole at the import).
  public init(
    of flow: borrowing StoredFlow, conditions: InspectionConditions, log: InspectionLogReading?
  ) {
    let outcome = flow.inspectionOutcome
    let signOfTLS =
      flow.streamOpening == .tlsHandshake || flow.clientTLS != nil || flow.serverTLS != nil
    if flow.streamOpening == .httpRequest || (outcome == nil && !signOfTLS && flow.quic == nil) {
      self = .notApplicable
      return
    }
    guard conditions.inspectionEnabled else {
      self = .notAssessed(.inspectionOff)
      return
    }
    guard let scenario = conditions.scenario else {
      self = .notAssessed(.scenarioNotStated)
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
      self = .read(
        accepted: outcome == .inspected, host: DomainPattern.normalised(host: name),
        scenario: scenario)
      return
    }
    if flow.quic != nil && !signOfTLS {
      self = .notAssessed(.quicNotInspected)
    } else if let log, !log.followed {
      self = .notAssessed(.inspectionLogNotFollowed)
    } else if let state = log?.state, state != .read {
      self = .notAssessed(.inspectionLog(state))
    } else if let log, log.unreadableLines > 0 {
      self = .notAssessed(.inspectionLinesUnreadable(log.unreadableLines))
    } else {
      self = .notAssessed(.noInspectionOutcome)
    }
  }
}
