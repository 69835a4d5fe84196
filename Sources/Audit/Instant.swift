import Foundation

/// Instants on disk are nanoseconds since the epoch; in the API they are `Date`.
/// A `Date` is a double and cannot carry nanoseconds at today's epoch, so every
/// instant is kept to the microsecond: that is what round-trips exactly.
public enum Instant {
  /// The history keeps instants as nanoseconds since 1970 in 64 bits, which end on 2262-04-11:
  /// the instants up to the start of 2262, in microseconds, are those it can hold.
  public static let storableMicroseconds: ClosedRange<Int64> = 0...(9_214_646_400 * 1_000_000 - 1)

  /// Nanoseconds since the epoch, rounded to the microsecond.
  public static func nanoseconds(_ date: Date) -> Int64 {
    microseconds(date) * 1_000
  }

  public static func microseconds(_ date: Date) -> Int64 {
    Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
  }

  public static func date(nanoseconds: Int64) -> Date {
    // Whole seconds and the rest are converted apart so the double loses nothing it can hold.
    let seconds = nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
    let micros = (Double(seconds.remainder) / 1_000).rounded() / 1_000_000
    return Date(timeIntervalSince1970: Double(seconds.quotient) + micros)
  }

  public static func date(microseconds: Int64) -> Date {
    let (nanoseconds, overflow) = microseconds.multipliedReportingOverflow(by: 1_000)
    return overflow
      ? Date(timeIntervalSince1970: Double(microseconds) / 1_000_000)
      : date(nanoseconds: nanoseconds)
  }

  /// RFC 3339 in UTC with the sub-second digits that exist: `2026-10-09T10:00:00Z`,
  /// `2026-10-09T10:00:00.25Z`, `2026-10-09T10:00:00.123456Z`.
  public static func rfc3339(_ date: Date) -> String { rfc3339(microseconds: microseconds(date)) }

  /// The same to the whole second, the fraction cut off (not rounded: a second is named by the
  /// instant it began), for what a person reads; the documents keep the microseconds.
  public static func rfc3339ToTheSecond(_ date: Date) -> String {
    let micros = microseconds(date)
    let (seconds, fraction) = micros.quotientAndRemainder(dividingBy: 1_000_000)
    return rfc3339(microseconds: (fraction < 0 ? seconds - 1 : seconds) * 1_000_000)
  }

  /// The day in UTC, yyyy-MM-dd: how a list or database file is dated.
  public static func day(_ date: Date) -> String { String(rfc3339(date).prefix(10)) }

  /// The same for microseconds since 1970, which past 2100 a `Date` no longer holds exactly.
  public static func rfc3339(microseconds micros: Int64) -> String {
    withRFC3339(microseconds: micros) { String(decoding: $0, as: UTF8.self) }
  }

