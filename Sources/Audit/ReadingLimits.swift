/// How much of a flow's bytes the analyser reads, stated once: the reader bounds itself by it and
/// the sentences that say what was not read name it.
public enum ReadingLimits {
  /// The pieces (TCP segments, QUIC CRYPTO frames) one direction's reading takes: enough for any
  /// handshake (a 64 KiB stream in 64-byte pieces), and a bound on what a sender of one-byte
  /// pieces can make the reader do.
  public static let piecesPerDirection = 1_024
  /// A connection ends when it has been idle this long (µs): a packet after the gap opens another.
  public static let connectionIdleMicroseconds: Int64 = 120 * 1_000_000
  /// The most of an HTTP message's head read from a capture: a longer one ends the reading.
  public static let httpHeadBytes = 65_536
  /// The most of an HTTP message's body kept from a capture for what it sent; the rest is
  /// counted and said to be cut.
  public static let httpBodyBytes = 4 << 20
  /// The most a direction of a stream holds out of order while it waits for the bytes before.
  public static let outOfOrderBytes = 1 << 20
}
