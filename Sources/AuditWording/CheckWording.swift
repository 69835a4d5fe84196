import Audit
import AuditRules

/// A check's sentences: its name, what each of its findings states, and why it could not look at
/// a flow. One file per check in Wording/Checks; `CheckWordings.all`, generated, lists them.
public protocol CheckWording: Sendable {
  associatedtype Rule: FindingsCheckRule
  /// As a heading: "TLS version", "Certificate pinning".
  static var name: String { get }
  /// Inside a sentence: "the TLS version check", "the host check".
  static var noun: String { get }
  /// What a finding of the check states, in a sentence. Carries no data: the host and the
  /// version are in their own fields.
  static func statement(_ evidence: FindingEvidence, minimum: TLSProtocolVersion) -> String
  /// The same in a few words: a group's heading, a key finding's line. One per statement.
  static func shortStatement(_ evidence: FindingEvidence) -> String
  /// What the finding is stated about ("TLS 1.0, read from the ServerHello", a host), if anything.
  static func subject(_ evidence: FindingEvidence) -> String?
  /// Why the check could not look at a flow.
  static func reason(_ gap: Rule.Gap) -> String
}

extension CheckWording {
  /// The name in lower case but its acronyms ("TLS version" stays so, "Host" is "host"): a
  /// lower-cased "tls" or "http" reads as a typing error.
  public static var noun: String {
    name.split(separator: " ").map { word in
      word.count > 1 && word.allSatisfy(\.isUppercase) ? String(word) : word.lowercased()
    }.joined(separator: " ")
  }

  public static func subject(_ evidence: FindingEvidence) -> String? { evidence.host }

  static func reason(of gap: AnyCheckGap) -> String { reason(gap.base as! Rule.Gap) }
}

/// Every check's wording, found by its check. `all` is written by scripts/list-checks.py from the
/// wording files (CheckWordings+All.swift).
public enum CheckWordings {
  private static let byCheck: [FindingsCheck: any CheckWording.Type] = Dictionary(
    uniqueKeysWithValues: all.map { ($0.check, $0) })

  /// The wording of a check; a check without one is a mistake the tests catch.
  public static func of(_ check: FindingsCheck) -> any CheckWording.Type {
    guard let wording = byCheck[check] else { preconditionFailure("no wording for \(check)") }
    return wording
  }

  /// Whether every check of `FindingsChecks` has its wording (a test holds it).
  public static var coversEveryCheck: Bool {
    Set(byCheck.keys) == Set(FindingsCheck.allCases) && byCheck.count == all.count
  }
}

extension CheckWording {
  static var check: FindingsCheck { Rule.check }
}
