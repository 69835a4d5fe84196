import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Foundation

public enum RecordPresentation {
  /// The status line on a terminal, refreshed about once a second.
  public static func statusLine(_ s: RecorderStatus, now: Date) -> String {
    var parts = [
      "\(s.claim.isLive ? "Recording on" : "Reading") \(TerminalText.inline(s.claim.sourceName))",
      elapsed(now.timeIntervalSince(s.claim.since)),
      Quantity.count(s.packets, "packet"),
      "\(Quantity.count(s.connections, "connection")) (\(s.openConnections) open)",
      Quantity.byteCount(s.bytes),
    ]
    if let kernel = s.droppedByKernel {
      parts.append("dropped \(kernel) by the kernel, \(s.droppedByInterface ?? 0) by the interface")
    }
    if !s.deviceAddresses.isEmpty { parts.append("device " + devices(s)) }
    if let state = s.inspectionLogState, state != .read {
      parts.append(InspectionLogWording.status(state))
    } else if let log = s.inspection {
      parts.append(
        "inspection log: \(log.joined) of \(Quantity.count(log.lines, "line")) joined")
    }
    if let session = s.session {
      parts.append(
        "session \(session.id) (\(TerminalText.inline(session.projectName))), \(Quantity.count(session.markers, "marker"))"
      )
    } else {
      parts.append("no session open")
    }
    return parts.joined(separator: " · ")
  }

  static func devices(_ s: RecorderStatus) -> String {
    let shown = s.deviceAddresses.prefix(3).joined(separator: ", ")
    let more = s.deviceAddresses.count > 3 ? " and \(s.deviceAddresses.count - 3) more" : ""
    return shown + more + (s.devicesInferred ? " (inferred)" : "")
  }

  /// `1:02:03`, `0:05`.
  public static func elapsed(_ seconds: TimeInterval) -> String {
    let total = max(0, Int(seconds))
    let (h, m, sec) = (total / 3600, total / 60 % 60, total % 60)
    let mm = h > 0 && m < 10 ? "0\(m)" : "\(m)"
    return (h > 0 ? "\(h):" : "") + mm + ":" + (sec < 10 ? "0\(sec)" : "\(sec)")
  }

  /// Said when a stop came before the source had sent anything (a stream's file header): no
  /// store was made or written.
  public static func nothingOpened(_ source: String, end: RecordingEnd) -> String {
    let why = end == .durationReached ? "The duration asked for ended" : "Stopped"
    return
      "\(why) before \(TerminalText.inline(source)) had sent the start of a capture: nothing was recorded, and no store was written.\n"
  }

  /// A followed log that was truncated, rewritten or replaced while it was read.
  public static func logTurns(_ s: RecorderStatus) -> String {
    var turns: [String] = []
    if s.inspectionLogRestarts > 0 {
      turns.append("truncated or rewritten \(Quantity.count(s.inspectionLogRestarts, "time"))")
    }
    if s.inspectionLogReplacements > 0 {
      turns.append(
        "replaced by another file \(Quantity.count(s.inspectionLogReplacements, "time"))")
    }
    let cut =
      s.inspectionLinesCut > 0
      ? " \(Quantity.count(s.inspectionLinesCut, "line")) left unended by it \(s.inspectionLinesCut == 1 ? "was" : "were") lost."
      : ""
    return
      "The inspection log was \(turns.joined(separator: " and ")) while it was followed; each time it was read again from its start.\(cut)"
  }

  /// Said once the recorder has stopped.
  public static func summary(_ s: RecorderStatus, end: RecordingEnd, now: Date) -> String {
    let how: String
    switch end {
    case .interrupted: how = "Stopped"
    case .durationReached: how = "Stopped at the end of the duration asked for"
    case .sourceEnded: how = "The capture ended"
    }
    var out =
      "\(how) after \(elapsed(now.timeIntervalSince(s.claim.since))): \(Quantity.count(s.packets, "packet")) (\(Quantity.byteCount(s.bytes))) in \(Quantity.count(s.connections, "connection")) written to the store from \(TerminalText.inline(s.claim.sourceName)).\n"
    if let kernel = s.droppedByKernel {
      out +=
        kernel == 0 && (s.droppedByInterface ?? 0) == 0
        ? "No packet was reported dropped.\n"
        : "Packets dropped before they were read: \(kernel) by the kernel, \(s.droppedByInterface ?? 0) by the interface; their connections lack them.\n"
    }
    if s.unreadFrames > 0 {
      out +=
        "\(Quantity.count(s.unreadFrames, "frame")) held no IP packet that could be read and were not kept.\n"
    }
    if s.piecesNotReassembled > 0 {
      out += SessionNotes.piecesNotReassembled(s.piecesNotReassembled) + "\n"
    }
    if s.timesOutOfRange > 0 {
      out +=
        "\(Quantity.count(s.timesOutOfRange, "frame")) had a time that cannot be (a fraction of a second or more, before 1970 or from 2262 on) and were not kept.\n"
    }
    if !s.deviceAddresses.isEmpty { out += "Device: \(devices(s)).\n" }
    if let log = s.inspection {
      out +=
        ImportPresentation.inspectionLogLine(
          log,
          unjoined:
            "joined no connection held (the recorder joins a line while its connection is open or just closed)"
        ) + "\n"
      if s.inspectionUnreadableLines > 0 {
        out +=
          "\(Quantity.count(s.inspectionUnreadableLines, "line")) of the log could not be read and were skipped.\n"
      }
      if s.inspectionLogRestarts + s.inspectionLogReplacements > 0 {
        out += logTurns(s) + "\n"
      }
    }
    return out
  }

