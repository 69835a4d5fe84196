import Foundation

public enum AuditStoreError: Error, Sendable, Hashable {
  case emptyProjectName
  case duplicateAllowlistPattern(String)
  case projectNotFound(Int64)
  case sessionNotFound(Int64)
  /// Carries the session in the way.
  case sessionAlreadyOpen(Int64)
  case sessionAlreadyEnded(Int64)
  /// An end or a marker dated before the session began.
  case dateBeforeSessionStart
  case emptyMarkerLabel
  /// A baseline records the device without the audited app: no consent is given in it.
  case consentMarkerInBaseline
  /// A project's test account has a value of that label already.
  case testDataLabelTaken(String)
  case testDataLabelNotFound(String)

  /// Whether a marker of this kind may be placed in a session of that kind.
  public static func markerRefusal(_ marker: SessionMarkerKind, in session: AuditSessionKind)
    -> AuditStoreError?
  {
    if case .consentGiven = marker, case .baseline = session { return .consentMarkerInBaseline }
    return nil
  }
}
