/// An object written in pieces: the fixed keys whole, and one key's array element by element,
/// so that a document of twenty thousand flows never has to be held as one value. The bytes
/// are those `JSONValue.serialized()` would write for the whole object (a test holds that).
public struct StreamedJSONObject: Sendable {
    public let fields: [String: JSONValue]
    public let streamedKey: String

    public init(fields: [String: JSONValue], streamedKey: String) {
        precondition(fields[streamedKey] == nil)
        self.fields = fields; self.streamedKey = streamedKey
    }

    private var keys: [String] { JSONText.sortedKeys(Array(fields.keys) + [streamedKey]) }

    /// Everything up to the opening bracket of the streamed array.
    public var prefix: String {
        var out = "{\n"
        for key in keys {
            out += "  "
            JSONText.appendString(key, to: &out)
            out += ": "
            if key == streamedKey { out += "["; break }
            JSONText.append(fields[key]!, to: &out, indent: 2)
            out += ",\n"
        }
        return out
    }

    /// One element; `first` tells whether a separating comma is due before it.
    public func element(_ value: JSONValue, first: Bool) -> String {
        var out = first ? "\n    " : ",\n    "
        JSONText.append(value, to: &out, indent: 4)
        return out
    }

    /// From the closing bracket to the end; `empty` when no element was written.
    public func suffix(empty: Bool) -> String {
        var out = empty ? "]" : "\n  ]"
        let rest = keys.drop { $0 != streamedKey }.dropFirst()
        for key in rest {
            out += ",\n  "
            JSONText.appendString(key, to: &out)
            out += ": "
            JSONText.append(fields[key]!, to: &out, indent: 2)
        }
        return out + "\n}\n"
    }
}
