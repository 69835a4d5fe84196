import SystemCalls

/// A small command tree in the shape of swift-argument-parser: OVERVIEW / USAGE / ARGUMENTS /
/// OPTIONS / SUBCOMMANDS help, `Error: … Usage: …` on a usage error.
package struct OptionDefinition {
  package let name: String
  package let valueName: String?  // nil: a flag
  package let help: String
  package var repeatable = false
  package var short: Character? = nil
  /// What a value must be ("a number"), and whether a word is one: checked as it is parsed.
  package var expectation: String? = nil
  package var accepts: (@Sendable (String) -> Bool)? = nil

  package static func flag(_ name: String, _ help: String) -> OptionDefinition {
    OptionDefinition(name: name, valueName: nil, help: help)
  }
  package static func value(
    _ name: String, _ valueName: String, short: Character? = nil, _ help: String,
    repeatable: Bool = false
  ) -> OptionDefinition {
    OptionDefinition(
      name: name, valueName: valueName, help: help, repeatable: repeatable, short: short)
  }

  package var synopsis: String {
    let base = "--\(name)" + (valueName.map { " <\($0)>" } ?? "")
    return repeatable ? base + " ..." : base
  }
}

package struct ArgumentDefinition {
  package let name: String
  package let help: String
  package var optional = false
  /// What the word must be, and whether it is one: checked as the command line is parsed.
  package var expectation: String? = nil
  package var accepts: (@Sendable (String) -> Bool)? = nil
}

package struct CommandDefinition {
  package let name: String
  package let abstract: String
  package var discussion: String? = nil
  /// The usage line's tail when the generated one would not say enough (alternatives, groups).
  package var usage: String? = nil
  package var arguments: [ArgumentDefinition] = []
  package var options: [OptionDefinition] = []
  package var subcommands: [CommandDefinition] = []
  package var run: ((ParsedCommand, CommandContext) throws -> Void)? = nil
  /// The malloc arenas the command's threads share (`MallocArenas`): one, so that memory freed on
  /// one core is reused on the other, unless the command's threads allocate at once and its memory
  /// is not held to a bound.
  package var mallocArenas = 1
  /// The size from which the command's allocations are mapped apart from the heap
  /// (`MallocArenas.mapApart`); nil: glibc's own threshold, which rises as large blocks are freed.
  package var mappedApartFrom: Int? = MallocArenas.mappedApartFrom

  package init(
    name: String, abstract: String, discussion: String? = nil, usage: String? = nil,
    arguments: [ArgumentDefinition] = [], options: [OptionDefinition] = [],
    subcommands: [CommandDefinition] = [],
    run: ((ParsedCommand, CommandContext) throws -> Void)? = nil
  ) {
    self.name = name
    self.abstract = abstract
    self.discussion = discussion
    self.usage = usage
    self.arguments = arguments
    self.options = options
    self.subcommands = subcommands
    self.run = run
  }
}

/// What the command line said to one command.
package struct ParsedCommand {
  package let path: [String]
  /// The command's arguments' names, in order: a key finds its place by name.
  package var argumentNames: [String] = []
  package var values: [String: [String]] = [:]
  package var flags: Set<String> = []
  package var arguments: [String] = []

  package func value(_ name: String) -> String? { values[name]?.last }
  package func all(_ name: String) -> [String] { values[name] ?? [] }
  package func flag(_ name: String) -> Bool { flags.contains(name) }
  package func argument(_ index: Int) -> String? {
    index < arguments.count ? arguments[index] : nil
  }
  package func argumentIndex(_ name: String) -> Int? { argumentNames.firstIndex(of: name) }
}

/// A mistake in the command line: exit 2, with the usage of the command it was made in.
package struct UsageError: Error {
  package let message: String
  package let path: [String]
  package init(message: String, path: [String]) {
    self.message = message
    self.path = path
  }
}

/// An operation the tool refused: exit 1, one sentence that says what to do.
package struct RefusedError: Error {
  package let message: String
  package init(_ message: String) { self.message = message }
}

