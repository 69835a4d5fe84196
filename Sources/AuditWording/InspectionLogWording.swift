import Audit
import Foundation

/// What is said of an inspection log that gave no outcome: at the start of a recording, on its
/// status line, in the session's notes and in the pinning check's reasons.
public enum InspectionLogWording {
  /// The sentence for a log that was not read (nil: it was); `file` names it when known.
  public static func sentence(_ state: InspectionLogState, file: String?) -> String? {
    let log = file.map { "The inspection log \(TerminalText.inline($0))" } ?? "The inspection log"
    switch state {
    case .missing:
      return
        "\(log) was not there when the recorder last looked, so no outcome could be joined (is its path the one mitmproxy writes?)."
    case .unreadable:
      return
        "\(log) could not be read when the recorder last looked, so no outcome could be joined."
    case .empty:
      return "\(log) held no line when the recorder last looked, so no outcome could be joined."
    case .read: return nil
    }
  }

  /// Said when a recording starts on a log that gives nothing yet (nil: it gives lines).
  public static func atStart(_ state: InspectionLogState, file: String) -> String? {
    let log = "The inspection log \(TerminalText.inline(file))"
    switch state {
    case .missing:
      return
        "⚠ \(log) does not exist yet: outcomes are joined once mitmproxy writes it there, and until then pinning cannot be assessed. Is its path the one mitmproxy writes?"
    case .unreadable:
      return "⚠ \(log) cannot be read: no outcome can be joined from it."
    case .empty:
      return "⚠ \(log) holds no line yet: outcomes are joined as mitmproxy writes them."
    case .read: return nil
    }
  }

  /// The status line's word for the log.
  public static func status(_ state: InspectionLogState) -> String {
    switch state {
    case .missing: return "inspection log missing"
    case .unreadable: return "inspection log unreadable"
    case .empty: return "inspection log empty"
    case .read: return "inspection log read"
    }
  }
}
