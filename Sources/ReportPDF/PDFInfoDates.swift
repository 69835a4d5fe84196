import Foundation

/// cairo 1.16 writes the dates it is given without the `D:` prefix PDF 1.7 § 7.9.4 requires
/// (`/CreationDate (20261007090000Z)`), which validators do not read as dates. This puts the
/// prefix in, moves the byte offsets the insertion shifts in the cross-reference table and
/// `startxref`, and leaves a file of any other shape as it is.
enum PDFInfoDates {
    static func addPrefix(_ pdf: Data) -> Data {
        let bytes = [UInt8](pdf)
        guard let startxrefAt = lastIndex(of: Array("startxref".utf8), in: bytes),
              let xrefOffset = Int(String(decoding: bytes[(startxrefAt + 9)...].prefix(while: { $0 != UInt8(ascii: "%") }), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)),
              xrefOffset < bytes.count, bytes[xrefOffset...].starts(with: Array("xref".utf8)) else { return pdf }
        // The places to insert "D:", before xref.
        var inserts: [Int] = []
        for key in ["/CreationDate (", "/ModDate ("] {
            if let at = lastIndex(of: Array(key.utf8), in: Array(bytes[..<xrefOffset])) {
                let value = at + key.utf8.count
                if !bytes[value...].starts(with: Array("D:".utf8)) { inserts.append(value) }
            }
        }
        guard !inserts.isEmpty else { return pdf }
        inserts.sort()
        func shifted(_ offset: Int) -> Int { offset + 2 * inserts.filter { $0 <= offset }.count }
        // Rewrite the cross-reference table: "xref\n0 N\n" then N entries of 20 bytes.
        var text = Array(bytes[xrefOffset..<startxrefAt])
        guard let headerEnd = index(of: UInt8(ascii: "\n"), in: text, from: 5),
              let subsection = String(bytes: text[5..<headerEnd], encoding: .ascii)?.split(separator: " "), subsection.count == 2,
              let count = Int(subsection[1]) else { return pdf }
        var entry = headerEnd + 1
        for _ in 0..<count {
            guard entry + 20 <= text.count, let offset = Int(String(decoding: text[entry..<(entry + 10)], as: UTF8.self)) else { return pdf }
            if text[entry + 17] == UInt8(ascii: "n") {
                let moved = String(shifted(offset))
                guard moved.count <= 10 else { return pdf }
                let padded = Array((String(repeating: "0", count: 10 - moved.count) + moved).utf8)
                text.replaceSubrange(entry..<(entry + 10), with: padded)
            }
            entry += 20
        }
        var out = [UInt8]()
        out.reserveCapacity(bytes.count + 4)
        var last = 0
        for at in inserts { out += bytes[last..<at]; out += Array("D:".utf8); last = at }
        out += bytes[last..<xrefOffset]
        out += text
        out += Array("startxref\n\(shifted(xrefOffset))\n%%EOF\n".utf8)
        return Data(out)
    }

    static func lastIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var i = haystack.count - needle.count
        while i >= 0 {
            if haystack[i] == needle[0] && Array(haystack[i..<(i + needle.count)]) == needle { return i }
            i -= 1
        }
        return nil
    }

    static func index(of byte: UInt8, in bytes: [UInt8], from start: Int) -> Int? {
        (start..<bytes.count).first { bytes[$0] == byte }
    }
}
