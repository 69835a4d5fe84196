import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Foundation

/// What `flows` says: the Timeline, a row a connection, newest first.
public enum TimelinePresentation {
  /// A status's word: every row names its status, an encrypted one too.
  public static func mark(_ status: TLSInspectionStatus) -> String {
    TLSStatusWording.word(status)
  }

  /// The name and where it came from; unnamed, the two addresses.
  public static func who(_ f: StoredFlow) -> String {
    guard let name = f.name else { return "\(f.peers.a.text) ↔ \(f.peers.b.text) (no name)" }
    let origin: String
    switch name.origin {
    case .sni: origin = "SNI"
    case .connect: origin = "CONNECT"
    case .host: origin = "Host header"
    case .dns: origin = "DNS"
    }
    return "\(TerminalText.inline(name.text)) (\(origin))"
  }

  public static func duration(_ seconds: Double) -> String {
    seconds < 1 ? "\(Int((seconds * 1000).rounded())) ms" : String(format: "%.1f s", seconds)
  }

  /// A row: the flow's id first, which `flow ID` and `packet ID N` take.
  public static func row(_ f: StoredFlow, zone: TimeZone) -> [String] {
    [
      String(f.id), mark(f.tlsStatus), who(f), AuditPresentation.dateTime(f.firstSeen, in: zone),
      f.ipProtocol.name, "\(f.peers.a.text) ↔ \(f.peers.b.text)",
      "↑ " + Quantity.byteCount(f.bytesOut), "↓ " + Quantity.byteCount(f.bytesIn),
      Quantity.count(f.packetCount, "packet"), duration(f.durationSeconds),
    ]
  }

  /// The most of a name a row shows; `flow ID` shows it whole.
  public static let whoShown = 72

  /// The rows as the terminal shows them, the figures right-aligned.
  public static func rows(_ flows: [StoredFlow], zone: TimeZone) -> String {
    let columns = TextColumns(rightAligned: [0, 6, 7, 8, 9], maximumWidths: [2: whoShown])
    return columns.lines(flows.map { row($0, zone: zone) }).map { $0 + "\n" }.joined()
  }

  static let bars = Array("▁▂▃▄▅▆▇█")

  /// A sparkline of counts, the highest a full bar; a zero an empty space.
  public static func sparkline(_ counts: [Int]) -> String {
    let top = max(counts.max() ?? 0, 1)
    return String(
      counts.map { $0 == 0 ? " " : bars[min(bars.count - 1, ($0 * bars.count - 1) / top)] })
  }

  /// The activity line and what it covers: every packet of the history, whatever the filters.
  public static func activity(
    _ counts: [Int], from start: Date, width: TimeInterval, zone: TimeZone
  ) -> String {
    let end = start.addingTimeInterval(width * Double(counts.count))
    return """
      Activity  \(sparkline(counts))
                packets per \(duration(width)) from \(AuditPresentation.dateTime(start, in: zone)) to \(AuditPresentation.dateTime(end, in: zone)), of every connection: no filter applies to this line

      """
  }

  public static func text(
    _ flows: [StoredFlow], more: Bool, activity: String?, zone: TimeZone, filtered: Bool
  ) -> String {
    guard !flows.isEmpty else {
      return filtered
        ? "No connection matches. Fewer criteria show more.\n"
        : "No connections yet: 'tunnelvision record' or 'tunnelvision import' writes the history.\n"
    }
    var out = (activity.map { $0 + "\n" } ?? "") + rows(flows, zone: zone)
    if more {
      out += "More connections follow: --limit N shows more, --all shows every one.\n"
    }
    return out
  }

  /// Said once when `--follow` starts while no recorder runs.
  public static let followingNothing =
    "Nothing is recording on this store: new connections appear here once 'tunnelvision record' runs. Ctrl-C stops following."

  public static func json(_ flows: [StoredFlow], more: Bool) -> JSONValue {
    .object(["flows": .array(flows.map(json)), "more": .bool(more)])
  }

  /// One flow as the Timeline's JSON has it (a line of `--follow --json`).
  public static func json(_ f: StoredFlow) -> JSONValue {
    .object([
      "id": .int(f.id), "tlsStatus": .string(f.tlsStatus.name),
      "name": f.name.map { .string($0.text) } ?? .null,
      "nameOrigin": f.name.map { .string($0.origin.rawValue) } ?? .null,
      "firstSeen": .string(Instant.rfc3339(f.firstSeen)),
      "lastSeen": .string(Instant.rfc3339(f.lastSeen)),
      "protocol": .string(f.ipProtocol.name),
      "peers": .strings([f.peers.a.text, f.peers.b.text]), "bytesOut": .int(f.bytesOut),
      "bytesIn": .int(f.bytesIn), "packetCount": .int(f.packetCount),
      "auditSessionID": f.auditSessionID.map { .int($0) } ?? .null,
    ])
  }
}
