import Audit
import Foundation
import ReportPDF

/// report.pdf: the report of the bundle's documents, laid out on A4 and drawn with the bundled fonts.
public enum EvidenceReportRenderer {
  public struct Timing: Sendable {
    public var layout: TimeInterval = 0
    public var drawing: TimeInterval = 0
    public var pages = 0

    public var total: TimeInterval { layout + drawing }
  }

  /// Writes `report.pdf` into the folder. Its creation date is the export instant.
  @discardableResult
  public static func render(
    _ bundle: EvidenceBundle, _ capture: EvidenceCaptureSummary, into folder: URL,
    limits: EvidenceReportLimits = .bundled, fileName: String = EvidenceBundle.reportName
  ) throws -> Timing {
    let report = try EvidenceReport(bundle: bundle, capture: capture, limits: limits)
    let typography = try EvidenceReportTypography(fontsDirectory: try ReportFonts.directory())
    var timing = Timing()
    let start = Date()
    // The layout measures and plans the pages; the drawing makes each page again from what was measured.
    let layout = EvidenceReportLayout(report: report, geometry: .a4, measuring: typography)
    typography.forgetMeasurements()
    timing.layout = Date().timeIntervalSince(start)
    let drawStart = Date()
    try EvidenceReportPDF.write(
      layout, typography: typography,
      metadata: .init(
        title: report.documentTitle, subject: report.subtitle, creator: bundle.exportedWith,
        created: bundle.exportedAt),
      to: folder.appendingPathComponent(fileName))
    timing.drawing = Date().timeIntervalSince(drawStart)
    timing.pages = layout.pageCount
    return timing
  }

  /// The exporter's hook.
  public static let forExporter: EvidenceReportRendering = { bundle, capture, folder in
    try render(bundle, capture, into: folder)
  }
}
