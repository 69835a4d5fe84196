import Audit
import AuditRules

/// What is said about allowlist patterns.
public enum AllowlistPresentation {
  /// The two accepted forms and the rule people get wrong.
  public static let formsRule =
    "Two forms are accepted: an exact name (api.example.com) or *.suffix (*.example.com). A wildcard does not cover the name itself: *.example.com does not allow example.com."

  /// The sentence for a rejected pattern, naming what is wrong.
  public static func sentence(for error: DomainPattern.ParseError, pattern: String) -> String {
    let quoted = "“\(pattern)”"
    switch error {
    case .empty:
      return "An allowlist entry is empty; write a domain name or remove the entry."
    case .misplacedWildcard:
      return "\(quoted): a wildcard is only accepted as the first label, as in *.example.com."
    case .nonASCII:
      return "\(quoted) has characters outside ASCII; write an international name in its xn-- form."
    case .emptyLabel:
      return "\(quoted) has an empty label (two dots in a row, or a dot at the start)."
    case .labelTooLong(let label):
      return "\(quoted): the label “\(label)” is longer than 63 characters."
    case .nameTooLong:
      return "\(quoted) is longer than the 253 characters a domain name can have."
    case .hyphenAtLabelEdge(let label):
      return
        "\(quoted): the label “\(label)” begins or ends with a hyphen, which no host name does."
    case .wildcardOverTopLevel(let suffix):
      return
        "\(quoted) would allow every name under “\(suffix)”; a wildcard needs a domain of at least two labels, as in *.example.com."
    case .invalidCharacter(let character):
      let shown = character == " " ? "a space" : "“\(character)”"
      return
        "\(quoted) cannot contain \(shown); write the host name alone, without a scheme, port or path."
    }
  }

  public static let bundleIdentifierCaveat =
    "The bundle identifier does not filter traffic. The recorder sees packets, not apps: what separates this app's traffic is the baseline."
}

extension AllowlistPresentation {
  public static func otherProject(session: Int64, _ project: String) -> String {
    "Session \(session) is not a session of “\(project)”: its names would start another project's allowlist. 'tunnelvision session list' shows each session's project."
  }

  public static func nothingToAdd(session: Int64, _ project: String) -> String {
    "Every name session \(session)'s connections went to is covered by the allowlist of “\(project)” already; nothing to add."
  }

  /// The patterns and the names each covers, one a line.
  public static func proposal(
    _ patterns: [AllowlistProposal.Pattern], session: Int64, project: String, withDomains: Bool
  ) -> String {
    let head =
      withDomains
      ? "Patterns covering the names session \(session)'s connections went to, by registrable domain (the public suffix list):"
      : "Patterns covering the names session \(session)'s connections went to (no public suffix list is installed: each name as it is):"
    return
      ([head]
      + patterns.map {
        "  \(TerminalText.inline($0.pattern.text))  (\($0.names.map(TerminalText.inline).joined(separator: ", ")))"
      }).joined(separator: "\n")
  }

  public static func addQuestion(_ count: Int, _ project: String) -> String {
    "Add \(Quantity.count(count, "pattern")) to the allowlist of “\(project)”?"
  }

  public static let notAdded = "Nothing was added to the allowlist."
  public static let needsYes =
    "Nothing was added: no terminal to ask. Give --yes to add the patterns shown."
}
