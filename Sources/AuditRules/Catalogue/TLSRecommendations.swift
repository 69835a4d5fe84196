import Audit
import Foundation

/// The last year a TLS document recommends an item: "2029", or "2031+" (recommended beyond its
/// horizon, expected to be extended).
public struct RecommendedUntil: Sendable, Hashable, CustomStringConvertible {
  public let year: Int
  public let extended: Bool
  public init(year: Int, extended: Bool) {
    self.year = year
    self.extended = extended
  }

  public init?(text: String) {
    let extended = text.hasSuffix("+")
    guard let year = Int(extended ? String(text.dropLast()) : text), (1990...2200).contains(year)
    else { return nil }
    self.init(year: year, extended: extended)
  }

  public var description: String { extended ? "\(year)+" : "\(year)" }

  /// Whether it is still recommended in `year`: a "+" holds beyond its year.
  public func covers(_ year: Int) -> Bool { extended || year <= self.year }
}

/// One row of a table: a value, until when it is recommended, and where the document lists it.
public struct TLSRecommendedItem: Sendable, Hashable {
  public let until: RecommendedUntil
  /// "2", "6, 7": the table's number in the document.
  public let table: String
  public init(until: RecommendedUntil, table: String) {
    self.until = until
    self.table = table
  }
}

/// A minimum key length (TR-02102-2's Table 13).
public struct TLSKeyMinimum: Sendable, Hashable {
  public let bits: Int
  public let item: TLSRecommendedItem
}

/// An extension the document asks for or advises against, and the section that says so.
public struct TLSExtensionAdvice: Sendable, Hashable {
  public let value: UInt16
  public let section: String
  /// The versions it applies to; every version when empty.
  public let versions: [TLSProtocolVersion]
  /// Asked for only with a CBC cipher suite (Encrypt-then-MAC).
  public let withCBCOnly: Bool
  public func applies(to version: TLSProtocolVersion, cipherSuite: UInt16) -> Bool {
    (versions.isEmpty || versions.contains(version))
      && (!withCBCOnly || TLSRegistry.isCBC(cipherSuite: cipherSuite))
  }
}

/// What a catalogue's TLS document recommends, as data (the catalogue's `tls.recommendations`):
/// cipher suites, groups and signature schemes per version, certificate signatures, minimum key
/// lengths, the extensions to use and to avoid, compression and early data. A newer edition is
/// a change of the catalogue, not of the tool. Items not listed are "not listed", never "weak".
public struct TLSRecommendations: Sendable, Hashable {
  public var cipherSuites: [TLSProtocolVersion: [UInt16: TLSRecommendedItem]] = [:]
  public var groups: [TLSProtocolVersion: [UInt16: TLSRecommendedItem]] = [:]
  /// Of the handshake's signatures (TLS 1.2's ServerKeyExchange).
  public var signatureSchemes: [TLSProtocolVersion: [UInt16: TLSRecommendedItem]] = [:]
  /// Of certificates, as signature schemes.
  public var certificateSignatures: [TLSProtocolVersion: [UInt16: TLSRecommendedItem]] = [:]
  /// By algorithm: "RSA", "ECDSA", "DSA" (certificate keys), "DH", "ECDH" (key agreement).
  public var minimumKeys: [String: TLSKeyMinimum] = [:]
  public var requiredExtensions: [TLSExtensionAdvice] = []
  public var avoidedExtensions: [TLSExtensionAdvice] = []
  /// The sections that advise against compression and 0-RTT data; nil when the document does not.
  public var compressionSection: String?
  public var earlyDataSection: String?
  /// The tables' names, per kind of list, to cite when a value is in none: "2–4".
  public var tablesOf: [String: [TLSProtocolVersion: String]] = [:]

  public init() {}
}

/// Reads `tls.recommendations` of a catalogue.
enum TLSRecommendationsReader {
  typealias Failure = RequirementCatalogueError

