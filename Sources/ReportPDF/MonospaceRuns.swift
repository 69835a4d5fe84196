import CCairoPango
import Crypto
import Foundation
import ReportModel

/// Printable ASCII in a monospace style, drawn as the font's glyphs at their own advances with
/// the text they stand for (so that it is extracted and searched as written): no shaping, which
/// a value needs none of (`EvidenceReportTypography` measures it the same way). Its baseline is
/// that of the prose style it sits beside, so a row's values and words share one line.
final class MonospaceRuns {
  private var fonts: [EvidenceReportTextStyle: OpaquePointer] = [:]
  private var scaled: [EvidenceReportTextStyle: OpaquePointer] = [:]

  init(context: OpaquePointer, descriptions: [EvidenceReportTextStyle: OpaquePointer]) {
    let map = pango_context_get_font_map(context)
    for (style, description) in descriptions where style.isMonospace {
      guard let font = pango_font_map_load_font(map, context, description) else { continue }
      fonts[style] = OpaquePointer(font)
      scaled[style] = pango_cairo_font_get_scaled_font(OpaquePointer(font))
    }
  }

  deinit { for font in fonts.values { g_object_unref(UnsafeMutableRawPointer(font)) } }

  /// Draws the text with its baseline at `baseline`; false when it is not one this draws (not
  /// monospace, not printable ASCII), for Pango to draw instead.
  func draw(
    _ text: String, style: EvidenceReportTextStyle, x: Double, baseline: Double,
    _ cr: OpaquePointer
  ) -> Bool {
    guard let font = scaled[style], text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
      return false
    }
    var glyphs: UnsafeMutablePointer<cairo_glyph_t>?
    var glyphCount: Int32 = 0
    var clusters: UnsafeMutablePointer<cairo_text_cluster_t>?
    var clusterCount: Int32 = 0
    var flags = cairo_text_cluster_flags_t(0)
    let length = Int32(text.utf8.count)
    guard
      cairo_scaled_font_text_to_glyphs(
        font, x, baseline, text, length, &glyphs, &glyphCount, &clusters, &clusterCount, &flags)
        == CAIRO_STATUS_SUCCESS
    else { return false }
    defer {
      cairo_glyph_free(glyphs)
      cairo_text_cluster_free(clusters)
    }
    cairo_set_scaled_font(cr, font)
    cairo_show_text_glyphs(cr, text, length, glyphs, glyphCount, clusters, clusterCount, flags)
    return true
  }
}
