import Foundation

/// Where the elements of one array of a JSON document lie, found by reading the JSON's syntax
/// (strings with their escapes, nesting) and not its layout: verify decodes flows.json a flow at
/// a time instead of building a representation of all of it at once.
enum JSONArrayElements {
    /// The byte ranges of the elements of the array under `key` in the top-level object, and of
    /// the array itself (its brackets included); nil when the document does not read as an object
    /// holding such an array (verify then decodes it whole).
    static func ranges(of key: String, in data: Data) -> (elements: [Range<Int>], array: Range<Int>)? {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> (elements: [Range<Int>], array: Range<Int>)? in
            let b = raw.bindMemory(to: UInt8.self)
            let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
            var i = 0
            func skipSpace() { while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 } }
            /// Past a string starting at i (a quote); its content's range.
            func string() -> Range<Int>? {
                guard i < b.count, b[i] == quote else { return nil }
                let start = i + 1
                i += 1
                while i < b.count {
                    if b[i] == backslash { i += 2; continue }
                    if b[i] == quote { i += 1; return start..<(i - 1) }
                    i += 1
                }
                return nil
            }
            /// Past one value of any kind.
            func value() -> Bool {
                skipSpace()
                guard i < b.count else { return false }
                if b[i] == quote { return string() != nil }
                if b[i] == UInt8(ascii: "{") || b[i] == UInt8(ascii: "[") {
                    var depth = 0
                    while i < b.count {
                        switch b[i] {
                        case quote: guard string() != nil else { return false }; continue
                        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                        case UInt8(ascii: "}"), UInt8(ascii: "]"):
                            depth -= 1
                            if depth == 0 { i += 1; return true }
                        default: break
                        }
                        i += 1
                    }
                    return false
                }
                // A number, true, false or null: up to the next delimiter.
                while i < b.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09].contains(b[i]) { i += 1 }
                return true
            }
            skipSpace()
            guard i < b.count, b[i] == UInt8(ascii: "{") else { return nil }
            i += 1
            let wanted = Array(key.utf8)
            while true {
                skipSpace()
                guard let name = string() else { return nil }
                skipSpace()
                guard i < b.count, b[i] == UInt8(ascii: ":") else { return nil }
                i += 1
                skipSpace()
                if Array(b[name]) == wanted {
                    guard i < b.count, b[i] == UInt8(ascii: "[") else { return nil }
                    let arrayStart = i
                    i += 1
                    var ranges: [Range<Int>] = []
                    skipSpace()
                    if i < b.count, b[i] == UInt8(ascii: "]") { return (ranges, arrayStart..<(i + 1)) }
                    while true {
                        skipSpace()
                        let start = i
                        guard value() else { return nil }
                        ranges.append(start..<i)
                        skipSpace()
                        guard i < b.count else { return nil }
                        if b[i] == UInt8(ascii: ",") { i += 1; continue }
                        if b[i] == UInt8(ascii: "]") { return (ranges, arrayStart..<(i + 1)) }
                        return nil
                    }
                }
                guard value() else { return nil }
                skipSpace()
                guard i < b.count, b[i] == UInt8(ascii: ",") else { return nil }
                i += 1
            }
        }
    }
}