  /// `rfc3339(microseconds:)` as UTF-8 bytes, without a String where the year has four digits.
  public static func withRFC3339<R>(
    microseconds micros: Int64, _ body: (UnsafeBufferPointer<UInt8>) -> R
  ) -> R {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: rfc3339Capacity) { out in
      if let length = writeRFC3339(microseconds: micros, into: out) {
        return body(UnsafeBufferPointer(rebasing: out[..<length]))
      }
      // A year that is not four digits is written by CivilTime ahead of the same fraction.
      let (civil, fraction) = civilTime(micros)
      let end = putFraction(fraction, into: out, at: 0)
      var text =
        civil.isoDate + "T" + civil.isoTime
        + String(decoding: UnsafeBufferPointer(rebasing: out[..<end]), as: UTF8.self)
      return text.withUTF8(body)
    }
  }

  /// The most bytes `writeRFC3339` writes.
  public static let rfc3339Capacity = 27

  /// Writes the instant digit by digit into `out` (at least `rfc3339Capacity` bytes) and says
  /// how many bytes it took; nil when its year is not four digits. Not generic, so that another
  /// module calls it as it is (flows.json and flows.csv write three instants per flow).
  public static func writeRFC3339(
    microseconds micros: Int64, into out: UnsafeMutableBufferPointer<UInt8>
  ) -> Int? {
    let (civil, fraction) = civilTime(micros)
    guard (0...9999).contains(civil.year) else { return nil }
    put(civil.year, 4, into: out, endingAt: 4)
    out[4] = UInt8(ascii: "-")
    put(civil.month, 2, into: out, endingAt: 7)
    out[7] = UInt8(ascii: "-")
    put(civil.day, 2, into: out, endingAt: 10)
    out[10] = UInt8(ascii: "T")
    put(civil.hour, 2, into: out, endingAt: 13)
    out[13] = UInt8(ascii: ":")
    put(civil.minute, 2, into: out, endingAt: 16)
    out[16] = UInt8(ascii: ":")
    put(civil.second, 2, into: out, endingAt: 19)
    return putFraction(fraction, into: out, at: 19)
  }

  private static func civilTime(_ micros: Int64) -> (CivilTime, Int64) {
    var (seconds, fraction) = micros.quotientAndRemainder(dividingBy: 1_000_000)
    if fraction < 0 {
      seconds -= 1
      fraction += 1_000_000
    }
    return (CivilTime(secondsSinceEpoch: seconds), fraction)
  }

  /// The fraction's digits that exist after a point (none for a whole second), then Z, written
  /// from `head`; where they end.
  private static func putFraction(
    _ fraction: Int64, into out: UnsafeMutableBufferPointer<UInt8>, at head: Int
  ) -> Int {
    var digits = fraction
    var width = 6
    while digits != 0, digits % 10 == 0 {
      digits /= 10
      width -= 1
    }
    let length = head + (fraction == 0 ? 1 : 2 + width)
    if fraction != 0 {
      out[head] = UInt8(ascii: ".")
      put(Int(digits), width, into: out, endingAt: head + 1 + width)
    }
    out[length - 1] = UInt8(ascii: "Z")
    return length
  }

  private static func put(
    _ value: Int, _ count: Int, into out: UnsafeMutableBufferPointer<UInt8>, endingAt end: Int
  ) {
    var value = value
    for at in stride(from: end - 1, through: end - count, by: -1) {
      out[at] = UInt8(ascii: "0") + UInt8(value % 10)
      value /= 10
    }
  }

  /// Reads an instant only as `rfc3339` writes it (UTC, no trailing zeros in the fraction): what
  /// a document holds, checked to the letter. Four-digit years are read by bytes, without the
  /// regular expression of `parseRFC3339` (verify reads two for each of 20 000 flows).
  public static func parseWritten(_ text: String) -> Date? {
    parseWrittenMicroseconds(text).map { date(microseconds: $0) }
  }

  /// The same in microseconds since 1970, exact over every year a document can hold.
  public static func parseWrittenMicroseconds(_ text: String) -> Int64? {
    var text = text
    let bytesRead: Int64? = text.withUTF8 { b -> Int64? in
      func digits(_ from: Int, _ count: Int) -> Int64? {
        var value: Int64 = 0
        for i in from..<(from + count) {
          guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
          value = value * 10 + Int64(b[i] - 0x30)
        }
        return value
      }
      guard b.count >= 20, b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54, b[13] == 0x3A,
        b[16] == 0x3A, b[b.count - 1] == 0x5A,
        let y = digits(0, 4), let mo = digits(5, 2), let d = digits(8, 2), let h = digits(11, 2),
        let mi = digits(14, 2), let s = digits(17, 2), (1...12).contains(mo),
        (1...Int64(CivilTime.daysIn(month: Int(mo), year: Int(y)))).contains(d), h < 24, mi < 60,
        s < 60
      else { return nil }
      var micros: Int64 = 0
      if b.count > 20 {
        let count = b.count - 21
        guard b[19] == 0x2E, (1...6).contains(count), let fraction = digits(20, count) else {
          return nil
        }
        micros = fraction
        for _ in count..<6 { micros *= 10 }
      }
      let seconds =
        CivilTime.daysSinceEpoch(year: Int(y), month: Int(mo), day: Int(d)) * 86_400 + h * 3600
        + mi * 60 + s
      return seconds * 1_000_000 + micros
    }
    // Other years, read by the general parser; a Date holds them to the microsecond only so far.
    guard let micros = bytesRead ?? parseRFC3339(text).map(microseconds),
      rfc3339(microseconds: micros) == text
    else { return nil }
    return micros
  }

  /// Reads what `rfc3339` writes, and any RFC 3339 instant with an offset.
  public static func parseRFC3339(_ text: String) -> Date? {
    let pattern =
      #"^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$"#
    guard let regex = try? NSRegularExpression(pattern: pattern),
      let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text))
    else { return nil }
    func group(_ i: Int) -> String? {
      let range = match.range(at: i)
      guard range.location != NSNotFound, let r = Range(range, in: text) else { return nil }
      return String(text[r])
    }
    guard let y = Int(group(1)!), let mo = Int(group(2)!), let d = Int(group(3)!),
      let h = Int(group(4)!), let mi = Int(group(5)!), let s = Int(group(6)!),
      (1...12).contains(mo), (1...CivilTime.daysIn(month: mo, year: y)).contains(d),
      h < 24, mi < 60, s < 60
    else { return nil }
    var seconds =
      CivilTime.daysSinceEpoch(year: y, month: mo, day: d) * 86_400 + Int64(h * 3600 + mi * 60 + s)
    let zone = group(9)!
    if zone != "Z" {
      let sign: Int64 = zone.hasPrefix("-") ? -1 : 1
      let parts = zone.dropFirst().split(separator: ":")
      guard let oh = Int64(parts[0]), let om = Int64(parts[1]), oh < 24, om < 60 else { return nil }
      seconds -= sign * (oh * 3600 + om * 60)
    }
    var micros = seconds * 1_000_000
    if let fraction = group(8) {
      let padded = (fraction + "000000000").prefix(9)
      micros += (Int64(padded)! + 500) / 1_000
    }
    return date(microseconds: micros)
  }
}

/// Proleptic Gregorian calendar arithmetic in UTC, without Foundation's calendars
/// (whose output depends on the machine's settings).
public struct CivilTime: Sendable, Hashable {
  public let year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int

  public init(secondsSinceEpoch: Int64) {
    var days = secondsSinceEpoch / 86_400
    var rest = secondsSinceEpoch % 86_400
    if rest < 0 {
      rest += 86_400
      days -= 1
    }
    // Howard Hinnant's days-to-civil.
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    year = Int(yoe + era * 400 + (m <= 2 ? 1 : 0))
    month = Int(m)
    day = Int(d)
    hour = Int(rest / 3600)
    minute = Int(rest % 3600 / 60)
    second = Int(rest % 60)
  }

  public static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int64 {
    let y = Int64(month <= 2 ? year - 1 : year)
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let m = Int64(month)
    let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  public static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  public var isoDate: String { pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) }
  public var isoTime: String { pad(hour, 2) + ":" + pad(minute, 2) + ":" + pad(second, 2) }

  private func pad(_ value: Int, _ width: Int) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, width - text.count)) + text
  }
}
