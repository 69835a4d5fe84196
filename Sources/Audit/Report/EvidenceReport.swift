import Foundation

public enum EvidenceReportSectionKind: String, Sendable, Hashable, CaseIterable {
  case summary, session, method, catalogue, requirements, findings, checks, tlsReadings, capture

  public var title: String {
    switch self {
    case .summary: return "Summary"
    case .session: return "Session"
    case .method: return "Method"
    case .catalogue: return "Catalogue"
    case .requirements: return "Requirements"
    case .findings: return "Findings"
    case .checks: return "Checks"
    case .tlsReadings: return "TLS readings"
    case .capture: return "Capture"
    }
  }
}

/// How a cell's text is set: as prose, or as a literal value read character by character.
public enum EvidenceReportCellStyle: Sendable, Hashable { case text, literal }

public struct EvidenceReportCell: Sendable, Hashable {
  public let text: String
  public let style: EvidenceReportCellStyle
  /// The destination this cell links to (a finding identifier), or the one it defines.
  public let link: String?
  public let anchor: String?
  public init(
    _ text: String, style: EvidenceReportCellStyle = .text, link: String? = nil,
    anchor: String? = nil
  ) {
    self.text = text
    self.style = style
    self.link = link
    self.anchor = anchor
  }
}

public struct EvidenceReportTable: Sendable, Hashable {
  public let columns: [String]
  public let rows: [[EvidenceReportCell]]
  public init(columns: [String], rows: [[EvidenceReportCell]]) {
    precondition(rows.allSatisfy { $0.count == columns.count })
    self.columns = columns
    self.rows = rows
  }
}

public struct EvidenceReportFact: Sendable, Hashable {
  public let label: String
  public let value: String
  public let literal: Bool
  /// No page break between this fact and the next.
  public let staysWithNext: Bool
  public init(_ label: String, _ value: String, literal: Bool = false, staysWithNext: Bool = false)
  {
    self.label = label
    self.value = value
    self.literal = literal
    self.staysWithNext = staysWithNext
  }
}

public enum EvidenceReportBlock: Sendable, Hashable {
  case heading(String)
  /// The report's own text.
  case paragraph(String)
  /// Quoted from another document of the bundle, verbatim.
  case note(String)
  case facts([EvidenceReportFact])
  case table(EvidenceReportTable)
}

public struct EvidenceReportSection: Sendable, Hashable {
  public let kind: EvidenceReportSectionKind
  public let blocks: [EvidenceReportBlock]
  public var title: String { kind.title }
}

public struct EvidenceReportLimits: Sendable, Hashable {
  public let flowIDsPerFinding: Int
  public let tlsReadingRows: Int
  /// nil unless both are positive.
  public init?(flowIDsPerFinding: Int, tlsReadingRows: Int) {
    guard flowIDsPerFinding > 0, tlsReadingRows > 0 else { return nil }
    self.flowIDsPerFinding = flowIDsPerFinding
    self.tlsReadingRows = tlsReadingRows
  }
  /// 12 and 150: the report in the bundle.
  public static let bundled = EvidenceReportLimits(flowIDsPerFinding: 4, tlsReadingRows: 150)!
}

public enum EvidenceReportError: Error, Sendable, Hashable {
  case captureOfAnotherSession(captureSessionID: Int64, sessionID: Int64)
}

/// What report.pdf says, before anything is drawn: which sections, which rows, which sentence
/// where. Always all nine sections, in order: the summary alone on the first page.
public struct EvidenceReport: Sendable, Hashable {
  public let title: String
  /// project · release or "baseline" · session id
  public let subtitle: String
  /// The PDF's title: the session's own, so that two sessions' reports are told apart.
  public let documentTitle: String
  /// Every page's footer: which session's report, exported when (a loose page stays tied to it).
  public let footer: String
  public let sections: [EvidenceReportSection]

  public init(bundle: EvidenceBundle, capture: EvidenceCaptureSummary, limits: EvidenceReportLimits)
    throws(EvidenceReportError)
  {
    guard capture.sessionID == bundle.session.id else {
      throw .captureOfAnotherSession(
        captureSessionID: capture.sessionID, sessionID: bundle.session.id)
    }
    title = "Evidence report · \(bundle.project.name)"
    let release = bundle.session.kind.release.map { "\($0.version) (\($0.build))" } ?? "baseline"
    subtitle = "\(bundle.project.name) · \(release) · session \(bundle.session.id)"
    documentTitle = "Evidence report · \(subtitle)"
    footer = "\(documentTitle) · exported \(Instant.rfc3339(bundle.exportedAt))"
    let content = EvidenceReportContent(bundle: bundle, capture: capture, limits: limits)
    sections = EvidenceReportSectionKind.allCases.map {
      EvidenceReportSection(kind: $0, blocks: content.blocks(of: $0))
    }
  }
}
