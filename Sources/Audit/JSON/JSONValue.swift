import Foundation

/// A JSON value, written deterministically: keys sorted by their UTF-8 bytes, strings escaped
/// as RFC 8259 requires, two spaces of indentation.
public indirect enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public static func int<I: BinaryInteger>(_ value: I) -> JSONValue { .integer(Int64(value)) }
    public static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
    public static func strings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }
    public static func ints<I: BinaryInteger>(_ values: [I]) -> JSONValue { .array(values.map { .integer(Int64($0)) }) }

    /// The value as text, pretty-printed, ending without a newline.
    public func serialized(indent: Int = 0) -> String {
        var out = ""
        JSONText.append(self, to: &out, indent: indent)
        return out
    }
}

public enum JSONText {
    public static func append(_ value: JSONValue, to out: inout String, indent: Int) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .integer(let i): out += String(i)
        case .double(let d): out += number(d)
        case .string(let s): appendString(s, to: &out)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += spaces(indent + 2)
                append(item, to: &out, indent: indent + 2)
                out += i == items.count - 1 ? "\n" : ",\n"
            }
            out += spaces(indent) + "]"
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            out += "{\n"
            let sorted = members.sorted { precedes($0.key, $1.key) }
            for (i, member) in sorted.enumerated() {
                out += spaces(indent + 2)
                appendString(member.key, to: &out)
                out += ": "
                append(member.value, to: &out, indent: indent + 2)
                out += i == sorted.count - 1 ? "\n" : ",\n"
            }
            out += spaces(indent) + "}"
        }
    }

    /// Keys in the order of their UTF-8 bytes (which is Unicode code point order).
    public static func sortedKeys<S: Sequence>(_ keys: S) -> [String] where S.Element == String {
        keys.sorted(by: precedes)
    }

    /// UTF-8 byte order, compared a buffer at a time.
    static func precedes(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                let common = min(x.count, y.count)
                if common > 0, let p = x.baseAddress, let q = y.baseAddress {
                    let order = memcmp(p, q, common)
                    if order != 0 { return order < 0 }
                }
                return x.count < y.count
            }
        }
    }

    public static func spaces(_ count: Int) -> String { count < indents.count ? indents[count] : String(repeating: " ", count: count) }
    /// The indentations documents reach, made once.
    private static let indents = (0..<24).map { String(repeating: " ", count: $0) }

    /// A finite double in the shortest form that reads back as the same value.
    public static func number(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return "\(d)"
    }

    public static func appendString(_ s: String, to out: inout String) {
        // Most strings need no escape: append them whole.
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out += "\""
            out += s
            out += "\""
            return
        }
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
