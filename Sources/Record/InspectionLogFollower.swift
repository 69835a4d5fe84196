import Audit
import AuditRules
import AuditWording
import Foundation

/// Follows an inspecting proxy's log as it grows (tail -f): each call hands over the lines
/// completed since the last. The file may not exist yet; a line cut short waits for its end.
final class InspectionLogFollower {
  let url: URL
  private var handle: FileHandle?
  private var pending = Data()
  private var lineNumber = 0
  /// Lines that were not log lines, with why (the first few kept, for the summary).
  private(set) var unreadable: [InspectionLog.Problem] = []
  private(set) var unreadableCount = 0

  init(url: URL) { self.url = url }

  func newEntries() -> [InspectionLogEntry] {
    if handle == nil { handle = FileHandle(forReadingAtPath: url.path) }
    guard let handle, let data = try? handle.readToEnd(), !data.isEmpty else { return [] }
    pending += data
    var entries: [InspectionLogEntry] = []
    while let newline = pending.firstIndex(of: 0x0a) {
      let raw = pending[pending.startIndex..<newline]
      lineNumber += 1
      do {
        if let entry = try InspectionLog.line(Data(raw), number: lineNumber) {
          entries.append(entry)
        }
      } catch {
        unreadableCount += 1
        if unreadable.count < 3 { unreadable.append(error) }
      }
      pending = Data(pending[(newline + 1)...])
    }
    return entries
  }
}
