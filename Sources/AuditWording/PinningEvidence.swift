import Audit
import AuditRules

/// What a session can say about certificate pinning, from the conditions it recorded under.
/// Never passed or failed: it says whether anything can be read, and how.
public enum PinningEvidence: Sendable, Hashable {
  case assessable
  case notAssessed(Reason)

  public enum Reason: Sendable, Hashable { case inspectionOff, caNotTrusted }

  public init(_ conditions: InspectionConditions) {
    if !conditions.inspectionEnabled {
      self = .notAssessed(.inspectionOff)
    } else if !conditions.caTrusted {
      self = .notAssessed(.caNotTrusted)
    } else {
      self = .assessable
    }
  }

  /// The headline: "Can be assessed" or "Not assessed".
  public var headline: String {
    switch self {
    case .assessable: return "Can be assessed"
    case .notAssessed: return "Not assessed"
    }
  }

  /// What a recorded session says.
  public var sentence: String {
    switch self {
    case .assessable:
      return
        "HTTPS inspection was on and the device trusted the local certificate authority, so each connection the inspecting proxy recorded an outcome for shows whether the app accepted a certificate issued by it or refused it. Nothing was bypassed to find out."
    case .notAssessed(.inspectionOff):
      return
        "HTTPS inspection was off while this session recorded, so no connection was offered a certificate of the local authority. To assess pinning, record a session with inspection on."
    case .notAssessed(.caNotTrusted):
      return
        "The device did not trust the local certificate authority, so a refused certificate says nothing about pinning. To assess it, trust the certificate on the device and record a session."
    }
  }

  /// What is said before recording starts, in the future tense.
  public var forecast: String {
    switch self {
    case .assessable:
      return
        "Certificate pinning will be assessable where the inspecting proxy records an outcome: inspection is on and the device trusts the local certificate authority. The outcomes come from mitmproxy's log ('record --inspection-log FILE', or 'import … --inspection-log FILE')."
    case .notAssessed(.inspectionOff):
      return
        "Certificate pinning will not be assessed: HTTPS inspection is off (pass --inspection to declare it on)."
    case .notAssessed(.caNotTrusted):
      return
        "Certificate pinning will not be assessed: the device does not trust the local certificate authority (pass --ca-trusted once it does)."
    }
  }
}
