import Audit
import Foundation

/// A document a catalogue cites: what it is and the SHA-256 of the PDF it was checked against, or,
/// for a document published as web pages, its address.
public struct CatalogueSource: Sendable, Hashable {
  public let document: String
  public let title: String
  public let version: String
  /// yyyy-MM-dd, or yyyy-MM for a document its publisher dates by the month alone.
  public let date: String
  /// 64 lower-case hex digits; nil for a document cited by its address.
  public let sha256: String?
  /// Where a document without a file to digest is published.
  public let url: String?
  /// The language it is written in (BCP 47, "de"), when the catalogue says: its requirements'
  /// titles are quoted from it, and the report marks them so.
  public let language: String?
  public init(
    document: String, title: String, version: String, date: String, sha256: String?,
    language: String? = nil, url: String? = nil
  ) {
    self.url = url
    self.document = document
    self.title = title
    self.version = version
    self.date = date
    self.sha256 = sha256
    self.language = language
  }
}

public struct RequirementAspect: Sendable, Hashable {
  public let number: Int
  public let name: String
  public init(number: Int, name: String) {
    self.number = number
    self.name = name
  }
}

public enum TestDepth: String, Sendable, Hashable, CaseIterable {
  case check = "CHECK"
  case examine = "EXAMINE"
}

public enum RequirementRule: Sendable, Hashable {
  case outsideToolScope
  case contraryFindings([FindingKind])
  case contraryAndSupportingFindings(contrary: [FindingKind], supporting: [FindingKind])

  /// The checks behind the rule, in the order they run; empty when the rule reads no finding.
  public var checks: [FindingsCheck] {
    let named = Set((contraryKinds + supportingKinds).map(\.check))
    return FindingsCheck.allCases.filter(named.contains)
  }

  /// Whether the rule reads findings at all.
  public var readsFindings: Bool { !checks.isEmpty }

  public var contraryKinds: [FindingKind] {
    switch self {
    case .outsideToolScope: return []
    case .contraryFindings(let kinds): return kinds
    case .contraryAndSupportingFindings(let contrary, _): return contrary
    }
  }

  public var supportingKinds: [FindingKind] {
    if case .contraryAndSupportingFindings(_, let supporting) = self { return supporting }
    return []
  }

  public var name: String {
    switch self {
    case .outsideToolScope: return "outsideToolScope"
    case .contraryFindings: return "contraryFindings"
    case .contraryAndSupportingFindings: return "contraryAndSupportingFindings"
    }
  }
}

public struct Requirement: Sendable, Hashable, Identifiable {
  /// "O.Ntwk_1", as in the document.
  public let id: String
  public let aspect: RequirementAspect
  /// The document's own short form, in its language.
  public let title: String
  /// The document's test depth (TR-03161's CHECK or EXAMINE); nil where it has none.
  public let testDepth: TestDepth?
  public let rule: RequirementRule
  /// What the tool looks at for it, and what it does not.
  public let toolCoverage: String?
}

/// One version of a requirements document, and what this tool can say about each requirement.
public struct RequirementCatalogue: Sendable, Hashable {
  public static let formatVersion = 1

  public let identifier: String
  public let source: CatalogueSource
  /// Where the TLS minimum comes from.
  public let tlsSource: CatalogueSource
  public let policy: FindingsPolicy
  /// In the document's order.
  public let requirements: [Requirement]

