import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Capture
import ContentMatching
import Crypto
import Evidence
import FlowStore
import Foundation
import Import
import Record
import ReportPDF

/// The history in the terminal: the Timeline (`flows`) and the Flow Inspector (`flow`).
enum HistoryCommands {
  static let sessionFilter = ArgumentKey<SessionID>(
    "session", "Only this audit session's connections.", optional: true)
  static let all = FlagKey("all", "Every connection, not only the newest 50.")
  static let host = OptionKey<String>(
    "host", "text",
    "A name (SNI, CONNECT, DNS, the address's other names) or address containing this.")
  static let since = OptionKey<String>(
    "since", "instant", "Active at or after this RFC 3339 instant.")
  static let until = OptionKey<String>(
    "until", "instant", "Begun at or before this RFC 3339 instant.")
  static let status = OptionKey<TLSInspectionStatus>(
    "status", "status",
    "Only this status: \(TLSStatusWording.keysWithWords).")
  static let ipProtocol = OptionKey<ListedProtocol>("protocol", "protocol", "Only tcp or udp.")
  static let finding = OptionKey<String>(
    "finding", "id", "Only the connections this finding of the session cites (F3).")
  static let limit = OptionKey<PositiveCount>("limit", "count", "At most this many (default: 50).")
  static let oldestFirst = FlagKey("oldest-first", "Oldest first (default: newest first).")
  static let follow = FlagKey(
    "follow",
    "After the rows, new connections as a recorder writes them, until Ctrl-C (--json: a line each)."
  )
  static let flowID = ArgumentKey<SessionID>("flow", "The connection's id (as `flows` lists it).")

  static var exchanges: CommandDefinition {
    CommandDefinition(
      name: "exchanges",
      abstract:
        "What a session's connections carried: its exchanges and the test account's values each sent.",
      discussion:
        "An exchange a row, in the order they began: its connection, the request line, the status, where it was read (the inspecting proxy's log, HTTP in the clear in the capture, a HAR file) and which of the project's test account values it sent. --json prints each as exchanges.json has it: the forms and places of what was found.",
      arguments: [CommonKeys.session.definition],
      options: [host.definition, ProjectCommands.json.definition],
      run: { parsed, context in
        let support = CommandSupport(parsed: parsed, context: context)
        let store = try support.openStore()
        let session = try support.session(try parsed.argument(CommonKeys.session), in: store)
        let content = try SessionContentReader.content(of: session, in: store)
        var records = content.exchanges
        if let wanted = try parsed.value(host)?.lowercased() {
          records = records.filter { $0.host.contains(wanted) }
        }
        if parsed.json { return context.printJSON(ExchangesPresentation.json(records)) }
        context.standardOutput(
          ExchangesPresentation.text(
            records, session: session.id, values: content.values, zone: context.timeZone))
      })
  }

  static var flows: CommandDefinition {
    CommandDefinition(
      name: "flows",
      abstract: "The history's connections, newest first: the Timeline.",
      discussion:
        "A row: the status (\(TLSStatusWording.words)); the name and where it came from; the first packet; the protocol and the two ends; bytes sent and received; packets; duration. Criteria combine. Above the rows, the packets of the whole history over the time the rows span: that line honours no filter.",
      arguments: [sessionFilter.definition],
      options: [
        all.definition, host.definition, since.definition, until.definition, status.definition,
        ipProtocol.definition, finding.definition, limit.definition, oldestFirst.definition,
        follow.definition, ProjectCommands.json.definition,
      ],
      run: { parsed, context in
        let support = CommandSupport(parsed: parsed, context: context)
        let store = try support.openStore()
        var query = HistoryQuery()
        query.host = try parsed.value(host)
        query.oldestFirst = parsed.flag(oldestFirst)
        query.since = try instant(parsed, since)
        query.until = try instant(parsed, until)
        query.status = try parsed.value(status)
        query.ipProtocol = try parsed.value(ipProtocol)?.number
        if let id = try parsed.argumentIfGiven(sessionFilter) {
          let session = try support.session(id, in: store)
          query.auditSessionID = session.id
          if let wanted = try parsed.value(finding) {
            query.flowIDs = Set(try findingFlows(wanted, session: session, store: store, parsed))
          }
        } else if try parsed.value(finding) != nil {
          throw UsageError(
            message: "--finding names a finding of a session: give the session too",
            path: parsed.path)
        }
        let wanted = parsed.flag(all) ? Int.max : (try parsed.value(limit)?.value ?? 50)
        var flows: [StoredFlow] = []
        var cursor: HistoryCursor?
        var more = false
        repeat {
          let page = try store.historyPage(
            query, after: cursor, limit: min(500, wanted - flows.count))
          flows += page.flows
          cursor = page.next
          more = cursor != nil
        } while more && flows.count < wanted
        if parsed.flag(follow) {
          return try followFlows(query, shown: flows, store, parsed, context)
        }
        if parsed.json { return context.printJSON(TimelinePresentation.json(flows, more: more)) }
        var activity: String?
        let firsts = flows.map(\.firstSeen)
        if let start = firsts.min(), let end = flows.map(\.lastSeen).max() {
          let buckets = 48
          let width = max(end.timeIntervalSince(start) / Double(buckets), 0.001)
          let counts = try store.packetActivity(from: start, width: width, count: buckets)
          activity = TimelinePresentation.activity(
            counts, from: start, width: width, zone: context.timeZone)
        }
        context.standardOutput(
          TimelinePresentation.text(
            flows, more: more, activity: activity, zone: context.timeZone,
            filtered: query.isFiltered))
      })
  }

