import Audit
import AuditRules

/// What a session can say about the app's certificate checks, from the conditions it recorded
/// under: pinning (the system trusting the proxy's CA), certificate validation (the other
/// scenarios), or nothing. Never passed or failed: it says whether anything can be read, and how.
public enum PinningEvidence: Sendable, Hashable {
  /// The system trusts the proxy's CA: an acceptance shows no pin, a refusal a pin.
  case assessable
  /// Another scenario: an acceptance shows what the app does not check.
  case validation(CertificateScenario)
  case notAssessed(Reason)

  public enum Reason: Sendable, Hashable { case inspectionOff, scenarioNotStated }

  public init(_ conditions: InspectionConditions) {
    if !conditions.inspectionEnabled {
      self = .notAssessed(.inspectionOff)
    } else if let scenario = conditions.scenario {
      self = scenario == .systemTrust ? .assessable : .validation(scenario)
    } else {
      self = .notAssessed(.scenarioNotStated)
    }
  }

  /// The headline: "Can be assessed" or "Not assessed".
  public var headline: String {
    switch self {
    case .assessable, .validation: return "Can be assessed"
    case .notAssessed: return "Not assessed"
    }
  }

  /// The scenario in a few words, as page 1 and `session show` state it.
  public static func scenarioPhrase(_ scenario: CertificateScenario?) -> String {
    switch scenario {
    case nil: return "not stated"
    case .notInstalled?: return "the proxy's CA not installed on the device"
    case .userCA?: return "the proxy's CA installed in the device's user store"
    case .systemTrust?: return "the proxy's CA trusted by the system"
    case .wrongHost?: return "a certificate for another host name, from a trusted CA"
    case .expired?: return "an expired certificate, from a trusted CA"
    }
  }

  /// What a recorded session says.
  public var sentence: String {
    switch self {
    case .assessable:
      return
        "HTTPS inspection was on and the system trusted the local certificate authority, so each connection the inspecting proxy recorded an outcome for shows whether the app accepted a certificate issued by it or refused it. Nothing was bypassed to find out."
    case .validation(let scenario):
      return
        "HTTPS inspection was on with \(Self.scenarioPhrase(scenario)), so each connection the inspecting proxy recorded an outcome for shows whether the app accepted that certificate (and sent requests over it) or refused it. Nothing was bypassed to find out."
    case .notAssessed(.inspectionOff):
      return
        "HTTPS inspection was off while this session recorded, so no connection was offered a certificate of the local authority. To assess pinning, record a session with inspection on."
    case .notAssessed(.scenarioNotStated):
      return
        "The session does not state how the proxy's certificate stood with the device, so an accepted or refused certificate means nothing here. State it when the session starts (--ca not-installed, user, system, wrong-host or expired)."
    }
  }

  /// What is said before recording starts, in the future tense.
  public var forecast: String {
    switch self {
    case .assessable:
      return
        "Certificate pinning will be assessable where the inspecting proxy records an outcome: inspection is on and the system trusts the local certificate authority. The outcomes come from mitmproxy's log ('record --inspection-log FILE', or 'import … --inspection-log FILE')."
    case .validation(let scenario):
      return
        "Certificate validation will be assessable where the inspecting proxy records an outcome, with \(Self.scenarioPhrase(scenario)) (mitmdump's options: 'tunnelvision mitmproxy-scenario \(scenario.argument)')."
    case .notAssessed(.inspectionOff):
      return
        "Certificate pinning will not be assessed: HTTPS inspection is off (pass --inspection to declare it on)."
    case .notAssessed(.scenarioNotStated):
      return
        "Neither pinning nor certificate validation will be assessed: the certificate scenario is not stated (pass --ca not-installed, user, system, wrong-host or expired)."
    }
  }
}
