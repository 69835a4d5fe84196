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
    // Lines are read where they lie; what follows the last whole line is kept once, after, so
    // that reading is linear in the log (copying the rest after each line made it quadratic).
    var start = pending.startIndex
    while let newline = pending[start...].firstIndex(of: 0x0a) {
      lineNumber += 1
      do {
        if let entry = try InspectionLog.line(Data(pending[start..<newline]), number: lineNumber) {
          entries.append(entry)
        }
      } catch {
        unreadableCount += 1
        if unreadable.count < 3 { unreadable.append(error) }
      }
      start = newline + 1
    }
    pending = Data(pending[start...])
    return entries
  }
}
