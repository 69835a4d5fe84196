import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Crypto
import FlowStore
import Foundation
import ReportPDF
import SystemCalls

/// The `tunnelvision` command tree, and the one place errors become sentences and exit codes:
/// 0 success, 1 a refused operation, 2 a usage error.
public enum TunnelVisionCommand {
  public static let exitSuccess: Int32 = 0
  public static let exitRefused: Int32 = 1
  public static let exitUsage: Int32 = 2

  static let store = OptionKey<PathArgument>(
    "store", "dir",
    "The store directory (default: $TUNNELVISION_STORE, else $XDG_DATA_HOME/tunnelvision, else ~/.local/share/tunnelvision)."
  )

  static let global: [OptionDefinition] = [store.definition]

  /// The variables the tool reads, for the man page.
  static let environment: [(String, String)] = [
    (
      "TUNNELVISION_STORE",
      "The store directory when --store is not given (else $XDG_DATA_HOME/tunnelvision, else ~/.local/share/tunnelvision)."
    ),
    ("XDG_DATA_HOME", "Where the default store lies when TUNNELVISION_STORE is not set."),
    (
      "TUNNELVISION_FONTS",
      "The directory of the report's fonts, when they are neither beside the executable nor in ../share/tunnelvision/Fonts."
    ),
  ]

  static var root: CommandDefinition {
    CommandDefinition(
      name: "tunnelvision",
      abstract: "Turn an app's recorded network traffic into evidence for BSI TR-03161.",
      discussion:
        "A store holds connections and packets, and the audit model: projects, their sessions and the markers placed in them.",
      options: [
        .flag("version", "Show the version."),
        .flag("generate-manual", "Print the man page (roff), written from the commands' help."),
        .value(
          "generate-completion-script", "shell",
          "Print the completion script for bash, zsh or fish, written from the commands' help."),
      ],
      subcommands: [
        ProjectCommands.definition, SessionCommands.definition, MarkCommand.definition,
        AssessmentCommands.findings, AssessmentCommands.compare,
        StorageCommand.definition, SampleCommand.definition, ExportCommands.export,
        ExportCommands.report, ExportCommands.verify, ImportCommand.definition,
        RecordCommand.definition, InspectionCommands.addon,
        InspectionCommands.scenario, HistoryCommands.flows, HistoryCommands.exchanges,
        HistoryCommands.flow, HistoryCommands.packet, CaptureCommands.captures,
        CaptureCommands.history, ScanCommand.definition,
      ],
      // Alone, it answers --version, whatever global options come with it (as git does).
      run: { parsed, context in
        if parsed.flag("generate-manual") {
          return context.standardOutput(
            CommandReference.manual(Self.root, global: global, environment: environment))
        }
        if let shell = parsed.value("generate-completion-script") {
          guard let script = CommandReference.completion(shell: shell, Self.root, global: global)
          else {
            throw UsageError(
              message: "--generate-completion-script takes bash, zsh or fish, not '\(shell)'",
              path: parsed.path)
          }
          return context.standardOutput(script)
        }
        guard parsed.flag("version") else {
          throw UsageError(message: "Missing subcommand", path: parsed.path)
        }
        context.print("tunnelvision \(ToolVersion.current)")
      })
  }

  /// Runs one command line (without the program name) and returns the exit code. Another
  /// program's root (the benchmark's) runs through the same parser, errors and exit codes.
  public static func run(_ arguments: [String], context: CommandContext) -> Int32 {
    run(arguments, context: context, root: root)
  }

  package static func run(_ arguments: [String], context: CommandContext, root: CommandDefinition)
    -> Int32
  {
    do {
      let (command, parsed, help) = try ArgumentParser.parse(arguments, root: root, global: global)
      if help {
        context.standardOutput(ArgumentParser.help(command, path: parsed.path, global: global))
        return exitSuccess
      }
      MallocArenas.limit(to: command.mallocArenas)
      if let bytes = command.mappedApartFrom { MallocArenas.mapApart(from: bytes) }
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
      context.standardError("Error: " + sentence(for: error, store: context.opened.store) + "\n")
      return exitRefused
    }
  }

  /// The sentence for what the command met; a session in the way is named with its project when
  /// the command had opened the store.
  static func sentence(for error: Error, store: FlowStore?) -> String {
    switch error {
    case let refused as RefusedError:
      return refused.message
    case let rule as AuditStoreError:
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
}
