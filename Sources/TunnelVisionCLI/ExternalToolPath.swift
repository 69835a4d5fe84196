import Foundation

/// Where a program is on PATH (this process's), as a shell would find it; nil when it is not.
package enum ExternalToolPath {
  package static func find(_ name: String) -> String? {
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(
      separator: ":")
    {
      let path = "\(dir)/\(name)"
      if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
  }
}
