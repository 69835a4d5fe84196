import Audit
import FlowStore
import Foundation

/// The `tunnelvision` command tree, and the one place errors become sentences and exit codes:
/// 0 success, 1 a refused operation, 2 a usage error.
public enum TunnelVisionCommand {
  public static let exitSuccess: Int32 = 0
  public static let exitRefused: Int32 = 1
  public static let exitUsage: Int32 = 2

  static let global: [OptionDefinition] = [
    .value(
      "store", "dir",
      "The store directory (default: $TUNNELVISION_STORE, else $XDG_DATA_HOME/tunnelvision, else ~/.local/share/tunnelvision)."
    )
  ]

  static var root: CommandDefinition {
    CommandDefinition(
      name: "tunnelvision",
      abstract: "Turn an app's recorded network traffic into evidence for BSI TR-03161.",
      discussion:
        "A store holds connections and packets, and the audit model: projects, their sessions and the markers placed in them.",
      subcommands: [
        ProjectCommands.definition, SessionCommands.definition, MarkCommand.definition,
        AssessmentCommands.findings, AssessmentCommands.compare,
        StorageCommand.definition, SampleCommand.definition, ExportCommands.export,
        ExportCommands.report, ExportCommands.verify, ImportCommand.definition,
        BenchCommand.definition,
      ])
  }

  /// Runs one command line (without the program name) and returns the exit code.
  public static func run(_ arguments: [String], context: CommandContext) -> Int32 {
    let root = self.root
    do {
      let (command, parsed, help) = try ArgumentParser.parse(arguments, root: root, global: global)
      if help {
        context.standardOutput(ArgumentParser.help(command, path: parsed.path, global: global))
        return exitSuccess
      }
      try command.run!(parsed, context)
      return exitSuccess
    } catch let error as UsageError {
      let command = ArgumentParser.find(error.path, in: root)
      context.standardError(
        """
        Error: \(error.message).
        Usage: \(ArgumentParser.usageLine(command, path: error.path))
          See '\(error.path.joined(separator: " ")) --help' for more information.

        """)
      return exitUsage
    } catch {
      context.standardError(
        "Error: " + sentence(for: error, arguments: arguments, context: context) + "\n")
      return exitRefused
    }
  }

  static func sentence(for error: Error, arguments: [String], context: CommandContext) -> String {
    switch error {
    case let refused as RefusedError:
      return refused.message
    case let rule as AuditStoreError:
      // Name the project of a session in the way, when the store can still be read.
      let store = try? FlowStore(
        directory: StoreLocation.resolve(
          option: storeOption(arguments), environment: context.environment))
      return AuditPresentation.sentence(for: rule) { id in
        guard let store, let session = try? store.auditSession(id: id) else { return nil }
        return (try? store.auditProject(id: session.projectID))?.name
      }
    case let store as FlowStoreError:
      return store.description
    default:
      return "\(error)"
    }
  }

  static func storeOption(_ arguments: [String]) -> String? {
    for (i, word) in arguments.enumerated() {
      if word.hasPrefix("--store=") { return String(word.dropFirst("--store=".count)) }
      if word == "--store", i + 1 < arguments.count { return arguments[i + 1] }
    }
    return nil
  }
}
