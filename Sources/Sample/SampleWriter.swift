import Audit
import AuditRules
import AuditWording
import Capture
import FlowStore
import Foundation

/// What was written, per session.
public struct SampleSummary: Sendable, Hashable {
  public struct Session: Sendable, Hashable {
    public let id: Int64
    public let project: String
    public let name: String
    public let flows: Int
    public let packets: Int
  }
  public let sessions: [Session]
  public let captureFiles: Int
  public let captureBytes: UInt64
}

public enum SampleWriterError: Error, Sendable, Hashable, CustomStringConvertible {
  case storeNotEmpty(String)
  case directoryNotEmpty(String)
  case cannotPrepare(String)
  public var description: String {
    switch self {
    case .storeNotEmpty(let path):
      return
        "\(path) already holds a store; the sample is only written into a new directory. Choose another --store, or remove that one."
    case .directoryNotEmpty(let path):
      return
        "\(path) is not empty; the sample is only written into a new or empty directory. Choose another --store."
    case .cannotPrepare(let reason): return "The sample store could not be written: \(reason)."
    }
  }
}

/// Writes a plan through the same path real traffic takes: a session is open while its flows
/// are written, packets go into rotated capture files and the history points at their records.
public final class SampleWriter {
  private let store: FlowStore
  private let writer: PcapWriter
  private var maker: SampleFlowMaker
  private var payloads: SampleRandom
  private let clock = Clock()
  private var filesToRemove: [UInt32] = []
  private var filesToCut: [UInt32] = []
  private var captureSession: Int64 = 0
  private var pendingPackets: [StoredPacket] = []

  final class Clock: @unchecked Sendable { var now = SampleScenario.epoch }

  /// Writes the plan into `directory`, which must not hold a store yet. The store is made in a
  /// temporary directory beside it and moved into place at the end: a failure leaves nothing.
  public static func write(
    _ plan: SamplePlan, to directory: URL, rotationBytes: UInt64 = PcapWriter.defaultRotationBytes,
    progress: ((String) -> Void)? = nil
  ) throws -> SampleSummary {
    let fm = FileManager.default
    if fm.fileExists(atPath: directory.appendingPathComponent(FlowStore.databaseName).path) {
      throw SampleWriterError.storeNotEmpty(directory.path)
    }
    if let contents = try? fm.contentsOfDirectory(atPath: directory.path), !contents.isEmpty {
      throw SampleWriterError.directoryNotEmpty(directory.path)
    }
    let parent = directory.deletingLastPathComponent()
    let staging = AtomicRename.partialName(for: directory)
    do { try fm.createDirectory(at: parent, withIntermediateDirectories: true) } catch {
      throw SampleWriterError.cannotPrepare("\(parent.path): \(SystemErrorText.reason(error))")
    }
    try? fm.removeItem(at: staging)
    do {
      let summary = try SampleWriter(directory: staging, plan: plan, rotationBytes: rotationBytes)
        .run(plan, progress: progress)
      // Replaces an empty directory; one that has filled meanwhile is refused and kept.
      do { try AtomicRename.rename(staging, to: directory) } catch {
        throw SampleWriterError.cannotPrepare(error.description)
      }
      return summary
    } catch {
      try? fm.removeItem(at: staging)
      throw error
    }
  }

  private init(directory: URL, plan: SamplePlan, rotationBytes: UInt64) throws {
    store = try FlowStore(directory: directory)
    let store = self.store
    let clock = self.clock
    writer = PcapWriter(directory: store.capturesDirectory, rotationBytes: rotationBytes) {
      try store.claimCaptureFileSequence(at: clock.now)
    }
    maker = SampleFlowMaker(seed: plan.seed &+ 7)
    payloads = SampleRandom(seed: plan.seed &+ 13)
  }

