import AuditRules
import Foundation
import Record
import SystemCalls

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
    environment["TUNNELVISION_TESTSSL"] ?? ExternalToolPath.find("testssl")
      ?? ExternalToolPath.find("testssl.sh")
  }

  /// What is asked of the server: the protocols, each cipher per protocol, the server's defaults
  /// (certificate, OCSP stapling), forward secrecy (groups), renegotiation, compression and the
  /// HTTP headers (HSTS). The address the session used is given with --ip, so the scan reaches
  /// that server whatever the name resolves to now.
  static func arguments(_ target: ScanTarget, report: String) -> [String] {
    [
      "--quiet", "--warnings", "off", "--color", "0", "--jsonfile-pretty", report, "--ip",
      target.address, "-p", "-E", "-S", "--fs", "-R", "-C", "-h", "\(target.host):\(target.port)",
    ]
  }

  static func scan(_ target: ScanTarget, tool: String, seconds: Int, stop: StopRequest) -> Outcome {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tunnelvision-scan-\(UUID().uuidString)")
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch { return .failed("no temporary directory: \(error.localizedDescription)") }
    defer { try? FileManager.default.removeItem(at: directory) }
    let report = directory.appendingPathComponent("report.json").path
    let pid: pid_t
    switch spawn(tool, arguments(target, report: report)) {
    case .success(let spawned): pid = spawned
    case .failure(let error): return .failed("\(tool) did not start: \(error)")
    }
    let deadline = Date().addingTimeInterval(TimeInterval(seconds))
    var status: Int32 = 0
    while waitpid(pid, &status, WNOHANG) == 0 {
      if stop.wasAsked || Date() >= deadline {
        // testssl.sh runs openssl children of its own: its process group goes with it.
        kill(-pid, SIGTERM)
        usleep(200_000)
        kill(-pid, SIGKILL)
        _ = waitpid(pid, &status, 0)
        return stop.wasAsked ? .stopped : .timedOut
      }
      usleep(100_000)
    }
    guard let data = FileManager.default.contents(atPath: report), !data.isEmpty else {
      return .failed("testssl.sh ended with status \((status >> 8) & 0xff) and wrote no report")
    }
    return .finished(data)
  }

  /// Starts `tool` in a process group of its own (so that a stop ends its children with it, and
  /// Ctrl-C at the terminal reaches this command, which decides), its output discarded.
  static func spawn(_ tool: String, _ arguments: [String]) -> Result<pid_t, Errno> {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for descriptor: Int32 in [0, 1, 2] {
      posix_spawn_file_actions_addopen(
        &actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // Its signals as the system sets them: this command ignores SIGINT and SIGTERM while it
    // scans (it decides what a stop does), which a child would otherwise inherit.
    var defaults = sigset_t()
    sigemptyset(&defaults)
    sigaddset(&defaults, SIGINT)
    sigaddset(&defaults, SIGTERM)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF))
    posix_spawnattr_setpgroup(&attributes, 0)
    let argv = ([tool] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in envp { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, tool, &actions, &attributes, argv, envp)
    return spawned == 0 ? .success(pid) : .failure(Errno(rawValue: spawned))
  }
}
