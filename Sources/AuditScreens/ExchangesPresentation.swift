import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Foundation

/// `tunnelvision exchanges SESSION`: what the session's connections carried, an exchange a row —
/// when, its connection, the request line, the answer, where it was read, and which of the test
/// account's values it sent — and what `flow ID` and `findings` say of an exchange's matches.
public enum ExchangesPresentation {
  public static func text(
    _ records: [ExchangeRecord], session: Int64, values: [TestDataValue], zone: TimeZone
  ) -> String {
    var out = "Exchanges · session \(session) · \(Quantity.count(records.count, "exchange"))\n"
    out +=
      values.isEmpty
      ? TestDataWording.noneLookedFor + "\n"
      : TestDataWording.lookedFor(values.map(\.label)) + "\n"
    guard !records.isEmpty else { return out + "\n" + noneRead + "\n" }
    out += "\n"
    let rows =
      [["#", "TIME", "FLOW", "REQUEST", "STATUS", "READ", "SENT OF THE TEST ACCOUNT"]]
      + records.map { r in
        [
          String(r.exchangeID), AuditPresentation.clock(r.start, in: zone),
          r.flowID.map(String.init) ?? "—", "\(r.method) \(r.scheme)://\(r.host)\(r.path)",
          r.status.map(String.init) ?? "—", sourceWord(r.source),
          r.matches.isEmpty ? "—" : labels(r.matches),
        ]
      }
    out +=
      TextColumns(rightAligned: [0, 2], maximumWidths: [3: 72, 6: 60]).lines(rows).joined(
        separator: "\n") + "\n"
    return out
  }

  public static func json(_ records: [ExchangeRecord]) -> JSONValue {
    .array(records.map(EvidenceExchangesDocument.entry))
  }

  public static let noneRead =
    "No exchange was read: nothing the connections carried came from an inspecting proxy's log, HTTP in the clear in the capture, or a HAR file."

  /// Where an exchange was read, in a word.
  public static func sourceWord(_ source: ExchangeSource) -> String {
    switch source {
    case .proxy: return "proxy"
    case .capture: return "in the clear"
    case .har: return "HAR file"
    }
  }

  /// "e-mail, advertising ID": each value once, in the order first found.
  public static func labels(_ matches: [ContentMatch]) -> String {
    var seen: [String] = []
    for m in matches where !seen.contains(m.label) { seen.append(m.label) }
    return seen.joined(separator: ", ")
  }

  /// One match as a line: "e-mail as SHA-256 in query uid".
  public static func matchLine(_ m: ContentMatch) -> String {
    "\(m.label) \(ContentWording.formPhrase(m.form)) in \(m.place.text)"
  }
}
