import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Foundation

/// What `captures` says: the capture library, newest first.
public enum CapturesPresentation {
  public struct Row: Sendable, Hashable {
    public let file: CaptureFileInfo
    public let packets: Int
    public let sessions: [Int64]
    public let isRecording: Bool
    public init(file: CaptureFileInfo, packets: Int, sessions: [Int64], isRecording: Bool) {
      self.file = file
      self.packets = packets
      self.sessions = sessions
      self.isRecording = isRecording
    }
  }

  public static func text(_ rows: [Row], zone: TimeZone) -> String {
    guard !rows.isEmpty else { return "No capture files: nothing has been recorded or imported.\n" }
    let lines = TextColumns(rightAligned: [0, 1, 3]).lines(
      rows.map { r in
        [
          String(r.file.sequence), Quantity.byteCount(r.file.byteCount),
          r.file.createdAt.map { AuditPresentation.dateTime($0, in: zone) } ?? "—",
          Quantity.count(r.packets, "packet"),
          r.isRecording
            ? "● Recording"
            : r.sessions.isEmpty
              ? "history"
              : "evidence of session \(r.sessions.map(String.init).joined(separator: ", "))",
        ]
      })
    let total = rows.reduce(0) { $0 + $1.file.byteCount }
    return lines.map { $0 + "\n" }.joined()
      + "\(Quantity.count(rows.count, "file")), \(Quantity.byteCount(total)).\n"
  }

  public static func json(_ rows: [Row]) -> JSONValue {
    .array(
      rows.map { r in
        .object([
          "sequence": .int(r.file.sequence), "bytes": .int(r.file.byteCount),
          "createdAt": r.file.createdAt.map { .string(Instant.rfc3339($0)) } ?? .null,
          "packets": .int(r.packets), "evidenceOfSessions": .ints(r.sessions),
          "recording": .bool(r.isRecording),
        ])
      })
  }

  public static func notFound(_ sequence: UInt32) -> String {
    "There is no capture file \(sequence) ('tunnelvision captures' lists them)."
  }

  public static func refusedWhileRecording(_ sequence: UInt32, deleting: Bool) -> String {
    "Capture file \(sequence) is being written by the recorder: its last record may be half-written, so it is not \(deleting ? "deleted" : "exported") while it records. Stop the recorder, or wait for it to rotate to the next file."
  }

  public static func refusedEvidence(_ sequence: UInt32, sessions: [Int64]) -> String {
    "Capture file \(sequence) holds evidence of session \(sessions.map(String.init).joined(separator: ", ")): it is kept until \(sessions.count == 1 ? "that session is" : "those sessions are") deleted."
  }

  public static func deleted(_ sequence: UInt32, packets: Int) -> String {
    "Deleted capture file \(sequence). The \(Quantity.count(packets, "packet")) recorded in it stay in the history as rows; their bytes are gone and do not come back."
  }
}
