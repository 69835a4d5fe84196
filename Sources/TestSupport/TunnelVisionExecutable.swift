import Foundation

/// The built `tunnelvision` executable, beside the test bundle: tests run it as a separate process.
public enum TunnelVisionExecutable {
  public static func url() throws -> URL {
    var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = dir.appendingPathComponent("tunnelvision")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      dir = dir.deletingLastPathComponent()
    }
    throw NSError(
      domain: "TunnelVisionExecutable", code: 1,
      userInfo: [
        NSLocalizedDescriptionKey:
          "the tunnelvision executable is not built beside the tests; run 'swift build' before 'swift test' (make test does)"
      ])
  }
}
