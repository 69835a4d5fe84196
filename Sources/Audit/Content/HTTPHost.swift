/// A Host header's name without its port ("api.example.org:8080", "[::1]:80").
public enum HTTPHost {
  public static func withoutPort(_ host: String) -> String {
    let trimmed = host.trimmingWhitespace()
    if trimmed.hasPrefix("["), let close = trimmed.firstIndex(of: "]") {
      return String(trimmed[trimmed.index(after: trimmed.startIndex)..<close])
    }
    if let colon = trimmed.lastIndex(of: ":"), trimmed.firstIndex(of: ":") == colon,
      trimmed[trimmed.index(after: colon)...].allSatisfy(\.isNumber)
    {
      return String(trimmed[..<colon])
    }
    return trimmed
  }
}
