import AuditRules
import Foundation
import Record

/// testssl.sh run against one server: its JSON report (`--jsonfile-pretty`, which carries the
/// tool's and OpenSSL's versions), within a time limit, stopped at Ctrl-C. I/O only: what the
/// report says is `TestsslReport`'s.
enum Testssl {
  enum Outcome: Sendable, Equatable {
    case finished(Data)
    case timedOut
    case stopped
    case failed(String)
  }

  /// Debian's `testssl`, else upstream's `testssl.sh`, from PATH ($TUNNELVISION_TESTSSL first).
  static func executable(environment: [String: String]) -> String? {
    if let given = environment["TUNNELVISION_TESTSSL"] { return given }
    let path = environment["PATH"] ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
      for name in ["testssl", "testssl.sh"] {
        let candidate = "\(directory)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      }
    }
    return nil
  }

  /// What is asked of the server: the protocols, each cipher per protocol, the server's defaults
  /// (certificate, OCSP stapling) and forward secrecy (groups). The address the session used is
  /// given with --ip, so the scan reaches that server whatever the name resolves to now.
  static func arguments(_ target: ScanTarget, report: String) -> [String] {
    [
      "--quiet", "--warnings", "off", "--color", "0", "--jsonfile-pretty", report, "--ip",
      target.address, "-p", "-E", "-S", "--fs", "\(target.host):\(target.port)",
    ]
  }

  static func scan(_ target: ScanTarget, tool: String, seconds: Int, stop: StopRequest)
    -> Outcome
  {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tunnelvision-scan-\(UUID().uuidString)")
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch { return .failed("no temporary directory: \(error.localizedDescription)") }
    defer { try? FileManager.default.removeItem(at: directory) }
    let report = directory.appendingPathComponent("report.json").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments(target, report: report)
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    let ended = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in ended.signal() }
    do { try process.run() } catch { return .failed("\(tool) did not start: \(error)") }
    let deadline = Date().addingTimeInterval(TimeInterval(seconds))
    while ended.wait(timeout: .now() + 0.2) == .timedOut {
      if stop.wasAsked || Date() >= deadline {
        // testssl.sh runs openssl children of its own: its process group goes with it.
        kill(-process.processIdentifier, SIGTERM)
        process.terminate()
        ended.wait()
        return stop.wasAsked ? .stopped : .timedOut
      }
    }
    guard let data = FileManager.default.contents(atPath: report), !data.isEmpty else {
      return .failed(
        "testssl.sh ended with status \(process.terminationStatus) and wrote no report")
    }
    return .finished(data)
  }
}
