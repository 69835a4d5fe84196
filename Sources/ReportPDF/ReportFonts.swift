import Foundation

/// Where the report's bundled fonts are: `$TUNNELVISION_FONTS`, else a `Fonts/` directory found
/// beside the executable or above it (the source tree), else `share/tunnelvision/Fonts`.
public enum ReportFonts {
  public static let files = [
    "DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf", "DejaVuSansMono.ttf",
  ]

  public struct NotFound: Error, CustomStringConvertible {
    public let searched: [String]
    public var description: String {
      "The report's fonts were not found (looked in \(searched.joined(separator: ", "))). An installed tunnelvision finds them in share/tunnelvision/Fonts beside its bin directory (make install, or the Debian package); otherwise set TUNNELVISION_FONTS to the Fonts directory of the source tree."
    }
  }

  public static func directory(
    environment: [String: String] = ProcessInfo.processInfo.environment,
    executable: URL = runningExecutable()
  ) throws -> URL {
    var candidates: [URL] = []
    if let dir = environment["TUNNELVISION_FONTS"], !dir.isEmpty {
      candidates.append(URL(fileURLWithPath: dir))
    }
    var dir = executable.deletingLastPathComponent()
    for _ in 0..<6 {
      candidates.append(dir.appendingPathComponent("Fonts"))
      candidates.append(dir.appendingPathComponent("share/tunnelvision/Fonts"))
      dir = dir.deletingLastPathComponent()
    }
    for candidate in candidates
    where files.allSatisfy({
      FileManager.default.fileExists(atPath: candidate.appendingPathComponent($0).path)
    }) {
      return candidate
    }
    throw NotFound(searched: candidates.prefix(4).map(\.path))
  }

  /// The executable this process runs, wherever it was started from: the kernel's link, not
  /// the command's first word (a name found on PATH, or a path relative to where it was typed).
  public static func runningExecutable() -> URL {
    if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
      return URL(fileURLWithPath: path)
    }
    return URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath()
  }
}
