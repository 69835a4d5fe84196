import Foundation
import SystemCalls

extension CommandContext {
  /// The trace `TUNNELVISION_TRACE=1` asks for: each phase on standard error with its time and
  /// the process's resident memory then; nil otherwise.
  func phaseTrace() -> PhaseTrace? {
    guard environment["TUNNELVISION_TRACE"] == "1" else { return nil }
    return PhaseTrace { name, seconds in
      self.standardError(
        String(
          format: "%7.3f s  %@%@\n", seconds, name,
          ResidentMemory.status().map { "  (\($0))" } ?? ""))
    }
  }
}

/// This process's resident memory now and at its peak, from /proc/self/status (Linux), what
/// malloc has handed out, and its arenas, for the trace.
enum ResidentMemory {
  static func status() -> String? {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
      return nil
    }
    func kB(_ key: String) -> Double? {
      text.split(separator: "\n").first { $0.hasPrefix(key + ":") }
        .flatMap {
          Double(
            $0.dropFirst(key.count + 1).trimmingCharacters(in: .whitespaces).split(separator: " ")
              .first ?? "")
        }
    }
    guard let now = kB("VmRSS"), let peak = kB("VmHWM") else { return nil }
    let arenas = MallocArenas.count.map { ", \($0) malloc arena\($0 == 1 ? "" : "s")" } ?? ""
    return String(
      format: "resident %.1f MiB, peak %.1f MiB, malloc %.1f MiB in use", now / 1024, peak / 1024,
      Double(MallocArenas.bytesInUse) / 1_048_576) + arenas
  }
}
