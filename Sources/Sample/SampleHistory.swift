import Audit
import Capture
import FlowStore
import Foundation

/// History a recorder leaves outside any session, grown beside the sample's sessions: what a
/// store holds after weeks of recording. Connections are spread evenly over the span, each with
/// its packets, one capture file an hour. The rows are what a month weighs on: each file holds
/// only its pcap header (the packets' offsets point past it), so that a month's history costs
/// its database, not gigabytes of capture.
public struct SampleHistoryPlan: Sendable, Hashable {
  public var connections: Int
  public var packetsPerConnection: Int
  /// The history's span ends here (the newest connection starts just before).
  public var end: Date
  public var days: Int

  public init(connections: Int, packetsPerConnection: Int = 20, end: Date, days: Int = 30) {
    self.connections = connections
    self.packetsPerConnection = packetsPerConnection
    self.end = end
    self.days = days
  }

  var start: Date { end.addingTimeInterval(-Double(days) * 86_400) }
  var hours: Int { days * 24 }
  /// The connections that start in hour `hour` of the span.
  func connections(inHour hour: Int) -> Range<Int> {
    (connections * hour / hours)..<(connections * (hour + 1) / hours)
  }
}

public enum SampleHistory {
  /// The hosts the history's connections go to (documentation names, RFC 2606).
  static let hosts = (0..<400).map { "h\($0).history.example" }

  /// Writes the plan's history into `store`, an hour's connections and packets per transaction;
  /// `progress` is told the connections written so far.
  public static func grow(
    _ store: FlowStore, _ plan: SampleHistoryPlan, progress: (Int) -> Void = { _ in }
  ) throws {
    guard plan.connections > 0, plan.days > 0 else { return }
    let session = try store.beginCaptureSession(at: plan.start)
    let library = CaptureLibrary(directory: store.capturesDirectory)
    try FileManager.default.createDirectory(
      at: store.capturesDirectory, withIntermediateDirectories: true)
    let spacing = Double(plan.days) * 86_400 / Double(plan.connections)
    for hour in 0..<plan.hours {
      let hourStart = plan.start.addingTimeInterval(Double(hour) * 3_600)
      try store.transaction {
        let sequence = try store.claimCaptureFileSequence(at: hourStart)
        try PcapFormat.globalHeader(snaplen: PcapFormat.defaultSnaplen).write(
          to: library.url(sequence: sequence))
        var packets: [StoredPacket] = []
        var offset = UInt64(PcapFormat.globalHeaderLength)
        for index in plan.connections(inHour: hour) {
          let first = plan.start.addingTimeInterval(Double(index) * spacing)
          let flow = connection(index, session: session, first: first, plan: plan)
          let id = try store.upsertFlow(flow, session: nil)
          for k in 0..<plan.packetsPerConnection {
            let length = k < 3 ? 60 : 600
            packets.append(
              StoredPacket(
                flowID: id, date: first.addingTimeInterval(Double(k) * 0.01),
                direction: k % 2 == 0 ? .outbound : .inbound, length: length,
                tcpFlags: k == 0 ? 0x02 : 0x10,
                location: CaptureLocation(fileSequence: sequence, offset: offset)))
            offset += UInt64(PcapFormat.recordHeaderLength + length)
          }
        }
        try store.appendPackets(packets)
      }
      progress(plan.connections(inHour: hour).upperBound)
    }
  }

  /// Connection `index`: a device port, a server of the documentation range and a host name
  /// from the list, a TLS connection of the plan's packets.
  static func connection(_ index: Int, session: Int64, first: Date, plan: SampleHistoryPlan)
    -> StoredFlow
  {
    let packets = plan.packetsPerConnection
    let outbound = (packets + 1) / 2
    return StoredFlow(
      captureSessionID: session, ipProtocol: .tcp,
      peers: FlowPeers(
        FlowEndpoint(address: "10.0.0.2", port: UInt16(1_024 + index % 60_000)),
        FlowEndpoint(address: "198.51.100.\(index % 250 + 1)", port: 443)),
      firstSeen: first, lastSeen: first.addingTimeInterval(Double(max(packets - 1, 0)) * 0.01),
      bytesOut: UInt64(outbound * 600), bytesIn: UInt64((packets - outbound) * 600),
      packetCount: packets, tlsStatus: .encrypted, sni: hosts[index % hosts.count])
  }
}
