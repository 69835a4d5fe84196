/// Lifts the snaplen a pcap or pcapng stream declares to "none" (0: a reader takes its most) as
/// the stream passes, so that libpcap keeps each record whole, as import does: a file whose
/// records are longer than its header's snaplen (editcap and some phone tools write them) is
/// otherwise cut to it by libpcap and read whole by import. Nothing else changes: the bytes out
/// are the bytes in, save the pcap header's snaplen and each pcapng interface's. What it cannot
/// parse (a length that lies) it passes on as it is, for the reader to refuse.
public struct SnaplenLifter: Sendable {
  enum Format: Sendable {
    case unknown
    /// pcapng, with the byte order of the section under way.
    case pcapng(bigEndian: Bool)
    /// Settled: the rest passes as it is.
    case passing
  }

  private var format = Format.unknown
  /// The offset in the stream of the first byte not yet settled.
  private var position: UInt64 = 0
  /// pcapng: the offset of the next block's header.
  private var nextBlock: UInt64 = 0

  public init() {}

  /// Patches what can be decided in `pending` (the bytes from the first one not yet settled);
  /// returns how many of its first bytes are settled and may go on. `ended`: no more will come.
  public mutating func settle(_ pending: inout [UInt8], ended: Bool) -> Int {
    func word(_ at: Int, bigEndian: Bool) -> UInt32 {
      let bytes = pending[at..<at + 4].map(UInt32.init)
      return bigEndian
        ? bytes[0] << 24 | bytes[1] << 16 | bytes[2] << 8 | bytes[3]
        : bytes[3] << 24 | bytes[2] << 16 | bytes[1] << 8 | bytes[0]
    }
    func zero(_ at: Int) { for i in at..<at + 4 { pending[i] = 0 } }
    func settled(_ count: Int) -> Int {
      position += UInt64(count)
      return count
    }
    while true {
      switch format {
      case .passing:
        return settled(pending.count)
      case .unknown:
        // A pcap header is 24 bytes, a pcapng section header at least 28.
        guard pending.count >= 24 else {
          if ended { format = .passing }
          return settled(ended ? pending.count : 0)
        }
        switch word(0, bigEndian: false) {
        case 0xa1b2_c3d4, 0xd4c3_b2a1, 0xa1b2_3c4d, 0x4d3c_b2a1:
          zero(16)
          format = .passing
        case 0x0A0D_0D0A:
          format = .pcapng(bigEndian: false)
        default:
          format = .passing
        }
      case .pcapng(var bigEndian):
        let end = position + UInt64(pending.count)
        guard nextBlock < end else { return settled(pending.count) }
        let at = Int(nextBlock - position)
        // A block's type, length, and the first 8 bytes of its body: a section's byte-order
        // magic, an interface's snaplen.
        guard pending.count - at >= 16 else {
          if ended { format = .passing }
          return settled(ended ? pending.count : at)
        }
        if word(at, bigEndian: false) == 0x0A0D_0D0A {
          switch word(at + 8, bigEndian: false) {
          case 0x1A2B_3C4D: bigEndian = false
          case 0x4D3C_2B1A: bigEndian = true
          default:
            format = .passing
            continue
          }
        }
        let length = word(at + 4, bigEndian: bigEndian)
        guard length >= 12, length % 4 == 0 else {
          format = .passing
          continue
        }
        if word(at, bigEndian: bigEndian) == 1 { zero(at + 12) }
        format = .pcapng(bigEndian: bigEndian)
        nextBlock += UInt64(length)
      }
    }
  }
}
