import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Foundation

/// The facts a session's screen is drawn from.
public struct SessionOverview: Sendable, Hashable {
  public let session: AuditSession
  public let projectName: String
  public let markers: [SessionMarker]
  public let connectionCount: Int
  /// The project's other sessions, newest first: those this one can be compared with are chosen here.
  public let otherSessions: [AuditSession]
  /// The recorder running on the store, if one runs.
  public let recorder: RecorderClaim?
  /// The session's window against the recorder runs (nil: not asked for).
  public let coverage: SessionCoverage?
  public init(
    session: AuditSession, projectName: String, markers: [SessionMarker], connectionCount: Int,
    otherSessions: [AuditSession] = [], recorder: RecorderClaim? = nil,
    coverage: SessionCoverage? = nil
  ) {
    self.coverage = coverage
    self.recorder = recorder
    self.session = session
    self.projectName = projectName
    self.markers = markers
    self.connectionCount = connectionCount
    self.otherSessions = otherSessions
  }

  /// The project's other ended audit sessions; none for a baseline or a session still recording.
  public var comparable: [AuditSession] {
    guard session.kind != .baseline, !session.isOpen else { return [] }
    return otherSessions.filter { $0.id != session.id && $0.kind != .baseline && !$0.isOpen }
  }
}

public enum SessionPresentation {
  public static let recordingFooter =
    "While this session records, every connection the device makes is tagged with it, whichever app makes it."

  /// Which recorder writes an open session's traffic.
  public static func recordingBy(_ recorder: RecorderClaim, zone: TimeZone) -> String {
    "Recording on \(TerminalText.inline(recorder.sourceName)): 'tunnelvision record' (pid \(recorder.processID)) has run since \(AuditPresentation.dateTime(recorder.since, in: zone)); from now on each connection it sees is tagged with this session."
  }
  public static let endedFooter =
    "Its connections and captures are kept as evidence, outside the storage limits, until the session is deleted."
  public static let closedToMarkers =
    "An ended session takes no more markers: a marker placed after looking at the traffic is no longer an observation."
  public static let noMarkers = "No markers were placed."

  /// The method, said when a session is started.
  public static func method(for kind: AuditSessionKind) -> String {
    switch kind {
    case .baseline:
      return
        "Record the baseline before installing the audited app: it shows what the device contacts without it."
    case .audit:
      return
        "Use only the audited app while it is recorded: every connection of the device is tagged with the session."
    }
  }

  /// Where an ended session's evidence comes from.
  public static func evidenceRow(_ session: AuditSession) -> String {
    "tunnelvision export \(session.id) -o FILE.zip writes it: the documents, the capture and report.pdf, with their digests."
  }

  /// What ending a session means, said once it is ended.
  public static let endedConsequence = "Tagging has stopped and no marker can be added any more."

  /// What deleting a session changes, and what it does not.
  public static func deleted(_ session: AuditSession, connections: Int) -> String {
    "Deleted session \(session.id) (\(AuditPresentation.sessionName(session.kind))) and its markers. Its \(Quantity.count(connections, "connection")) stay in the history; they are no longer evidence and expire with the storage limits."
  }