  /// Reads a catalogue, refusing a miswritten one with the requirement the mistake is in.
  public init(data: Data) throws(RequirementCatalogueError) {
    // Read strictly first, so that a mistake is named where it is (Foundation forgives some,
    // and says only "around character N" of the rest).
    if let failure = JSONSyntax.failure(in: data) {
      throw .notJSON("it is not valid JSON: \(failure.reason) at \(failure.place(in: data))")
    }
    guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
      throw .notJSON("the top level is not an object")
    }
    let reader = CatalogueReader(requirement: nil)
    guard let format = root["formatVersion"], Self.isFormatVersion(format) else {
      throw .formatVersion(found: root["formatVersion"].map(Self.asJSON))
    }
    identifier = try reader.text(root, "identifier")
    source = try reader.source(root["source"], "source")
    let tls = try reader.object(root["tls"], "tls")
    let minimumText = try reader.text(tls, "tls.minimumVersion", key: "minimumVersion")
    guard let minimum = TLSProtocolVersion(catalogueText: minimumText),
      var policy = FindingsPolicy(minimumTLSVersion: minimum)
    else {
      throw .invalidTLSMinimum(minimumText)
    }
    tlsSource = try reader.source(tls["source"], "tls.source")
    if let recommendations = tls["recommendations"] {
      guard let object = recommendations as? [String: Any] else {
        throw .missingField(field: "tls.recommendations", requirement: nil)
      }
      policy.tlsRecommendations = try TLSRecommendationsReader.read(object)
      policy.tlsDocument = "\(tlsSource.document) (\(tlsSource.version))"
    }
    self.policy = policy

    guard let list = root["requirements"] as? [Any] else {
      throw .missingField(field: "requirements", requirement: nil)
    }
    guard !list.isEmpty else { throw .noRequirements }
    var requirements: [Requirement] = []
    var seen = Set<String>()
    for (index, element) in list.enumerated() {
      guard let object = element as? [String: Any] else {
        throw .missingField(field: "requirements[\(index)]", requirement: nil)
      }
      let requirement = try CatalogueReader.requirement(object, index: index)
      guard seen.insert(requirement.id).inserted else { throw .repeatedRequirement(requirement.id) }
      requirements.append(requirement)
    }
    self.requirements = requirements
  }

  public func requirement(id: String) -> Requirement? { requirements.first { $0.id == id } }

  /// The number this version reads (`true`, which Foundation also reads as a number, is not).
  private static func isFormatVersion(_ value: Any) -> Bool {
    value is NSNumber && asJSON(value) == String(formatVersion)
  }

  /// A value of the file as JSON writes it: a string in quotes, an object in braces.
  private static func asJSON(_ value: Any) -> String {
    guard
      let data = try? JSONSerialization.data(
        withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys])
    else { return "\(value)" }
    return String(decoding: data, as: UTF8.self)
  }
}

/// Reads fields, naming the requirement (if any) and the field in every refusal.
private struct CatalogueReader {
  var requirement: String?

  func object(_ value: Any?, _ field: String) throws(RequirementCatalogueError) -> [String: Any] {
    guard let object = value as? [String: Any] else {
      throw .missingField(field: field, requirement: requirement)
    }
    return object
  }

