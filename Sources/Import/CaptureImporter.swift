import Audit
import AuditRules
import AuditWording
import Capture
import Crypto
import FlowStore
import Foundation

public enum CaptureImportError: Error, Sendable, Hashable, CustomStringConvertible {
  case unreadable(path: String, reason: String)
  /// No frame held a packet to import; `unread` counts the frames by why they were not read.
  case noPackets(path: String, unread: [String: Int])
  case markerOutsideCapture(SessionMarkerKind, Date)
  case sessionRecording(Int64)
  case writeFailed(String)

  public var description: String {
    switch self {
    case .unreadable(let path, let reason): return "\(path) cannot be imported: \(reason)."
    case .noPackets(let path, let unread):
      let why = unread.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.prefix(3)
        .map { "\(Quantity.count($0.value, "frame")): \($0.key)" }.joined(separator: "; ")
      return
        "\(path) holds no IP packet that could be read\(why.isEmpty ? "" : " (\(why))"); no session was created."
    case .markerOutsideCapture(let kind, let date):
      return
        "The marker “\(AuditPresentation.markerName(kind))” at \(Instant.rfc3339(date)) lies outside the capture; a marker must fall between its first and its last packet."
    case .sessionRecording(let id):
      return
        "Session \(id) is open; an import creates a session of its own, and only one can be open. End it first."
    case .writeFailed(let reason):
      return "The import could not be written (\(reason)); nothing was kept."
    }
  }
}

/// What an import asks for, besides the file.
public struct CaptureImportRequest: Sendable {
  public var projectID: Int64
  public var kind: AuditSessionKind
  public var devices: [String]
  public var markers: [(SessionMarkerKind, Date)]
  public var deviceModel: String?
  public var osVersion: String?
  public var toolVersion: String
  public var notes: String
  /// An inspecting proxy's log joined to the capture's flows, its file's name, and whether the
  /// assessor states that the device trusted the proxy's CA.
  public var inspection: (join: InspectionJoin, summary: InspectionLogSummary, fileName: String)?
  /// The certificate scenario the log was written under; nil: not stated.
  public var scenario: CertificateScenario?
  /// What the inspecting proxy said of itself in that log each time it started: the test log's
  /// proxy version and options.
  public var proxyStarts: [RecorderRun.ProxyRun] = []
  /// Exchanges read beside the capture (the proxy's log, a HAR file), each with the index of the
  /// analysed flow it went over, nil for none: kept, their bodies decoded, in the session.
  public var exchanges: [(exchange: HTTPExchange, flow: Int?)] = []
  public init(
    projectID: Int64, kind: AuditSessionKind, devices: [String] = [],
    markers: [(SessionMarkerKind, Date)] = [],
    deviceModel: String? = nil, osVersion: String? = nil, toolVersion: String, notes: String = ""
  ) {
    self.projectID = projectID
    self.kind = kind
    self.devices = devices
    self.markers = markers
    self.deviceModel = deviceModel
    self.osVersion = osVersion
    self.toolVersion = toolVersion
    self.notes = notes
  }
}

/// Imports a pcap or pcapng file into an audit session: read it once to find the flows and their
/// readings, then again to write its packets into the store's capture files, with the session open
/// while its flows are written — the path live traffic takes. All or nothing.
public enum CaptureImporter {
  static let changedWhileImported = "it changed while it was being imported"

  /// What the analysis saw of a flow, to check the second reading against.
  struct SeenFlow {
    let peers: FlowPeers
    let packets: Int
    let first: Date
    let last: Date
  }

  public static func analyse(_ url: URL, devices: [String] = [], progress: ((Int) -> Void)? = nil)
    throws -> CaptureAnalysis
  {
    var analyser = CaptureAnalyser(devices: devices)
    var decoder = CaptureFileDecoder()
    decoder.hashing = true
    var index = 0
    let order: CaptureFileDecoder.FrameOrder
    do {
      // Read again in order from the start: what was analysed so far is forgotten.
      let restart = {
        analyser = CaptureAnalyser(devices: devices)
        index = 0
      }
      order = try decoder.decodeInTimeOrder(url, restart: restart) { frame in
        analyser.add(frame)
        index += 1
        if index % 50_000 == 0 { progress?(index) }
      }
    } catch let error as CaptureFileError {
      throw CaptureImportError.unreadable(path: url.path, reason: error.description)
    } catch {
      throw CaptureImportError.unreadable(path: url.path, reason: SystemErrorText.reason(error))
    }
    var analysis = analyser.finish()
    analysis.sections = decoder.sections
    analysis.damagedRecords = decoder.damagedRecords
    analysis.damaged = decoder.damaged
    analysis.sha256 = decoder.sha256
    analysis.frameOrder = order
    return analysis
  }

  /// Joins an inspecting proxy's log to the analysed flows (by their order in the analysis).
  /// `scenario`: the one the session states; a line of another is not joined.
  public static func join(
    _ log: InspectionLogContents, to analysis: CaptureAnalysis,
    scenario: CertificateScenario? = nil
  ) -> InspectionJoin {
    InspectionJoin(
      log.entries, exchanges: log.exchanges,
      flows: analysis.flows.map { InspectionJoin.Candidate($0.flow) }, scenario: scenario)
  }

