import Foundation

/// A process started and not yet waited for, its output gathered as it runs: a server, a proxy, a
/// capture or the recorder a test talks to, ended with a signal.
public final class RunningProcess: @unchecked Sendable {
  public let process = Process()
  private let out = Pipe(), err = Pipe()
  private let lock = NSLock()
  private var outData = Data(), errData = Data()

  public init(_ path: String, _ arguments: [String], input: Any? = nil) throws {
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.standardOutput = out
    process.standardError = err
    if let input { process.standardInput = input }
    for (pipe, isOut) in [(out, true), (err, false)] {
      pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
        let data = handle.availableData
        guard let self else { return }
        self.lock.lock()
        if isOut { self.outData += data } else { self.errData += data }
        self.lock.unlock()
      }
    }
    try process.run()
  }

  /// Its id: `ip netns exec` runs the command in its own place, so this is the command's.
  public var id: pid_t { process.processIdentifier }

  /// What it has written to standard output and standard error so far.
  public var outputSoFar: (output: String, error: String) {
    lock.lock()
    defer { lock.unlock() }
    return (String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
  }

  /// Waits until its standard error (or output) holds `text`; fails naming what it printed.
  public func waitForOutput(containing text: String, timeout: TimeInterval = 20) throws {
    try Readiness.wait(
      "\(process.executableURL?.lastPathComponent ?? "") printing “\(text)”",
      timeout: timeout
    ) {
      guard process.isRunning else {
        throw Readiness.NotReady(
          description:
            "\(process.arguments?.joined(separator: " ") ?? "") ended before printing “\(text)”: \(outputSoFar.error)"
        )
      }
      let (output, error) = outputSoFar
      return output.contains(text) || error.contains(text)
    }
  }

  /// Waits until it listens on TCP `port` (in its own network namespace).
  public func waitForListening(on port: UInt16, timeout: TimeInterval = 20) throws {
    try Readiness.wait(
      "\(process.executableURL?.lastPathComponent ?? "") listening on port \(port)",
      timeout: timeout
    ) {
      guard process.isRunning else {
        throw Readiness.NotReady(
          description:
            "\(process.arguments?.joined(separator: " ") ?? "") ended before it listened on \(port): \(outputSoFar.error)"
        )
      }
      return Readiness.isListening(process: id, port: port)
    }
  }

  /// Sends the signal and waits for the end, at most `seconds` before SIGKILL: status, standard
  /// output, standard error.
  @discardableResult
  public func end(_ signal: Int32 = SIGINT, within seconds: TimeInterval = 120) -> (
    status: Int32, output: String, error: String
  ) {
    if process.isRunning { kill(process.processIdentifier, signal) }
    // A process that does not end is ended, said in its error output: a test fails on it
    // rather than the suite waiting for ever.
    let deadline = Date().addingTimeInterval(seconds)
    while process.isRunning, Date() < deadline { usleep(10_000) }
    var killed = ""
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      killed =
        "\n(ended by the test with SIGKILL: it had not ended \(Int(seconds)) s after signal \(signal))"
    }
    process.waitUntilExit()
    // What was written before the end is read before the handlers are let go.
    for pipe in [out, err] {
      let rest = pipe.fileHandleForReading.readDataToEndOfFile()
      pipe.fileHandleForReading.readabilityHandler = nil
      lock.lock()
      if pipe === out { outData += rest } else { errData += rest }
      lock.unlock()
    }
    lock.lock()
    defer { lock.unlock() }
    return (
      process.terminationStatus, String(decoding: outData, as: UTF8.self),
      String(decoding: errData, as: UTF8.self) + killed
    )
  }
}
