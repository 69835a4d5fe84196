import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Crypto
import FlowStore
import Foundation
import ReportPDF

/// Everything a command reads from the world, passed in: the tests run commands in-process
/// with a fixed clock, zone and machine, and capture what they print.
public struct CommandContext: Sendable {
  public var environment: [String: String]
  public var now: @Sendable () -> Date
  public var timeZone: TimeZone
  public var machine: MachineFacts
  /// Both show control characters as what they are (`TerminalText`): names read from captures
  /// and bundles pass through them.
  public var standardOutput: @Sendable (String) -> Void
  public var standardError: @Sendable (String) -> Void
  /// Standard error as it is, for the progress line alone (`progress`).
  private let rawStandardError: @Sendable (String) -> Void
  /// Progress is shown on standard error only when it is a terminal.
  public var standardErrorIsTerminal: Bool
  /// The store the command opened, if it opened one: what went wrong is told with it.
  let opened = OpenedStore()
  /// Asks the person at the terminal a yes-or-no question (nil: no one to ask, input is not a
  /// terminal); true only for an answer of y or yes.
  public var confirm: @Sendable (String) -> Bool?

  public init(
    environment: [String: String], now: @escaping @Sendable () -> Date, timeZone: TimeZone,
    machine: MachineFacts, standardOutput: @escaping @Sendable (String) -> Void,
    standardError: @escaping @Sendable (String) -> Void, standardErrorIsTerminal: Bool,
    confirm: @escaping @Sendable (String) -> Bool? = { _ in nil }
  ) {
    self.confirm = confirm
    self.environment = environment
    self.now = now
    self.timeZone = timeZone
    self.machine = machine
    self.standardOutput = { standardOutput(TerminalText.visible($0)) }
    self.standardError = { standardError(TerminalText.visible($0)) }
    rawStandardError = standardError
    self.standardErrorIsTerminal = standardErrorIsTerminal
  }

  /// The real process: its environment, clock, zone, machine, and file descriptors 1 and 2.
  public static func process() -> CommandContext {
    CommandContext(
      environment: ProcessInfo.processInfo.environment,
      now: { Date() },
      timeZone: TimeZone.current,
      machine: MachineFacts.read(),
      standardOutput: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
      standardError: { text in FileHandle.standardError.write(Data(text.utf8)) },
      standardErrorIsTerminal: isatty(2) == 1,
      confirm: { question in
        guard isatty(0) == 1, isatty(2) == 1 else { return nil }
        FileHandle.standardError.write(Data((TerminalText.visible(question) + " [y/N] ").utf8))
        let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased()
        return answer == "y" || answer == "yes"
      })
  }

  func print(_ text: String) { standardOutput(text.hasSuffix("\n") ? text : text + "\n") }

  /// The progress line on a terminal, written over the one before it (carriage return, erase to
  /// the end of the line); an empty text clears it.
  func progress(_ text: String) { rawStandardError("\r\u{1B}[K" + TerminalText.visible(text)) }
  package func printJSON(_ value: JSONValue) { standardOutput(value.serialized() + "\n") }
}

/// The one store a command run opens, kept for the sentence of an error it meets.
final class OpenedStore: @unchecked Sendable {
  var store: FlowStore?
}

/// What a session declares about the machine it was recorded on, read once per process.
public struct MachineFacts: Sendable, Hashable {
  public let deviceModel: String
  public let osVersion: String
  public init(deviceModel: String, osVersion: String) {
    self.deviceModel = deviceModel
    self.osVersion = osVersion
  }

  public static func read() -> MachineFacts {
    func firstLine(_ path: String) -> String? {
      guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
      let line = text.split(separator: "\n").first.map(String.init)?.trimmingCharacters(
        in: .whitespaces)
      return (line?.isEmpty ?? true) ? nil : line
    }
    var uts = utsname()
    uname(&uts)
    let machine = withUnsafeBytes(of: &uts.machine) {
      String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
    }
    let release = withUnsafeBytes(of: &uts.release) {
      String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
    }
    let product = firstLine("/sys/class/dmi/id/product_name")
    var osName = "Linux"
    if let osRelease = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8),
      let line = osRelease.split(separator: "\n").first(where: { $0.hasPrefix("PRETTY_NAME=") })
    {
      osName = line.dropFirst("PRETTY_NAME=".count).trimmingCharacters(
        in: CharacterSet(charactersIn: "\""))
    }
    return MachineFacts(
      deviceModel: [product, machine].compactMap { $0 }.joined(separator: " "),
      osVersion: "\(osName), Linux \(release)")
  }
}
