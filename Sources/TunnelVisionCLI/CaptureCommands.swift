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
import Record
import ReportPDF

/// The capture library (`captures`) and the flow export (`history export`).
enum CaptureCommands {
  static let sequence = ArgumentKey<SessionID>("sequence", "The capture file's sequence number.")
  static let output = OptionKey<PathArgument>("output", "file", short: "o", "Where to write it.")
  static let noCap = FlagKey(
    "no-cap", "Every connection, not only the most recent \(historyCap).")
  static let historyCap = 20_000

  /// The library's rows, newest first; which file the recorder writes, if one runs.
  static func rows(_ store: FlowStore) throws -> [CapturesPresentation.Row] {
    let files: [CaptureFileInfo]
    do { files = try CaptureLibrary(directory: store.capturesDirectory).files() } catch {
      throw RefusedError("The capture files cannot be listed: \(error).")
    }
    let use = try store.captureFileUse()
    let recording = try StorageCommand.recordingSequence(store)
    // Created when the store claimed its sequence; the file system keeps no creation time here.
    let started = try store.captureFileStartDates()
    return files.sorted { $0.sequence > $1.sequence }.map {
      CapturesPresentation.Row(
        file: CaptureFileInfo(
          sequence: $0.sequence, url: $0.url, byteCount: $0.byteCount,
          createdAt: started[$0.sequence]),
        packets: use[$0.sequence]?.packets ?? 0,
        sessions: use[$0.sequence]?.sessions ?? [],
        isRecording: $0.sequence == recording)
    }
  }

  static func row(_ parsed: ParsedCommand, _ store: FlowStore) throws -> CapturesPresentation.Row {
    let wanted = UInt32(clamping: try parsed.argument(sequence).value)
    guard let row = try rows(store).first(where: { $0.file.sequence == wanted }) else {
      throw RefusedError(CapturesPresentation.notFound(wanted))
    }
    return row
  }

  /// Writes a file under a temporary name beside `destination` (`write` is given it) and renames
  /// it into place: a failure leaves neither a half-written file nor the temporary one.
  static func writeInPlace(of destination: URL, _ write: (URL) throws -> Void) throws {
    let partial = AtomicRename.partialName(for: destination)
    try? FileManager.default.removeItem(at: partial)
    do {
      try write(partial)
      try AtomicRename.rename(partial, to: destination)
    } catch {
      try? FileManager.default.removeItem(at: partial)
      throw error
    }
  }

  static var captures: CommandDefinition {
    CommandDefinition(
      name: "captures",
      abstract:
        "The capture files: size, created, packets, whose evidence, the one being recorded.",
      options: [ProjectCommands.json.definition],
      subcommands: [export, delete],
      run: { parsed, context in
        let store = try CommandSupport(parsed: parsed, context: context).openStore()
        let rows = try rows(store)
        if parsed.json { return context.printJSON(CapturesPresentation.json(rows)) }
        context.standardOutput(CapturesPresentation.text(rows, zone: context.timeZone))
      })
  }

  static var export: CommandDefinition {
    CommandDefinition(
      name: "export",
      abstract: "Copy one capture file out as a .pcap (LINKTYPE_RAW: the IP datagrams).",
      arguments: [sequence.definition],
      options: [
        output.definition, ExportCommands.force.definition, ExportCommands.mode.definition,
      ],
      run: { parsed, context in
        let store = try CommandSupport(parsed: parsed, context: context).openStore()
        let row = try row(parsed, store)
        if row.isRecording {
          throw RefusedError(
            CapturesPresentation.refusedWhileRecording(row.file.sequence, deleting: false))
        }
        guard let path = try parsed.value(output)?.text else {
          throw UsageError(message: "Say where to write it: -o FILE.pcap", path: parsed.path)
        }
        let destination = URL(fileURLWithPath: path)
        try OutputTarget.require(destination, force: parsed.flag(ExportCommands.force))
        do {
          try writeInPlace(of: destination) {
            try FileManager.default.copyItem(at: row.file.url, to: $0)
          }
        } catch {
          throw RefusedError(
            "Capture file \(row.file.sequence) could not be copied to \(path): \(SystemErrorText.reason(error))."
          )
        }
        try OutputTarget.setMode(destination, try parsed.value(ExportCommands.mode) ?? .private)
        context.print(
          "Wrote \(path): capture file \(row.file.sequence), \(Quantity.byteCount(row.file.byteCount))."
        )
      })
  }

