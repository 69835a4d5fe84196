import Audit
import AuditRules
import Foundation

/// The lines a recorder or an import keeps in a session's notes: what recorded it, how devices
/// were told, what an inspection log gave.
public enum SessionNotes {
  /// Pieces of streams not reassembled (import's output, record's summary).
  public static func piecesNotReassembled(_ count: Int) -> String {
    "\(Quantity.count(count, "stream piece")) (TCP segments or QUIC CRYPTO frames beyond the first \(Quantity.grouped(ReadingLimits.piecesPerDirection)) of a direction) were kept but not reassembled: their connections' readings stop before them."
  }

  /// The line the recorder adds to a session's notes when it first sees it open: what recorded
  /// it, and which clocks stamped its packets and markers.
  /// `logState`: what the inspection log gave when the note was made.
  public static func sessionNote(
    _ claim: RecorderClaim, inspectionLog: String? = nil, logState: InspectionLogState? = nil
  ) -> String {
    var out =
      claim.isLive
      ? "Recorded live on interface \(TerminalText.inline(claim.sourceName)) by 'tunnelvision record' (pid \(claim.processID)); packets and markers are stamped by the same clock, this machine's."
      : "Recorded from \(TerminalText.inline(claim.sourceName)) by 'tunnelvision record' (pid \(claim.processID)); packets are stamped by the clock of the machine that captured them, markers by this machine's: they agree only as far as those clocks do."
    if let inspectionLog {
      out +=
        " Inspection outcomes are read from \(TerminalText.inline(inspectionLog)) (mitmproxy, the tunnelvision addon's log) as its lines are written."
      if let logState, let sentence = atNote(logState, file: inspectionLog) {
        out += " " + sentence
      }
    }
    return out
  }

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
      "Inspection outcomes from \(fileName) (mitmproxy, the tunnelvision addon's log): \(Quantity.count(s.lines, "line")); \(Quantity.count(s.accepted, "connection")) accepted the proxy's certificate and sent requests, \(s.refused) refused it, \(s.closedAfterHandshake) completed the handshake and closed without a request"
    if s.withoutOutcome > 0 {
      out += ", \(s.withoutOutcome) told neither (a handshake left unfinished or cut off)"
    }
    out += "."
    if s.unjoined > 0 {
      out += " \(Quantity.count(s.unjoined, "line")) joined no connection of the capture."
    }
    if !s.otherScenario.isEmpty { out += " " + otherScenario(s) }
    if s.duplicates > 0 {
      out +=
        " \(Quantity.count(s.duplicates, "line")) named a connection another line had named, and were not used."
    }
    return out
  }

  /// Lines written under another certificate scenario than the session's: named, never joined.
  public static func otherScenario(_ s: InspectionLogSummary) -> String {
    let count = s.otherScenario.values.reduce(0, +)
    let named = s.otherScenario.sorted { $0.key.rawValue < $1.key.rawValue }.map {
      "\($0.value) \($0.key.name)"
    }.joined(separator: ", ")
    return
      "\(Quantity.count(count, "line")) named another certificate scenario than the session states (\(named)) and \(count == 1 ? "was" : "were") not joined: an outcome means something only under the scenario it was served in."
  }

  /// What the note says of a log that gave nothing when the recorder first saw the session.
  static func atNote(_ state: InspectionLogState, file: String) -> String? {
    switch state {
    case .missing:
      return "When the session was first seen, \(TerminalText.inline(file)) did not exist."
    case .unreadable:
      return "When the session was first seen, \(TerminalText.inline(file)) could not be read."
    case .empty:
      return "When the session was first seen, \(TerminalText.inline(file)) held no line."
    case .read: return nil
    }
  }
}
