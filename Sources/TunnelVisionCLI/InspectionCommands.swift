import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Crypto
import Foundation
import Import
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

  static let scenarioArgument = ArgumentKey<CertificateScenario>(
    "scenario", "not-installed, user, system, wrong-host or expired.")
  static let confdir = OptionKey<PathArgument>(
    "confdir", "directory", "mitmproxy's configuration directory (default: ~/.mitmproxy).")
  static let host = OptionKey<String>(
    "host", "name",
    "A host name the certificate is for: the app's hosts for expired (required), another name for wrong-host (default: wrong-host.invalid); repeatable.",
    repeatable: true)
  static let logOption = OptionKey<PathArgument>(
    "log", "file", "The inspection log mitmdump writes (default: inspection.jsonl).")

  static var scenario: CommandDefinition {
    CommandDefinition(
      name: "mitmproxy-scenario",
      abstract:
        "Prepare mitmdump for a certificate scenario: its options, and the certificate it serves.",
      discussion:
        "wrong-host and expired make a certificate from mitmproxy's CA (CONFDIR/mitmproxy-ca.pem) into CONFDIR; every scenario prints the mitmdump command and what the device must have installed. The addon writes the scenario into each line, and a line of another scenario than the session states is not joined.",
      arguments: [scenarioArgument.definition],
      options: [confdir.definition, host.definition, logOption.definition],
      run: { parsed, context in
        let scenario = try parsed.argument(scenarioArgument)
        let directory = URL(
          fileURLWithPath: try parsed.value(confdir)?.text
            ?? (context.environment["HOME"].map { $0 + "/.mitmproxy" } ?? ".mitmproxy"))
        var hosts = try parsed.values(host)
        var certificate: String?
        if scenario == .wrongHost || scenario == .expired {
          if hosts.isEmpty {
            guard scenario == .wrongHost else {
              throw UsageError(
                message: "expired needs the app's host names: --host NAME (repeatable)",
                path: parsed.path)
            }
            hosts = ["wrong-host.invalid"]
          }
          let ca = directory.appendingPathComponent("mitmproxy-ca.pem")
          guard let caPEM = FileManager.default.contents(atPath: ca.path) else {
            throw RefusedError(
              "There is no readable \(ca.path): run mitmdump once to make its CA, or give --confdir."
            )
          }
          let now = context.now()
          let day: TimeInterval = 86_400
          let pem: String
          do {
            pem = try ScenarioCertificate.make(
              caPEM: caPEM, hosts: hosts,
              notBefore: now.addingTimeInterval(scenario == .expired ? -30 * day : -day),
              notAfter: now.addingTimeInterval(scenario == .expired ? -day : 365 * day),
              serial: UInt64(now.timeIntervalSince1970 * 1000))
          } catch {
            throw RefusedError("No certificate was made from \(ca.path): \(error).")
          }
          let out = directory.appendingPathComponent("tunnelvision-\(scenario.argument).pem")
          do { try Data(pem.utf8).write(to: out, options: .atomic) } catch {
            throw RefusedError(
              "The certificate could not be written to \(out.path): \(SystemErrorText.reason(error))."
            )
          }
          try OutputTarget.setMode(out, .private)
          certificate = out.path
          context.print(ScenarioPresentation.made(scenario, path: out.path, hosts: hosts))
        }
        context.print(
          ScenarioPresentation.command(
            scenario, addon: MitmproxyAddon.fileName,
            log: try parsed.value(logOption)?.text ?? "inspection.jsonl", certificate: certificate))
        context.print(ScenarioPresentation.device(scenario))
        context.print(ScenarioPresentation.session(scenario))
      })
  }

  /// The log at `path`, read whole and parsed; a sentence naming the line that is not one.
  static func log(at path: String) throws -> InspectionLogContents {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw RefusedError("There is no readable inspection log \(path).")
    }
    do { return try InspectionLog.parse(data) } catch {
      throw RefusedError(ImportPresentation.inspectionLogUnreadable(path: path, error))
    }
  }
}
