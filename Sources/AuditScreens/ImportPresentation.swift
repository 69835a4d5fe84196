import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Foundation

/// What `tunnelvision import` says, and the sentence it keeps in the session's notes.
public enum ImportPresentation {
  /// Addresses listed on the terminal; the session's notes list every one.
  public static let addressesShown = 12

  /// What a log gave, as import and record say it; `unjoined` says what became of the lines that
  /// joined no connection.
  public static func inspectionLogLine(_ s: InspectionLogSummary, unjoined: String) -> String {
    "Inspection log: \(Quantity.count(s.joined, "line")) joined to a connection, of \(Quantity.grouped(s.lines)); \(s.accepted) accepted the proxy's certificate, \(s.refused) refused it, \(s.closedAfterHandshake) closed after the handshake without a request"
      + (s.unjoined > 0 ? "; \(Quantity.count(s.unjoined, "line")) \(unjoined)" : "") + "."
      + (s.otherScenario.isEmpty ? "" : " " + SessionNotes.otherScenario(s))
  }

  public static func inspectionLogUnreadable(path: String, _ problem: InspectionLog.Problem)
    -> String
  {
    "The inspection log \(TerminalText.inline(path)) cannot be read: line \(problem.line): \(problem.reason). Nothing was imported."
  }

  /// What was read of what the connections carried: requests in the clear, the proxy's exchanges.
  public static func contentLine(
    inClear: Int, inspection: InspectionLogSummary?, har: (entries: Int, joined: Int)? = nil
  ) -> String? {
    var parts: [String] = []
    if inClear > 0 { parts.append("\(Quantity.count(inClear, "request")) read in the clear") }
    if let s = inspection, s.exchanges > 0 {
      parts.append(
        "\(Quantity.count(s.exchanges, "exchange")) from the inspection log, \(Quantity.grouped(s.exchangesJoined)) joined to a connection"
      )
    }
    if let har {
      parts.append(
        "\(Quantity.count(har.entries, "exchange")) from the HAR file, \(Quantity.grouped(har.joined)) joined to a connection"
      )
    }
    return parts.isEmpty ? nil : "Content: " + parts.joined(separator: "; ") + "."
  }

  public static func harUnreadable(path: String, reason: String) -> String {
    "The HAR file \(TerminalText.inline(path)) cannot be read: \(TerminalText.inline(reason)). Nothing was imported."
  }

  public static func text(
    _ a: ImportSummary, session: AuditSession, projectName: String, file: String,
    inspection: InspectionLogSummary? = nil, har: (entries: Int, joined: Int)? = nil
  )
    -> String
  {
    var out =
      "Imported \(file) into session \(session.id): \(AuditPresentation.sessionName(session.kind)) of \(projectName).\n"
    out +=
      "  \(Quantity.count(a.frames, "frame")) read, \(Quantity.count(a.packets, "packet")) in \(Quantity.count(a.flows, "connection")).\n"
    out +=
      "  Names: \(Quantity.grouped(a.namesFromSNI)) from a ClientHello's SNI, \(Quantity.grouped(a.namesFromQUIC)) from a QUIC Initial, \(Quantity.grouped(a.namesFromDNS)) from DNS answers.\n"
    let unread = a.unparseable.values.reduce(0, +)
    if unread > 0 {
      out += "  \(Quantity.count(unread, "frame")) could not be read as IP traffic:\n"
      for (reason, count) in a.unparseable.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
        out += "    \(Quantity.grouped(count))  \(reason)\n"
      }
    }
    for line in damagedLines(a) { out += "  \(line)\n" }
    if a.piecesNotReassembled > 0 {
      out += "  \(SessionNotes.piecesNotReassembled(a.piecesNotReassembled))\n"
    }
    let shown = a.deviceAddresses.prefix(addressesShown).joined(separator: ", ")
    let more = a.deviceAddresses.count - addressesShown
    out +=
      "  Device \(a.devicesInferred ? "addresses (inferred)" : "addresses"): \(shown)"
      + (more > 0
        ? ", and \(Quantity.count(more, "more", "more")) (the session's notes list all \(Quantity.grouped(a.deviceAddresses.count)))\n"
        : "\n")
    if let s = inspection {
      out +=
        "  " + inspectionLogLine(s, unjoined: "joined none") + "\n"
      out +=
        "  Certificate scenario, as stated: \(PinningEvidence.scenarioPhrase(session.inspection.scenario))\(session.inspection.scenario == nil ? " (no --ca): no outcome is assessed" : " (--ca \(session.inspection.scenario!.argument))").\n"
    }
    if let line = contentLine(inClear: a.exchangesInTheClear, inspection: inspection, har: har) {
      out += "  " + line + "\n"
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
      "damagedRecords": .int(a.damagedRecords),
      "damaged": .array(
        a.damaged.map { .object(["offset": .int($0.offset), "reason": .optional($0.reason)]) }),
      "piecesNotReassembled": .int(a.piecesNotReassembled),
      "deviceAddresses": .strings(a.deviceAddresses),
      "captureSHA256": .optional(session.source?.sha256),
    ])
  }

  /// A second import of the same bytes, refused: the first is named.
  public static func alreadyImported(fileName: String, as session: AuditSession, of project: String)
    -> String
  {
    "\(fileName) was imported already, as session \(session.id) (\(AuditPresentation.sessionName(session.kind)) of \(project)): a second import would make a second session of the same traffic. Add --again to import it anyway."
  }

  /// What became of the records that could not be read: one cut short at the end of the file, or
  /// each skipped one named by where it began and what is wrong with it.
  public static func damagedLines(_ a: ImportSummary) -> [String] {
    guard a.damagedRecords > 0 else { return [] }
    let cut = a.damaged.filter { $0.reason == nil }
    let skipped = a.damaged.filter { $0.reason != nil }
    var lines: [String] = []
    if !cut.isEmpty {
      lines.append("1 record at the end of the file was cut short and not read.")
    }
    let others = a.damagedRecords - cut.count
    if others > 0 {
      let named = skipped.map { "at byte \(Quantity.grouped($0.offset)), \($0.reason!)" }
      let more = others - skipped.count
      lines.append(
        "\(Quantity.count(others, "record")) could not be read and \(others == 1 ? "was" : "were") skipped, the file read on past \(others == 1 ? "it" : "them"): "
          + named.joined(separator: "; ") + (more > 0 ? "; and \(Quantity.grouped(more)) more" : "")
          + ".")
    }
    return lines
  }
}