  /// `flows --follow`: the rows shown oldest first (as `tail -f`), then each flow written after
  /// them, polled twice a second, as a row (or a JSON line).
  static func followFlows(
    _ query: HistoryQuery, shown: [StoredFlow], _ store: FlowStore, _ parsed: ParsedCommand,
    _ context: CommandContext
  ) throws {
    let print: ([StoredFlow]) -> Void = { flows in
      guard !flows.isEmpty else { return }
      if parsed.json {
        context.standardOutput(
          flows.map { TimelinePresentation.json($0).serializedOnOneLine + "\n" }.joined())
      } else {
        context.standardOutput(TimelinePresentation.rows(flows, zone: context.timeZone))
      }
    }
    print(shown.sorted { ($0.firstSeen, $0.id) < ($1.firstSeen, $1.id) })
    if RecorderLock.running(storeDirectory: store.directory) == nil {
      context.standardError(TimelinePresentation.followingNothing + "\n")
    }
    var next = query
    next.oldestFirst = true
    next.afterID = try store.highestFlowID()
    while true {
      let page = try store.historyPage(next, after: nil, limit: 500).flows.sorted { $0.id < $1.id }
      print(page)
      if let last = page.last?.id { next.afterID = last } else { usleep(500_000) }
    }
  }

  static func instant(_ parsed: ParsedCommand, _ key: OptionKey<String>) throws -> Date? {
    guard let text = try parsed.value(key) else { return nil }
    guard let date = Instant.parseRFC3339(text) else {
      throw UsageError(
        message:
          "--\(key.definition.name) takes an RFC 3339 instant (2026-10-09T10:01:00Z); “\(text)” is not",
        path: parsed.path)
    }
    return date
  }

  /// The session's assessment, as `findings` makes it.
  static func assessment(
    _ session: AuditSession, store: FlowStore, _ parsed: ParsedCommand,
    trackers: TrackerLists? = nil, flows: [StoredFlow]? = nil
  ) throws -> SessionAssessment {
    guard let project = try store.auditProject(id: session.projectID) else {
      throw AuditStoreError.projectNotFound(session.projectID)
    }
    let catalogue = try AssessmentCommands.catalogue(
      for: project, parsed: parsed, storeURL: store.directory)
    // The runs as coverage has them (an ended session's as they stood at its end).
    let coverage = try store.coverage(
      of: session,
      runningProcess: RecorderLock.running(storeDirectory: store.directory)?.processID,
      now: session.endedAt ?? Date())
    return SessionAssessment(
      catalogue: catalogue, flows: try flows ?? store.flows(inAuditSession: session.id),
      project: project,
      session: session, markers: try store.markers(forSession: session.id), runs: coverage.runs,
      baseline: try EvidenceExporter.baseline(for: session, in: store)?.clientBaseline,
      trackers: trackers, content: try SessionContentReader.content(of: session, in: store),
      serverScans: ServerScanReport.runs(try store.serverScans(ofSession: session.id)),
      recording: coverage)
  }

  static func findingFlows(
    _ id: String, session: AuditSession, store: FlowStore, _ parsed: ParsedCommand
  ) throws -> [Int64] {
    let findings = try assessment(session, store: store, parsed).findings.findings
    guard id.hasPrefix("F"), let n = Int(id.dropFirst()), findings.indices.contains(n - 1) else {
      throw RefusedError(
        "Session \(session.id) has no finding \(id): its findings are F1 to F\(findings.count) ('tunnelvision findings \(session.id)')."
      )
    }
    return findings[n - 1].flowIDs
  }