  /// The exchanges of a join, each with its flow's index, in the order they began.
  public static func exchanges(of join: InspectionJoin) -> [(exchange: HTTPExchange, flow: Int?)] {
    let joined = join.exchanges.flatMap { index, list in list.map { ($0.exchange, Optional(index)) }
    }
    let alone = join.unjoinedExchanges.map { ($0.exchange, Int?.none) }
    return (joined + alone).sorted { ($0.0.start, $0.1 ?? -1) < ($1.0.start, $1.1 ?? -1) }
  }

  /// Writes the analysed capture as a session. The analysis is taken (`consume` it, as the
  /// command does, and the flows it holds are let go once written: 20 000 flows are some 9 MB).
  public static func write(
    _ analysis: consuming CaptureAnalysis, from url: URL, request: CaptureImportRequest,
    into store: FlowStore,
    rotationBytes: UInt64 = PcapWriter.defaultRotationBytes
  ) throws -> AuditSession {
    guard let first = analysis.firstMicroseconds, let last = analysis.lastMicroseconds,
      analysis.packetCount > 0
    else {
      throw CaptureImportError.noPackets(path: url.path, unread: analysis.unparseable)
    }
    let start = Instant.date(microseconds: first)
    let end = Instant.date(microseconds: last)
    let exchanges = allExchanges(analysis, request)

    let draft = sessionDraft(analysis, from: url, request: request)
    var created: [URL] = []
    do {
      // Every row this writes refers to the project, checked inside the transaction, or to rows
      // it writes: SQLite's checks of the references are left out (a sixth of the packets' cost).
      let session: AuditSession = try store.transaction(checkingReferences: false) {
        try checkWritable(request, from: start, to: end, in: store)
        let capture = try store.beginCaptureSession(at: start)
        for proxy in request.proxyStarts { try store.addProxyStart(proxy, toRun: capture) }
        let session = try store.startAuditSession(draft, at: start)
        var ids: [Int64] = []
        for (index, flow) in analysis.flows.enumerated() {
          var stored = flow.flow
          if let entry = request.inspection?.join.entries[index] {
            stored = InspectionJoin.joining(entry, to: stored)
          }
          stored.captureSessionID = capture
          ids.append(try store.upsertFlow(stored, session: session.id))
        }
        var clock = start
        // The rows go in on another thread while this one reads the capture again and writes
        // its files; the store is asked for a file's sequence number through the same queue.
        let rows = PacketRowsBehind(store)
        // Whatever ends the reading, no batch is still going in when the transaction ends.
        defer { _ = try? rows.sync { _ in } }
        let writer = PcapWriter(directory: store.capturesDirectory, rotationBytes: rotationBytes) {
          let sequence = try rows.sync { try $0.claimCaptureFileSequence(at: clock) }
          created.append(
            store.capturesDirectory.appendingPathComponent(CaptureFileName.of(sequence: sequence)))
          return sequence
        }
        var pending: [StoredPacket] = []
        // Of the flows written, what the second pass needs: each one's device (an array of its
        // own: it is looked up for every packet, and a struct of several fields read per packet
        // cost 0.1 s), and what the analysis saw of it to check the second reading against.
        let devices = analysis.flows.map(\.device)
        let analysed = analysis.flows.map {
          SeenFlow(
            peers: $0.flow.peers, packets: $0.flow.packetCount, first: $0.flow.firstSeen,
            last: $0.flow.lastSeen)
        }
        analysis.flows = []
        // The packets are read again and given to their flows by the same decisions as in
        // the analysis: nothing was kept per packet. A capture that reads otherwise than it
        // did then has changed in between.
        var assignment = FlowAssignment()
        var imported = 0
        var decoder = CaptureFileDecoder()
        // Read as the analysis read it: a file that is out of order now and was not then changed.
        try decoder.decodeInTimeOrder(url, order: analysis.frameOrder) { frame in
          guard case .packet(let dissected) = CaptureAnalyser.importable(frame) else { return }
          let (flow, _) = assignment.assign(dissected, at: frame.microseconds)
          guard flow < ids.count else {
            throw CaptureImportError.unreadable(path: url.path, reason: Self.changedWhileImported)
          }
          imported += 1
          let date = Instant.date(microseconds: frame.microseconds)
          clock = date
          let location = try writer.write(dissected.datagram, at: date)
          // Directions relative to the device, which the analysis settled for each flow.
          let outbound = dissected.source == devices[flow]
          pending.append(
            StoredPacket(
              flowID: ids[flow], date: date, direction: outbound ? .outbound : .inbound,
              length: dissected.datagram.count, tcpFlags: dissected.tcpFlags, location: location))
          if pending.count >= 20_000 {
            rows.append(pending)
            pending.removeAll(keepingCapacity: true)
          }
        }
        // Every batch in (or the first failure thrown) before the store is used here again.
        try rows.sync { _ in }
        guard imported == analysis.packetCount, assignment.flows.count == ids.count,
          Self.same(assignment.flows, analysed)
        else {
          throw CaptureImportError.unreadable(path: url.path, reason: Self.changedWhileImported)
        }
        try writer.close()
        try store.appendPackets(pending)
        return try finish(
          session, exchanges: exchanges, flowIDs: ids, markers: request.markers, at: end,
          in: store)
      }
      return session
    } catch {
      for file in created { try? FileManager.default.removeItem(at: file) }
      if error is CaptureFileDecoder.OutOfOrder {
        throw CaptureImportError.unreadable(path: url.path, reason: Self.changedWhileImported)
      }
      if let error = error as? CaptureImportError { throw error }
      if let error = error as? AuditStoreError { throw error }
      throw CaptureImportError.writeFailed(SystemErrorText.reason(error))
    }
  }

