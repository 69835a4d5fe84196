import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Crypto
import Foundation
import ReportPDF

/// A value an option or an argument takes, read from its word on the command line
/// (swift-argument-parser's ExpressibleByArgument).
package protocol ArgumentValue: Sendable {
  init?(argument: String)
  /// What the word must be, for the usage error: "a number".
  static var expectation: String { get }
}

extension String: ArgumentValue {
  package init?(argument: String) { self = argument }
  package static var expectation: String { "text" }
}

extension Int: ArgumentValue {
  package init?(argument: String) { self.init(argument) }
  package static var expectation: String { "a whole number" }
}

extension Double: ArgumentValue {
  package init?(argument: String) {
    guard let value = Double(argument), value.isFinite else { return nil }
    self = value
  }
  package static var expectation: String { "a number" }
}

/// A path: any text but none at all (an empty --store or -o would mean somewhere unsaid).
package struct PathArgument: ArgumentValue {
  package let text: String
  package init?(argument: String) {
    guard !argument.isEmpty else { return nil }
    text = argument
  }
  package static var expectation: String { "a path" }
}

/// A session's id: digits only (Int64 reads "+3" as 3, which names no session as typed).
package struct SessionID: ArgumentValue {
  package let value: Int64
  package init?(argument: String) {
    guard argument.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int64(argument) else {
      return nil
    }
    self.value = value
  }
  package static var expectation: String { "a session's id, a number" }
}

/// A positive whole number, with "_" allowed between digits (1_000_000).
package struct PositiveCount: ArgumentValue {
  package let value: Int
  package init?(argument: String) {
    guard let value = Int(argument.replacingOccurrences(of: "_", with: "")), value > 0 else {
      return nil
    }
    self.value = value
  }
  package static var expectation: String { "a positive whole number" }
}

/// An IPv4 or IPv6 address, as inet_pton reads one.
package struct DeviceAddress: ArgumentValue {
  package let text: String
  package init?(argument: String) {
    var v4 = in_addr()
    var v6 = in6_addr()
    guard inet_pton(AF_INET, argument, &v4) == 1 || inet_pton(AF_INET6, argument, &v6) == 1
    else { return nil }
    text = argument
  }
  package static var expectation: String { "an IPv4 or IPv6 address" }
}

/// A certificate scenario, by its word (`not-installed`, `user`, `system`, `wrong-host`, `expired`).
extension CertificateScenario: ArgumentValue {
  package init?(argument: String) {
    guard let scenario = Self.allCases.first(where: { $0.argument == argument }) else {
      return nil
    }
    self = scenario
  }
  package static var expectation: String {
    "one of " + allCases.map(\.argument).joined(separator: ", ")
  }
}

extension TestDataCategory: ArgumentValue {
  package init?(argument: String) { self.init(rawValue: argument) }
  package static var expectation: String {
    "one of " + allCases.map(\.rawValue).joined(separator: ", ")
  }
}

/// A connection's status, by its name in the documents.
extension TLSInspectionStatus: ArgumentValue {
  package init?(argument: String) {
    guard let status = Self.allCases.first(where: { $0.name == argument }) else { return nil }
    self = status
  }
  package static var expectation: String {
    "one of " + allCases.map(\.name).joined(separator: ", ")
  }
}

/// TCP or UDP: the protocols a connection of the history is listed by.
package struct ListedProtocol: ArgumentValue {
  package let number: IPProtocolNumber
  package init?(argument: String) {
    switch argument {
    case "tcp": number = .tcp
    case "udp": number = .udp
    default: return nil
    }
  }
  package static var expectation: String { "tcp or udp" }
}

/// File permissions in octal, as chmod takes them: 600, 0640.
package struct FileMode: ArgumentValue {
  package let value: mode_t
  package init?(argument: String) {
    let digits =
      argument.hasPrefix("0") && argument.count > 1 ? argument.dropFirst() : argument[...]
    guard (1...3).contains(digits.count), let value = mode_t(digits, radix: 8) else { return nil }
    self.value = value
  }
  package static var expectation: String { "permissions in octal, such as 600 or 640" }
  /// Readable and writable by the user alone: a health app's traffic is nobody else's.
  package static let `private` = FileMode(argument: "600")!
}

