import Foundation

/// What an import read, as the command reports it: counts and facts, no flows.
public struct ImportSummary: Sendable, Hashable {
  public var frames = 0
  public var packets = 0
  public var flows = 0
  public var namesFromSNI = 0, namesFromQUIC = 0, namesFromDNS = 0
  public var unparseable: [String: Int] = [:]
  public var damagedRecords = 0
  public var deviceAddresses: [String] = []
  public var devicesInferred = true
  public init() {}
}

/// What `tunnelvision import` says, and the sentence it keeps in the session's notes.
public enum ImportPresentation {
  /// Addresses listed on the terminal; the session's notes list every one.
  public static let addressesShown = 12

  /// The session's notes line: how the device side was settled, with every address.
  public static func devicesNote(_ s: ImportSummary, fileName: String) -> String {
    s.devicesInferred
      ? "Imported from \(fileName). Device side inferred per connection: the side that opened it (sent the TCP SYN or the first datagram), the private address over a public one when the opening was not seen; a connection to a group address is the device's only when a device address sent it. Device addresses: \(s.deviceAddresses.joined(separator: ", "))."
      : "Imported from \(fileName). Device addresses as given: \(s.deviceAddresses.joined(separator: ", "))."
  }

  /// The session's notes line for an inspection log: what it showed, beside what the assessor
  /// stated of the CA.
  public static func inspectionNote(_ s: InspectionLogSummary, fileName: String) -> String {
    var out =
      "Inspection outcomes from \(fileName) (mitmproxy, the tunnelvision addon's log): \(AuditPresentation.count(s.lines, "line")); \(AuditPresentation.count(s.accepted, "connection")) accepted the proxy's certificate and sent requests, \(s.refused) refused it, \(s.closedAfterHandshake) completed the handshake and closed without a request"
    if s.withoutOutcome > 0 {
      out += ", \(s.withoutOutcome) told neither (a handshake left unfinished or cut off)"
    }
    out += "."
    if s.unjoined > 0 {
      out += " \(AuditPresentation.count(s.unjoined, "line")) joined no connection of the capture."
    }
    if s.duplicates > 0 {
      out +=
        " \(AuditPresentation.count(s.duplicates, "line")) named a connection another line had named, and were not used."
    }
    return out
  }

  /// What a log gave, as import and record say it; `unjoined` says what became of the lines that
  /// joined no connection.
  public static func inspectionLogLine(_ s: InspectionLogSummary, unjoined: String) -> String {
    "Inspection log: \(AuditPresentation.count(s.joined, "line")) joined to a connection, of \(AuditPresentation.grouped(s.lines)); \(s.accepted) accepted the proxy's certificate, \(s.refused) refused it, \(s.closedAfterHandshake) closed after the handshake without a request"
      + (s.unjoined > 0 ? "; \(AuditPresentation.count(s.unjoined, "line")) \(unjoined)" : "") + "."
  }

  public static func inspectionLogUnreadable(path: String, _ problem: InspectionLog.Problem)
    -> String
  {
    "The inspection log \(TerminalText.inline(path)) cannot be read: line \(problem.line): \(problem.reason). Nothing was imported."
  }

  public static func text(
    _ a: ImportSummary, session: AuditSession, projectName: String, file: String,
    inspection: InspectionLogSummary? = nil
  )
    -> String
  {
    var out =
      "Imported \(file) into session \(session.id): \(AuditPresentation.sessionName(session.kind)) of \(projectName).\n"
    out +=
      "  \(AuditPresentation.count(a.frames, "frame")) read, \(AuditPresentation.count(a.packets, "packet")) in \(AuditPresentation.count(a.flows, "connection")).\n"
    out +=
      "  Names: \(AuditPresentation.grouped(a.namesFromSNI)) from a ClientHello's SNI, \(AuditPresentation.grouped(a.namesFromQUIC)) from a QUIC Initial, \(AuditPresentation.grouped(a.namesFromDNS)) from DNS answers.\n"
    let unread = a.unparseable.values.reduce(0, +)
    if unread > 0 {
      out += "  \(AuditPresentation.count(unread, "frame")) could not be read as IP traffic:\n"
      for (reason, count) in a.unparseable.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
        out += "    \(AuditPresentation.grouped(count))  \(reason)\n"
      }
    }
    if a.damagedRecords > 0 {
      out +=
        "  \(AuditPresentation.count(a.damagedRecords, "record")) at the end of the file \(a.damagedRecords == 1 ? "was" : "were") cut short and not read.\n"
    }
    let shown = a.deviceAddresses.prefix(addressesShown).joined(separator: ", ")
    let more = a.deviceAddresses.count - addressesShown
    out +=
      "  Device \(a.devicesInferred ? "addresses (inferred)" : "addresses"): \(shown)"
      + (more > 0
        ? ", and \(AuditPresentation.count(more, "more", "more")) (the session's notes list all \(AuditPresentation.grouped(a.deviceAddresses.count)))\n"
        : "\n")
    if let s = inspection {
      out +=
        "  " + inspectionLogLine(s, unjoined: "joined none") + "\n"
      out +=
        "  The device \(session.inspection.caTrusted ? "trusted" : "did not trust") the proxy's CA, as stated\(session.inspection.caTrusted ? " (--ca-trusted)" : " (no --ca-trusted): pinning is not assessed").\n"
    }
    if let source = session.source {
      out +=
        "  Captured with \(source.application ?? "an application the file does not name")\(source.host.map { " on \($0)" } ?? ""); SHA-256 \(source.sha256).\n"
    }
    out +=
      "  Started \(Instant.rfc3339(session.startedAt)), ended \(Instant.rfc3339(session.endedAt ?? session.startedAt)).\n"
    out +=
      "  'tunnelvision findings \(session.id)' says what it shows; 'tunnelvision export \(session.id)' writes its bundle.\n"
    return out
  }

  public static func json(_ a: ImportSummary, session: AuditSession) -> JSONValue {
    .object([
      "sessionID": .int(session.id), "frames": .int(a.frames), "packets": .int(a.packets),
      "flows": .int(a.flows), "namesFromSNI": .int(a.namesFromSNI),
      "namesFromQUIC": .int(a.namesFromQUIC), "namesFromDNS": .int(a.namesFromDNS),
      "unparseable": .object(a.unparseable.mapValues { .int($0) }),
      "damagedRecords": .int(a.damagedRecords), "deviceAddresses": .strings(a.deviceAddresses),
      "captureSHA256": .optional(session.source?.sha256),
    ])
  }

  /// A second import of the same bytes, refused: the first is named.
  public static func alreadyImported(fileName: String, as session: AuditSession, of project: String)
    -> String
  {
    "\(fileName) was imported already, as session \(session.id) (\(AuditPresentation.sessionName(session.kind)) of \(project)): a second import would make a second session of the same traffic. Add --again to import it anyway."
  }
}
