import CCairoPango
import Crypto
import Foundation
import ReportModel

/// Measures text with Pango over the bundled fonts only, hinting and rounding off so that what
/// is measured is what is drawn. Owns the fontconfig configuration, the font map and the context.
public final class EvidenceReportTypography: EvidenceReportTextMeasuring {
  let config: OpaquePointer
  let fontMap: UnsafeMutablePointer<PangoFontMap>
  let context: OpaquePointer
  private let layout: OpaquePointer
  private var descriptions: [EvidenceReportTextStyle: OpaquePointer] = [:]
  /// Each style's font as an attribute list, for itemizing a line without a layout.
  private var fontAttributes: [EvidenceReportTextStyle: OpaquePointer] = [:]
  private struct WidthKey: Hashable {
    let style: EvidenceReportTextStyle
    let text: String
  }
  private struct LinesKey: Hashable {
    let style: EvidenceReportTextStyle
    let width: CGFloat
    let text: String
  }
  private var widthCache: [WidthKey: CGFloat] = [:]
  private var linesCache: [LinesKey: [String]] = [:]
  private var lineHeights: [EvidenceReportTextStyle: CGFloat] = [:]
  /// A monospace style's advance in Pango units: printable ASCII in it is as wide as its length
  /// makes it, with no shaping (the values — hosts, instants, flow ids — are most of a report).
  private var advances: [EvidenceReportTextStyle: Int32] = [:]

  public struct FontError: Error, CustomStringConvertible { public let description: String }

