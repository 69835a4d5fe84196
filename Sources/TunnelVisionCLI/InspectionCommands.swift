import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Crypto
import Foundation
import Import
import ReportLayout
import ReportPDF

enum InspectionCommands {
  static let output = OptionKey<PathArgument>(
    "output", "file", short: "o",
    "Where to write the addon (default: \(MitmproxyAddon.fileName) in this directory).")

  static var addon: CommandDefinition {
    CommandDefinition(
      name: "mitmproxy-addon",
      abstract: "Write the mitmproxy addon whose log 'import --inspection-log' joins to a capture.",
      discussion:
        "For mitmproxy 11: mitmdump -s \(MitmproxyAddon.fileName) --set tunnelvision_log=FILE. It appends a JSON line per client connection that attempted TLS with the proxy (format \(InspectionLog.format), docs/inspection.md).",
      options: [
        output.definition, ExportCommands.force.definition, ExportCommands.mode.definition,
      ],
      run: { parsed, context in
        let destination = URL(
          fileURLWithPath: try parsed.value(output)?.text ?? MitmproxyAddon.fileName)
        try OutputTarget.require(destination, force: parsed.flag(ExportCommands.force))
        do {
          try Data(MitmproxyAddon.source.utf8).write(to: destination, options: .atomic)
        } catch {
          throw RefusedError(
            "The addon could not be written to \(destination.path): \(SystemErrorText.reason(error))."
          )
        }
        try OutputTarget.setMode(destination, try parsed.value(ExportCommands.mode) ?? .private)
        context.print(
          "Wrote \(destination.path). Run: mitmdump -s \(destination.path) --set tunnelvision_log=inspection.jsonl"
        )
      })
  }

  /// The log at `path`, read whole and parsed; a sentence naming the line that is not one.
  static func log(at path: String) throws -> [InspectionLogEntry] {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw RefusedError("There is no readable inspection log \(path).")
    }
    do { return try InspectionLog.parse(data) } catch {
      throw RefusedError(ImportPresentation.inspectionLogUnreadable(path: path, error))
    }
  }
}
