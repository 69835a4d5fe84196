import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Foundation
import ReportModel

extension EvidenceReportDigest {
  /// What the report is laid out with before the files are written: the same names, and
  /// digests of the same length (set in a monospace face, they take the same room).
  public static let placeholders = EvidenceBundle.reportCitedNames.map {
    EvidenceReportDigest(name: $0, sha256: String(repeating: "0", count: 64))
  }
}

extension EvidenceReport {
  /// Always the sections in order, the summary alone on the first page; then the appendix when a
  /// finding with a row cites more connections than its row lists.
  public init(
    bundle: EvidenceBundle, capture: EvidenceCaptureSummary, limits: EvidenceReportLimits,
    digests: [EvidenceReportDigest] = EvidenceReportDigest.placeholders
  ) throws(EvidenceReportError) {
    try Self.check(digests)
    guard capture.sessionID == bundle.session.id else {
      throw .captureOfAnotherSession(
        captureSessionID: capture.sessionID, sessionID: bundle.session.id)
    }
    let title = "Evidence report · \(bundle.project.name)"
    let release = bundle.session.kind.release.map { "\($0.version) (\($0.build))" } ?? "baseline"
    let subtitle = "\(bundle.project.name) · \(release) · session \(bundle.session.id)"
    let documentTitle = "Evidence report · \(subtitle)"
    let content = EvidenceReportContent(
      bundle: bundle, capture: capture, limits: limits, digests: digests)
    self.init(
      title: title, subtitle: subtitle, documentTitle: documentTitle,
      footer: "\(documentTitle) · exported \(EvidenceReportContent.time(bundle.exportedAt))",
      sections: EvidenceReportSectionKind.allCases.compactMap {
        let blocks = content.blocks(of: $0)
        return blocks.isEmpty ? nil : EvidenceReportSection(kind: $0, blocks: blocks)
      })
  }

  /// The same report citing other digests: its layout holds, for the digests take the same room.
  public func citing(_ digests: [EvidenceReportDigest]) throws(EvidenceReportError)
    -> EvidenceReport
  {
    try Self.check(digests)
    return EvidenceReport(
      title: title, subtitle: subtitle, documentTitle: documentTitle, footer: footer,
      sections: sections.map { section in
        guard section.kind == .summary else { return section }
        return EvidenceReportSection(
          kind: .summary,
          blocks: section.blocks.map { block in
            guard case .table(let table) = block,
              table.columns == EvidenceReportWording.digestColumns
            else { return block }
            return .table(EvidenceReportContent.digestTable(digests))
          })
      })
  }

  static func check(_ digests: [EvidenceReportDigest]) throws(EvidenceReportError) {
    let hex = Set("0123456789abcdef")
    guard digests.map(\.name) == EvidenceBundle.reportCitedNames,
      digests.allSatisfy({ $0.sha256.count == 64 && $0.sha256.allSatisfy(hex.contains) })
    else { throw .digestsOfOtherFiles(digests.map(\.name)) }
  }
}
