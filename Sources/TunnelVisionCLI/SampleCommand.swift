import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Capture
import Crypto
import FlowStore
import Foundation
import Record
import ReportPDF
import Sample

enum SampleCommand {
  static let seed = OptionKey<PositiveCount>("seed", "n", "The generator's seed (default: 1).")
  static let flows = OptionKey<PositiveCount>(
    "flows", "n",
    "Flows of the 2.4.0 session (default: only the \(SampleScenario.archetypeFlowCount) that cover the rules)."
  )
  static let packets = OptionKey<PositiveCount>(
    "packets", "n", "Packets of the 2.4.0 session, about.")
  static let captureBytes = OptionKey<PositiveCount>(
    "capture-bytes", "n", "Capture bytes of the 2.4.0 session, about.")
  static let rotationBytes = OptionKey<PositiveCount>(
    "rotation-bytes", "n", "Rotate capture files at this size (default: 64 MiB).")

  static var definition: CommandDefinition {
    CommandDefinition(
      name: "sample",
      abstract:
        "Write the “Example Health” sample store (deterministic: the same seed writes the same bytes).",
      discussion:
        "A baseline and the audit sessions 2.3.1 (180) and 2.4.0 (187), ended, with markers, traffic outside any session, and flows that exercise every finding and comparison rule. --flows, --packets and --capture-bytes grow the 2.4.0 session to a workload's size. The directory must not hold a store yet.",
      options: [
        seed.definition, flows.definition, packets.definition, captureBytes.definition,
        rotationBytes.definition, ProjectCommands.json.definition,
      ],
      run: { parsed, context in
        let support = CommandSupport(parsed: parsed, context: context)
        func number(_ key: OptionKey<PositiveCount>, atMost limit: Int = .max) throws -> Int? {
          guard let value = try parsed.value(key)?.value else { return nil }
          guard value <= limit else {
            throw UsageError(
              message:
                "--\(key.definition.name) takes at most \(Quantity.grouped(limit)), ten times the reference workload; \(Quantity.grouped(value)) is more than the sample is made for",
              path: parsed.path)
          }
          return value
        }
        let options = SampleOptions(
          seed: UInt64(try number(seed) ?? 1),
          flows: try number(flows, atMost: SampleOptions.maximumFlows),
          packets: try number(packets, atMost: SampleOptions.maximumPackets),
          captureBytes: try number(captureBytes, atMost: SampleOptions.maximumCaptureBytes))
        let rotation = UInt64(try number(rotationBytes) ?? Int(PcapWriter.defaultRotationBytes))
        let progress: ((String) -> Void)? =
          context.standardErrorIsTerminal ? { context.progress("Writing the sample: \($0)") } : nil
        let summary: SampleSummary
        do {
          summary = try SampleWriter.write(
            SampleScenario.plan(options), to: support.storeURL, rotationBytes: rotation,
            progress: progress)
        } catch let error as SampleWriterError {
          throw RefusedError(error.description)
        }
        if progress != nil { context.progress("") }
        if parsed.json {
          return context.printJSON(
            .object([
              "store": .string(support.storeURL.path),
              "captureFiles": .int(summary.captureFiles),
              "captureBytes": .int(summary.captureBytes),
              "sessions": .array(
                summary.sessions.map {
                  .object([
                    "id": .int($0.id), "project": .string($0.project), "name": .string($0.name),
                    "flows": .int($0.flows), "packets": .int($0.packets),
                  ])
                }),
            ]))
        }
        var out =
          "Wrote the sample store in \(support.storeURL.path): \(Quantity.count(summary.captureFiles, "capture file")), \(Quantity.byteCount(summary.captureBytes)).\n"
        for s in summary.sessions {
          out +=
            "  session \(s.id)  \(s.project) · \(s.name): \(Quantity.count(s.flows, "connection")), \(Quantity.count(s.packets, "packet"))\n"
        }
        context.standardOutput(out)
      })
  }
}

enum StorageCommand {
  static let maxAge = OptionKey<String>(
    "max-age", "age",
    "Age limit: \(RetentionAge.allCases.map(\.rawValue).joined(separator: ", ")) (default: 1w).")
  static let maxSize = OptionKey<String>(
    "max-size", "size",
    "Size limit of the captures: \(RetentionSize.allCases.map(\.rawValue).joined(separator: ", ")) (default: 1GB)."
  )
  static let settingsOptions = [maxAge.definition, maxSize.definition]

