/// Text as a terminal may be given it: what the tool prints carries names read from captures
/// (a ClientHello's SNI, DNS answers) and from bundles it verifies, which anyone can fill with
/// control characters — an escape sequence there would move the cursor, erase what the assessor
/// reads, or retitle the window. Those characters are shown as what they are instead: `\x1B`,
/// `\u{202E}`. Line feeds and tabs stay, as the tool's own layout uses them.
public enum TerminalText {
  public static func visible(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      guard isControl(scalar) else {
        out.append(scalar)
        continue
      }
      let hex = String(scalar.value, radix: 16, uppercase: true)
      let shown =
        scalar.value < 0x100
        ? "\\x" + String(repeating: "0", count: 2 - hex.count) + hex : "\\u{" + hex + "}"
      out.append(contentsOf: shown.unicodeScalars)
    }
    return String(out)
  }

  /// A name on one line (a host, a project, a marker's label, an entry of a bundle): its line
  /// feeds and tabs are shown too, so that a name read off the wire cannot start a line of its
  /// own (a forged "✓ Every check holds." under a finding).
  public static func inline(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\t" }) else { return text }
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\n": out.append(contentsOf: "\\x0A".unicodeScalars)
      case "\t": out.append(contentsOf: "\\x09".unicodeScalars)
      default: out.append(scalar)
      }
    }
    return String(out)
  }

  /// C0 controls but line feed and tab, DEL, C1 controls, the line and paragraph separators
  /// (U+2028, U+2029: a line break to some terminals), and the bidirectional overrides and
  /// isolates (which reorder what follows them on the line).
  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09, 0x0A: return false
    case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
    default: return false
    }
  }
}
