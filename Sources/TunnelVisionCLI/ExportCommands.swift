import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Capture
import Crypto
import Evidence
import FlowStore
import Foundation
import ReportPDF

enum ExportCommands {
  static let bundleOutput = OptionKey<PathArgument>(
    "output", "file", short: "o",
    "Where to write the ZIP; a directory takes it under its default name, <project>-<release>-session-<id>-evidence.zip (default: that name here)."
  )
  static let reportOutput = OptionKey<PathArgument>(
    "output", "file", short: "o",
    "Where to write the PDF; a directory takes it as report.pdf (default: report.pdf here).")
  static let noReport = FlagKey("no-report", "Leave report.pdf out.")
  static let withContent = FlagKey(
    "with-content",
    "Add content.har: what each exchange sent and received, decrypted, as HAR 1.2. The bundle then holds the content itself, and says so; verify finds the test account's values in it again."
  )
  static let force = FlagKey("force", "Replace a file already at the output's path.")
  /// The databases given with --ip-database, opened; one that cannot be is refused with its reason.
  static func addressDatabases(_ parsed: ParsedCommand) throws -> [AddressDatabase] {
    var databases: [AddressDatabase] = []
    for path in try parsed.values(ipDatabase) {
      do { databases.append(try AddressDatabase(path: path.text)) } catch {
        throw RefusedError(error.description)
      }
    }
    return databases
  }
  static let ipDatabase = OptionKey<PathArgument>(
    "ip-database", "file.mmdb",
    "Look up where each connection's addresses are registered in this MaxMind DB file (a country or ASN database such as DB-IP Lite or GeoLite2); repeatable, the first stating a field gives it.",
    repeatable: true)
  static let mode = OptionKey<FileMode>(
    "mode", "mode", "The output's permissions, in octal (default: 600, readable by you alone).")
  static let bundle = ArgumentKey<String>("bundle", "The .zip to check.")
  static let sign = OptionKey<PathArgument>(
    "sign", "key.pem",
    "Sign manifest.json with this Ed25519 private key (openssl genpkey -algorithm ed25519).")
  static let key = OptionKey<PathArgument>(
    "key", "public.pem", "Check the bundle's signature against this Ed25519 public key.")

  /// A key file's bytes, or a sentence saying why it is none.
  static func keyFile(_ path: String, publicOnly: Bool) throws -> Data {
    guard let pem = FileManager.default.contents(atPath: path) else {
      throw RefusedError("There is no readable key file \(path).")
    }
    if let problem = PEMShape.problem(pem) {
      throw RefusedError("\(path) is not read as a key: \(problem).")
    }
    if Ed25519Signature.isEncrypted(pem: pem) {
      throw RefusedError(
        "\(path) is encrypted with a pass phrase, which is never asked for; give it unencrypted ('openssl pkey -in \(path) -out plain.pem', kept where only you can read it)."
      )
    }
    guard let raw = Ed25519Signature.publicKey(pem: pem) else {
      throw RefusedError(
        "\(path) is not an Ed25519 key in PEM; make one with 'openssl genpkey -algorithm ed25519 -out key.pem' (and 'openssl pkey -in key.pem -pubout' for its public half)."
      )
    }
    // Signing needs the private key: said before anything is exported.
    guard publicOnly || Ed25519Signature.isPrivateKey(pem: pem) else {
      throw RefusedError(
        "\(path) holds only an Ed25519 public key; --sign takes the private key ('openssl genpkey -algorithm ed25519 -out key.pem')."
      )
    }
    return publicOnly ? raw : pem
  }
  static let at = OptionKey<String>(
    "at", "instant",
    "The export instant, RFC 3339, from 1970 to 2261 (default: now). The same session and instant give the same bytes."
  )

  static func instant(_ parsed: ParsedCommand, context: CommandContext) throws -> Date {
    guard let text = try parsed.value(at) else { return context.now() }
    guard let date = Instant.parseRFC3339(text) else {
      throw UsageError(
        message:
          "--at takes an RFC 3339 instant such as 2026-10-09T10:00:00Z; “\(text)” is not one",
        path: parsed.path)
    }
    // What the history and the documents carry to the microsecond: from 1970 to the start of 2262.
    guard Instant.storableMicroseconds.contains(Instant.microseconds(date)) else {
      throw UsageError(
        message: "--at takes an instant from 1970 up to the start of 2262; “\(text)” is outside",
        path: parsed.path)
    }
    return date
  }

