import Audit

/// manifest.json's keys.
public enum ManifestDocument {
  public enum Key: String, CodingKey, DocumentKeys {
    case formatVersion, sessionID, exportedAt, algorithm, files
    public static let prefix = ""
    public var form: DocumentForm {
      switch self {
      case .formatVersion, .sessionID: .integer
      case .exportedAt: .instant
      case .algorithm: .string
      case .files: .array(.object(FileKey.self))
      }
    }
  }

  public enum FileKey: String, CodingKey, DocumentKeys {
    case name, byteCount, sha256
    public static let prefix = "files[]."
    public var form: DocumentForm { self == .byteCount ? .integer : .string }
  }
}
