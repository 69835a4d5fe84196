import Audit
import AuditRules

/// The `audit_sessions` table's columns, in the table's order: every query of sessions selects
/// and reads through these names (held against the migrated table by a test, as `FlowColumn`).
enum SessionColumn: Int, TableColumns {
  case id, projectId, kind, appVersion, buildNumber, deviceModel, osVersion, toolVersion
  case inspectionEnabled, caTrusted, startedAt, endedAt, notes
  case captureSha256, captureFileName, captureApplication, captureHost
  case recorderAtEnd, inspectionLogAtEnd
  case certificateScenario

  var name: String { Self.names[rawValue] }

  private static let names = allCases.map(\.snakeCaseIdentifier)
}