  /// An exporter reading the project's catalogue (bundled or kept in the store), or the one given on the command line.
  /// It works in a directory of its own (one per exporter), so that exports running at once (two terminals, a script) never
  /// clear each other's files; `withExporter` removes it.
  static func exporter(
    for store: FlowStore, parsed: ParsedCommand, storeURL: URL, context: CommandContext
  ) throws -> EvidenceExporter {
    let exporter = EvidenceExporter(store: store)
    exporter.catalogue = try AssessmentCommands.catalogueSource(parsed, storeURL: storeURL)
    exporter.withContent = parsed.flag(withContent)
    exporter.trackers = try AssessmentCommands.trackers(parsed, context: context)
    exporter.publicSuffixList = PublicSuffixList.installed(
      shareDirectory: AssessmentCommands.shareDirectory(context))
    exporter.addressDatabases = try addressDatabases(parsed)
    return exporter
  }

  /// The store, the session named by the first argument and an exporter for it; the exporter's
  /// working directory is removed when `body` returns or throws.
  static func withExporter<T>(
    _ parsed: ParsedCommand, _ context: CommandContext,
    _ body: (FlowStore, AuditSession, EvidenceExporter) throws -> T
  ) throws -> T {
    let support = CommandSupport(parsed: parsed, context: context)
    let store = try support.openStore()
    let session = try support.session(try parsed.argument(CommonKeys.session), in: store)
    let exporter = try exporter(
      for: store, parsed: parsed, storeURL: support.storeURL, context: context)
    defer { try? FileManager.default.removeItem(at: exporter.temporaryDirectory) }
    return try body(store, session, exporter)
  }

  static var export: CommandDefinition {
    CommandDefinition(
      name: "export",
      abstract: "Export an ended session as an evidence bundle (ZIP) and say what it holds.",
      discussion:
        "The bundle: session.json, flows.json, flows.csv, findings.json, exchanges.json, capture.pcapng, capture.json, report.pdf and manifest.json (the SHA-256 of every other file); content.har with --with-content. Anything sent unencrypted can be read in the capture.",
      arguments: [CommonKeys.session.definition],
      options: [
        bundleOutput.definition, force.definition, mode.definition, sign.definition,
        at.definition,
        AssessmentCommands.catalogueID.definition, AssessmentCommands.catalogueFile.definition,
        AssessmentCommands.trackerList.definition, ipDatabase.definition,
        noReport.definition, withContent.definition,
        ProjectCommands.json.definition,
      ],
      run: { parsed, context in
        try withExporter(parsed, context) { store, session, exporter in
          if !parsed.flag(noReport) { exporter.report = EvidenceReportRenderer.forExporter }
          if let trace = context.phaseTrace() { exporter.trace = trace.note }
          let now = try instant(parsed, context: context)
          let destination = try Self.destination(try parsed.value(bundleOutput)?.text) {
            guard let project = try store.auditProject(id: session.projectID) else {
              throw AuditStoreError.projectNotFound(session.projectID)
            }
            return EvidenceBundle.fileStem(projectName: project.name, session: session) + ".zip"
          }
          try OutputTarget.require(destination, force: parsed.flag(force))
          if let path = try parsed.value(sign)?.text {
            exporter.signingKey = try keyFile(path, publicOnly: false)
          }
          if context.standardErrorIsTerminal {
            context.progress("Exporting session \(session.id)…")
          }
          let result: EvidenceExportResult
          do {
            result = try exporter.export(
              sessionID: session.id, exportedWith: "tunnelvision \(ToolVersion.current)", now: now,
              destination: destination)
          } catch let error as EvidenceExportError {
            if context.standardErrorIsTerminal { context.progress("") }
            throw RefusedError(EvidenceExportPresentation.failure(error))
          }
          if context.standardErrorIsTerminal { context.progress("") }
          try OutputTarget.setMode(result.url, try parsed.value(mode) ?? .private)
          let summary = EvidenceExportPresentation.Summary(
            path: result.url.path, byteCount: result.byteCount, fileNames: result.fileNames,
            flowCount: result.flowCount, findingCount: result.findingCount, capture: result.capture,
            registrations: result.registrations)
          if parsed.json { return context.printJSON(EvidenceExportPresentation.json(summary)) }
          context.standardOutput(EvidenceExportPresentation.sheet(summary))
        }
      })
  }
}

