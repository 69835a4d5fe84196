import Foundation

/// What a running recorder says of itself in its store: which process, reading what, since when.
/// Held under a lock the recorder keeps while it runs (a recorder that died holds none), so a
/// claim is read only while the lock says it is true.
public struct RecorderClaim: Sendable, Hashable {
  public let processID: Int32
  /// The interface, or the file or stream read.
  public let sourceName: String
  /// Whether it captures an interface live (else it reads a file or a stream).
  public let isLive: Bool
  public let since: Date

  public init(processID: Int32, sourceName: String, isLive: Bool, since: Date) {
    self.processID = processID
    self.sourceName = sourceName
    self.isLive = isLive
    self.since = since
  }

  static let heading = "tunnelvision recorder 1"

  /// The claim's bytes in the lock file: a line a fact.
  public var text: String {
    """
    \(Self.heading)
    pid \(processID)
    source \(TerminalText.inline(sourceName))
    live \(isLive ? "yes" : "no")
    since \(Instant.rfc3339(since))

    """
  }

  /// A claim as `text` wrote it; nil for anything else (a file cut short, another program's).
  public static func parse(_ text: String) -> RecorderClaim? {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard lines.count >= 5, lines[0] == heading else { return nil }
    func value(_ i: Int, _ key: String) -> String? {
      lines[i].hasPrefix(key + " ") ? String(lines[i].dropFirst(key.count + 1)) : nil
    }
    guard let pid = value(1, "pid").flatMap({ Int32($0) }), let source = value(2, "source"),
      let live = value(3, "live"), live == "yes" || live == "no",
      let since = value(4, "since").flatMap(Instant.parseWritten)
    else { return nil }
    return RecorderClaim(processID: pid, sourceName: source, isLive: live == "yes", since: since)
  }
}
