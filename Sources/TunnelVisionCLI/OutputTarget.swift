import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Crypto
import Foundation
import ReportPDF
import SystemCalls

/// What the file system says of an output's path: what is there, and the store that holds it.
enum OutputTarget {
  static func existing(_ url: URL) -> ExistingFile {
    var info = stat()
    guard lstat(url.path, &info) == 0 else { return .nothing }
    switch info.st_mode & S_IFMT {
    case S_IFREG: return .regularFile
    case S_IFDIR: return .directory
    case S_IFLNK: return .symbolicLink
    case S_IFCHR: return .characterDevice
    case S_IFBLK: return .blockDevice
    case S_IFIFO: return .fifo
    case S_IFSOCK: return .socket
    default: return .characterDevice
    }
  }

  /// The store directory the path lies in, if any: a directory above it holding a history.sqlite
  /// (the path's own directory, a captures directory inside one, any deeper).
  static func store(holding url: URL) -> String? {
    var directory = url.deletingLastPathComponent().resolvingSymlinksInPath().standardizedFileURL
    if url.lastPathComponent.hasPrefix("history.sqlite") { return directory.path }
    while true {
      if FileManager.default.fileExists(
        atPath: directory.appendingPathComponent("history.sqlite").path)
      {
        return directory.path
      }
      let parent = directory.deletingLastPathComponent()
      if parent.path == directory.path { return nil }
      directory = parent
    }
  }

  /// Gives the written output its permissions (the process creates files private already; this
  /// says so explicitly, or widens them as asked).
  static func setMode(_ url: URL, _ mode: FileMode) throws {
    if case .failure(let error) = nothingOrErrno({ chmod(url.path, mode.value) }) {
      throw RefusedError(
        "\(url.path) was written, but its permissions could not be set to \(String(mode.value, radix: 8)): \(error)."
      )
    }
  }

  /// Refuses an output the place does not allow, before anything is read or written.
  static func require(_ url: URL, force: Bool) throws {
    if let refusal = OutputPlacement.refusal(
      path: url.path, existing: existing(url), storeHoldingIt: store(holding: url), force: force)
    {
      throw RefusedError(OutputPresentation.sentence(for: refusal))
    }
  }
}
