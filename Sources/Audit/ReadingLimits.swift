/// How much of a flow's bytes the analyser reads, stated once: the reader bounds itself by it and
/// the sentences that say what was not read name it.
public enum ReadingLimits {
  /// The pieces (TCP segments, QUIC CRYPTO frames) one direction's reading takes: enough for any
  /// handshake (a 64 KiB stream in 64-byte pieces), and a bound on what a sender of one-byte
  /// pieces can make the reader do.
  public static let piecesPerDirection = 1_024
  /// A connection ends when it has been idle this long (µs): a packet after the gap opens another.
  public static let connectionIdleMicroseconds: Int64 = 120 * 1_000_000
}
