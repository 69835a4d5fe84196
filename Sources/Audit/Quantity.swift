/// Numbers as a reader reads them: grouped by thousands, with their noun, in bytes.
public enum Quantity {
  /// A small count in words, as prose writes it ("five"); from thirteen on, in digits.
  public static func spelled(_ n: Int) -> String {
    let words = [
      "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
      "eleven", "twelve",
    ]
    return words.indices.contains(n) ? words[n] : grouped(n)
  }

  /// "1 connection", "412 connections".
  public static func count(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(grouped(n)) \(n == 1 ? singular : (plural ?? singular + "s"))"
  }

  /// 4842 → "4,842".
  /// Items in a sentence: "a", "a and b", "a, b and c".
  public static func list(_ items: [String]) -> String {
    guard let last = items.last else { return "" }
    guard items.count > 1 else { return last }
    return items.dropLast().joined(separator: ", ") + " and " + last
  }

  public static func grouped(_ n: Int) -> String {
    let digits = String(n.magnitude)
    var out = ""
    for (i, ch) in digits.enumerated() {
      if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
      out.append(ch)
    }
    return (n < 0 ? "-" : "") + out
  }

  /// A size in decimal units, as the retention limits are written: 512 → "512 bytes",
  /// 1,234,567 → "1.2 MB", 3,000,000 → "3.0 MB"; one decimal, rounded half away from zero
  /// (999,950 bytes is "1.0 MB", not "1000.0 kB").
  public static func byteCount(_ count: UInt64) -> String {
    if count < 1000 { return count == 1 ? "1 byte" : "\(count) bytes" }
    let units = ["kB", "MB", "GB", "TB", "PB", "EB"]
    var tenths = (Double(count) / 100).rounded()
    var unit = 0
    while tenths >= 10_000, unit < units.count - 1 {
      tenths = (tenths / 1000).rounded()
      unit += 1
    }
    let whole = Int(tenths) / 10
    return "\(grouped(whole)).\(Int(tenths) % 10) \(units[unit])"
  }
}
