import AuditRules
import Crypto
import Foundation
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

/// rename(2): puts a finished file (or directory) where it was asked for in one step. On one file
/// system what was there stays until the new one replaces it, so a failure never leaves the
/// destination missing; a directory is replaced only when it is empty.
public enum AtomicRename {
  public struct Failure: Error, CustomStringConvertible {
    public let destination: URL
    public let reason: String
    public var description: String {
      "\(destination.lastPathComponent) could not be put in place in \(destination.deletingLastPathComponent().path): \(reason)"
    }
  }

  public static func rename(_ source: URL, to destination: URL) throws(Failure) {
    if case .failure(let error) = nothingOrErrno({ Glibc.rename(source.path, destination.path) }) {
      throw Failure(destination: destination, reason: error.description)
    }
  }

  /// A name beside `destination` to write it under, of this process and this call alone.
  /// What a process killed while it wrote `destination` left beside it (a bundle's partial archive
  /// is as large as the bundle) is removed first.
  public static func partialName(for destination: URL) -> URL {
    let directory = destination.deletingLastPathComponent()
    let prefix = ".\(destination.lastPathComponent).partial-"
    removeAbandoned(in: directory, prefix: prefix)
    return directory.appendingPathComponent("\(prefix)\(getpid())-\(UUID().uuidString.prefix(8))")
  }

  /// Removes the files and directories of `directory` named `prefix`, a process id, "-" and
  /// anything, whose process is no longer running: what a writer killed half-way left. A name
  /// whose process is running, whatever that process is, is left alone.
  public static func removeAbandoned(in directory: URL, prefix: String) {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else {
      return
    }
    for name in names where name.hasPrefix(prefix) {
      guard let pid = pid_t(name.dropFirst(prefix.count).prefix { $0 != "-" }), pid > 0,
        !isRunning(pid)
      else { continue }
      try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
    }
  }

  /// kill(2) with no signal: whether a process of that id exists (one of another user counts).
  static func isRunning(_ pid: pid_t) -> Bool {
    guard case .failure(let error) = nothingOrErrno({ kill(pid, 0) }) else { return true }
    return error != .noSuchProcess
  }
}
