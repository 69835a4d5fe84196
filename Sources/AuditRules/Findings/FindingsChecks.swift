import Audit

/// The checks the classifier runs on every flow, in the order it runs them: the order of a
/// flow's findings and of every list of checks. `all` is written by scripts/list-checks.py from
/// the check files (FindingsChecks+All.swift).
public enum FindingsChecks {
  /// Checks whose gaps do not count for a requirement another check judges too.
  static let supplementary: Set<FindingsCheck> = Set(
    all.filter { !$0.gapsCountBesideOtherChecks }.map { $0.check })

  static let kindsByName: [String: FindingKind] = Dictionary(
    uniqueKeysWithValues: all.flatMap { $0.kinds }.map { ($0.rawValue, $0) })
}
