import Audit
import Capture

/// Which flow each packet belongs to, decided packet by packet in capture order from the packet
/// alone and what the flows so far have seen. The importer's two passes make the same decisions
/// from the same packets, so the second keeps nothing per packet from the first.
struct FlowAssignment {
  /// A flow ends when it has been idle this long (µs): a packet after the gap opens another.
  static let idleGap: Int64 = 120 * 1_000_000

  /// What the decisions need of a flow, and what the store keeps of it.
  struct Flow {
    let peers: FlowPeers
    let ipProtocol: IPProtocolNumber
    /// The endpoint that opened it (SYN sender, first datagram's sender).
    let opener: FlowEndpoint
    /// Whether the opening was seen (a SYN, an ICMP request or answer, a datagram), not guessed.
    let openedExplicitly: Bool
    let first: Int64
    var last: Int64
    var packets = 0
    /// A FIN or RST was seen: a new SYN opens another flow.
    var finished = false
  }

  private(set) var flows: [Flow] = []
  /// The flow a connection's packets go to now, by its two ends (either way round) and protocol.
  private var active: [Key: Int] = [:]

  /// A struct, not a text built for every packet.
  private struct Key: Hashable {
    let peers: FlowPeers
    let ipProtocol: UInt8
  }

  /// The packet's flow, and whether the packet opened it.
  mutating func assign(_ packet: DissectedPacket, at micros: Int64) -> (index: Int, opened: Bool) {
    let key = Key(
      peers: FlowPeers(packet.source, packet.destination), ipProtocol: packet.ipProtocol.rawValue)
    let syn = packet.ipProtocol == .tcp && packet.tcpFlags & 0x02 != 0
    let synOnly = syn && packet.tcpFlags & 0x10 == 0
    var index = active[key]
    if let i = index {
      let f = flows[i]
      if micros - f.last > Self.idleGap
        || (synOnly && (f.finished || f.packets > 2 && f.opener != packet.source))
      {
        index = nil
      }
    }
    let opened = index == nil
    let at: Int
    if let index {
      at = index
    } else {
      let (opener, explicit) = Self.opener(packet, syn: syn, synOnly: synOnly)
      flows.append(
        Flow(
          peers: FlowPeers(packet.source, packet.destination), ipProtocol: packet.ipProtocol,
          opener: opener,
          openedExplicitly: explicit, first: micros, last: micros))
      at = flows.count - 1
      active[key] = at
    }
    flows[at].last = max(flows[at].last, micros)
    flows[at].packets += 1
    if packet.ipProtocol == .tcp, packet.tcpFlags & 0x05 != 0 { flows[at].finished = true }
    return (at, opened)
  }

  /// Who opened a flow, from its first packet, and whether that packet says so or it is a guess.
  private static func opener(_ packet: DissectedPacket, syn: Bool, synOnly: Bool) -> (
    FlowEndpoint, Bool
  ) {
    switch packet.ipProtocol {
    case .tcp:
      if synOnly { return (packet.source, true) }
      if syn { return (packet.destination, true) }
      return (packet.source, false)
    case .icmp, .icmpv6:
      let type = packet.payload.first ?? 0
      let request = type == 8 || type == 128
      return (
        request || !(type == 0 || type == 129) ? packet.source : packet.destination,
        request || type == 0 || type == 129
      )
    default:
      return (packet.source, true)
    }
  }
}
