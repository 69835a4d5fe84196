import Foundation
import ReportPDF

/// Where the store is: `--store DIR`, else `$TUNNELVISION_STORE`, else
/// `$XDG_DATA_HOME/tunnelvision`, else `~/.local/share/tunnelvision`.
public enum StoreLocation {
  public static func resolve(option: String?, environment: [String: String]) -> URL {
    if let option, !option.isEmpty { return URL(fileURLWithPath: option, isDirectory: true) }
    if let store = environment["TUNNELVISION_STORE"], !store.isEmpty {
      return URL(fileURLWithPath: store, isDirectory: true)
    }
    if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
      return URL(fileURLWithPath: data, isDirectory: true).appendingPathComponent(
        "tunnelvision", isDirectory: true)
    }
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    return URL(fileURLWithPath: home, isDirectory: true)
      .appendingPathComponent(".local/share/tunnelvision", isDirectory: true)
  }
}
