import Audit
import Crypto
import Foundation

/// What a byte next to a found form may not be: a form found inside a longer word of its own
/// alphabet is a near miss, not the value ("4711" in "47110", an e-mail in "xanna@…").
enum FormBoundary: Sendable, Hashable {
  /// Letters and digits.
  case word
  /// Hex digits: a digest or a hex form.
  case hex
  /// Base64's alphabet and its padding.
  case base64
  /// None: a base64 form aligned inside a longer encoding.
  case none

  func stops(_ byte: UInt8) -> Bool {
    let lower = byte | 0x20
    let letter = lower &- 0x61 < 26
    let digit = byte &- 0x30 < 10
    switch self {
    case .word: return !(letter || digit)
    case .hex: return !(digit || lower &- 0x61 < 6)
    case .base64:
      // Padding may follow a whole encoding.
      return !(letter || digit || byte == 0x2B || byte == 0x2F || byte == 0x2D || byte == 0x5F)
    case .none: return true
    }
  }
}

/// One form of one value as it is looked for.
struct ValuePattern: Sendable, Hashable {
  let label: String
  let form: ValueForm
  /// As it must appear (its case, where case matters).
  let bytes: [UInt8]
  let caseMatters: Bool
  /// The bytes either side must not continue the pattern's own alphabet, where it has one at
  /// that end.
  let boundary: FormBoundary
}

/// The forms SDKs send a value in: as is, case-folded (an e-mail), normalised, percent- and
/// form-encoded, JSON-escaped, Base64 (standard and URL-safe, at each of the three alignments
/// inside a longer encoding), hex, and MD5, SHA-1 and SHA-256 of the value and of its normalised
/// form, in hex.
enum ValueForms {
  /// The shortest aligned Base64 segment looked for inside a longer encoding: shorter ones occur
  /// by chance.
  static let shortestEmbeddedBase64 = 8

  static func patterns(of value: TestDataValue) -> [ValuePattern] {
    let text = value.value
    let raw = Array(text.utf8)
    var found: [ValuePattern] = []
    func add(_ form: ValueForm, _ bytes: [UInt8], caseMatters: Bool, _ boundary: FormBoundary) {
      guard !bytes.isEmpty else { return }
      found.append(
        ValuePattern(
          label: value.label, form: form, bytes: bytes, caseMatters: caseMatters,
          boundary: boundary))
    }
    add(.asIs, raw, caseMatters: true, .word)
    if isEmail(text) { add(.caseFolded, Array(text.lowercased().utf8), caseMatters: false, .word) }
    let normal = normalised(value)
    if normal != text { add(.normalised, Array(normal.utf8), caseMatters: true, .word) }
    for upper in [true, false] {
      add(.percentEncoded, percentEncoded(raw, space: nil, upper: upper), caseMatters: true, .word)
      add(
        .formEncoded, percentEncoded(raw, space: UInt8(ascii: "+"), upper: upper),
        caseMatters: true, .word)
    }
    for escapingNonASCII in [false, true] {
      for slash in [false, true] {
        for upper in escapingNonASCII ? [false, true] : [false] {
          add(
            .jsonEscaped,
            jsonEscaped(text, slash: slash, nonASCII: escapingNonASCII, upper: upper),
            caseMatters: true, .word)
        }
      }
    }
    for url in [false, true] {
      let form: ValueForm = url ? .base64URL : .base64
      // Encoded alone (its padding left out: it may follow or not), and inside a longer
      // encoding at each alignment.
      add(form, base64Whole(raw, url: url), caseMatters: true, .base64)
      for alignment in 0..<3 {
        let segment = base64Segment(raw, alignment: alignment, url: url)
        if segment.count >= shortestEmbeddedBase64 { add(form, segment, caseMatters: true, .none) }
      }
    }
    add(.hex, Array(SHA256Digest.hex(raw).utf8), caseMatters: false, .hex)
    for (digest, plain, ofNormal) in [
      (MessageDigest.md5, ValueForm.md5, ValueForm.md5OfNormalised),
      (.sha1, .sha1, .sha1OfNormalised), (.sha256, .sha256, .sha256OfNormalised),
    ] {
      add(plain, Array(SHA256Digest.hex(digest.digest(raw)).utf8), caseMatters: false, .hex)
      if normal != text {
        add(
          ofNormal, Array(SHA256Digest.hex(digest.digest(Array(normal.utf8))).utf8),
          caseMatters: false, .hex)
      }
    }
    // One pattern per bytes, case and boundary: the plainest form names it (an e-mail without
    // special characters percent-encodes to itself).
    var seen = Set<[UInt8]>()
    return found.filter { pattern in
      let bytes = pattern.caseMatters ? pattern.bytes : pattern.bytes.map(PatternAutomaton.fold)
      let key = bytes + [pattern.caseMatters ? 1 : 0, pattern.boundary == .none ? 1 : 0]
      return seen.insert(key).inserted
    }
  }