  func text(_ object: [String: Any], _ field: String, key: String? = nil)
    throws(RequirementCatalogueError) -> String
  {
    guard let value = object[key ?? field] as? String else {
      throw .missingField(field: field, requirement: requirement)
    }
    guard !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
      throw .emptyField(field: field, requirement: requirement)
    }
    return value
  }

  func source(_ value: Any?, _ field: String) throws(RequirementCatalogueError) -> CatalogueSource {
    let object = try self.object(value, field)
    let date = try text(object, field + ".date", key: "date")
    guard Self.isCalendarDate(date) || Self.isCalendarMonth(date) else {
      throw .invalidDate(date, field: field + ".date")
    }
    var digest: String?
    var url: String?
    if object["sha256"] is NSNull {
      // A document published as web pages has no file to digest: its address stands instead.
      let address = try text(object, field + ".url", key: "url")
      guard address.hasPrefix("https://") else {
        throw .missingField(field: field + ".url", requirement: requirement)
      }
      url = address
    } else {
      let stated = try text(object, field + ".sha256", key: "sha256")
      guard stated.count == 64,
        stated.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
      else {
        throw .invalidDigest(stated, field: field + ".sha256")
      }
      digest = stated
    }
    var language: String?
    if object["language"] != nil {
      let tag = try text(object, field + ".language", key: "language")
      guard Self.isLanguageTag(tag) else { throw .invalidLanguage(tag, field: field + ".language") }
      language = tag
    }
    return CatalogueSource(
      document: try text(object, field + ".document", key: "document"),
      title: try text(object, field + ".title", key: "title"),
      version: try text(object, field + ".version", key: "version"),
      date: date, sha256: digest, language: language, url: url)
  }

  /// A BCP 47 tag's shape: a primary language of two or three letters, then subtags of letters
  /// and digits ("de", "de-CH").
  static func isLanguageTag(_ text: String) -> Bool {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard let first = parts.first, (2...3).contains(first.count),
      first.allSatisfy({ $0.isASCII && $0.isLowercase })
    else { return false }
    return parts.dropFirst().allSatisfy {
      (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
  }

  /// "2024-01": a month of a year.
  static func isCalendarMonth(_ text: String) -> Bool {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard text.count == 7, parts.count == 2, parts[0].count == 4, parts[1].count == 2,
      parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
      let month = Int(parts[1])
    else { return false }
    return (1...12).contains(month)
  }

  static func isCalendarDate(_ text: String) -> Bool {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard text.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2,
      parts[2].count == 2,
      parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
      (1...12).contains(month)
    else { return false }
    return (1...CivilTime.daysIn(month: month, year: year)).contains(day)
  }

  static func requirement(_ object: [String: Any], index: Int) throws(RequirementCatalogueError)
    -> Requirement
  {
    var reader = CatalogueReader(requirement: nil)
    let id = try reader.text(object, "requirements[\(index)].id", key: "id")
    reader.requirement = id
    let aspectObject = try reader.object(object["aspect"], "aspect")
    guard let number = JSONNumber.integer(aspectObject["number"]) else {
      throw .missingField(field: "aspect.number", requirement: id)
    }
    let aspect = RequirementAspect(
      number: number, name: try reader.text(aspectObject, "aspect.name", key: "name"))
    let title = try reader.text(object, "title")
    var depth: TestDepth?
    if object["testDepth"] != nil {
      let depthText = try reader.text(object, "testDepth")
      guard let known = TestDepth(rawValue: depthText) else {
        throw .unknownTestDepth(depthText, requirement: id)
      }
      depth = known
    }
    let ruleText = try reader.text(object, "rule")
    let contrary = try reader.kinds(object["contraryKinds"], "contraryKinds")
    let supporting = try reader.kinds(object["supportingKinds"], "supportingKinds")
    let rule: RequirementRule
    switch ruleText {
    case "outsideToolScope":
      if !contrary.isEmpty || !supporting.isEmpty {
        throw .kindsDoNotFitRule(requirement: id, problem: .unexpected)
      }
      rule = .outsideToolScope
    case "contraryFindings":
      if contrary.isEmpty { throw .kindsDoNotFitRule(requirement: id, problem: .missing) }
      if !supporting.isEmpty { throw .kindsDoNotFitRule(requirement: id, problem: .unexpected) }
      rule = .contraryFindings(contrary)
    case "contraryAndSupportingFindings":
      if contrary.isEmpty || supporting.isEmpty {
        throw .kindsDoNotFitRule(requirement: id, problem: .missing)
      }
      rule = .contraryAndSupportingFindings(contrary: contrary, supporting: supporting)
    default:
      throw .unknownRule(ruleText, requirement: id)
    }
    let all = contrary + supporting
    if Set(all).count != all.count { throw .kindsDoNotFitRule(requirement: id, problem: .repeated) }
    var coverage: String?
    if object["toolCoverage"] != nil && !(object["toolCoverage"] is NSNull) {
      coverage = try reader.text(object, "toolCoverage")
    }
    if rule.readsFindings && coverage == nil { throw .toolCoverageMissing(requirement: id) }
    return Requirement(
      id: id, aspect: aspect, title: title, testDepth: depth, rule: rule, toolCoverage: coverage)
  }

  func kinds(_ value: Any?, _ field: String) throws(RequirementCatalogueError) -> [FindingKind] {
    guard let value, !(value is NSNull) else { return [] }
    guard let texts = value as? [Any] else {
      throw .missingField(field: field, requirement: requirement)
    }
    var kinds: [FindingKind] = []
    for element in texts {
      guard let text = element as? String, let kind = FindingKind(rawValue: text) else {
        throw .unknownFindingKind("\(element)", requirement: requirement ?? "")
      }
      kinds.append(kind)
    }
    return kinds
  }
}
