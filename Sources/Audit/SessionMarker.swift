import Foundation

public enum SessionMarkerKind: Sendable, Hashable {
  case consentGiven, loggedIn, loggedOut
  /// The user withdrew a consent given before (O.Purp_5).
  case consentWithdrawn
  case custom(String)
}

public struct SessionMarker: Sendable, Hashable, Identifiable {
  public let id: Int64
  public let sessionID: Int64
  public let date: Date
  public let kind: SessionMarkerKind
  public init(id: Int64, sessionID: Int64, date: Date, kind: SessionMarkerKind) {
    self.id = id
    self.sessionID = sessionID
    self.date = date
    self.kind = kind
  }
}

/// The open session with its project's name: what is needed to say where a marker would go.
public struct AuditRecording: Sendable, Hashable {
  public let session: AuditSession
  public let projectName: String
  public init(session: AuditSession, projectName: String) {
    self.session = session
    self.projectName = projectName
  }
}

public enum OpenSessionMarkerOutcome: Sendable, Hashable {
  case placed(SessionMarker, in: AuditRecording)
  case noOpenSession
}
