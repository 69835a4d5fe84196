public enum PinningGap: Sendable, Hashable {
  case inspectionOff, caNotTrusted, outcomeWithoutAnnouncedName, quicNotInspected,
    noInspectionOutcome
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

  public init(of flow: StoredFlow, conditions: InspectionConditions) {
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
    self =
      flow.quic != nil && !signOfTLS
      ? .notAssessed(.quicNotInspected) : .notAssessed(.noInspectionOutcome)
  }
}
