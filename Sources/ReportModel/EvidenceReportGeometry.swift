import Foundation

/// The page and its frames, in points (1/72 inch), y growing downwards.
public struct EvidenceReportPageGeometry: Sendable, Hashable {
  public let width: CGFloat
  public let height: CGFloat
  public let marginTop: CGFloat, marginLeft: CGFloat, marginBottom: CGFloat, marginRight: CGFloat
  /// The band at the foot of the page that holds the footer, above the bottom margin.
  public let footerHeight: CGFloat

  public init(
    width: CGFloat, height: CGFloat, marginTop: CGFloat = 40, marginLeft: CGFloat = 40,
    marginBottom: CGFloat = 24,
    marginRight: CGFloat = 40, footerHeight: CGFloat = 22
  ) {
    self.width = width
    self.height = height
    self.marginTop = marginTop
    self.marginLeft = marginLeft
    self.marginBottom = marginBottom
    self.marginRight = marginRight
    self.footerHeight = footerHeight
  }

  /// A4 in points.
  public static let a4 = EvidenceReportPageGeometry(width: 595.276, height: 841.89)

  /// Inside the margins, above the footer.
  public var bodyFrame: CGRect {
    CGRect(
      x: marginLeft, y: marginTop, width: width - marginLeft - marginRight,
      height: height - marginTop - marginBottom - footerHeight)
  }

  public var footerFrame: CGRect {
    CGRect(
      x: marginLeft, y: height - marginBottom - footerHeight,
      width: width - marginLeft - marginRight, height: footerHeight)
  }
}

public enum EvidenceReportTextStyle: String, Sendable, Hashable, CaseIterable {
  case title, subtitle, sectionHeading, heading, body, note, label, value, literal, tableHeader,
    tableCell, tableLiteral, footer

  /// Literal values are set in the monospace face.
  public var isMonospace: Bool { self == .literal || self == .tableLiteral }
  /// The style whose baseline a line of this one shares: a value sits on the line of the prose
  /// beside it (7.5 pt mono in a table on the 8 pt cells' baseline).
  public var baselineCompanion: EvidenceReportTextStyle {
    switch self {
    case .tableLiteral: return .tableCell
    case .literal: return .value
    default: return self
    }
  }
  /// Breaks only at spaces and after a host name's dots, never at a hyphen: values and table
  /// cells, which name hosts (`LiteralLineBreaking`); prose breaks as the text shaper does.
  public var keepsNamesWhole: Bool { isMonospace || self == .tableCell }

  // Compared and hashed by case: with a raw value, both went through the name's text, and the
  // report looks a style up each time it measures or draws a line (a quarter of a million times
  // for the bench's reference report).
  public static func == (a: Self, b: Self) -> Bool { a.ordinal == b.ordinal }
  public func hash(into hasher: inout Hasher) { hasher.combine(ordinal) }
  /// The byte a case without payload is stored as.
  private var ordinal: UInt8 { withUnsafeBytes(of: self) { $0[0] } }
}

public enum EvidenceReportFill: String, Sendable, Hashable { case rule, quoteBar, headerBand }

/// What a line is in the document's structure (for tagged PDF).
public enum EvidenceReportRole: String, Sendable, Hashable {
  case title, heading1, heading2, paragraph, note, factLabel, factValue, tableHeader, tableCell,
    footer
}

/// One line of text, already broken and placed.
public struct EvidenceReportLine: Sendable, Hashable {
  public let text: String
  public let style: EvidenceReportTextStyle
  /// Top-left of the line box.
  public let origin: CGPoint
  public let width: CGFloat
  public let height: CGFloat
  public let role: EvidenceReportRole
  /// The block it belongs to (a heading, a paragraph, a fact list, a table…), and in a table or fact list its row and column.
  public let element: Int
  public let row: Int?
  public let column: Int?
  public let link: String?
  public let anchor: String?
  /// A table header drawn again at the top of a page the table continues on.
  public let isRepeat: Bool
  /// The language of its text when it is not the report's (BCP 47).
  public var language: String? = nil

  public init(
    text: String, style: EvidenceReportTextStyle, origin: CGPoint, width: CGFloat,
    height: CGFloat, role: EvidenceReportRole, element: Int, row: Int?, column: Int?,
    link: String?, anchor: String?, isRepeat: Bool, language: String? = nil
  ) {
    self.text = text
    self.style = style
    self.origin = origin
    self.width = width
    self.height = height
    self.role = role
    self.element = element
    self.row = row
    self.column = column
    self.link = link
    self.anchor = anchor
    self.isRepeat = isRepeat
    self.language = language
  }

  public var frame: CGRect { CGRect(x: origin.x, y: origin.y, width: width, height: height) }

  /// A heading's destination name: the outline lists it under its section.
  public static func headingAnchor(_ element: Int) -> String { "heading-\(element)" }
  /// A requirement's heading: links from the summary and the findings land on it.
  public static func requirementAnchor(_ id: String) -> String { "heading-\(id)" }
  public var isHeadingAnchor: Bool { anchor?.hasPrefix("heading-") == true }
}

public enum EvidenceReportMark: Sendable, Hashable {
  case text(EvidenceReportLine)
  case fill(CGRect, EvidenceReportFill)
}

public struct EvidenceReportPage: Sendable, Hashable {
  public let number: Int
  public let body: [EvidenceReportMark]
  public let footer: [EvidenceReportMark]
  /// The sections that begin on this page, for the outline.
  public let sectionsStarting: [EvidenceReportSectionKind]
  public init(
    number: Int, body: [EvidenceReportMark], footer: [EvidenceReportMark],
    sectionsStarting: [EvidenceReportSectionKind]
  ) {
    self.number = number
    self.body = body
    self.footer = footer
    self.sectionsStarting = sectionsStarting
  }

  /// The same page with `footer`.
  public func footed(_ footer: [EvidenceReportMark]) -> EvidenceReportPage {
    EvidenceReportPage(
      number: number, body: body, footer: footer, sectionsStarting: sectionsStarting)
  }
}

/// Whoever measures text: Pango for the PDF, five points a character for the tests.
public protocol EvidenceReportTextMeasuring {
  func lineHeight(of style: EvidenceReportTextStyle) -> CGFloat
  func width(of text: String, style: EvidenceReportTextStyle) -> CGFloat
  /// The text broken into lines no wider than `width` (a word wider than that is broken inside).
  func lines(of text: String, style: EvidenceReportTextStyle, width: CGFloat) -> [String]
}

/// Placed pages, handed over one at a time: what a renderer draws.
public protocol EvidenceReportPages {
  var geometry: EvidenceReportPageGeometry { get }
  var pageCount: Int { get }
  func forEachPage<E: Error>(_ body: (EvidenceReportPage) throws(E) -> Void) throws(E)
  /// Each page as `forEachPage` hands it over but for its footer, which is left empty: the
  /// footer alone measures text (`footer(ofPage:)`), so the rest may be made on another thread
  /// than the one that measures and draws.
  func forEachUnfootedPage(_ body: (EvidenceReportPage) -> Void)
  /// The footer of page `number` (from 1).
  func footer(ofPage number: Int) -> [EvidenceReportMark]
}
