import Audit
import AuditRules
import AuditWording
import Capture
import Crypto
import Foundation

/// The analyser as the recorder uses it: packets read one at a time into flows, each flow written
/// as it goes and let go once no packet can join it. The same readings and rules as an import,
/// so that a capture recorded and the same capture imported give the same flows.
public struct FlowTracker {
  var analyser: CaptureAnalyser
  /// By slot: the device end, settled when the flow opened (group flows by the devices known then).
  var deviceBySlot: [FlowEndpoint] = []

  public init(devices: [String]) { analyser = CaptureAnalyser(devices: devices) }

  /// A packet read into its flow.
  public struct Packet {
    /// The flow's slot: the same while the flow is held, reused once it is let go.
    public let slot: Int
    public let opened: Bool
    public let datagram: ArraySlice<UInt8>
    public let outbound: Bool
    public let tcpFlags: UInt8
  }

  /// Reads a frame; nil when it holds no packet to keep (`unreadFrames` counts why).
  public mutating func add(_ frame: DecodedFrame) -> Packet? {
    guard let added = analyser.add(frame) else { return nil }
    if added.opened {
      let device = analyser.device(of: added.slot)
      if added.slot == deviceBySlot.count {
        deviceBySlot.append(device)
      } else {
        deviceBySlot[added.slot] = device
      }
    }
    return Packet(
      slot: added.slot, opened: added.opened, datagram: added.packet.datagram,
      outbound: added.packet.source == deviceBySlot[added.slot], tcpFlags: added.packet.tcpFlags)
  }

  /// The flow in a slot as the store holds it, with what was read of it so far.
  public func flow(_ slot: Int) -> StoredFlow { analyser.stored(slot, device: deviceBySlot[slot]) }

  /// The slots of flows that no packet from `microseconds` on can join.
  public func over(at microseconds: Int64) -> [Int] { analyser.assignment.over(at: microseconds) }

  /// The slots of every flow held.
  public var held: [Int] { analyser.assignment.held.sorted() }
  public var heldCount: Int { analyser.assignment.held.count }

  /// Lets a flow go (written for the last time): its readings are dropped, its slot reused.
  /// Pieces of the flow in `slot` not reassembled, past `ReadingLimits.piecesPerDirection`.
  public func piecesNotReassembled(_ slot: Int) -> Int { analyser.flows[slot].piecesRefused }

  /// The exchanges read in the clear in a slot's flow since the last call; `closing`: the flow
  /// is let go, and what was begun is taken too.
  public func takeExchanges(_ slot: Int, closing: Bool) -> [HTTPExchange] {
    let flow = analyser.flows[slot]
    guard let http = flow.http else { return [] }
    if closing { return analyser.closeHTTP(flow, slot: slot) }
    defer { http.exchanges = [] }
    return http.exchanges
  }

  public mutating func release(_ slot: Int) {
    analyser.assignment.release(slot)
    analyser.flows[slot] = TrackedFlow()
  }

  /// Device addresses: those given, else those inferred so far, the most connections first.
  public var deviceAddresses: [String] { analyser.deviceAddresses }
  public var devicesInferred: Bool { analyser.devices.isEmpty }
  public var frames: Int { analyser.analysis.frames }
  public var packets: Int { analyser.analysis.packetCount }
  /// Frames not kept, by why.
  public var unreadFrames: [String: Int] { analyser.analysis.unparseable }
  /// The latest packet's instant, µs.
  public var lastMicroseconds: Int64? { analyser.analysis.lastMicroseconds }
}
