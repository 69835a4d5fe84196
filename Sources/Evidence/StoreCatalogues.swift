import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Crypto
import Foundation

/// Catalogues an assessor added to a store (`project new|edit --catalogue-file`), kept in the
/// store's `catalogues/` directory beside the bundled ones. Each is validated again when read.
public enum StoreCatalogues {
  public static let directoryName = "catalogues"

  public static func directory(ofStore store: URL) -> URL {
    store.appendingPathComponent(directoryName, isDirectory: true)
  }

  /// Whether an identifier can name a file: letters, digits, dot, underscore, hyphen.
  public static func isUsableIdentifier(_ identifier: String) -> Bool {
    !identifier.isEmpty && identifier.count <= 100 && !identifier.hasPrefix(".")
      && identifier.unicodeScalars.allSatisfy {
        $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0))
      }
  }

  /// The project's catalogue: a bundled one, else one added to the store, else the default.
  public static func catalogue(for project: AuditProject, storeDirectory: URL)
    throws(RequirementCatalogueLibraryError) -> RequirementCatalogue
  {
    let identifier = project.catalogueVersion ?? RequirementCatalogueLibrary.defaultIdentifier
    if RequirementCatalogueLibrary.identifiers.contains(identifier) {
      return try RequirementCatalogueLibrary.catalogue(identifier: identifier)
    }
    let file = directory(ofStore: storeDirectory).appendingPathComponent(identifier + ".json")
    guard isUsableIdentifier(identifier), let data = try? Data(contentsOf: file) else {
      throw .notBundled(identifier: identifier)
    }
    do {
      let catalogue = try RequirementCatalogue(data: data)
      guard catalogue.identifier == identifier else {
        throw RequirementCatalogueError.emptyField(field: "identifier", requirement: nil)
      }
      return catalogue
    } catch let error as RequirementCatalogueError {
      throw .unusable(identifier: identifier, error)
    } catch {
      throw .notBundled(identifier: identifier)
    }
  }

  /// Adds a validated catalogue's bytes to the store, under its identifier (atomically).
  public static func add(_ data: Data, identifier: String, storeDirectory: URL) throws {
    let dir = directory(ofStore: storeDirectory)
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    try data.write(to: dir.appendingPathComponent(identifier + ".json"), options: .atomic)
  }
}