  static func read(_ object: [String: Any]) throws(RequirementCatalogueError) -> TLSRecommendations
  {
    var result = TLSRecommendations()
    result.cipherSuites = try tables(object, "cipherSuites", into: &result)
    result.groups = try tables(object, "groups", into: &result)
    result.signatureSchemes = try tables(object, "signatureSchemes", into: &result)
    result.certificateSignatures = try tables(object, "certificateSignatures", into: &result)
    for (index, row) in try list(object, "minimumKeyBits").enumerated() {
      let field = "tls.recommendations.minimumKeyBits[\(index)]"
      guard let algorithm = row["algorithm"] as? String, !algorithm.isEmpty,
        let bits = JSONNumber.integer(row["bits"]), bits > 0
      else { throw .missingField(field: field, requirement: nil) }
      result.minimumKeys[algorithm] = TLSKeyMinimum(bits: bits, item: try item(row, field))
    }
    let extensions = object["extensions"] as? [String: Any] ?? [:]
    result.requiredExtensions = try advice(extensions, "required")
    result.avoidedExtensions = try advice(extensions, "avoided")
    result.compressionSection = (object["compression"] as? [String: Any])?["section"] as? String
    result.earlyDataSection = (object["earlyData"] as? [String: Any])?["section"] as? String
    return result
  }

  private static func list(_ object: [String: Any], _ key: String) throws(Failure)
    -> [[String: Any]]
  {
    guard let value = object[key] else { return [] }
    guard let rows = value as? [[String: Any]] else {
      throw .missingField(field: "tls.recommendations." + key, requirement: nil)
    }
    return rows
  }

  private static func item(_ row: [String: Any], _ field: String) throws(Failure)
    -> TLSRecommendedItem
  {
    guard let text = row["until"] as? String, let until = RecommendedUntil(text: text) else {
      throw .missingField(field: field + ".until", requirement: nil)
    }
    guard let table = row["table"] as? String, !table.isEmpty else {
      throw .missingField(field: field + ".table", requirement: nil)
    }
    return TLSRecommendedItem(until: until, table: table)
  }

  static func version(_ value: Any?) -> TLSProtocolVersion? {
    (value as? String).flatMap(TLSProtocolVersion.init(catalogueText:))
  }

  /// A TLS code: a number, or "0x" and four hex digits.
  static func code(_ value: Any) -> UInt16? {
    if let text = value as? String {
      guard text.hasPrefix("0x"), text.count == 6 else { return nil }
      return UInt16(text.dropFirst(2), radix: 16)
    }
    return JSONNumber.integer(value).flatMap { (0...0xFFFF).contains($0) ? UInt16($0) : nil }
  }

  private static func tables(
    _ object: [String: Any], _ key: String, into result: inout TLSRecommendations
  ) throws(Failure) -> [TLSProtocolVersion: [UInt16: TLSRecommendedItem]] {
    var tables: [TLSProtocolVersion: [UInt16: TLSRecommendedItem]] = [:]
    var names: [TLSProtocolVersion: [String]] = [:]
    for (index, row) in try list(object, key).enumerated() {
      let field = "tls.recommendations.\(key)[\(index)]"
      guard let version = version(row["version"]) else {
        throw .missingField(field: field + ".version", requirement: nil)
      }
      let item = try item(row, field)
      guard let values = row["values"] as? [Any], !values.isEmpty else {
        throw .missingField(field: field + ".values", requirement: nil)
      }
      for value in values {
        guard let code = code(value) else {
          throw .missingField(field: field + ".values", requirement: nil)
        }
        tables[version, default: [:]][code] = item
      }
      if !(names[version] ?? []).contains(item.table) {
        names[version, default: []].append(item.table)
      }
    }
    result.tablesOf[key] = names.mapValues { $0.joined(separator: ", ") }
    return tables
  }

  private static func advice(_ object: [String: Any], _ key: String) throws(Failure)
    -> [TLSExtensionAdvice]
  {
    guard let rows = object[key] as? [[String: Any]] else { return [] }
    return try rows.enumerated().map { (index, row) throws(Failure) in
      let field = "tls.recommendations.extensions.\(key)[\(index)]"
      guard let value = row["value"].flatMap(code), let section = row["section"] as? String else {
        throw .missingField(field: field, requirement: nil)
      }
      let versions = (row["versions"] as? [Any] ?? []).compactMap(version)
      return TLSExtensionAdvice(
        value: value, section: section, versions: versions,
        withCBCOnly: (row["withCBCOnly"] as? Bool) ?? false)
    }
  }
}
