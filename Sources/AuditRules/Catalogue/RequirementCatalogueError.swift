import Audit

/// Why a catalogue was refused. Every case that can be in a requirement names it.
public enum RequirementCatalogueError: Error, Sendable, Hashable, CustomStringConvertible {
  public enum KindProblem: String, Sendable, Hashable {
    case missing, unexpected, repeated
  }

  case notJSON(String)
  case formatVersion(found: String?)
  case missingField(field: String, requirement: String?)
  case emptyField(field: String, requirement: String?)
  case invalidDate(String, field: String)
  case invalidDigest(String, field: String)
  case invalidLanguage(String, field: String)
  case invalidTLSMinimum(String)
  case noRequirements
  case repeatedRequirement(String)
  case unknownTestDepth(String, requirement: String)
  case unknownRule(String, requirement: String)
  case unknownFindingKind(String, requirement: String)
  case kindsDoNotFitRule(requirement: String, problem: KindProblem)
  case toolCoverageMissing(requirement: String)

  public var description: String {
    func place(_ requirement: String?) -> String {
      requirement.map { " in requirement \($0)" } ?? ""
    }
    switch self {
    case .notJSON(let reason):
      return "The catalogue cannot be read: \(reason)."
    case .formatVersion(let found):
      return
        "The catalogue's formatVersion is \(found ?? "missing"); this version of tunnelvision reads formatVersion \(RequirementCatalogue.formatVersion)."
    case .missingField(let field, let requirement):
      return "The field \(field) is missing or of the wrong type\(place(requirement))."
    case .emptyField(let field, let requirement):
      return "The field \(field) is empty\(place(requirement))."
    case .invalidDate(let text, let field):
      return
        "\(field) is “\(text)”, which is not a date written yyyy-MM-dd (or yyyy-MM, for a document dated by its month)."
    case .invalidDigest(let text, let field):
      return "\(field) is “\(text)”, which is not a SHA-256 of 64 lower-case hex digits."
    case .invalidLanguage(let text, let field):
      return
        "\(field) is “\(TerminalText.inline(text))”, which is not a language tag such as “de” or “de-CH”."
    case .invalidTLSMinimum(let text):
      return "tls.minimumVersion is “\(text)”; a TLS minimum is one of 1.0, 1.1, 1.2 or 1.3."
    case .noRequirements:
      return "The catalogue lists no requirements."
    case .repeatedRequirement(let id):
      return "Requirement \(id) is listed more than once."
    case .unknownTestDepth(let text, let requirement):
      return "The test depth “\(text)”\(place(requirement)) is neither CHECK nor EXAMINE."
    case .unknownRule(let text, let requirement):
      return
        "The rule “\(text)”\(place(requirement)) is not one of outsideToolScope, contraryFindings, contraryAndSupportingFindings."
    case .unknownFindingKind(let text, let requirement):
      return
        "“\(text)”\(place(requirement)) is not a finding kind (\(FindingKind.allCases.map(\.rawValue).joined(separator: ", ")))."
    case .kindsDoNotFitRule(let requirement, let problem):
      let what: String
      switch problem {
      case .missing: what = "its rule needs finding kinds that are not given"
      case .unexpected: what = "it lists finding kinds its rule does not read"
      case .repeated: what = "a finding kind is listed twice"
      }
      return "In requirement \(requirement), \(what)."
    case .toolCoverageMissing(let requirement):
      return
        "Requirement \(requirement) reads findings but has no toolCoverage saying what the tool looks at."
    }
  }
}
