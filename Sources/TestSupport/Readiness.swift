import Foundation

/// Waiting on the thing itself — a port that answers, a line printed, a file that appears, a
/// capture that holds the end of every connection — with a deadline, never for a fixed time.
public enum Readiness {
  public struct NotReady: Error, CustomStringConvertible {
    public let description: String
    public init(description: String) { self.description = description }
  }

  /// Polls `condition` every 10 ms until it holds; throws, naming `what`, when `timeout` passes
  /// first (or when the condition throws: a process that ended).
  public static func wait(
    _ what: String, timeout: TimeInterval = 20, _ condition: () throws -> Bool
  ) throws {
    let until = Date().addingTimeInterval(timeout)
    while true {
      if try condition() { return }
      guard Date() < until else {
        throw NotReady(description: "\(what) did not happen within \(timeout) s")
      }
      usleep(10_000)
    }
  }

  /// Whether a TCP socket listens on `port` in the network namespace of `process`: its
  /// /proc/PID/net/tcp and tcp6 (state 0A is LISTEN).
  public static func isListening(process: pid_t, port: UInt16) -> Bool {
    let hex = String(format: ":%04X", port)
    for table in ["tcp", "tcp6"] {
      guard let text = try? String(contentsOfFile: "/proc/\(process)/net/\(table)", encoding: .utf8)
      else { continue }
      for line in text.split(separator: "\n").dropFirst() {
        let fields = line.split(separator: " ")
        guard fields.count > 3 else { continue }
        if fields[1].hasSuffix(hex) && fields[3] == "0A" { return true }
      }
    }
    return false
  }

  /// Whether `process` has taken each of `signals` (a handler of its own: /proc/PID/status's
  /// SigCgt).
  public static func catches(_ signals: [Int32], process: pid_t) -> Bool {
    guard let status = try? String(contentsOfFile: "/proc/\(process)/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
      let mask = UInt64(
        line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16)
    else { return false }
    return signals.allSatisfy { mask & (1 << UInt64($0 - 1)) != 0 }
  }

  /// The complete lines in a file so far (0 when it is not there).
  public static func lines(in path: String) -> Int {
    guard let data = FileManager.default.contents(atPath: path) else { return 0 }
    return data.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
  }

  /// Waits until the file at `path` holds at least `count` complete lines (that contain `text`,
  /// when given: the inspection log's lines of one type).
  public static func waitForLines(
    _ count: Int, containing text: String? = nil, in path: String, timeout: TimeInterval = 20
  ) throws {
    let what = text.map { " with \($0)" } ?? ""
    try wait(
      "\(count) lines\(what) in \((path as NSString).lastPathComponent)", timeout: timeout
    ) {
      guard let text else { return lines(in: path) >= count }
      let contents = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
      return contents.split(separator: "\n").filter { $0.contains(text) }.count >= count
    }
  }

  /// What a connection line of the inspection log (format 2) holds: what waits for its outcomes.
  public static let connectionLine = "\"type\": \"connection\""

  /// Waits until the file at `path` exists.
  public static func waitForFile(_ path: String, timeout: TimeInterval = 20) throws {
    try wait("\((path as NSString).lastPathComponent) appearing", timeout: timeout) {
      FileManager.default.fileExists(atPath: path)
    }
  }

  /// Waits until the pcap files at `paths` (as they are at each look) hold at least
  /// `connections` TCP connections and the end of each (FIN both ways, or a RST): what a capture
  /// must hold before it is stopped.
  public static func waitForClosedConnections(
    _ connections: Int, datagrams: Int = 0, in paths: () -> [String], timeout: TimeInterval = 20
  ) throws {
    var seen = CaptureClosings.Summary()
    do {
      try wait(
        "\(connections) TCP connections opened and closed and \(datagrams) UDP datagrams in the capture",
        timeout: timeout
      ) {
        seen = CaptureClosings.read(paths())
        return seen.opened >= connections && seen.open == 0 && seen.datagrams >= datagrams
      }
    } catch let error as NotReady {
      throw NotReady(
        description:
          "\(error.description) (seen: \(seen.opened) opened, \(seen.open) open \(seen.openConnections), \(seen.datagrams) datagrams)"
      )
    }
  }
}