  public static func text(_ o: SessionOverview, zone: TimeZone) -> String {
    let s = o.session
    var out =
      "\(AuditPresentation.sessionName(s.kind)) · \(TerminalText.inline(o.projectName)) · session \(s.id)\n"

    out += "\nStatus\n"
    out +=
      "  \(s.isOpen ? ProjectPresentation.openBadge(o.recorder) : "Ended") · \(Quantity.count(o.connectionCount, "connection"))\n"
    out += "  Started  \(AuditPresentation.dateTime(s.startedAt, in: zone))\n"
    if let end = s.endedAt { out += "  Ended    \(AuditPresentation.dateTime(end, in: zone))\n" }
    out +=
      "  \(s.isOpen ? (o.recorder == nil ? nothingRecording : recordingFooter) : endedFooter)\n"
    if let coverage = o.coverage {
      out += "\nCoverage\n  \(CoverageWording.headline(coverage, open: s.isOpen))\n"
      for line in CoverageWording.gapLines(
        coverage, instant: { AuditPresentation.dateTime($0, in: zone) })
      {
        out += "  \(line)\n"
      }
    }
    if !s.isOpen {
      out += "\nEvidence bundle\n  \(evidenceRow(s))\n"
      let others = o.comparable
      if !others.isEmpty {
        out += "\nCompare with\n"
        for line in TextColumns().lines(
          others.map {
            [AuditPresentation.sessionName($0.kind), "tunnelvision compare \(s.id) \($0.id)"]
          })
        {
          out += "  " + line + "\n"
        }
      }
    }

    out += "\nMarkers\n"
    if o.markers.isEmpty { out += "  \(noMarkers)\n" }
    for marker in o.markers {
      out +=
        "  \(AuditPresentation.dateTime(marker.date, in: zone))  \(TerminalText.inline(AuditPresentation.markerName(marker.kind)))\n"
    }
    if s.isOpen {
      out +=
        "  Mark now: tunnelvision mark consent-given | consent-withdrawn | logged-in | logged-out | other:LABEL\n"
    } else {
      out += "  \(closedToMarkers)\n"
    }

    let pinning = PinningEvidence(s.inspection)
    out += "\nCertificate checks\n  \(pinning.headline). \(pinning.sentence)\n"

    out += "\nRecorded on\n"
    out += "  Device model  \(s.environment.deviceModel)\n"
    out += "  System        \(s.environment.osVersion)\n"
    out += "  Recorded with \(EvidenceNotes.recordedWith(s))\n"
    if let source = s.source {
      out += "  Capture host  \(source.host ?? AuditPresentation.notStated)\n"
      out += "  Capture file  \(source.fileName), SHA-256 \(source.sha256)\n"
    }
    out +=
      "  Inspection    \(s.inspection.inspectionEnabled ? "on" : "off"); certificate scenario: \(PinningEvidence.scenarioPhrase(s.inspection.scenario))\n"

    if !s.notes.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
      out += "\nNotes\n"
      for line in s.notes.split(separator: "\n", omittingEmptySubsequences: false) {
        out += "  \(line)\n"
      }
    }
    return out
  }

  public static func json(_ o: SessionOverview) -> JSONValue {
    guard
      case .object(var object) = SessionJSON.summaryJSON(o.session, connections: o.connectionCount)
    else {
      return .null
    }
    let s = o.session
    let pinning = PinningEvidence(s.inspection)
    object["project"] = .object(["id": .int(s.projectID), "name": .string(o.projectName)])
    object["markers"] = .array(o.markers.map { SessionJSON.markerJSON($0) })
    object["pinning"] = .object([
      "assessable": .bool(pinning == .assessable), "sentence": .string(pinning.sentence),
    ])
    object["environment"] = .object([
      "deviceModel": .string(s.environment.deviceModel),
      "osVersion": .string(s.environment.osVersion),
      "toolVersion": .string(s.environment.toolVersion),
      "recordedWith": .string(EvidenceNotes.recordedWith(s)),
    ])
    object["capture"] = SessionJSON.captureJSON(s)
    object["inspection"] = .object([
      "inspectionEnabled": .bool(s.inspection.inspectionEnabled),
      "caTrusted": .bool(s.inspection.caTrusted),
      "certificateScenario": .optional(s.inspection.scenario?.name),
    ])
    object["notes"] = .string(s.notes)
    if let coverage = o.coverage {
      object["recording"] = SessionJSON.recordingJSON(coverage, session: s)
    }
    return .object(object)
  }

  public static func started(
    _ session: AuditSession, projectName: String, zone: TimeZone, recorder: RecorderClaim? = nil
  ) -> String {
    """
    Started session \(session.id): \(AuditPresentation.sessionName(session.kind)) in \(projectName), at \(AuditPresentation.clock(session.startedAt, in: zone)).
    \(recorder.map { recordingBy($0, zone: zone) } ?? nothingRecording)
    \(method(for: session.kind))
    \(PinningEvidence(session.inspection).forecast)
    """
  }

  /// Said of an open session while no recorder runs: it holds what is written into the history
  /// while it is open, and nothing writes there now.
  public static let nothingRecording =
    "Nothing is recording: no recorder runs on this store, so nothing is added to this session now. Start one in another terminal ('tunnelvision record --interface IF', as root), or end this session and import a capture made elsewhere ('tunnelvision import FILE --project PROJECT …'), which makes a session of its own."

  public static func ended(_ o: SessionOverview, zone: TimeZone) -> String {
    var out =
      "Ended session \(o.session.id) (\(AuditPresentation.sessionName(o.session.kind))) of \(o.projectName) at \(AuditPresentation.clock(o.session.endedAt ?? o.session.startedAt, in: zone)), with \(Quantity.count(o.connectionCount, "connection")). \(endedConsequence)"
    if let coverage = o.coverage, coverage.basis == .runs {
      out += "\n" + CoverageWording.headline(coverage, open: false)
      for line in CoverageWording.gapLines(
        coverage, instant: { AuditPresentation.dateTime($0, in: zone) })
      {
        out += "\n  " + line
      }
    }
    return out
  }

  public static let noneToEnd = "No session is open, so none was ended."

  public static func deletionQuestion(_ session: AuditSession) -> String {
    "Delete session \(session.id) (\(AuditPresentation.sessionName(session.kind))), the evidence it holds?"
  }

  public static func openNotDeleted(_ session: AuditSession) -> String {
    "Session \(session.id) is open; end it first ('tunnelvision session end'): an open session is not deleted."
  }
}

extension SessionPresentation {
  /// `session list`: a line a session, newest first.
  public static func list(_ o: ProjectOverview, zone: TimeZone) -> String {
    guard !o.sessions.isEmpty else {
      return "“\(o.project.name)” has no sessions yet. \(o.availability.sentence)\n"
    }
    return rows(o, zone: zone, withEnd: false).map { $0 + "\n" }.joined()
  }

  /// A line a session: id, name, state, connections, and when it started (and ended, `withEnd`).
  static func rows(_ o: ProjectOverview, zone: TimeZone, withEnd: Bool) -> [String] {
    let rows = o.sessions.map { session -> [String] in
      var span = AuditPresentation.dateTime(session.startedAt, in: zone)
      if withEnd, let end = session.endedAt {
        span += " → " + AuditPresentation.dateTime(end, in: zone)
      }
      return [
        String(session.id), AuditPresentation.sessionName(session.kind),
        session.isOpen ? ProjectPresentation.openBadge(o.recorder) : "Ended",
        Quantity.count(o.connectionCounts[session.id] ?? 0, "connection"), span,
      ]
    }
    return TextColumns(
      rightAligned: [0], minimumWidths: [2: ProjectPresentation.notRecordingBadge.count]
    ).lines(rows)
  }

}
