import Foundation

public struct AppRelease: Sendable, Hashable {
  public let version: String
  public let build: String
  public init(version: String, build: String) {
    self.version = version
    self.build = build
  }
}

public enum AuditSessionKind: Sendable, Hashable {
  /// Recorded without the audited app.
  case baseline
  case audit(AppRelease)

  public var release: AppRelease? {
    if case .audit(let release) = self { return release }
    return nil
  }
}

public struct AuditEnvironment: Sendable, Hashable {
  public let deviceModel: String
  public let osVersion: String
  public let toolVersion: String
  public init(deviceModel: String, osVersion: String, toolVersion: String) {
    self.deviceModel = deviceModel
    self.osVersion = osVersion
    self.toolVersion = toolVersion
  }
}

public struct AuditSession: Sendable, Hashable, Identifiable {
  public let id: Int64
  public let projectID: Int64
  public let kind: AuditSessionKind
  public let environment: AuditEnvironment
  public let inspection: InspectionConditions
  public let startedAt: Date
  /// nil while open.
  public let endedAt: Date?
  public let notes: String
  /// The capture file an imported session was read from; nil for a session recorded here.
  public let source: CaptureSource?
  /// The recorder run that was running when the session ended (it covers the session to its
  /// end, however it ends later); nil when none ran then, and while open.
  public let recorderAtEnd: Int64?
  /// What had become of that run's inspection log when the session ended.
  public let inspectionLogAtEnd: InspectionLogState?

  public init(
    id: Int64, projectID: Int64, kind: AuditSessionKind, environment: AuditEnvironment,
    inspection: InspectionConditions, startedAt: Date, endedAt: Date?, notes: String,
    source: CaptureSource? = nil, recorderAtEnd: Int64? = nil,
    inspectionLogAtEnd: InspectionLogState? = nil
  ) {
    self.inspectionLogAtEnd = inspectionLogAtEnd
    self.recorderAtEnd = recorderAtEnd
    self.id = id
    self.projectID = projectID
    self.kind = kind
    self.environment = environment
    self.inspection = inspection
    self.startedAt = startedAt
    self.endedAt = endedAt
    self.notes = notes
    self.source = source
  }

  public var isOpen: Bool { endedAt == nil }
  /// The year (UTC) the session began: the year a TLS document's tables are read for.
  public var startYear: Int {
    CivilTime(secondsSinceEpoch: Int64(startedAt.timeIntervalSince1970.rounded(.down))).year
  }
}

/// Everything of a session but what the store assigns (the row id and the instant).
public struct AuditSessionDraft: Sendable, Hashable {
  public var projectID: Int64
  public var kind: AuditSessionKind
  public var environment: AuditEnvironment
  public var inspection: InspectionConditions
  public var notes: String
  public var source: CaptureSource?

  public init(
    projectID: Int64, kind: AuditSessionKind, environment: AuditEnvironment,
    inspection: InspectionConditions, notes: String = "", source: CaptureSource? = nil
  ) {
    self.projectID = projectID
    self.kind = kind
    self.environment = environment
    self.inspection = inspection
    self.notes = notes
    self.source = source
  }
}
