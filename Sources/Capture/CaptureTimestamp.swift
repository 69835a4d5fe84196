/// A packet's time as the capture formats write it, turned into microseconds since the epoch by
/// one rule for import and record: a fraction that is not less than a second, or a time beyond
/// 64 bits of microseconds, is impossible, and comes out as `Int64.min` (outside any range a
/// reader accepts, so counted as out of range, never wrapped or trapped on).
public enum CaptureTimestamp {
  public static let impossible = Int64.min

  /// Seconds and a fraction of `perSecond` parts (10⁶ or 10⁹ for pcap; libpcap's µs), plus a
  /// pcapng interface's `if_tsoffset` seconds.
  public static func microseconds(
    seconds: Int64, fraction: Int64, perSecond: Int64, offsetSeconds: Int64 = 0
  ) -> Int64 {
    guard perSecond > 0, (0..<perSecond).contains(fraction) else { return impossible }
    let (total, late) = seconds.addingReportingOverflow(offsetSeconds)
    let (whole, over) = total.multipliedReportingOverflow(by: 1_000_000)
    let part = perSecond == 1_000_000 ? fraction : fraction * 1_000_000 / perSecond
    let (sum, carry) = whole.addingReportingOverflow(part)
    return late || over || carry ? impossible : sum
  }

  /// Microseconds moved by a pcapng interface's `if_tsoffset` seconds.
  public static func offset(_ microseconds: Int64, bySeconds seconds: Int64) -> Int64 {
    guard seconds != 0, microseconds != impossible else { return microseconds }
    let (shift, over) = seconds.multipliedReportingOverflow(by: 1_000_000)
    let (sum, carry) = microseconds.addingReportingOverflow(shift)
    return over || carry ? impossible : sum
  }
}
