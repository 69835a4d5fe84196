import Audit

extension FindingsCheck {
  public static let certificateValidation = FindingsCheck(rawValue: "certificateValidation")
}

extension FindingKind {
  public static let certificateNotValidated = FindingKind(
    "certificateNotValidated", of: .certificateValidation, meaning: .certificates)
  public static let hostNameNotVerified = FindingKind(
    "hostNameNotVerified", of: .certificateValidation, meaning: .certificates)
  public static let expiryNotChecked = FindingKind(
    "expiryNotChecked", of: .certificateValidation, meaning: .certificates)
  public static let userCATrusted = FindingKind(
    "userCATrusted", of: .certificateValidation, meaning: .certificates)
  public static let certificateValidationObserved = FindingKind(
    "certificateValidationObserved", of: .certificateValidation, meaning: .support)
  public static let userCARefused = FindingKind(
    "userCARefused", of: .certificateValidation, meaning: .support)
}

extension FindingEvidence {
  public static func certificateNotValidated(host: String) -> FindingEvidence {
    FindingEvidence(kind: .certificateNotValidated, host: host)
  }
  public static func hostNameNotVerified(host: String) -> FindingEvidence {
    FindingEvidence(kind: .hostNameNotVerified, host: host)
  }
  public static func expiryNotChecked(host: String) -> FindingEvidence {
    FindingEvidence(kind: .expiryNotChecked, host: host)
  }
  public static func userCATrusted(host: String) -> FindingEvidence {
    FindingEvidence(kind: .userCATrusted, host: host)
  }
  public static func certificateValidationObserved(host: String) -> FindingEvidence {
    FindingEvidence(kind: .certificateValidationObserved, host: host)
  }
  public static func userCARefused(host: String) -> FindingEvidence {
    FindingEvidence(kind: .userCARefused, host: host)
  }
}

/// Whether the app validates the server's certificate, read from what it did with the one the
/// inspecting proxy served under the session's scenario: a certificate no trusted CA issued, one
/// for another host name, an expired one, or one from a CA in the user's store. Accepting
/// (completing the handshake and sending requests) is a finding against the requirement;
/// refusing is one in its support. Under system trust only pinning is read.
public enum CertificateValidationCheck: FindingsCheckRule {
  public static let check = FindingsCheck.certificateValidation
  public static let runOrder = 80
  public static let kinds: [FindingKind] = [
    .certificateNotValidated, .hostNameNotVerified, .expiryNotChecked, .userCATrusted,
    .certificateValidationObserved, .userCARefused,
  ]
  public static let statedForms: [FindingEvidence] = [
    .certificateNotValidated(host: "host.example"), .hostNameNotVerified(host: "host.example"),
    .expiryNotChecked(host: "host.example"), .userCATrusted(host: "host.example"),
    .certificateValidationObserved(host: "host.example"), .userCARefused(host: "host.example"),
  ]

  public static func assess(_ flow: StoredFlow, in context: CheckContext) -> CheckOutcome<
    ProxyCertificateGap
  > {
    let reading = ProxyCertificateReading(
      of: flow, conditions: context.session.inspection,
      log: context.runs[flow.captureSessionID].map(InspectionLogReading.init))
    switch reading {
    case .notApplicable: return .notApplicable
    case .notAssessed(let gap): return .notAssessed(gap)
    case .read(let accepted, let host, let scenario):
      switch (scenario, accepted) {
      case (.systemTrust, _): return .notAssessed(.systemTrustTestsPinning)
      case (.notInstalled, true): return .finding(.certificateNotValidated(host: host))
      case (.wrongHost, true): return .finding(.hostNameNotVerified(host: host))
      case (.expired, true): return .finding(.expiryNotChecked(host: host))
      case (.userCA, true): return .finding(.userCATrusted(host: host))
      case (.userCA, false): return .finding(.userCARefused(host: host))
      case (.notInstalled, false), (.wrongHost, false), (.expired, false):
        return .finding(.certificateValidationObserved(host: host))
      }
    }
  }
}

extension SessionFindings {
  /// `satisfiedFlowIDs` is always empty: both answers are findings.
  public var certificateValidation: CheckCoverage<ProxyCertificateGap> {
    CertificateValidationCheck.coverage(in: self)
  }
}
