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