  public init(fontsDirectory: URL) throws {
    guard let config = FcConfigCreate() else {
      throw FontError(description: "fontconfig could not be started")
    }
    for file in ReportFonts.files {
      let path = fontsDirectory.appendingPathComponent(file).path
      guard FcConfigAppFontAddFile(config, path) == FcTrue else {
        FcConfigDestroy(config)
        throw FontError(description: "the font \(path) could not be loaded")
      }
    }
    self.config = config
    fontMap = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT)
    pango_fc_font_map_set_config(OpaquePointer(fontMap), config)
    context = pango_font_map_create_context(fontMap)
    let options = cairo_font_options_create()
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
    cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
    pango_cairo_context_set_font_options(context, options)
    cairo_font_options_destroy(options)
    pango_context_set_round_glyph_positions(context, 0)
    pango_cairo_context_set_resolution(context, 72)
    layout = pango_layout_new(context)
    for style in EvidenceReportTextStyle.allCases {
      descriptions[style] = pango_font_description_from_string(Self.font(style))
      let attributes = pango_attr_list_new()
      pango_attr_list_insert(attributes, pango_attr_font_desc_new(descriptions[style]!))
      fontAttributes[style] = attributes
      lineHeights[style] = (Self.size(style) * 1.2 * 4).rounded() / 4
    }
    for style in EvidenceReportTextStyle.allCases where style.isMonospace {
      advances[style] = pangoUnits("0", style)
    }
  }

  deinit {
    for description in descriptions.values { pango_font_description_free(description) }
    for attributes in fontAttributes.values { pango_attr_list_unref(attributes) }
    g_object_unref(UnsafeMutableRawPointer(layout))
    g_object_unref(UnsafeMutableRawPointer(context))
    g_object_unref(UnsafeMutableRawPointer(fontMap))
    FcConfigDestroy(config)
  }

  /// The face and size of each style.
  static func font(_ style: EvidenceReportTextStyle) -> String {
    switch style {
    case .title: return "DejaVu Sans Bold 17"
    case .subtitle: return "DejaVu Sans 10.5"
    case .sectionHeading: return "DejaVu Sans Bold 14"
    case .heading: return "DejaVu Sans Bold 10.5"
    case .body, .value: return "DejaVu Sans 9"
    case .note: return "DejaVu Sans Oblique 9"
    case .label: return "DejaVu Sans Bold 8.5"
    case .literal: return "DejaVu Sans Mono 8.5"
    case .tableHeader: return "DejaVu Sans Bold 8"
    case .tableCell: return "DejaVu Sans 8"
    case .tableLiteral: return "DejaVu Sans Mono 7.5"
    case .footer: return "DejaVu Sans 7.5"
    }
  }

  static func size(_ style: EvidenceReportTextStyle) -> CGFloat {
    CGFloat(Double(font(style).split(separator: " ").last!)!)
  }

  public func lineHeight(of style: EvidenceReportTextStyle) -> CGFloat { lineHeights[style]! }

  func prepare(_ text: String, _ style: EvidenceReportTextStyle, width: CGFloat?) {
    let l = layout
    pango_layout_set_font_description(l, descriptions[style]!)
    pango_layout_set_width(l, width.map { Int32(($0 * CGFloat(PANGO_SCALE)).rounded(.down)) } ?? -1)
    pango_layout_set_wrap(l, PANGO_WRAP_WORD_CHAR)
    pango_layout_set_text(l, text, -1)
  }

  public func width(of text: String, style: EvidenceReportTextStyle) -> CGFloat {
    if let advance = advances[style], text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
      return CGFloat(Int32(text.utf8.count) * advance) / CGFloat(PANGO_SCALE)
    }
    let key = WidthKey(style: style, text: text)
    if let cached = widthCache[key] { return cached }
    let width = CGFloat(pangoUnits(text, style)) / CGFloat(PANGO_SCALE)
    widthCache[key] = width
    return width
  }

  /// The text's logical width as Pango shapes it, in Pango units. A text without control
  /// characters (no tab to set, no line to break) is itemized and its items shaped, their widths
  /// summed: what a layout's extents add up to, in two thirds of the time.
  func pangoUnits(_ text: String, _ style: EvidenceReportTextStyle) -> Int32 {
    let controls = text.utf8.contains { $0 < 0x20 || $0 == 0x7F }
    return controls ? layoutUnits(text, style) : shapedUnits(text, style)
  }

  /// The text's items shaped one by one, their widths summed.
  func shapedUnits(_ text: String, _ style: EvidenceReportTextStyle) -> Int32 {
    var text = text
    return text.withUTF8 { bytes -> Int32 in
      guard let start = bytes.baseAddress else { return 0 }
      let length = Int32(bytes.count)
      return start.withMemoryRebound(to: CChar.self, capacity: bytes.count) { base in
        var units: Int32 = 0
        let items = pango_itemize(context, base, 0, length, fontAttributes[style]!, nil)
        var node = items
        while let current = node {
          let item = current.pointee.data.assumingMemoryBound(to: PangoItem.self)
          let glyphs = pango_glyph_string_new()
          pango_shape_with_flags(
            base + Int(item.pointee.offset), item.pointee.length, base, length,
            &item.pointee.analysis, glyphs, PANGO_SHAPE_NONE)
          units += pango_glyph_string_get_width(glyphs)
          pango_glyph_string_free(glyphs)
          pango_item_free(item)
          node = current.pointee.next
        }
        g_list_free(items)
        return units
      }
    }
  }

  /// The text's width as a layout of one line measures it.
  func layoutUnits(_ text: String, _ style: EvidenceReportTextStyle) -> Int32 {
    prepare(text, style, width: nil)
    var ink = PangoRectangle()
    var logical = PangoRectangle()
    pango_layout_get_extents(layout, &ink, &logical)
    return logical.width
  }

  public func lines(of text: String, style: EvidenceReportTextStyle, width: CGFloat) -> [String] {
    let key = LinesKey(style: style, width: width, text: text)
    if let cached = linesCache[key] { return cached }
    // What fits on one line is one line: no need to ask Pango to break it.
    var result: [String]
    if !text.contains("\n") && self.width(of: text, style: style) <= width {
      var line = text
      while let last = line.last, last == " " { line.removeLast() }
      result = [line]
    } else {
      result = breakLines(text, style, width)
    }
    linesCache[key] = result
    return result
  }

  func breakLines(_ text: String, _ style: EvidenceReportTextStyle, _ width: CGFloat) -> [String] {
    prepare(text, style, width: width)
    let l = layout
    let bytes = Array(text.utf8)
    var result: [String] = []
    for i in 0..<pango_layout_get_line_count(l) {
      guard let line = pango_layout_get_line_readonly(l, i) else { continue }
      let start = Int(line.pointee.start_index)
      let length = Int(line.pointee.length)
      guard start >= 0, start + length <= bytes.count else { continue }
      var piece = String(decoding: bytes[start..<(start + length)], as: UTF8.self)
      while let last = piece.last, last == " " || last == "\n" { piece.removeLast() }
      result.append(piece)
    }
    return result
  }

  /// Lets go of the widths and line breaks measured so far: once the layout is done, drawing
  /// needs none of them.
  public func forgetMeasurements() {
    widthCache = [:]
    linesCache = [:]
  }

  /// How many characters of the text no bundled font has a glyph for.
  public func unknownGlyphs(in text: String, style: EvidenceReportTextStyle) -> Int {
    prepare(text, style, width: nil)
    return Int(pango_layout_get_unknown_glyphs_count(layout))
  }
}