  static func isEmail(_ text: String) -> Bool {
    let parts = text.split(separator: "@", omittingEmptySubsequences: false)
    return parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".")
  }

  /// Trimmed; an e-mail lower-cased; a phone number's digits alone.
  static func normalised(_ value: TestDataValue) -> String {
    let trimmed = value.value.trimmingCharacters(in: .whitespacesAndNewlines)
    if isEmail(trimmed) { return trimmed.lowercased() }
    let digits = trimmed.filter(\.isASCIIDigit)
    let phoneShaped = trimmed.allSatisfy { $0.isASCIIDigit || " +-()/.".contains($0) }
    if phoneShaped && digits.count >= 7 && digits.count != trimmed.count { return String(digits) }
    return trimmed
  }

  static func percentEncoded(_ bytes: [UInt8], space: UInt8?, upper: Bool) -> [UInt8] {
    let digits = Array((upper ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
    var out: [UInt8] = []
    for byte in bytes {
      let unreserved =
        (byte | 0x20) &- 0x61 < 26 || byte &- 0x30 < 10 || byte == 0x2D || byte == 0x2E
        || byte == 0x5F || byte == 0x7E
      if unreserved {
        out.append(byte)
      } else if byte == 0x20, let space {
        out.append(space)
      } else {
        out += [0x25, digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]]
      }
    }
    return out
  }

  static func jsonEscaped(_ text: String, slash: Bool, nonASCII: Bool, upper: Bool) -> [UInt8] {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "/" where slash: out += "\\/"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 || (nonASCII && scalar.value > 0x7e) {
          for unit in String(scalar).utf16 {
            let hex = String(unit, radix: 16, uppercase: upper)
            out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
          }
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return Array(out.utf8)
  }

  /// The Base64 characters that depend on the value's bytes alone when it stands `alignment`
  /// bytes into a longer encoded text: a character covers six bits, and only those within the
  /// value's are kept.
  static func base64Segment(_ bytes: [UInt8], alignment: Int, url: Bool) -> [UInt8] {
    let padded = [UInt8](repeating: 0, count: alignment) + bytes
    let endBit = 8 * padded.count
    var out: [UInt8] = []
    var bit = 0
    while bit + 6 <= endBit {
      if bit >= 8 * alignment { out.append(base64Character(padded, bit: bit, url: url)) }
      bit += 6
    }
    return out
  }

  /// The value encoded by itself, without padding: its last character's missing bits are zeros.
  static func base64Whole(_ bytes: [UInt8], url: Bool) -> [UInt8] {
    var out: [UInt8] = []
    var bit = 0
    while bit < 8 * bytes.count {
      out.append(base64Character(bytes + [0], bit: bit, url: url))
      bit += 6
    }
    return out
  }

  static func base64Character(_ bytes: [UInt8], bit: Int, url: Bool) -> UInt8 {
    let alphabet = Array(
      (url
        ? "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
        : "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/").utf8)
    var sextet = 0
    for b in bit..<bit + 6 {
      sextet = sextet << 1 | Int(bytes[b / 8] >> (7 - UInt8(b % 8)) & 1)
    }
    return alphabet[sextet]
  }
}

extension Character {
  var isASCIIDigit: Bool { isASCII && isNumber }
}
