import Audit
import Foundation

/// The open audit session as the tagging rule needs it: which, and since when.
public struct OpenSessionStart: Sendable, Hashable {
  public let id: Int64
  public let startedAt: Date
  /// The certificate scenario it states: an inspection log's line of another is not joined.
  public let scenario: CertificateScenario?
  public init(id: Int64, startedAt: Date, scenario: CertificateScenario? = nil) {
    self.id = id
    self.startedAt = startedAt
    self.scenario = scenario
  }
}

/// Which audit session a packet's connection row belongs to: the session open when it is
/// written, if that session started by the packet's time and the connection is the recording's
/// (`RecordingScope`); otherwise none (history). A row's session is decided when the row is made
/// and never changed: a connection whose next packet falls to another session (or to none)
/// continues in a new row, so an ended session's evidence is sealed.
public enum SessionTagging {
  public static func session(forPacketAt time: Date, open: OpenSessionStart?, inScope: Bool)
    -> Int64?
  {
    guard inScope, let open,
      Instant.nanoseconds(open.startedAt) <= Instant.nanoseconds(time)
    else { return nil }
    return open.id
  }
}
