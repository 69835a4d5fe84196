import Audit
import Foundation

/// The man page and the shell completions, written from the command tree `--help` is written
/// from: one source, so they cannot drift from it.
package enum CommandReference {
  /// Every command of the tree with its path ("tunnelvision session start"), depth first.
  static func commands(_ root: CommandDefinition) -> [(path: [String], command: CommandDefinition)]
  {
    var out: [([String], CommandDefinition)] = []
    func walk(_ command: CommandDefinition, _ path: [String]) {
      out.append((path, command))
      for sub in command.subcommands { walk(sub, path + [sub.name]) }
    }
    walk(root, [root.name])
    return out
  }

  /// Whether an option's value is a file or a directory (completed as paths).
  static func takesPath(_ option: OptionDefinition) -> Bool {
    ["file", "dir", "directory", "path"].contains(option.valueName ?? "")
  }

  // MARK: The man page

  /// Text as roff reads it: backslashes and hyphens escaped, no line starting with a control
  /// character.
  static func roff(_ text: String) -> String {
    var escaped = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": escaped += "\\e"
      case "-": escaped += "\\-"
      case _ where scalar.value > 127:
        // Outside ASCII, by code point: troff reads its input as Latin-1 otherwise.
        let hex = String(scalar.value, radix: 16, uppercase: true)
        escaped += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped.split(separator: "\n", omittingEmptySubsequences: false).map {
      $0.hasPrefix(".") || $0.hasPrefix("'") ? "\\&" + $0 : String($0)
    }.joined(separator: "\n")
  }

  package static func manual(
    _ root: CommandDefinition, global: [OptionDefinition], environment: [(String, String)]
  ) -> String {
    let name = root.name
    var out = """
      .TH \(name.uppercased()) 1 "" "\(name) \(ToolVersion.current)" "User Commands"
      .SH NAME
      \(name) \\- \(roff(root.abstract))
      .SH SYNOPSIS
      .B \(name)
      .RI [ options ] " command " [ arguments ]
      .SH DESCRIPTION
      \(roff(root.abstract + (root.discussion.map { " " + $0 } ?? "")))
      .SH GLOBAL OPTIONS

      """
    for option in root.options + global { out += item(option) }
    out += ".TP\n.BR \\-h \", \" \\-\\-help\n\(roff(ArgumentParser.helpOption.help))\n"
    out += ".SH COMMANDS\n"
    for (path, command) in commands(root).dropFirst() {
      out += ".SS \"\(roff(path.dropFirst().joined(separator: " ")))\"\n"
      out += ".B \(roff(ArgumentParser.usageLine(command, path: path)))\n.PP\n"
      out += roff(command.abstract) + "\n"
      if let discussion = command.discussion { out += ".PP\n" + roff(discussion) + "\n" }
      for argument in command.arguments {
        out += ".TP\n.I \(roff(argument.name))\n\(roff(argument.help))\n"
      }
      for option in command.options { out += item(option) }
    }
    out += ".SH ENVIRONMENT\n"
    for (variable, meaning) in environment { out += ".TP\n.B \(variable)\n\(roff(meaning))\n" }
    out += """
      .SH EXIT STATUS
      0 on success, 1 when an operation is refused (a sentence on standard error says why), 2 on a usage error.
      .SH SEE ALSO
      .BR tcpdump (8),
      .BR tshark (1),
      .BR mitmdump (1)

      """
    return out
  }

  static func item(_ option: OptionDefinition) -> String {
    let short = option.short.map { "\\-\($0) \", \" " } ?? ""
    let value = option.valueName.map { " \" <\(roff($0))>\"" } ?? ""
    return ".TP\n.BR \(short)\\-\\-\(roff(option.name))\(value)\n\(roff(option.help))\n"
  }

  // MARK: Completions

  /// The words a position after `path` may take: its subcommands, then its options.
  static func words(_ path: [String], _ command: CommandDefinition, global: [OptionDefinition])
    -> [String]
  {
    command.subcommands.map(\.name)
      + (command.options + global).flatMap {
        ["--\($0.name)"] + ($0.short.map { ["-\($0)"] } ?? [])
      }
      + ["--help"]
  }

  package static func completion(
    shell: String, _ root: CommandDefinition, global: [OptionDefinition]
  ) -> String? {
    let all = commands(root)
    let pathOptions = Set(
      all.flatMap { $0.command.options + global }.filter(takesPath).map { "--" + $0.name })
    let valued = Set(
      all.flatMap { $0.command.options + global }.filter { $0.valueName != nil }.map {
        "--" + $0.name
      })
    let subcommandNames = Set(all.flatMap { $0.command.subcommands.map(\.name) })
    // A case a command path: its words, as the shell's `action` offers them.
    func cases(_ action: (String) -> String) -> String {
      all.map { path, command in
        "    \"\(path.dropFirst().joined(separator: " "))\") "
          + action(words(path, command, global: global).joined(separator: " ")) + " ;;\n"
      }.joined()
    }
    switch shell {
    case "bash":
      let cases = cases { "words=\"\($0)\"" }
      return """
        # bash completion for \(root.name), written by '\(root.name) --generate-completion-script bash'.
        _\(root.name)() {
          local cur prev path="" word words i
          cur="${COMP_WORDS[COMP_CWORD]}"
          prev="${COMP_WORDS[COMP_CWORD-1]}"
          case "$prev" in
            \(pathOptions.sorted().joined(separator: "|"))) COMPREPLY=($(compgen -f -- "$cur")); return ;;
            \(valued.subtracting(pathOptions).sorted().joined(separator: "|"))) COMPREPLY=(); return ;;
          esac
          for ((i = 1; i < COMP_CWORD; i++)); do
            word="${COMP_WORDS[i]}"
            case "$word" in
              -*) ;;
              *) case " \(subcommandNames.sorted().joined(separator: " ")) " in
                   *" $word "*) path="${path:+$path }$word" ;;
                 esac ;;
            esac
          done
          case "$path" in
        \(cases)    *) words="" ;;
          esac
          COMPREPLY=($(compgen -W "$words" -- "$cur"))
        }
        complete -o default -F _\(root.name) \(root.name)

        """
    case "zsh":
      let cases = cases { "compadd -- \($0)" }
      return """
        #compdef \(root.name)
        # zsh completion for \(root.name), written by '\(root.name) --generate-completion-script zsh'.
        _\(root.name)() {
          local path_="" word i
          case "${words[CURRENT-1]}" in
            \(pathOptions.sorted().joined(separator: "|"))) _files; return ;;
            \(valued.subtracting(pathOptions).sorted().joined(separator: "|"))) return ;;
          esac
          for ((i = 2; i < CURRENT; i++)); do
            word="${words[i]}"
            case " \(subcommandNames.sorted().joined(separator: " ")) " in
              *" $word "*) path_="${path_:+$path_ }$word" ;;
            esac
          done
          case "$path_" in
        \(cases)  esac
        }
        _\(root.name) "$@"

        """
    case "fish":
      return fishCompletion(root, all, global: global)
    default:
      return nil
    }
  }

  /// fish's script: a `complete` line per subcommand and option, under the condition that its
  /// command's words were typed.
  static func fishCompletion(
    _ root: CommandDefinition, _ all: [(path: [String], command: CommandDefinition)],
    global: [OptionDefinition]
  ) -> String {
    var out =
      "# fish completion for \(root.name), written by '\(root.name) --generate-completion-script fish'.\n"
    out += "complete -c \(root.name) -f\n"
    for (path, command) in all {
      let parents = Array(path.dropFirst())
      let children = command.subcommands.map(\.name)
      var condition = parents.isEmpty ? "__fish_use_subcommand" : ""
      if !parents.isEmpty {
        condition = parents.map { "__fish_seen_subcommand_from \($0)" }.joined(
          separator: "; and ")
        if !children.isEmpty {
          condition += "; and not __fish_seen_subcommand_from \(children.joined(separator: " "))"
        }
      }
      for sub in command.subcommands {
        out +=
          "complete -c \(root.name) -n '\(condition)' -a \(sub.name) -d \(fishQuoted(sub.abstract))\n"
      }
      for option in command.options + (parents.isEmpty ? global : []) {
        out += "complete -c \(root.name) -n '\(condition)' -l \(option.name)"
        if let short = option.short { out += " -s \(short)" }
        if option.valueName != nil { out += takesPath(option) ? " -r -F" : " -r" }
        out += " -d \(fishQuoted(option.help))\n"
      }
    }
    return out
  }

  static func fishQuoted(_ text: String) -> String {
    let first = text.split(separator: ".", maxSplits: 1).first.map(String.init) ?? text
    return "'"
      + first.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
        of: "'", with: "\\'") + "'"
  }
}