package enum ArgumentParser {
  package static let helpOption = OptionDefinition.flag("help", "Show help information.")

  /// Finds the command the words name and parses the rest for it.
  package static func parse(_ words: [String], root: CommandDefinition, global: [OptionDefinition])
    throws -> (command: CommandDefinition, parsed: ParsedCommand, help: Bool)
  {
    var command = root
    var path = [root.name]
    var index = 0
    // Walk down the tree while the next word names a subcommand (`help X Y` reads as `X Y --help`).
    var helpRequested = false
    if words.first == "help" && !root.subcommands.isEmpty {
      helpRequested = true
      index = 1
    }
    // Global options may come before the subcommand (`tunnelvision --store DIR project list`).
    var leading: [String] = []
    while index < words.count {
      let word = words[index]
      if let option = global.first(where: {
        word == "--\($0.name)" || word.hasPrefix("--\($0.name)=")
      }) {
        leading.append(word)
        if option.valueName != nil && !word.contains("="), index + 1 < words.count {
          leading.append(words[index + 1])
          index += 1
        }
        index += 1
        continue
      }
      guard let next = command.subcommands.first(where: { $0.name == word }) else { break }
      command = next
      path.append(next.name)
      index += 1
    }
    var parsed = ParsedCommand(path: path)
    let words = leading + words[index...]
    index = 0
    let options = command.options + global
    var onlyArguments = false
    while index < words.count {
      let word = words[index]
      index += 1
      if onlyArguments || !word.hasPrefix("-") || word == "-" {
        parsed.arguments.append(word)
        continue
      }
      if word == "--" {
        onlyArguments = true
        continue
      }
      if word == "--help" || word == "-h" {
        helpRequested = true
        continue
      }
      var name: String
      if word.hasPrefix("--") {
        name = String(word.dropFirst(2))
      } else if word.count == 2, let option = options.first(where: { $0.short == word.last }) {
        name = option.name
      } else {
        throw UsageError(message: "Unknown option '\(word)'", path: path)
      }
      var inlineValue: String?
      if let eq = name.firstIndex(of: "=") {
        inlineValue = String(name[name.index(after: eq)...])
        name = String(name[..<eq])
      }
      guard let option = options.first(where: { $0.name == name }) else {
        throw UsageError(message: "Unknown option '--\(name)'", path: path)
      }
      if option.valueName == nil {
        if inlineValue != nil {
          throw UsageError(message: "The flag '--\(name)' takes no value", path: path)
        }
        parsed.flags.insert(name)
        continue
      }
      let value: String
      if let inlineValue {
        value = inlineValue
      } else if index < words.count {
        value = words[index]
        index += 1
      } else {
        throw UsageError(
          message: "Missing value for '--\(name) <\(option.valueName!)>'", path: path)
      }
      if let accepts = option.accepts, !accepts(value) {
        throw UsageError(
          message:
            "The value “\(value)” of '\(option.synopsis)' is not \(option.expectation ?? "one it takes")",
          path: path)
      }
      if !option.repeatable, parsed.values[name] != nil {
        throw UsageError(message: "'--\(name)' was given more than once", path: path)
      }
      parsed.values[name, default: []].append(value)
    }
    parsed.argumentNames = command.arguments.map(\.name)
    try check(parsed.arguments, of: command, path: path, help: helpRequested)
    return (command, parsed, helpRequested)
  }

  /// The arguments against what the command takes: a word that names no subcommand, a value the
  /// argument does not take; unless help was asked for, a missing subcommand and too few or too
  /// many arguments.
  static func check(
    _ arguments: [String], of command: CommandDefinition, path: [String], help: Bool
  ) throws {
    // A word that names no subcommand is an error, help asked for or not (`project create --help`).
    if command.run == nil || (!command.subcommands.isEmpty && command.arguments.isEmpty),
      let first = arguments.first
    {
      throw UsageError(message: "Unknown subcommand '\(first)'", path: path)
    }
    for (word, argument) in zip(arguments, command.arguments) {
      if let accepts = argument.accepts, !accepts(word) {
        throw UsageError(
          message:
            "The argument “\(word)” for '<\(argument.name)>' is not \(argument.expectation ?? "one it takes")",
          path: path)
      }
    }
    if help { return }
    if command.run == nil { throw UsageError(message: "Missing subcommand", path: path) }
    let required = command.arguments.filter { !$0.optional }.count
    if arguments.count < required {
      let missing = command.arguments[arguments.count]
      throw UsageError(message: "Missing expected argument '<\(missing.name)>'", path: path)
    }
    if arguments.count > command.arguments.count {
      throw UsageError(
        message: "Unexpected argument '\(arguments[command.arguments.count])'", path: path)
    }
  }

  package static func find(_ path: [String], in root: CommandDefinition) -> CommandDefinition {
    var command = root
    for name in path.dropFirst() {
      guard let next = command.subcommands.first(where: { $0.name == name }) else { break }
      command = next
    }
    return command
  }

  package static func usageLine(_ command: CommandDefinition, path: [String]) -> String {
    var line = path.joined(separator: " ")
    if let usage = command.usage { return line + " " + usage }
    if !command.subcommands.isEmpty && command.run == nil { return line + " <subcommand>" }
    for argument in command.arguments {
      line += argument.optional ? " [<\(argument.name)>]" : " <\(argument.name)>"
    }
    for option in command.options { line += " [\(option.synopsis)]" }
    return line
  }

  package static func help(_ command: CommandDefinition, path: [String], global: [OptionDefinition])
    -> String
  {
    var out = "OVERVIEW: \(command.abstract)\n"
    if let discussion = command.discussion { out += "\n" + discussion + "\n" }
    out += "\nUSAGE: \(usageLine(command, path: path))\n"
    func row(_ left: String, _ right: String) -> String {
      let column = 28
      if left.count + 2 >= column {
        return "  \(left)\n" + String(repeating: " ", count: column) + right + "\n"
      }
      return "  " + left + String(repeating: " ", count: column - 2 - left.count) + right + "\n"
    }
    if !command.arguments.isEmpty {
      out += "\nARGUMENTS:\n"
      for argument in command.arguments { out += row("<\(argument.name)>", argument.help) }
    }
    out += "\nOPTIONS:\n"
    for option in command.options + global {
      out += row(
        (option.short.map { "-\($0), " } ?? "") + "--\(option.name)"
          + (option.valueName.map { " <\($0)>" } ?? ""), option.help)
    }
    out += row("-h, --help", helpOption.help)
    if !command.subcommands.isEmpty {
      out += "\nSUBCOMMANDS:\n"
      for sub in command.subcommands { out += row(sub.name, sub.abstract) }
      out += "\n  See '\(path.joined(separator: " ")) <subcommand> --help' for detailed help.\n"
    }
    return out
  }
}
