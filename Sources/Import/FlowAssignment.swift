import Audit
import AuditRules
import AuditWording
import Capture
import Crypto

/// Which flow each packet belongs to, decided packet by packet in capture order from the packet
/// alone and what the flows so far have seen. The importer's two passes make the same decisions
/// from the same packets, so the second keeps nothing per packet from the first. A flow that no
/// packet can join any more (`isOver`) may be let go: its slot is given to the next flow opened,
/// so that the recorder holds only the flows open at once.
struct FlowAssignment {
  static let idleGap = ReadingLimits.connectionIdleMicroseconds
  /// A TCP flow that saw a FIN or RST ends after this much quiet (Linux's TIME_WAIT): what comes
  /// later on the same ends is another connection.
  static let finishedGap: Int64 = 60 * 1_000_000

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

  /// By slot: the order flows opened in, as long as none was let go.
  private(set) var flows: [Flow] = []
  /// The flow a connection's packets go to now, by its two ends (either way round) and protocol.
  private var active: [Key: Int] = [:]
  /// Slots of flows let go, for the next flows opened.
  private var free: [Int] = []
  /// Slots of flows opened and not let go.
  private(set) var held: Set<Int> = []

  /// A struct, not a text built for every packet.
  private struct Key: Hashable {
    let peers: FlowPeers
    let ipProtocol: UInt8
  }

  /// Whether no packet at `micros` or later can join the flow.
  static func isOver(_ flow: Flow, at micros: Int64) -> Bool {
    micros - flow.last > (flow.finished ? finishedGap : idleGap)
  }

  /// The slots of flows held that no packet from `micros` on can join: idle past their gap, or
  /// followed on the same ends by another flow.
  func over(at micros: Int64) -> [Int] {
    held.filter { slot in
      let flow = flows[slot]
      return Self.isOver(flow, at: micros) || active[Self.key(of: flow)] != slot
    }.sorted()
  }

  /// Lets a flow go; its slot goes to a flow opened later.
  mutating func release(_ slot: Int) {
    let key = Self.key(of: flows[slot])
    if active[key] == slot { active[key] = nil }
    if held.remove(slot) != nil { free.append(slot) }
  }

  private static func key(of flow: Flow) -> Key {
    Key(peers: flow.peers, ipProtocol: flow.ipProtocol.rawValue)
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
      if Self.isOver(f, at: micros)
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
      let flow = Flow(
        peers: FlowPeers(packet.source, packet.destination), ipProtocol: packet.ipProtocol,
        opener: opener, openedExplicitly: explicit, first: micros, last: micros)
      if let slot = free.popLast() {
        flows[slot] = flow
        at = slot
      } else {
        flows.append(flow)
        at = flows.count - 1
      }
      active[key] = at
      held.insert(at)
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