  static var delete: CommandDefinition {
    CommandDefinition(
      name: "delete",
      abstract: "Delete a capture file that no evidence uses and no recorder writes.",
      arguments: [sequence.definition],
      run: { parsed, context in
        let store = try CommandSupport(parsed: parsed, context: context).openStore(writing: true)
        let row = try row(parsed, store)
        if row.isRecording {
          throw RefusedError(
            CapturesPresentation.refusedWhileRecording(row.file.sequence, deleting: true))
        }
        if !row.sessions.isEmpty {
          throw RefusedError(
            CapturesPresentation.refusedEvidence(row.file.sequence, sessions: row.sessions))
        }
        do {
          try CaptureLibrary(directory: store.capturesDirectory).delete(sequence: row.file.sequence)
        } catch {
          throw RefusedError("Capture file \(row.file.sequence) could not be deleted: \(error).")
        }
        context.print(CapturesPresentation.deleted(row.file.sequence, packets: row.packets))
      })
  }

  static var history: CommandDefinition {
    CommandDefinition(
      name: "history",
      abstract: "The history as a whole.",
      subcommands: [historyExport],
      run: { parsed, _ in
        throw UsageError(message: "Say what to do with the history: export", path: parsed.path)
      })
  }

  static var historyExport: CommandDefinition {
    CommandDefinition(
      name: "export",
      abstract:
        "Every connection's metadata as JSON, never payloads: the most recent \(historyCap) unless --no-cap.",
      discussion:
        "{ exportedAt, flows: [...newest first, each as flows.json has it], formatVersion, totalCount, truncated }, the keys in order. Written to a temporary name and renamed: a failure leaves no half-written file.",
      options: [
        output.definition, HistoryCommands.since.definition, noCap.definition,
        ExportCommands.force.definition, ExportCommands.mode.definition,
      ],
      run: { parsed, context in
        let store = try CommandSupport(parsed: parsed, context: context).openStore()
        guard let path = try parsed.value(output)?.text else {
          throw UsageError(message: "Say where to write it: -o FILE.json", path: parsed.path)
        }
        var query = HistoryQuery()
        query.since = try HistoryCommands.instant(parsed, HistoryCommands.since)
        let cap = parsed.flag(noCap) ? Int.max : historyCap
        let destination = URL(fileURLWithPath: path)
        try OutputTarget.require(destination, force: parsed.flag(ExportCommands.force))
        var count = 0
        var truncated = false
        do {
          try writeInPlace(of: destination) { partial in
            let file = try EvidenceFileWriter(url: partial)
            var w = JSONWriter(indent: 2)
            w.beginObject()
            w.key("exportedAt")
            w.string(Instant.rfc3339(context.now()))
            w.key("flows")
            w.beginArray()
            var cursor: HistoryCursor?
            repeat {
              let page = try store.historyPage(query, after: cursor, limit: min(1000, cap - count))
              for flow in page.flows {
                EvidenceFlowRecord.write(flow, findingIDs: [], to: &w)
                count += 1
              }
              try file.write(w.bytes)
              w.bytes.removeAll(keepingCapacity: true)
              cursor = page.next
            } while cursor != nil && count < cap
            truncated = cursor != nil
            w.endArray()
            w.key("formatVersion")
            w.int(1)
            // After the flows, streamed: their count and whether the cap cut the oldest off.
            w.key("totalCount")
            w.int(count)
            w.key("truncated")
            w.bool(truncated)
            w.endObject()
            try file.write(w.bytes + [0x0a])
            _ = try file.finish()
          }
        } catch {
          if let error = error as? FlowStoreError { throw error }
          throw RefusedError(
            "The history could not be written to \(path): \(SystemErrorText.reason(error)); nothing was left there."
          )
        }
        try OutputTarget.setMode(destination, try parsed.value(ExportCommands.mode) ?? .private)
        context.print(
          "Wrote \(path): \(Quantity.count(count, "connection"))\(truncated ? ", the most recent \(cap) (--no-cap for every one)" : "")."
        )
      })
  }
}
