import Audit
import AuditDocuments
import AuditRules
import AuditWording

/// What a person is told when an output is refused its place.
public enum OutputPresentation {
  public static func sentence(for refusal: OutputRefusal) -> String {
    switch refusal {
    case .notARegularFile(let path, let found):
      return
        "\(path) is \(name(found)); an output is written only as a regular file, and what is there was left as it is. Give a file's path."
    case .exists(let path):
      return
        "\(path) already exists and was left as it is; give --force to replace it, or another path."
    case .insideStore(let path, let store):
      return
        "\(path) lies inside the store \(store); its database and captures are never written over. Give a path outside it."
    }
  }

  public static func name(_ found: ExistingFile) -> String {
    switch found {
    case .nothing: return "nothing"
    case .regularFile: return "a file"
    case .directory: return "a directory"
    case .symbolicLink: return "a symbolic link"
    case .characterDevice: return "a character device"
    case .blockDevice: return "a block device"
    case .fifo: return "a FIFO (named pipe)"
    case .socket: return "a socket"
    }
  }
}
