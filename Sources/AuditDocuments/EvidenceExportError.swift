import Audit
import AuditRules
import AuditWording

/// The ways an export fails, as facts: the exporter throws them and
/// `EvidenceExportPresentation.failure` words them.
public enum EvidenceExportError: Error, Sendable, Hashable {
  case sessionNotFound
  case sessionStillOpen
  /// The project's catalogue could not be had: none other is used instead.
  case catalogue(RequirementCatalogueLibraryError)
  case historyUnreadable(String)
  case historyChangedWhileExporting
  case captureDirectoryUnavailable(String)
  case writeFailed(String)
  /// The directory the file was asked for in is not there (found before anything is read).
  case destinationDirectoryMissing(String)
  /// report.pdf could not be drawn (its fonts not found, Cairo refusing): why.
  case reportNotDrawn(String)
}
