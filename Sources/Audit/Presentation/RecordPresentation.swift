import Foundation

/// What a running recorder has done so far: the facts its status line and summary are made of.
public struct RecorderStatus: Sendable, Hashable {
  public var claim: RecorderClaim
  public var packets = 0
  /// Connections seen, and of them those still open (held by the recorder).
  public var connections = 0, openConnections = 0
  /// IP bytes of the packets kept.
  public var bytes: UInt64 = 0
  /// Frames that held no packet to keep (another link layer's, cut short, …).
  public var unreadFrames = 0
  /// As pcap_stats counts them, on a live capture.
  public var droppedByKernel: UInt32?, droppedByInterface: UInt32?
  public var deviceAddresses: [String] = []
  public var devicesInferred = true
  /// The audit session open now, and its markers so far.
  public var session: OpenSession?
  /// Capture files started, and those retention deleted.
  public var captureFiles = 0, captureFilesDeleted = 0
  /// What the inspecting proxy's log gave, when one is followed; its lines that were not log lines.
  public var inspection: InspectionLogSummary?
  public var inspectionUnreadableLines = 0

  public struct OpenSession: Sendable, Hashable {
    public let id: Int64
    public let projectName: String
    public let markers: Int
    public init(id: Int64, projectName: String, markers: Int) {
      self.id = id
      self.projectName = projectName
      self.markers = markers
    }
  }

  public init(claim: RecorderClaim) { self.claim = claim }
}

/// How the reading ended, for the summary.
public enum RecordingEnd: String, Sendable, Hashable {
  case interrupted
  case durationReached = "duration"
  case sourceEnded
}

public enum RecordPresentation {
  /// The status line on a terminal, refreshed about once a second.
  public static func statusLine(_ s: RecorderStatus, now: Date) -> String {
    var parts = [
      "\(s.claim.isLive ? "Recording on" : "Reading") \(TerminalText.inline(s.claim.sourceName))",
      elapsed(now.timeIntervalSince(s.claim.since)),
      AuditPresentation.count(s.packets, "packet"),
      "\(AuditPresentation.count(s.connections, "connection")) (\(s.openConnections) open)",
      AuditPresentation.byteCount(s.bytes),
    ]
    if let kernel = s.droppedByKernel {
      parts.append("dropped \(kernel) by the kernel, \(s.droppedByInterface ?? 0) by the interface")
    }
    if !s.deviceAddresses.isEmpty { parts.append("device " + devices(s)) }
    if let log = s.inspection {
      parts.append(
        "inspection log: \(log.joined) of \(AuditPresentation.count(log.lines, "line")) joined")
    }
    if let session = s.session {
      parts.append(
        "session \(session.id) (\(TerminalText.inline(session.projectName))), \(AuditPresentation.count(session.markers, "marker"))"
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

  /// Said once the recorder has stopped.
  public static func summary(_ s: RecorderStatus, end: RecordingEnd, now: Date) -> String {
    let how: String
    switch end {
    case .interrupted: how = "Stopped"
    case .durationReached: how = "Stopped at the end of the duration asked for"
    case .sourceEnded: how = "The capture ended"
    }
    var out =
      "\(how) after \(elapsed(now.timeIntervalSince(s.claim.since))): \(AuditPresentation.count(s.packets, "packet")) (\(AuditPresentation.byteCount(s.bytes))) in \(AuditPresentation.count(s.connections, "connection")) written to the store from \(TerminalText.inline(s.claim.sourceName)).\n"
    if let kernel = s.droppedByKernel {
      out +=
        kernel == 0 && (s.droppedByInterface ?? 0) == 0
        ? "No packet was reported dropped.\n"
        : "Packets dropped before they were read: \(kernel) by the kernel, \(s.droppedByInterface ?? 0) by the interface; their connections lack them.\n"
    }
    if s.unreadFrames > 0 {
      out +=
        "\(AuditPresentation.count(s.unreadFrames, "frame")) held no IP packet that could be read and were not kept.\n"
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
          "\(AuditPresentation.count(s.inspectionUnreadableLines, "line")) of the log could not be read and were skipped.\n"
      }
    }
    return out
  }

  public static func json(_ s: RecorderStatus, end: RecordingEnd) -> JSONValue {
    .object([
      "source": .string(s.claim.sourceName), "live": .bool(s.claim.isLive),
      "startedAt": .string(Instant.rfc3339(s.claim.since)), "end": .string(end.rawValue),
      "packets": .int(s.packets), "connections": .int(s.connections), "bytes": .int(s.bytes),
      "unreadFrames": .int(s.unreadFrames),
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
        ])
      } ?? .null,
    ])
  }

  /// The line the recorder adds to a session's notes when it first sees it open: what recorded
  /// it, and which clocks stamped its packets and markers.
  public static func sessionNote(_ claim: RecorderClaim, inspectionLog: String? = nil) -> String {
    var out =
      claim.isLive
      ? "Recorded live on interface \(TerminalText.inline(claim.sourceName)) by 'tunnelvision record' (pid \(claim.processID)); packets and markers are stamped by the same clock, this machine's."
      : "Recorded from \(TerminalText.inline(claim.sourceName)) by 'tunnelvision record' (pid \(claim.processID)); packets are stamped by the clock of the machine that captured them, markers by this machine's: they agree only as far as those clocks do."
    if let inspectionLog {
      out +=
        " Inspection outcomes from \(TerminalText.inline(inspectionLog)) (mitmproxy, the tunnelvision addon's log), joined as its lines were written."
    }
    return out
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
    if isLive, message.lowercased().contains("permission") {
      out +=
        " Capturing an interface needs root, or the capabilities cap_net_raw and cap_net_admin on the binary (setcap)."
    }
    return out
  }

  public static func filterRefused(_ filter: String, message: String) -> String {
    "The filter “\(TerminalText.inline(filter))” does not compile: \(TerminalText.inline(message)). Nothing was recorded."
  }

  public static func readFailed(_ source: String, message: String) -> String {
    "Reading \(TerminalText.inline(source)) failed: \(TerminalText.inline(message))."
  }

  /// After a failure mid-recording: what is in the store stays.
  public static func keptSoFar(_ s: RecorderStatus) -> String {
    "What was read before it is in the store: \(AuditPresentation.count(s.packets, "packet")) in \(AuditPresentation.count(s.connections, "connection"))."
  }

  public static func lockUnavailable(path: String, reason: String) -> String {
    "The recorder's lock \(TerminalText.inline(path)) cannot be taken (\(reason)); nothing was recorded."
  }
}