  private func run(_ plan: SamplePlan, progress: ((String) -> Void)?) throws -> SampleSummary {
    let start = plan.projects.first?.createdAt ?? SampleScenario.epoch
    // One recorder run through the whole plan: every session is recorded throughout.
    captureSession = try store.beginRecorderRun(
      RecorderClaim(processID: 0, sourceName: "the sample's plan", isLive: false, since: start),
      at: start, inspectionLog: nil)
    var sessions: [SampleSummary.Session] = []
    for project in plan.projects {
      let created = try store.createAuditProject(project.draft, at: project.createdAt)
      for value in project.testData {
        try store.addTestData(value, toProject: created.id, at: project.createdAt)
      }
      for planned in project.sessions {
        clock.now = planned.start
        // Flows that began before the session: their first packets, untagged.
        var early: [(SampleFlow, Int64, Int)] = []
        for flow in planned.flows where flow.beginsBeforeSession {
          let before = flow.packets.filter {
            flow.start.addingTimeInterval($0.offset) < planned.start
          }.count
          let id = try writeFlow(flow, packets: 0..<before)
          early.append((flow, id, before))
        }
        try flushPackets()
        let session = try store.startAuditSession(
          AuditSessionDraft(
            projectID: created.id, kind: planned.kind, environment: planned.environment,
            inspection: planned.inspection, notes: planned.notes), at: planned.start)
        // Continued in the session: a row of their own, from its start (the store seals it).
        for (flow, id, before) in early {
          _ = try writeFlow(flow, packets: before..<flow.packets.count, continuing: id)
        }
        var packets = 0
        try store.transaction {
          for flow in planned.flows where !flow.beginsBeforeSession {
            clock.now = flow.start
            let id = try writeFlow(flow, packets: 0..<flow.packets.count)
            for var exchange in flow.exchanges {
              exchange.flowID = id
              try store.insertExchange(exchange, session: session.id)
            }
          }
          try flushPackets()
        }
        if let bulk = planned.bulk {
          let span = planned.end.timeIntervalSince(planned.start) - 500
          var index = 0
          while index < bulk.flows {
            try store.transaction {
              for _ in 0..<min(500, bulk.flows - index) {
                let start = planned.start.addingTimeInterval(
                  300 + span * Double(index) / Double(bulk.flows))
                clock.now = start
                let flow = SampleScenario.bulkFlow(index, of: bulk, start: start, maker: &maker)
                _ = try writeFlow(flow, packets: 0..<flow.packets.count)
                index += 1
              }
              try flushPackets()
            }
            progress?("\(index) of \(bulk.flows) flows")
          }
        }
        for (kind, date) in planned.markers {
          _ = try store.addMarker(kind, toSession: session.id, at: date)
        }
        try store.recorderRunAlive(captureSession, at: planned.end, inspectionLog: nil)
        _ = try store.endAuditSession(
          id: session.id, at: planned.end, recorderAtEnd: try store.unendedRun(ofProcess: 0))
        for flow in planned.afterwards {
          clock.now = flow.start
          _ = try writeFlow(flow, packets: 0..<flow.packets.count)
        }
        try flushPackets()
        packets = try store.packetCounts(inAuditSession: session.id).reduce(0) { $0 + $1.packets }
        sessions.append(
          .init(
            id: session.id, project: created.name,
            name: AuditPresentation.sessionName(planned.kind),
            flows: try store.flowCount(inAuditSession: session.id), packets: packets))
      }
    }
    try writer.close()
    try store.endRecorderRun(captureSession, at: clock.now, .sourceEnded)
    let library = CaptureLibrary(directory: store.capturesDirectory)
    for sequence in filesToCut {
      let url = library.url(sequence: sequence)
      let handle = try FileHandle(forUpdating: url)
      let size = try handle.seekToEnd()
      try handle.truncate(atOffset: size - 7)
      try handle.close()
    }
    for sequence in filesToRemove { try library.delete(sequence: sequence) }
    let files = try library.files()
    return SampleSummary(
      sessions: sessions, captureFiles: files.count,
      captureBytes: files.reduce(0) { $0 + $1.byteCount })
  }

  private var materialised: [Int64: [(Date, PacketDirection, UInt8, Data)]] = [:]

