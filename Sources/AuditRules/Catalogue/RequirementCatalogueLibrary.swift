import Audit
import Foundation

/// Where the catalogue a project is assessed against comes from.
public typealias CatalogueResolution = (AuditProject) throws(RequirementCatalogueLibraryError) ->
  RequirementCatalogue

public enum RequirementCatalogueLibraryError: Error, Sendable, Hashable, CustomStringConvertible {
  case notBundled(identifier: String)
  case unusable(identifier: String, RequirementCatalogueError)

  public var description: String {
    switch self {
    case .notBundled(let identifier):
      return
        "This version of tunnelvision does not include the catalogue “\(identifier)”; it includes \(RequirementCatalogueLibrary.identifiers.joined(separator: ", "))."
    case .unusable(let identifier, let error):
      return "The catalogue “\(identifier)” cannot be used: \(error)"
    }
  }
}

/// The catalogues that ship inside the tool, by identifier.
public enum RequirementCatalogueLibrary {
  public static let defaultIdentifier = "tr-03161-1_3.0"

  public static var identifiers: [String] { BundledCatalogues.files.keys.sorted() }

  /// The bytes of a bundled catalogue, as they are in `Catalogues/`.
  public static func data(identifier: String) -> Data? {
    BundledCatalogues.files[identifier].map { Data(($0 + "\n").utf8) }
  }

  public static func catalogue(identifier: String) throws(RequirementCatalogueLibraryError)
    -> RequirementCatalogue
  {
    guard let data = data(identifier: identifier) else { throw .notBundled(identifier: identifier) }
    do { return try RequirementCatalogue(data: data) } catch {
      throw .unusable(identifier: identifier, error)
    }
  }

  /// The project's choice, or the default.
  public static func catalogue(for project: AuditProject) throws(RequirementCatalogueLibraryError)
    -> RequirementCatalogue
  {
    try catalogue(identifier: project.catalogueVersion ?? defaultIdentifier)
  }
}
