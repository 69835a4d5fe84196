import Foundation

/// A network namespace of the test's own with its loopback up and a hosts file of its own
/// (/etc/netns/NAME/hosts, which `ip netns exec` binds over /etc/hosts), removed when released.
/// Its name is unique in the machine: several tests (and several test processes) make theirs at
/// once.
public final class NetworkNamespace {
  public let name: String
  nonisolated(unsafe) private static var made = 0
  private static let lock = NSLock()

  public init(_ label: String = "tv", hosts: String = "127.0.0.1 localhost\n") throws {
    Self.lock.lock()
    Self.made += 1
    name = "\(label)-\(getpid())-\(Self.made)"
    Self.lock.unlock()
    try Self.ip(["netns", "add", name])
    try Self.ip(["netns", "exec", name, "ip", "link", "set", "lo", "up"])
    try FileManager.default.createDirectory(
      atPath: "/etc/netns/\(name)", withIntermediateDirectories: true)
    try hosts.write(toFile: "/etc/netns/\(name)/hosts", atomically: true, encoding: .utf8)
  }

  /// `ip` with `arguments`, which must succeed.
  public static func ip(_ arguments: [String]) throws {
    guard let result = try ExternalTool.run("ip", arguments) else {
      throw Readiness.NotReady(description: "ip is not installed (make test installs iproute2)")
    }
    guard result.status == 0 else {
      throw Readiness.NotReady(
        description: "ip \(arguments.joined(separator: " ")) failed: \(result.error)")
    }
  }

  /// The arguments of `ip` that run `arguments` inside the namespace.
  public func exec(_ arguments: [String]) -> [String] { ["netns", "exec", name] + arguments }

  /// Runs `arguments` inside the namespace and waits for it, at most `seconds` before it is
  /// killed: its status and output.
  public func run(_ arguments: [String], within seconds: TimeInterval = 300) throws -> (
    status: Int32, output: String, error: String
  ) {
    guard let ip = ExternalTool.which("ip") else {
      throw Readiness.NotReady(description: "ip is not installed (make test installs iproute2)")
    }
    // One that never ends fails the test instead of holding the suite (`RunningProcess.end`).
    return try RunningProcess(ip, exec(arguments)).end(0, within: seconds)
  }

  /// Starts `arguments` inside the namespace.
  public func start(_ arguments: [String]) throws -> RunningProcess {
    guard let ip = ExternalTool.which("ip") else {
      throw Readiness.NotReady(description: "ip is not installed (make test installs iproute2)")
    }
    return try RunningProcess(ip, exec(arguments))
  }

  deinit {
    _ = try? ExternalTool.run("ip", ["netns", "del", name])
    try? FileManager.default.removeItem(atPath: "/etc/netns/\(name)")
  }
}
