import Foundation

public enum EvidenceReportSectionKind: String, Sendable, Hashable, CaseIterable {
  case summary, session, hosts, personalData, method, testLog, requirements, findings, checks,
    capture, appendix

  public var title: String {
    switch self {
    case .summary: return "Summary"
    case .session: return "Session"
    case .hosts: return "Hosts contacted"
    case .personalData: return "Personal data"
    case .method: return "Method"
    case .testLog: return "Test log"
    case .requirements: return "Requirements"
    case .findings: return "Findings"
    case .checks: return "Checks"
    case .capture: return "Capture"
    case .appendix: return "Appendix: the connections of each finding"
    }
  }

  /// The summary stands alone on the first page, and the appendix starts a page of its own;
  /// every other section flows on.
  public var startsPage: Bool { self == .session || self == .appendix }
}

/// How a cell's text is set: as prose, or as a literal value read character by character.
public enum EvidenceReportCellStyle: Sendable, Hashable { case text, literal }

public struct EvidenceReportCell: Sendable, Hashable {
  public let text: String
  public let style: EvidenceReportCellStyle
  /// What few cells have, behind one reference (an indirect case), nil for the rest: a table of
  /// 2 000 hosts held 72 bytes a cell until the report was drawn.
  private let held: Held?
  private struct Marks: Sendable, Hashable {
    let link: String?
    let anchor: String?
    let language: String?
  }
  private indirect enum Held: Sendable, Hashable { case marks(Marks) }
  private var marks: Marks? {
    guard case .marks(let marks)? = held else { return nil }
    return marks
  }
  /// The destination this cell links to (a finding identifier), or the one it defines.
  public var link: String? { marks?.link }
  public var anchor: String? { marks?.anchor }
  /// The language of a text quoted in another than the report's (a German requirement title).
  public var language: String? { marks?.language }
  public init(
    _ text: String, style: EvidenceReportCellStyle = .text, link: String? = nil,
    anchor: String? = nil, language: String? = nil
  ) {
    self.text = text
    self.style = style
    held =
      link == nil && anchor == nil && language == nil
      ? nil : .marks(Marks(link: link, anchor: anchor, language: language))
  }
}

public struct EvidenceReportTable: Sendable, Hashable {
  public let columns: [String]
  public let rows: [[EvidenceReportCell]]
  /// What the table is, said again above its header on each page it continues on.
  public let title: String?
  public init(columns: [String], rows: [[EvidenceReportCell]], title: String? = nil) {
    precondition(rows.allSatisfy { $0.count == columns.count })
    self.columns = columns
    self.rows = rows
    self.title = title
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
  /// `anchor`: a destination of its own for links to land on (a requirement's), else one the
  /// outline is given; `language`: that of a heading quoted in another than the report's.
  case heading(String, anchor: String? = nil, language: String? = nil)
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
  public init(kind: EvidenceReportSectionKind, blocks: [EvidenceReportBlock]) {
    self.kind = kind
    self.blocks = blocks
  }
}

public struct EvidenceReportLimits: Sendable, Hashable {
  /// Flow ids the appendix lists of one finding; flows.json holds the rest.
  public let flowIDsPerFinding: Int
  public let tlsReadingRows: Int
  /// nil unless both are positive.
  public init?(flowIDsPerFinding: Int, tlsReadingRows: Int) {
    guard flowIDsPerFinding > 0, tlsReadingRows > 0 else { return nil }
    self.flowIDsPerFinding = flowIDsPerFinding
    self.tlsReadingRows = tlsReadingRows
  }
  /// 500 and 150: the report in the bundle.
  public static let bundled = EvidenceReportLimits(flowIDsPerFinding: 500, tlsReadingRows: 150)!
}

/// A file of the bundle and its SHA-256 in hex, as the report's first page cites it.
public struct EvidenceReportDigest: Sendable, Hashable {
  public let name: String
  public let sha256: String
  public init(name: String, sha256: String) {
    self.name = name
    self.sha256 = sha256
  }
}

public enum EvidenceReportError: Error, Sendable, Hashable {
  /// The digests must name the files the report cites, each with 64 hex digits.
  case digestsOfOtherFiles([String])
  case captureOfAnotherSession(captureSessionID: Int64, sessionID: Int64)
}

/// What report.pdf says, before anything is drawn: which sections, which rows, which sentence
/// where (ReportContent makes it from the bundle's documents; ReportLayout places it).
public struct EvidenceReport: Sendable, Hashable {
  public let title: String
  /// project · release or "baseline" · session id
  public let subtitle: String
  /// The PDF's title: the session's own, so that two sessions' reports are told apart.
  public let documentTitle: String
  /// Every page's footer: which session's report, exported when (a loose page stays tied to it).
  public let footer: String
  public let sections: [EvidenceReportSection]

  public init(
    title: String, subtitle: String, documentTitle: String, footer: String,
    sections: [EvidenceReportSection]
  ) {
    self.title = title
    self.subtitle = subtitle
    self.documentTitle = documentTitle
    self.footer = footer
    self.sections = sections
  }
}
