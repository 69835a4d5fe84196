import Audit
import Foundation

/// One part of what a request sent, searched as one run of bytes: where a value found in it
/// stood is its place, or, where the part has inner names (a JSON body's leaves, a form's
/// fields), the name whose span holds it.
struct RequestField {
  let part: MatchPlace.Part
  /// The part's own name (a header's, a query parameter's); nil when spans name its insides.
  let name: String?
  let bytes: [UInt8]
  /// Inner names by the byte ranges they cover, in order, not overlapping.
  var spans: [(range: Range<Int>, name: String)] = []

  /// The place of what was found at `range`.
  func place(of range: Range<Int>) -> MatchPlace {
    if let name { return MatchPlace(part, name) }
    // The innermost span holding it: spans are disjoint leaves, found by binary search.
    var low = 0
    var high = spans.count
    while low < high {
      let mid = (low + high) / 2
      if spans[mid].range.upperBound <= range.lowerBound { low = mid + 1 } else { high = mid }
    }
    if low < spans.count, spans[low].range.lowerBound <= range.lowerBound,
      spans[low].range.upperBound >= range.upperBound
    {
      return MatchPlace(part, spans[low].name)
    }
    return MatchPlace(part)
  }
}

/// A request split into the parts values are looked for in: its path, each query parameter,
/// each header (each cookie of a Cookie header), and its body by its type (JSON's leaves, a
/// form's fields, a multipart body's parts).
enum RequestFields {
  static func of(_ exchange: HTTPExchange) -> [RequestField] {
    if exchange.kind == .webSocketMessage {
      guard exchange.fromClient, let body = exchange.requestBody else { return [] }
      return [bodyField(Array(body.bytes), contentType: nil, part: .message)]
    }
    var fields = [RequestField(part: .path, name: nil, bytes: Array(exchange.path.utf8))]
    if let query = exchange.query {
      fields += pairs(Array(query.utf8), separator: 0x26).map {
        RequestField(part: .query, name: $0.name, bytes: $0.value)
      }
    }
    for header in exchange.requestHeaders {
      if header.name.caseInsensitiveCompare("cookie") == .orderedSame {
        fields += pairs(Array(header.value.utf8), separator: 0x3B).map {
          RequestField(part: .cookie, name: $0.name, bytes: $0.value)
        }
      } else {
        fields.append(
          RequestField(part: .header, name: header.name, bytes: Array(header.value.utf8)))
      }
    }
    if let body = exchange.requestBody, !body.bytes.isEmpty {
      fields.append(
        bodyField(
          Array(body.bytes), contentType: exchange.requestHeader("content-type"), part: .body))
    }
    return fields
  }

  /// "a=1&b=2" (or "a=1; b=2"): each name (percent-decoded, trimmed) with its value's bytes as
  /// sent; a piece without "=" is a value without a name.
  static func pairs(_ bytes: [UInt8], separator: UInt8) -> [(name: String, value: [UInt8])] {
    bytes.split(separator: separator, omittingEmptySubsequences: true).map { piece in
      guard let equals = piece.firstIndex(of: 0x3D) else { return ("", Array(piece)) }
      let name = String(decoding: piece[piece.startIndex..<equals], as: UTF8.self)
        .trimmingCharacters(in: .whitespaces)
      return (name.removingPercentEncoding ?? name, Array(piece[(equals + 1)...]))
    }
  }

  static func bodyField(_ bytes: [UInt8], contentType: String?, part: MatchPlace.Part)
    -> RequestField
  {
    var field = RequestField(part: part, name: nil, bytes: bytes)
    let type = contentType?.lowercased() ?? ""
    let first = bytes.first { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }
    if type.contains("json")
      || (type.isEmpty || type.hasPrefix("text/plain"))
        && (first == 0x7B || first == 0x5B)
    {
      field.spans = JSONLeaves.spans(bytes)
    } else if type.hasPrefix("application/x-www-form-urlencoded") {
      var offset = 0
      for piece in bytes.split(separator: 0x26, omittingEmptySubsequences: false) {
        let start = offset
        offset += piece.count + 1
        guard let equals = piece.firstIndex(of: 0x3D) else { continue }
        let name = String(decoding: piece[piece.startIndex..<equals], as: UTF8.self)
        let decoded = name.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? name
        field.spans.append((start + (equals - piece.startIndex) + 1..<start + piece.count, decoded))
      }
    } else if type.hasPrefix("multipart/"), let boundary = boundary(type: contentType ?? "") {
      field.spans = MultipartParts.spans(bytes, boundary: boundary)
    }
    return field
  }

  static func boundary(type: String) -> String? {
    for parameter in type.split(separator: ";").dropFirst() {
      let pair = parameter.split(separator: "=", maxSplits: 1).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      if pair.count == 2, pair[0].lowercased() == "boundary" {
        return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
      }
    }
    return nil
  }
}

/// A multipart body's parts: each part's content by the name its Content-Disposition gives.
enum MultipartParts {
  static func spans(_ bytes: [UInt8], boundary: String) -> [(range: Range<Int>, name: String)] {
    let delimiter = Array(("--" + boundary).utf8)
    var starts: [Int] = []
    var index = 0
    while let found = find(delimiter, in: bytes, from: index) {
      starts.append(found)
      index = found + delimiter.count
    }
    var spans: [(range: Range<Int>, name: String)] = []
    for (a, b) in zip(starts, starts.dropFirst()) {
      let partStart = a + delimiter.count
      guard let headersEnd = find(Array("\r\n\r\n".utf8), in: bytes, from: partStart),
        headersEnd < b
      else { continue }
      let headers = String(decoding: bytes[partStart..<headersEnd], as: UTF8.self)
      var name = "part"
      for line in headers.split(whereSeparator: \.isNewline)
      where line.lowercased().hasPrefix("content-disposition") {
        if let range = line.range(of: "name=\"") {
          let rest = line[range.upperBound...]
          name = String(rest.prefix { $0 != "\"" })
        }
      }
      // The part's content ends with the CRLF before the next delimiter.
      let end = max(headersEnd + 4, b - 2)
      spans.append((headersEnd + 4..<end, name))
    }
    return spans
  }

  static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
    guard !needle.isEmpty, haystack.count >= needle.count, from <= haystack.count - needle.count
    else { return nil }
    var i = from
    while i <= haystack.count - needle.count {
      if haystack[i] == needle[0] && haystack[i..<i + needle.count].elementsEqual(needle) {
        return i
      }
      i += 1
    }
    return nil
  }
}
