import Foundation

/// A directory under the system's temporary directory, removed when the value is released.
public final class TemporaryDirectory {
  public let url: URL

  public init(_ label: String = "tunnelvision") {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  public func path(_ name: String) -> URL { url.appendingPathComponent(name) }
}

/// Compares text with a golden file; `UPDATE_GOLDEN=1` rewrites the file instead.
public enum Golden {
  public static func compare(_ actual: String, file: URL) -> String? {
    if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
      try? FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try? actual.write(to: file, atomically: true, encoding: .utf8)
      return nil
    }
    guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
      return "golden file \(file.path) is missing; run with UPDATE_GOLDEN=1 to write it"
    }
    if expected == actual { return nil }
    let a = actual.components(separatedBy: "\n")
    let e = expected.components(separatedBy: "\n")
    for i in 0..<max(a.count, e.count)
    where (i < a.count ? a[i] : nil) != (i < e.count ? e[i] : nil) {
      return
        "\(file.lastPathComponent) differs at line \(i + 1):\n  expected: \(i < e.count ? e[i] : "<end>")\n  actual:   \(i < a.count ? a[i] : "<end>")"
    }
    return "\(file.lastPathComponent) differs"
  }

  /// The source directory of a test file, for golden files kept beside it.
  public static func directory(of sourceFile: StaticString = #filePath) -> URL {
    URL(fileURLWithPath: "\(sourceFile)").deletingLastPathComponent()
  }
}

/// Runs an external tool and returns its exit status and output; nil when it is not installed.
public enum ExternalTool {
  public static func which(_ name: String) -> String? {
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(
      separator: ":")
    {
      let path = "\(dir)/\(name)"
      if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
  }

  public static func run(
    _ name: String, _ arguments: [String], input: Data? = nil,
    environment: [String: String]? = nil
  ) throws -> (status: Int32, output: String, error: String)? {
    guard let path = which(name) ?? (name.hasPrefix("/") ? name : nil) else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    if input != nil { process.standardInput = Pipe() }
    try process.run()
    if let input, let pipe = process.standardInput as? Pipe {
      pipe.fileHandleForWriting.write(input)
      try pipe.fileHandleForWriting.close()
    }
    // Read both pipes concurrently so neither fills up and blocks the tool.
    let errorBox = DataBox()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
      errorBox.data = err.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    let outputData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    let errorData = errorBox.data
    process.waitUntilExit()
    return (
      process.terminationStatus, String(decoding: outputData, as: UTF8.self),
      String(decoding: errorData, as: UTF8.self)
    )
  }
}

private final class DataBox: @unchecked Sendable { var data = Data() }
