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
      try draw(citing: digests, into: folder, fileName: fileName, fingerprint: nil)
    }

    /// Writes `report.pdf` into the folder, and makes its facts as the archive needs them while
    /// cairo writes it, on another thread: what reading it back afterwards would make.
    func drawFingerprinted(citing digests: [EvidenceReportDigest], into folder: URL) throws
      -> Drawn
    {
      let url = folder.appendingPathComponent(EvidenceBundle.reportName)
      let fingerprint = try FingerprintAlongside(deflating: url)
      let timing = try draw(
        citing: digests, into: folder, fileName: EvidenceBundle.reportName,
        fingerprint: fingerprint)
      return Drawn(timing: timing, file: try fingerprint.file(at: url))
    }

    private func draw(
      citing digests: [EvidenceReportDigest], into folder: URL, fileName: String,
      fingerprint: FingerprintAlongside?
    ) throws -> Timing {
      let start = Date()
      try EvidenceReportPDF.write(
        layout.with(try layout.report.citing(digests)), typography: typography,
        metadata: metadata,
        to: folder.appendingPathComponent(fileName), settled: fingerprint.map { $0.take })
      return Timing(
        layout: layoutSeconds, drawing: Date().timeIntervalSince(start), pages: layout.pageCount)
    }
  }

  /// report.pdf drawn for a bundle: how long it took, and the file's facts when they were made
  /// as it was drawn (else the exporter reads it back for them).
  public struct Drawn {
    public var timing: Timing
    public var file: WrittenFile?

    public init(timing: Timing, file: WrittenFile? = nil) {
      self.timing = timing
      self.file = file
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
    return { digests, folder in try prepared.drawFingerprinted(citing: digests, into: folder) }
  }
}