  static func settings(_ parsed: ParsedCommand) throws -> RetentionSettings {
    var settings = RetentionSettings.default
    if let text = try parsed.value(maxAge) {
      guard let age = RetentionAge(rawValue: text) else {
        throw UsageError(
          message:
            "--max-age is one of \(RetentionAge.allCases.map(\.rawValue).joined(separator: ", ")); “\(text)” is not",
          path: parsed.path)
      }
      settings.maxAge = age
    }
    if let text = try parsed.value(maxSize) {
      guard
        let size = RetentionSize(
          rawValue: text.uppercased() == "UNLIMITED" ? "unlimited" : text.uppercased())
      else {
        throw UsageError(
          message:
            "--max-size is one of \(RetentionSize.allCases.map(\.rawValue).joined(separator: ", ")); “\(text)” is not",
          path: parsed.path)
      }
      settings.maxCaptureSize = size
    }
    return settings
  }

  static var definition: CommandDefinition {
    CommandDefinition(
      name: "storage",
      abstract: "What the store takes on disk, and the room left under the retention limits.",
      discussion:
        "Captures are capped by size and age, the history by age. Audit evidence is exempt from both until its session is deleted.",
      options: settingsOptions + [ProjectCommands.json.definition],
      subcommands: [enforce],
      run: { parsed, context in
        let store = try CommandSupport(parsed: parsed, context: context).openStore()
        let manager = StorageManager(store: store)
        let settings = try settings(parsed)
        let usage = try manager.usage()
        let recording = try recorder(store)
        let plan = try manager.plan(
          settings, recordingSequence: recording.sequence, now: context.now(),
          sparing: recording.captureSession)
        if parsed.json {
          return context.printJSON(StoragePresentation.json(usage, settings: settings, plan: plan))
        }
        context.standardOutput(StoragePresentation.text(usage, settings: settings, plan: plan))
      })
  }

  /// The file a running recorder writes (the newest claimed): never deleted while it is written.
  static func recordingSequence(_ store: FlowStore) throws -> UInt32? {
    try recorder(store).sequence
  }

  /// What a recorder running now writes: its file (the newest claimed) and its capture session,
  /// whose connections this process does not prune (it counts ages on the machine's clock; the
  /// recorder's own passes count them on the packets').
  static func recorder(_ store: FlowStore) throws -> (sequence: UInt32?, captureSession: Int64?) {
    guard let claim = RecorderLock.running(storeDirectory: store.directory) else {
      return (nil, nil)
    }
    return (
      try store.highestCaptureFileSequence(),
      claim.processID > 0 ? try store.unendedRun(ofProcess: claim.processID)?.id : nil
    )
  }

  static var enforce: CommandDefinition {
    CommandDefinition(
      name: "enforce",
      abstract:
        "Apply the retention limits now: delete capture files past them and prune old history.",
      options: settingsOptions + [ProjectCommands.json.definition],
      run: { parsed, context in
        let store = try CommandSupport(parsed: parsed, context: context).openStore(writing: true)
        let manager = StorageManager(store: store)
        // The plan `storage` shows, carried out.
        let running = try recorder(store)
        let recording = running.sequence
        let plan = try manager.plan(
          try settings(parsed), recordingSequence: recording, now: context.now(),
          sparing: running.captureSession)
        let terminal = context.standardErrorIsTerminal
        let outcome = try manager.enforce(plan, recordingSequence: recording) { pruned in
          guard terminal else { return }
          context.progress(StoragePresentation.pruning(pruned, of: plan.prunableConnections))
        }
        if terminal && plan.prunableConnections > 0 { context.progress("") }
        if parsed.json {
          return context.printJSON(
            .object([
              "deletedLeftOvers": .ints(outcome.deletedLeftOvers),
              "deletedFiles": .ints(outcome.deletedFiles),
              "bytesReclaimed": .int(outcome.bytesReclaimed),
              "prunedFlows": .int(outcome.prunedFlows), "failures": .strings(outcome.failures),
              "sizeCapUnreachable": .bool(outcome.sizeCapUnreachable),
              "sizeCapHeldByEvidence": .bool(outcome.sizeCapHeldByEvidence),
            ]))
        }
        context.standardOutput(StoragePresentation.outcome(outcome))
        if !outcome.failures.isEmpty {
          throw RefusedError(
            "\(Quantity.count(outcome.failures.count, "capture file")) could not be deleted."
          )
        }
      })
  }
}
