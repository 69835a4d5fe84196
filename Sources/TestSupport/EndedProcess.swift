import Foundation

/// The id of a process that has run and ended: what a writer killed half-way leaves its names
/// with, for tests of what cleans up after it.
public enum EndedProcess {
  public static func id() throws -> pid_t {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/true")
    try process.run()
    process.waitUntilExit()
    return process.processIdentifier
  }
}
