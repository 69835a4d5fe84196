import Audit
import AuditRules

/// One check of a bundle as verify states it: what it holds to, and every place it does not.
public struct VerificationCheck: Sendable, Hashable {
  public let statement: String
  public let problems: [String]
  /// False for a check that could not be made: its statement says what and why.
  public let made: Bool
  public var holds: Bool { problems.isEmpty }
  public init(statement: String, problems: [String], made: Bool = true) {
    self.statement = statement
    self.problems = problems
    self.made = made
  }
}

/// Whether a bundle's manifest is signed, and whether by a key the person trusts.
public enum SignatureStanding: Sendable, Hashable {
  case unsigned
  case signed(fingerprint: String, byTrustedKey: Bool)
}

/// What `tunnelvision verify` prints: a line per check, its problems under it, the last line.
public enum VerifyPresentation {
  /// Problems listed under a check; the rest are counted.
  public static let problemsShown = 20

  /// The re-derivation check: findings and verdicts are not taken on trust.
  public static let rederivedStatement =
    "findings.json, session.json and report.pdf are what flows.json, session.json's project, session and markers and capture.json's counts give, re-derived with the catalogue"

  public static func notRederived(catalogue: String) -> String {
    "The findings and verdicts were not re-derived: the bundle's catalogue “\(TerminalText.inline(catalogue))” is not one this tool carries (a catalogue file of the export's own); they are taken as findings.json states them."
  }

  public static func notRederived(exportedWith: String) -> String {
    "The findings, verdicts and report were not re-derived: the bundle was exported with “\(TerminalText.inline(exportedWith))”, this is \(ToolVersion.exportedWith), whose documents could be worded or laid out otherwise; they are taken as the bundle states them."
  }

  /// The last line when nothing fails but a check could not be made.
  public static let incomplete =
    "No check fails, but not every check could be made (○ above): the bundle is not shown to be what its documents give."

  public static func verdictDiffers(_ requirement: String, stated: String?, rederived: String?)
    -> String
  {
    "\(TerminalText.inline(requirement))'s verdict is “\(TerminalText.inline(stated ?? "none"))” in findings.json; the flows give “\(rederived ?? "none")”"
  }

  public static let reportNotRedrawn =
    "report.pdf could not be drawn again to compare (capture.json's counts unreadable, or the report's fonts not found): it is not shown to be the report of these documents"

  public static let formStatement =
    "capture.json and flows.json are, byte for byte, what export writes from the values they hold: every key, type and form is the format's."
  public static func formDiffers(_ name: String) -> String {
    "\(name) is not written as export writes the values it holds: a key, a type, a value's form or the layout departs from the format (docs/bundle-format.md)"
  }

  public static func baselineClaimDiffers(flow: Int64, stated: Bool?, rederived: Bool?)
    -> String
  {
    func text(_ v: Bool?) -> String { v.map { $0 ? "true" : "false" } ?? "null" }
    return
      "flow \(flow)'s alsoContactedInBaseline is \(text(stated)); session.json's baseline hosts give \(text(rederived))"
  }

  public static func documentDiffers(_ name: String) -> String {
    "\(name) is not the document the flows and the session give: its bytes differ from those re-derived"
  }

  /// What the checks cannot say by themselves: without a signature, or one by a key not checked
  /// against a trusted one, a bundle rebuilt with its manifest recomputed would pass them too.
  public static func signatureNote(_ standing: SignatureStanding) -> String? {
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