  /// Writes a flow's row with the given range of its packets, counting those; `continuing`: the
  /// row of its packets before (a session's edge between them).
  private func writeFlow(
    _ planned: SampleFlow, packets range: Range<Int>, continuing existing: Int64? = nil
  ) throws -> Int64 {
    var flow = planned.flow
    flow.captureSessionID = captureSession
    flow.continuedFrom = existing
    var all: [(Date, PacketDirection, UInt8, Data)]
    if let existing, let built = materialised.removeValue(forKey: existing) {
      all = built
    } else {
      var state = TCPState(random: &payloads)
      all = planned.packets.map { packet in
        let date = Instant.date(
          microseconds: Instant.microseconds(planned.start.addingTimeInterval(packet.offset)))
        return (
          date, packet.outbound ? .outbound : .inbound, packet.tcpFlags,
          build(packet, flow: planned, state: &state)
        )
      }
    }
    flow.firstSeen =
      range.lowerBound == 0
      ? Instant.date(microseconds: Instant.microseconds(planned.start))
      : all[range.lowerBound].0
    for (date, direction, _, datagram) in all[range] {
      if direction == .outbound {
        flow.bytesOut += UInt64(datagram.count)
      } else {
        flow.bytesIn += UInt64(datagram.count)
      }
      flow.packetCount += 1
      flow.lastSeen = date
    }
    let datagrams = Array(all[range])
    flow.tlsStatusBasis = TLSStatusBasis.of(flow)
    let id = try store.upsertFlow(flow)
    if range.upperBound < all.count { materialised[id] = all }
    switch planned.fate {
    case .captured, .notCaptured: break
    case .fileRemoved, .lastRecordCutShort: if writer.currentFileHasRecords { try writer.rotate() }
    }
    for (date, direction, flags, datagram) in datagrams {
      clock.now = date
      let location =
        planned.fate == .notCaptured ? .notCaptured : try writer.write(datagram, at: date)
      pendingPackets.append(
        StoredPacket(
          flowID: id, date: date, direction: direction, length: datagram.count,
          tcpFlags: flags, location: location))
    }
    switch planned.fate {
    case .captured, .notCaptured: break
    case .fileRemoved:
      filesToRemove.append(writer.currentSequence!)
      try writer.rotate()
    case .lastRecordCutShort:
      filesToCut.append(writer.currentSequence!)
      try writer.rotate()
    }
    if pendingPackets.count >= 20_000 { try flushPackets() }
    return id
  }

  private func flushPackets() throws {
    guard !pendingPackets.isEmpty else { return }
    try store.appendPackets(pendingPackets)
    pendingPackets.removeAll(keepingCapacity: true)
  }

  struct TCPState {
    var outSequence: UInt32
    var inSequence: UInt32
    var icmpSequence: UInt16 = 0
    init(random: inout SampleRandom) {
      outSequence = UInt32(truncatingIfNeeded: random.next())
      inSequence = UInt32(truncatingIfNeeded: random.next())
    }
  }

  private func build(_ packet: SamplePacket, flow planned: SampleFlow, state: inout TCPState)
    -> Data
  {
    let payload: Data
    switch packet.payload {
    case .none: payload = Data()
    case .bytes(let data): payload = data
    case .random(let count): payload = payloads.bytes(count)
    case .tlsRecord(let count): payload = TLSMessageBuilder.applicationData(payloads.bytes(count))
    }
    let device = planned.device
    let server = planned.flow.peers.a == device ? planned.flow.peers.b : planned.flow.peers.a
    let (source, destination) = packet.outbound ? (device, server) : (server, device)
    let transport: DatagramBuilder.Transport
    switch planned.flow.ipProtocol {
    case .tcp:
      let flags = packet.tcpFlags
      if packet.outbound {
        transport = .tcp(
          sequence: state.outSequence,
          acknowledgement: flags & DatagramBuilder.TCPFlags.ack != 0 ? state.inSequence : 0,
          flags: flags)
        state.outSequence &+=
          UInt32(payload.count)
          + (flags & (DatagramBuilder.TCPFlags.syn | DatagramBuilder.TCPFlags.fin) != 0 ? 1 : 0)
      } else {
        transport = .tcp(
          sequence: state.inSequence, acknowledgement: state.outSequence, flags: flags)
        state.inSequence &+=
          UInt32(payload.count)
          + (flags & (DatagramBuilder.TCPFlags.syn | DatagramBuilder.TCPFlags.fin) != 0 ? 1 : 0)
      }
    case .udp:
      transport = .udp
    default:
      if packet.outbound { state.icmpSequence &+= 1 }
      transport = .icmpEcho(
        identifier: 0x5456, sequence: state.icmpSequence, reply: !packet.outbound)
    }
    return DatagramBuilder.datagram(
      from: (source.address, source.port), to: (destination.address, destination.port),
      transport: transport, payload: payload,
      identification: UInt16(truncatingIfNeeded: state.outSequence))
  }
}