  static var flow: CommandDefinition {
    CommandDefinition(
      name: "flow",
      abstract: "One connection: who it was and how that is known, what was read, its packets.",
      arguments: [flowID.definition],
      options: [
        AssessmentCommands.trackerList.definition, ExportCommands.ipDatabase.definition,
        ProjectCommands.json.definition,
      ],
      run: { parsed, context in
        let support = CommandSupport(parsed: parsed, context: context)
        let store = try support.openStore()
        let id = try parsed.argument(flowID).value
        guard let flow = try store.flow(id: id).map({ try store.withOpenings([$0])[0] }) else {
          throw RefusedError(
            "There is no connection \(id) in the history ('tunnelvision flows' lists them).")
        }
        let packets = try store.packets(forFlow: id)
        var sessionText: String?
        var findingIDs: [String] = []
        var baseline: EvidenceBaseline?
        var exchanges = try store.exchanges(ofFlow: id).map(ContentMatcher(values: []).record)
        if let sessionID = flow.auditSessionID, let session = try store.auditSession(id: sessionID)
        {
          exchanges = try SessionContentReader.content(of: session, in: store).exchanges(ofFlow: id)
          let project = try store.auditProject(id: session.projectID)
          sessionText =
            "\(session.id) (\(TerminalText.inline(project?.name ?? "a project")), \(AuditPresentation.sessionName(session.kind)))"
          let findings = try assessment(
            session, store: store, parsed,
            trackers: try AssessmentCommands.trackers(parsed, context: context)
          ).findings.findings
          findingIDs = findings.indices.filter { findings[$0].flowIDs.contains(id) }.map {
            "F\($0 + 1)"
          }
          baseline = try EvidenceExporter.baseline(for: session, in: store)
        }
        let shown = Array(packets.prefix(FlowInspectorPresentation.packetsShown))
        let registrations = AddressDatabase.registrations(
          of: [flow], in: try ExportCommands.addressDatabases(parsed))
        if parsed.json {
          var record = JSONWriter()
          let domain = flow.name.flatMap {
            PublicSuffixList.installed(shareDirectory: AssessmentCommands.shareDirectory(context))?
              .registrableDomain(DomainPattern.normalised(host: $0.text))
          }
          EvidenceFlowRecord.write(
            flow, findingIDs: findingIDs,
            alsoContactedInBaseline: EvidenceBaseline.claim(baseline, for: flow),
            registrableDomain: domain, registrations: registrations, to: &record)
          return context.standardOutput(String(decoding: record.bytes, as: UTF8.self) + "\n")
        }
        context.standardOutput(
          FlowInspectorPresentation.text(
            flow, packets: shown, packetTotal: packets.count, session: sessionText,
            findingIDs: findingIDs, subjects: subjects(flow.serverCertificate),
            zone: context.timeZone, exchanges: exchanges, registrations: registrations))
      })
  }

  /// The subjects of a chain read, server first.
  static func subjects(_ visibility: CertificateVisibility) -> [String] {
    guard let chain = visibility.presented?.chain else { return [] }
    return chain.map { CertificateSubject.of($0) ?? "a certificate OpenSSL does not read" }
  }

  static let packetNumber = ArgumentKey<PositiveCount>(
    "number", "The packet's number in the connection, from 1 (as `flow` lists them).")

  static var packet: CommandDefinition {
    CommandDefinition(
      name: "packet",
      abstract:
        "One packet of a connection: its headers decoded and its bytes, read back from the capture.",
      arguments: [flowID.definition, packetNumber.definition],
      options: [ProjectCommands.json.definition],
      run: { parsed, context in
        let store = try CommandSupport(parsed: parsed, context: context).openStore()
        let id = try parsed.argument(flowID).value
        guard let flow = try store.flow(id: id) else {
          throw RefusedError(
            "There is no connection \(id) in the history ('tunnelvision flows' lists them).")
        }
        let packets = try store.packets(forFlow: id)
        let number = try parsed.argument(packetNumber).value
        guard number <= packets.count else {
          throw RefusedError(
            "Connection \(id) has \(Quantity.count(packets.count, "packet")); there is no packet \(number)."
          )
        }
        let packet = packets[number - 1]
        var bytes: [UInt8]?
        var unreadable: PacketDetailPresentation.Unreadable?
        if packet.location.fileSequence == 0 {
          unreadable = .neverCaptured
        } else {
          do throws(CaptureLibraryError) {
            bytes = [UInt8](
              try CaptureLibrary(directory: store.capturesDirectory).record(at: packet.location)
                .bytes)
          } catch .notFound(let sequence) {
            unreadable = .fileDeleted(sequence)
          } catch {
            unreadable = .recordUnreadable(error.description)
          }
        }
        let headers = bytes.map(PacketHeaders.decode) ?? []
        if parsed.json {
          return context.printJSON(
            .object([
              "flowID": .int(id), "number": .int(number), "of": .int(packets.count),
              "at": .string(Instant.rfc3339(packet.date)),
              "direction": .string(packet.direction == .outbound ? "outbound" : "inbound"),
              "length": .int(packet.length), "tcpFlags": .int(packet.tcpFlags),
              "meaning": .string(
                FlowInspectorPresentation.meaning(packet, ipProtocol: flow.ipProtocol)),
              "headers": .array(
                headers.map { .object(["layer": .string($0.0), "reading": .string($0.1)]) }),
              "bytes": bytes.map { .string($0.map { String(format: "%02x", $0) }.joined()) }
                ?? .null,
              "unreadable": unreadable.map { .string(PacketDetailPresentation.unreadable($0)) }
                ?? .null,
            ]))
        }
        context.standardOutput(
          PacketDetailPresentation.text(
            flowID: id, number: number, of: packets.count, packet: packet,
            ipProtocol: flow.ipProtocol,
            since: packets[0].date, headers: headers, bytes: bytes, unreadable: unreadable))
      })
  }
}