  public static func json(_ s: RecorderStatus, end: RecordingEnd) -> JSONValue {
    .object([
      "source": .string(s.claim.sourceName), "live": .bool(s.claim.isLive),
      "startedAt": .string(Instant.rfc3339(s.claim.since)), "end": .string(end.rawValue),
      "packets": .int(s.packets), "connections": .int(s.connections), "bytes": .int(s.bytes),
      "unreadFrames": .int(s.unreadFrames), "timesOutOfRange": .int(s.timesOutOfRange),
      "piecesNotReassembled": .int(s.piecesNotReassembled),
      "droppedByKernel": s.droppedByKernel.map { .int($0) } ?? .null,
      "droppedByInterface": s.droppedByInterface.map { .int($0) } ?? .null,
      "deviceAddresses": .strings(s.deviceAddresses), "devicesInferred": .bool(s.devicesInferred),
      "captureFiles": .int(s.captureFiles), "captureFilesDeleted": .int(s.captureFilesDeleted),
      "inspection": s.inspection.map { log in
        .object([
          "lines": .int(log.lines), "joined": .int(log.joined), "accepted": .int(log.accepted),
          "refused": .int(log.refused), "closedAfterHandshake": .int(log.closedAfterHandshake),
          "withoutOutcome": .int(log.withoutOutcome), "unjoined": .int(log.unjoined),
          "unreadableLines": .int(s.inspectionUnreadableLines),
          "restarts": .int(s.inspectionLogRestarts),
          "replacements": .int(s.inspectionLogReplacements), "linesCut": .int(s.inspectionLinesCut),
        ])
      } ?? .null,
    ])
  }

  /// A second recorder on the same store.
  public static func alreadyRecording(_ claim: RecorderClaim?, zone: TimeZone) -> String {
    guard let claim else {
      return "Another recorder runs on this store; only one can record into a store at a time."
    }
    return
      "A recorder already runs on this store: pid \(claim.processID), \(claim.isLive ? "on" : "reading") \(TerminalText.inline(claim.sourceName)), since \(AuditPresentation.dateTime(claim.since, in: zone)). Only one can record into a store at a time; stop it first (Ctrl-C in its terminal)."
  }
}

extension RecordPresentation {
  public static func cannotOpen(_ source: String, isLive: Bool, message: String) -> String {
    let what = isLive ? "The interface \(TerminalText.inline(source))" : TerminalText.inline(source)
    var out = "\(what) cannot be recorded: \(TerminalText.inline(message))."
    let lowered = message.lowercased()
    if isLive, lowered.contains("permission") || lowered.contains("not permitted") {
      out += " " + missingCapabilities
    }
    return out
  }

  /// What a live capture lacks when the kernel refuses it, and how to give it.
  public static let missingCapabilities =
    "Capturing an interface needs the capabilities CAP_NET_RAW and CAP_NET_ADMIN, which this process does not have: run it as root, or give them to the executable once (sudo setcap cap_net_raw,cap_net_admin+ep \"$(command -v tunnelvision)\"; docs/install.md says what that grants)."

  public static func filterRefused(_ filter: String, message: String) -> String {
    "The filter “\(TerminalText.inline(filter))” does not compile: \(TerminalText.inline(message)). Nothing was recorded."
  }

  public static func readFailed(_ source: String, message: String) -> String {
    "Reading \(TerminalText.inline(source)) failed: \(TerminalText.inline(message))."
  }

  /// After a failure mid-recording: what is in the store stays.
  /// The store refused a write while recording: the error's cause, and what the runs' committed
  /// writes hold (never "nothing was changed": they are kept).
  public static func storeRefused(_ error: FlowStoreError) -> String {
    switch error {
    case .diskFull(let path): return "The disk holding \(path) is full: recording stopped."
    default: return "The store refused a write, and recording stopped: \(error)"
    }
  }

  public static func kept(packets: Int, connections: Int) -> String {
    "What was written before is kept in the store: \(Quantity.count(packets, "packet")) in \(Quantity.count(connections, "connection"))."
  }

  public static func keptSoFar(_ s: RecorderStatus) -> String {
    "What was read before it is in the store: \(Quantity.count(s.packets, "packet")) in \(Quantity.count(s.connections, "connection"))."
  }

  public static func lockUnavailable(path: String, reason: String) -> String {
    "The recorder's lock \(TerminalText.inline(path)) cannot be taken (\(reason)); nothing was recorded."
  }
}