extension ExportCommands {
  static var report: CommandDefinition {
    CommandDefinition(
      name: "report",
      abstract:
        "Write an ended session's report.pdf alone: the report the evidence bundle carries.",
      arguments: [CommonKeys.session.definition],
      options: [
        reportOutput.definition, force.definition, mode.definition, at.definition,
        AssessmentCommands.catalogueID.definition, AssessmentCommands.catalogueFile.definition,
        AssessmentCommands.trackerList.definition, ipDatabase.definition,
      ],
      run: { parsed, context in
        try withExporter(parsed, context) { store, session, exporter in
          let destination = Self.destination(try parsed.value(reportOutput)?.text) {
            EvidenceBundle.reportName
          }
          try OutputTarget.require(destination, force: parsed.flag(force))
          let timing: EvidenceReportRenderer.Timing
          do {
            timing = try exporter.report(
              sessionID: session.id, exportedWith: "tunnelvision \(ToolVersion.current)",
              now: try instant(parsed, context: context), destination: destination)
          } catch let error as EvidenceExportError {
            throw RefusedError(EvidenceExportPresentation.failure(error, making: .report))
          }
          try OutputTarget.setMode(destination, try parsed.value(mode) ?? .private)
          if context.environment["TUNNELVISION_TRACE"] == "1" {
            context.standardError(
              String(
                format: "layout %.3f s, drawing %.3f s, %.0f pages/s\n", timing.layout,
                timing.drawing,
                Double(timing.pages) / max(timing.layout + timing.drawing, 1e-6)))
          }
          context.print(
            EvidenceExportPresentation.reportWritten(destination.path, pages: timing.pages))
        }
      })
  }

  /// Where `--output` says, or into the directory it names (or this one, without it) under the
  /// file's default name.
  static func destination(_ output: String?, defaultName: () throws -> String) rethrows -> URL {
    if let output, !CommandSupport.isDirectory(output) {
      return URL(fileURLWithPath: output)
    }
    return URL(
      fileURLWithPath: output ?? FileManager.default.currentDirectoryPath, isDirectory: true
    ).appendingPathComponent(try defaultName())
  }

  static var verify: CommandDefinition {
    CommandDefinition(
      name: "verify",
      abstract:
        "Check an evidence bundle without the store: digests, files, capture count, identifiers, the CSV.",
      discussion:
        "Says what holds and, for anything that does not, what and where. Exits 1 if anything fails.",
      arguments: [bundle.definition],
      options: [key.definition, ProjectCommands.json.definition],
      run: { parsed, context in
        let path = try parsed.argument(bundle)
        let trusted = try parsed.value(key).map { try keyFile($0.text, publicOnly: true) }
        guard FileManager.default.fileExists(atPath: path) else {
          throw RefusedError("There is no file \(path).")
        }
        if CommandSupport.isDirectory(path) {
          throw RefusedError(
            "\(path) is a directory; verify takes an evidence bundle, a .zip file.")
        }
        let (checks, signature) = BundleVerifier.verify(
          URL(fileURLWithPath: path), trusting: trusted, trace: context.phaseTrace())
        if parsed.json {
          context.printJSON(VerifyPresentation.json(path: path, checks))
        } else {
          context.standardOutput(
            VerifyPresentation.text(path: path, checks)
              + (VerifyPresentation.signatureNote(signature, keyGiven: trusted != nil).map {
                $0 + "\n"
              } ?? ""))
        }
        if let refusal = VerifyPresentation.refusal(path: path, checks) {
          throw RefusedError(refusal)
        }
      })
  }
}