/// An option that takes a value, declared once: its definition in the command's help and how
/// its value is read. The parser checks each value as it reads it (a usage error, before the
/// command runs).
package struct OptionKey<Value: ArgumentValue> {
  package let definition: OptionDefinition

  package init(
    _ name: String, _ valueName: String, short: Character? = nil, _ help: String,
    repeatable: Bool = false
  ) {
    var definition = OptionDefinition.value(
      name, valueName, short: short, help, repeatable: repeatable)
    definition.expectation = Value.self == String.self ? nil : Value.expectation
    definition.accepts = { Value(argument: $0) != nil }
    self.definition = definition
  }
}

/// An option without a value.
package struct FlagKey {
  package let definition: OptionDefinition
  package init(_ name: String, _ help: String) { definition = .flag(name, help) }
}

/// A positional argument, declared once.
package struct ArgumentKey<Value: ArgumentValue> {
  package let definition: ArgumentDefinition
  package init(_ name: String, _ help: String, optional: Bool = false) {
    var definition = ArgumentDefinition(name: name, help: help, optional: optional)
    definition.expectation = Value.self == String.self ? nil : Value.expectation
    definition.accepts = { Value(argument: $0) != nil }
    self.definition = definition
  }
}

extension ParsedCommand {
  /// The option's value (the last given), nil when it was not given.
  package func value<V>(_ key: OptionKey<V>) throws -> V? {
    try values(key).last
  }

  /// Every value given, in order.
  package func values<V>(_ key: OptionKey<V>) throws -> [V] {
    try all(key.definition.name).map { word in
      guard let value = V(argument: word) else {
        throw UsageError(
          message:
            "The value “\(word)” of '\(key.definition.synopsis)' is not \(V.expectation)",
          path: path)
      }
      return value
    }
  }

  package func flag(_ key: FlagKey) -> Bool { flag(key.definition.name) }

  /// A required argument: the parser has made sure it is there.
  package func argument<V>(_ key: ArgumentKey<V>) throws -> V {
    guard let value = try argumentIfGiven(key) else {
      throw UsageError(message: "Missing expected argument '<\(key.definition.name)>'", path: path)
    }
    return value
  }

  package func argumentIfGiven<V>(_ key: ArgumentKey<V>) throws -> V? {
    guard let index = argumentIndex(key.definition.name), let word = argument(index) else {
      return nil
    }
    guard let value = V(argument: word) else {
      throw UsageError(
        message: "The argument “\(word)” for '<\(key.definition.name)>' is not \(V.expectation)",
        path: path)
    }
    return value
  }
}

/// What several commands take, declared once.
package enum CommonKeys {
  package static let ca = OptionKey<CertificateScenario>(
    "ca", "scenario",
    "How the proxy's certificate stood with the device: not-installed (its CA not on the device), user (in Android's user store), system (trusted by the system), wrong-host or expired (a certificate for another name, or expired, from a trusted CA). Unstated, no outcome is assessed."
  )

  /// The scenario `--ca` states, or `--ca-trusted` (the system trusts the CA); both only when
  /// they agree.
  package static func scenario(_ parsed: ParsedCommand, caTrusted: FlagKey) throws
    -> CertificateScenario?
  {
    let stated = try parsed.value(ca)
    if parsed.flag(caTrusted) {
      guard stated == nil || stated == .systemTrust else {
        throw UsageError(
          message: "--ca-trusted is --ca system: give one scenario, not two", path: parsed.path)
      }
      return .systemTrust
    }
    return stated
  }

  package static let json = FlagKey("json", "Print JSON instead of text.")
  package static let project = ArgumentKey<String>("project", "The project's exact name or its id.")
  package static let session = ArgumentKey<SessionID>("session", "The session's id.")
  package static let notes = OptionKey<String>("notes", "text", "Notes kept with the session.")
  package static let version = OptionKey<String>(
    "version", "version", "The audited release's version.")
  package static let build = OptionKey<String>(
    "build", "build", "The audited release's build number.")
  package static let yes = FlagKey(
    "yes", "Delete without asking (needed when no terminal can be asked).")
}

extension ParsedCommand {
  package var json: Bool { flag(CommonKeys.json) }
}
