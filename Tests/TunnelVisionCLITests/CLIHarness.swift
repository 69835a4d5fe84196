import Foundation
import TestSupport
import TunnelVisionCLI

/// Runs commands in-process against a store in a temporary directory, with a clock the test sets.
final class CLIHarness: @unchecked Sendable {
  let directory = TemporaryDirectory("tunnelvision-cli")
  var now = Date(timeIntervalSince1970: 1_791_540_000)  // 2026-10-09T10:00:00Z
  private var out = ""
  private var err = ""
  private let lock = NSLock()

  var storePath: String { directory.url.appendingPathComponent("store").path }

  struct Result {
    let status: Int32
    let output: String
    let error: String
  }

  /// What the person at the terminal answers a yes-or-no question; nil: there is no terminal.
  var answer: Bool?
  private(set) var questions: [String] = []

  func context() -> CommandContext {
    CommandContext(
      // No installed tracker list: the goldens hold on a machine with or without one.
      environment: [
        "HOME": directory.url.path, "TUNNELVISION_STORE": storePath,
        "TUNNELVISION_SHARE_DIR": directory.url.appendingPathComponent("share").path,
      ],
      now: { [unowned self] in self.now }, timeZone: TimeZone(identifier: "Europe/Berlin")!,
      machine: MachineFacts(deviceModel: "Pixel 8", osVersion: "Android 15"),
      standardOutput: { [unowned self] text in self.lock.withLock { self.out += text } },
      standardError: { [unowned self] text in self.lock.withLock { self.err += text } },
      standardErrorIsTerminal: false,
      confirm: { [unowned self] question in
        self.lock.withLock { self.questions.append(question) }
        return self.answer
      })
  }

  @discardableResult
  func run(_ words: String..., advancing seconds: TimeInterval = 0) -> Result {
    run(words, advancing: seconds)
  }

  func run(_ words: [String], advancing seconds: TimeInterval = 0) -> Result {
    now = now.addingTimeInterval(seconds)
    lock.withLock {
      out = ""
      err = ""
    }
    let status = TunnelVisionCommand.run(words, context: context())
    return lock.withLock { Result(status: status, output: out, error: err) }
  }
}
