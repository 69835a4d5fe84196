import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Crypto
import Foundation
import ReportContent
import ReportLayout
import ReportModel
import ReportPDF

/// report.pdf: the report of the bundle's documents, laid out on A4 and drawn with the bundled fonts.
public enum EvidenceReportRenderer {
  public struct Timing: Sendable {
    public var layout: TimeInterval = 0
    public var drawing: TimeInterval = 0
    public var pages = 0

    public var total: TimeInterval { layout + drawing }
  }

  /// A report laid out, waiting for the digests of the bundle's other files to be drawn.
  public struct Prepared {
    let layout: EvidenceReportLayout
    let typography: EvidenceReportTypography
    let metadata: EvidenceReportPDF.Metadata
    let layoutSeconds: TimeInterval

    public var pageCount: Int { layout.pageCount }

    /// Writes `report.pdf` into the folder, citing the digests.
    @discardableResult
    public func draw(
      citing digests: [EvidenceReportDigest], into folder: URL,
      fileName: String = EvidenceBundle.reportName
    ) throws -> Timing {
      let start = Date()
      try EvidenceReportPDF.write(
        layout.with(try layout.report.citing(digests)), typography: typography,
        metadata: metadata,
        to: folder.appendingPathComponent(fileName))
      return Timing(
        layout: layoutSeconds, drawing: Date().timeIntervalSince(start), pages: layout.pageCount)
    }
  }

  /// Measures and plans the pages; the drawing makes each page again from what was measured.
  /// Its creation date is the export instant.
  public static func prepare(
    _ bundle: EvidenceBundle, _ capture: EvidenceCaptureSummary,
    limits: EvidenceReportLimits = .bundled
  ) throws -> Prepared {
    let report = try EvidenceReport(bundle: bundle, capture: capture, limits: limits)
    let typography = try EvidenceReportTypography(fontsDirectory: try ReportFonts.directory())
    let start = Date()
    let layout = EvidenceReportLayout(report: report, geometry: .a4, measuring: typography)
    typography.forgetMeasurements()
    return Prepared(
      layout: layout, typography: typography,
      metadata: .init(
        title: report.documentTitle, subject: report.subtitle, creator: bundle.exportedWith,
        created: Instant.rfc3339ToTheSecond(bundle.exportedAt),
        createdText: Instant.rfc3339(bundle.exportedAt)),
      layoutSeconds: Date().timeIntervalSince(start))
  }

  /// Lays out and draws `report.pdf` into the folder at once.
  @discardableResult
  public static func render(
    _ bundle: EvidenceBundle, _ capture: EvidenceCaptureSummary,
    citing digests: [EvidenceReportDigest], into folder: URL,
    limits: EvidenceReportLimits = .bundled, fileName: String = EvidenceBundle.reportName
  ) throws -> Timing {
    try prepare(bundle, capture, limits: limits).draw(
      citing: digests, into: folder, fileName: fileName)
  }

  /// The exporter's hook.
  public static let forExporter: EvidenceReportRendering = { bundle, capture in
    let prepared = try prepare(bundle, capture)
    return { digests, folder in try prepared.draw(citing: digests, into: folder) }
  }
}
