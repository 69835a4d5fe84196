import Audit
import AuditWording

/// What `tunnelvision verify` prints: a line per check, its problems under it, the last line.
public enum VerifyPresentation {
  /// Problems listed under a check; the rest are counted.
  public static let problemsShown = 20

  /// What the checks cannot say by themselves: without a signature, or one by a key not checked
  /// against a trusted one, a bundle rebuilt with its manifest recomputed would pass them too.
  /// With a key given, the signature's check says whose it is: nothing to add.
  public static func signatureNote(_ standing: SignatureStanding, keyGiven: Bool) -> String? {
    if keyGiven, case .signed = standing { return nil }
    switch standing {
    case .unsigned:
      return
        "The bundle is not signed: one rebuilt with its files changed and its manifest recomputed would pass these checks too (export --sign KEY signs it)."
    case .signed(let fingerprint, false):
      return
        "Signed by the key \(fingerprint), which was not checked against a key you trust: give verify --key PUBLIC.pem."
    case .signed(_, true):
      return nil
    }
  }

  /// The last line when nothing fails but a check could not be made.
  public static let incomplete =
    "No check fails, but not every check could be made (○ above): the bundle is not shown to be what its documents give."

  public static func text(path: String, _ checks: [VerificationCheck]) -> String {
    var out = "Verifying \(path)\n"
    for check in checks {
      out +=
        "  \(!check.made ? "○" : check.holds ? "✓" : "✗") \(TerminalText.inline(check.statement))\n"
      for problem in check.problems.prefix(problemsShown) {
        out += "      \(TerminalText.inline(problem))\n"
      }
      if check.problems.count > problemsShown {
        out += "      … and \(check.problems.count - problemsShown) more\n"
      }
    }
    let failed = checks.filter { !$0.holds }.count
    guard failed == 0 else { return out + failing(failed, of: checks.count) + ".\n" }
    return out + (checks.allSatisfy(\.made) ? "Every check holds.\n" : incomplete + "\n")
  }

  public static func json(path: String, _ checks: [VerificationCheck]) -> JSONValue {
    .object([
      "bundle": .string(path), "holds": .bool(checks.allSatisfy(\.holds)),
      "complete": .bool(checks.allSatisfy(\.made)),
      "checks": .array(
        checks.map {
          .object([
            "statement": .string($0.statement), "holds": .bool($0.holds),
            "made": .bool($0.made), "problems": .strings($0.problems),
          ])
        }),
    ])
  }

  /// The refusal on stderr when anything fails; nil when every check holds.
  public static func refusal(path: String, _ checks: [VerificationCheck]) -> String? {
    let failed = checks.filter { !$0.holds }.count
    return failed == 0 ? nil : "\(path) does not verify: \(failing(failed, of: checks.count))."
  }

  static func failing(_ failed: Int, of total: Int) -> String {
    "\(Quantity.count(failed, "check")) of \(total) \(failed == 1 ? "does" : "do") not hold"
  }
}