  /// The session as the capture and the request describe it: its notes (the devices, the
  /// inspection log), its inspection conditions, the device as the assessor states it, and the
  /// capture file it came from.
  static func sessionDraft(
    _ analysis: borrowing CaptureAnalysis, from url: URL, request: CaptureImportRequest
  ) -> AuditSessionDraft {
    let section = analysis.sections.first ?? CaptureSectionInfo()
    let devicesLine = SessionNotes.devicesNote(
      analysis.summary, fileName: url.lastPathComponent)
    var notes = request.notes.isEmpty ? devicesLine : request.notes + "\n" + devicesLine
    if let inspection = request.inspection {
      notes +=
        "\n" + SessionNotes.inspectionNote(inspection.summary, fileName: inspection.fileName)
    }
    let conditions =
      request.inspection == nil
      ? InspectionConditions.off
      : InspectionConditions(inspectionEnabled: true, scenario: request.scenario)
    // The capture names the host it was taken on and what wrote it, never the phone: the
    // device's model and system are the assessor's to state.
    let environment = AuditEnvironment(
      deviceModel: request.deviceModel ?? AuditPresentation.notStated,
      osVersion: request.osVersion ?? AuditPresentation.notStated,
      toolVersion: request.toolVersion)
    let host = [section.hardware, section.os].compactMap { $0 }.filter { !$0.isEmpty }
    let source = analysis.sha256.map {
      CaptureSource(
        fileName: url.lastPathComponent, sha256: $0, application: section.application,
        host: host.isEmpty ? nil : host.joined(separator: ", "))
    }
    return AuditSessionDraft(
      projectID: request.projectID, kind: request.kind, environment: environment,
      inspection: conditions, notes: notes, source: source)
  }

  /// The session's exchanges (each with its flow's id) and markers written, and the session
  /// ended at the capture's last packet.
  static func finish(
    _ session: AuditSession, exchanges: [(exchange: HTTPExchange, flow: Int?)],
    flowIDs ids: [Int64],
    markers: [(SessionMarkerKind, Date)], at end: Date, in store: FlowStore
  ) throws -> AuditSession {
    for (exchange, flow) in exchanges {
      var kept = ContentDecoder.prepared(exchange)
      kept.flowID = flow.map { ids[$0] }
      try store.insertExchange(kept, session: session.id)
    }
    for (kind, date) in markers {
      _ = try store.addMarker(kind, toSession: session.id, at: date)
    }
    return try store.endAuditSession(id: session.id, at: end)
  }

  /// Whether the session can be written: its markers inside the capture, no session recording,
  /// its project there.
  static func checkWritable(
    _ request: CaptureImportRequest, from start: Date, to end: Date, in store: FlowStore
  ) throws {
    for (kind, date) in request.markers where date < start || date > end {
      throw CaptureImportError.markerOutsideCapture(kind, date)
    }
    if let open = try store.openAuditSession() {
      throw CaptureImportError.sessionRecording(open.id)
    }
    guard (try store.auditProject(id: request.projectID)) != nil else {
      throw AuditStoreError.projectNotFound(request.projectID)
    }
  }

  /// Each flow of the second reading as the analysis saw it: its ends, its packets, its first
  /// and last.
  static func same(_ read: [FlowAssignment.Flow], _ analysed: [SeenFlow]) -> Bool {
    zip(read, analysed).allSatisfy { seen, analysed in
      seen.peers == analysed.peers && seen.packets == analysed.packets
        && Instant.date(microseconds: seen.first) == analysed.first
        && Instant.date(microseconds: seen.last) == analysed.last
    }
  }

  /// What was read in the clear, and what came beside the capture, in the order they began.
  static func allExchanges(_ analysis: borrowing CaptureAnalysis, _ request: CaptureImportRequest)
    -> [(exchange: HTTPExchange, flow: Int?)]
  {
    (analysis.exchanges.map { ($0.exchange, Optional($0.flow)) } + request.exchanges)
      .sorted { ($0.0.start, $0.1 ?? -1) < ($1.0.start, $1.1 ?? -1) }
  }
}
