import Audit

/// The checks the classifier runs on every flow, in the order it runs them: the order of a
/// flow's findings and of every list of checks. The one place that lists them.
public enum FindingsChecks {
  public static let all: [any FindingsCheckRule.Type] = [
    TLSVersionCheck.self, TLSParameterCheck.self, ServerConfigurationCheck.self,
    EncryptionCheck.self, MutualAuthenticationCheck.self, HostCheck.self,
    PinningCheck.self,
    CertificateValidationCheck.self, ConsentCheck.self, TLSClientCheck.self, TrackerCheck.self,
    ConsentWithdrawalCheck.self, PersonalDataCheck.self,
  ]

  /// Checks whose gaps do not count for a requirement another check judges too.
  static let supplementary: Set<FindingsCheck> = Set(
    all.filter { !$0.gapsCountBesideOtherChecks }.map { $0.check })

  static let kindsByName: [String: FindingKind] = Dictionary(
    uniqueKeysWithValues: all.flatMap { $0.kinds }.map { ($0.rawValue, $0) })
}
