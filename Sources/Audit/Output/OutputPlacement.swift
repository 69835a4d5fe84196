/// What stands at a path an output is to be written to, as the file system says (lstat: a
/// symbolic link is itself, not what it points to).
public enum ExistingFile: Sendable, Hashable {
  case nothing, regularFile, directory, symbolicLink, characterDevice, blockDevice, fifo, socket
}

/// Why an output may not be written where it was asked for.
public enum OutputRefusal: Error, Sendable, Hashable {
  /// Something that is not a regular file is there: it is never replaced.
  case notARegularFile(path: String, found: ExistingFile)
  /// A file is there, and `--force` was not given.
  case exists(path: String)
  /// The path lies inside a store: its database, journal files and captures are never replaced.
  case insideStore(path: String, store: String)
}

/// Where an output (a bundle, a report) may be written: only where a regular file may be, never
/// inside a store, and over an existing file only when asked to.
public enum OutputPlacement {
  public static func refusal(
    path: String, existing: ExistingFile, storeHoldingIt store: String?, force: Bool
  ) -> OutputRefusal? {
    if let store { return .insideStore(path: path, store: store) }
    switch existing {
    case .nothing: return nil
    case .regularFile: return force ? nil : .exists(path: path)
    default: return .notARegularFile(path: path, found: existing)
    }
  }
}
