import Audit
import AuditRules
import AuditWording
import Foundation

/// Why a recorded packet is not in capture.pcapng.
public enum EvidenceMissingReason: String, Sendable, Hashable, CaseIterable {
  /// Never written to a capture file: capture was off, or its writer failed.
  case notCaptured
  /// Its file is no longer there.
  case captureFileMissing
  /// Its file is there but the record could not be read back.
  case recordUnreadable

  // Compared and hashed by case: with a raw value, both went through the name's text, and
  // capture.json reads each flow's count of each reason.
  public static func == (a: Self, b: Self) -> Bool { a.ordinal == b.ordinal }
  public func hash(into hasher: inout Hasher) { hasher.combine(ordinal) }
  /// The byte a case without payload is stored as.
  private var ordinal: UInt8 { withUnsafeBytes(of: self) { $0[0] } }
}

/// Packets counted: recorded = written + every reason of withoutBytes.
public struct EvidencePacketTally: Sendable, Hashable {
  public var written = 0
  public var withoutBytes: [EvidenceMissingReason: Int] = [:]
  public init(written: Int = 0, withoutBytes: [EvidenceMissingReason: Int] = [:]) {
    self.written = written
    self.withoutBytes = withoutBytes
  }
  public var recorded: Int { written + withoutBytes.values.reduce(0, +) }
  public mutating func add(_ reason: EvidenceMissingReason, _ count: Int = 1) {
    withoutBytes[reason, default: 0] += count
  }

  /// The tally written member by member, as `json` is written (a flow's entry of capture.json
  /// with its `id`): twenty thousand entries made as values first were a tenth of an export's
  /// slicing thread.
  public func write(id: Int64? = nil, to w: inout JSONWriter) {
    w.beginObject()
    if let id {
      w.key(CaptureDocument.FlowKey.id)
      w.int(id)
      writeCounts(to: &w, CaptureDocument.FlowKey.recorded, .withoutBytes, .written)
    } else {
      writeCounts(to: &w, CaptureDocument.TallyKey.recorded, .withoutBytes, .written)
    }
    w.endObject()
  }

  /// The counts under the object's own keys, each key's text made once (`WrittenKeys`).
  private func writeCounts<K: WrittenKeys>(
    to w: inout JSONWriter, _ recordedKey: K, _ withoutBytesKey: K, _ writtenKey: K
  ) {
    w.key(recordedKey)
    w.int(recorded)
    w.key(withoutBytesKey)
    w.beginObject()
    for reason in Self.reasonsInKeyOrder {
      w.key(reason)
      w.int(withoutBytes[reason] ?? 0)
    }
    w.endObject()
    w.key(writtenKey)
    w.int(written)
  }

  static let reasonsInKeyOrder = JSONText.sortedKeys(EvidenceMissingReason.allCases.map(\.rawValue))
    .compactMap(EvidenceMissingReason.init(rawValue:))

  public var json: JSONValue {
    .fields([
      CaptureDocument.TallyKey.recorded: .int(recorded), .written: .int(written),
      .withoutBytes: .fields(
        Dictionary(
          uniqueKeysWithValues: EvidenceMissingReason.allCases.map {
            ($0, JSONValue.int(withoutBytes[$0] ?? 0))
          })),
    ])
  }
}

public struct EvidenceSourceFile: Sendable, Hashable {
  public enum Status: String, Sendable, Hashable { case read, missing, unreadable }
  public let sequence: UInt32
  public let status: Status
  /// How many of the session's packets pointed at it, and how many of them were written.
  public let packets: Int
  public let written: Int
  public init(sequence: UInt32, status: Status, packets: Int, written: Int) {
    self.sequence = sequence
    self.status = status
    self.packets = packets
    self.written = written
  }
}

/// capture.json: what the capture holds and, per flow and per reason, the packets it does not.
public struct EvidenceCaptureDocument: Sendable, Hashable {
  public static let fileName = "capture.pcapng"
  public static let linkType = 101

  /// The totals: what the report and the evidence sheet say of the capture.
  public let summary: EvidenceCaptureSummary
  public let snaplen: UInt32?
  public let sourceFiles: [EvidenceSourceFile]
  /// Every flow of flows.json, in its order.
  public let flows: [(id: Int64, tally: EvidencePacketTally)]
  /// The session's coverage in sentences (`CoverageWording.lines`): what the capture cannot hold
  /// because no recorder ran.
  public let coverage: [String]

  public var sessionID: Int64 { summary.sessionID }
  public var packets: EvidencePacketTally { summary.packets }
  public var beforeStart: Int { summary.beforeStart }
  public var afterEnd: Int { summary.afterEnd }
  public var standing: EvidenceCaptureStanding { summary.standing }

  public init(
    sessionID: Int64, snaplen: UInt32?, packets: EvidencePacketTally, beforeStart: Int,
    afterEnd: Int,
    sourceFiles: [EvidenceSourceFile], flows: [(id: Int64, tally: EvidencePacketTally)],
    coverage: [String] = []
  ) {
    self.coverage = coverage
    summary = EvidenceCaptureSummary(
      sessionID: sessionID, packets: packets, beforeStart: beforeStart, afterEnd: afterEnd)
    self.snaplen = snaplen
    self.sourceFiles = sourceFiles
    self.flows = flows
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.summary == rhs.summary && lhs.snaplen == rhs.snaplen && lhs.sourceFiles == rhs.sourceFiles
      && lhs.flows.map(\.id) == rhs.flows.map(\.id)
      && lhs.flows.map(\.tally) == rhs.flows.map(\.tally)
  }
  public func hash(into hasher: inout Hasher) { hasher.combine(summary) }

  /// The document, its flows streamed.
  public var document: StreamedJSONObject {
    typealias K = CaptureDocument.Key
    var fields: [String: JSONValue] = [
      K.formatVersion.rawValue: .int(EvidenceBundle.formatVersion),
      K.sessionID.rawValue: .int(sessionID),
      K.file.rawValue: .string(Self.fileName), K.fileFormat.rawValue: .string("pcapng"),
      K.linkType.rawValue: .int(Self.linkType),
      K.packets.rawValue: packets.json,
      K.writtenOutsideSession.rawValue: .fields([
        CaptureDocument.OutsideKey.beforeStart: .int(beforeStart), .afterEnd: .int(afterEnd),
      ]),
      K.sourceFiles.rawValue: .array(
        sourceFiles.map {
          .fields([
            CaptureDocument.SourceFileKey.sequence: .int($0.sequence),
            .name: .string(Self.sourceName($0.sequence)), .status: .string($0.status.rawValue),
            .packets: .int($0.packets), .written: .int($0.written),
          ])
        }),
      K.contents.rawValue: .string(EvidenceNotes.captureContents),
      K.coverage.rawValue: .strings(coverage),
      K.packetComments.rawValue: .string(EvidenceNotes.packetComments),
    ]
    if let snaplen { fields[K.snaplen] = .int(snaplen) }
    return StreamedJSONObject(fields: fields, streamedKey: K.flows.rawValue)
  }

  public static func sourceName(_ sequence: UInt32) -> String {
    let digits = String(sequence)
    return String(repeating: "0", count: max(0, 8 - digits.count)) + digits + ".pcap"
  }

  /// The comment of a packet of a flow: `flow=7 findings=F1,F2` (`findings=` empty when none).
  /// A flow whose connection opened in a row outside the bundle has packets that hold none of
  /// what was read of it before: its findings are named as resting on earlier packets instead,
  /// with the row they are in: `flow=38 findings= readEarlier=F3,F4 openedIn=32 session=2`
  /// (`session=none` outside any session).
  public static func packetComment(
    flowID: Int64, findingIDs: [String], openedOutside opening: ConnectionOpening? = nil
  ) -> String {
    var bytes: [UInt8] = []
    appendPacketComment(flowID: flowID, findingIDs: findingIDs, openedOutside: opening, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The same comment appended as UTF-8 bytes: slicing writes one per flow of the session, where
  /// the string's interpolation cost three times the appends.
  public static func appendPacketComment(
    flowID: Int64, findingIDs: [String], openedOutside opening: ConnectionOpening?,
    to bytes: inout [UInt8]
  ) {
    func put(_ text: StaticString) {
      text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }
    func put(_ text: String) { bytes.append(contentsOf: text.utf8) }
    func putIDs() {
      for (index, id) in findingIDs.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        put(id)
      }
    }
    put("flow=")
    put(String(flowID))
    guard let opening else {
      put(" findings=")
      putIDs()
      return
    }
    put(" findings= readEarlier=")
    putIDs()
    put(" openedIn=")
    put(String(opening.flowID))
    put(" session=")
    put(opening.session.map { String($0) } ?? "none")
  }

  /// The comment export writes on the packets of `flow`, of a bundle holding the flows
  /// `held`, citing `findingIDs`.
  public static func packetComment(
    of flow: StoredFlow, findingIDs: [String], held: Set<Int64>
  ) -> String {
    let outside = flow.openedIn.flatMap { held.contains($0.flowID) ? nil : $0 }
    return packetComment(flowID: flow.id, findingIDs: findingIDs, openedOutside: outside)
  }
}

/// capture.json's totals: all that report.pdf and the evidence sheet say of the capture.
public struct EvidenceCaptureSummary: Sendable, Hashable {
  public let sessionID: Int64
  public let packets: EvidencePacketTally
  public let beforeStart: Int
  public let afterEnd: Int
  public init(sessionID: Int64, packets: EvidencePacketTally, beforeStart: Int, afterEnd: Int) {
    self.sessionID = sessionID
    self.packets = packets
    self.beforeStart = beforeStart
    self.afterEnd = afterEnd
  }
  public var standing: EvidenceCaptureStanding { EvidenceCaptureStanding(packets) }

  /// The same counts, whether a reason with no packets is listed or left out.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.sessionID == rhs.sessionID && lhs.beforeStart == rhs.beforeStart
      && lhs.afterEnd == rhs.afterEnd
      && lhs.packets.written == rhs.packets.written
      && EvidenceMissingReason.allCases.allSatisfy {
        lhs.packets.withoutBytes[$0] ?? 0 == rhs.packets.withoutBytes[$0] ?? 0
      }
  }
  public func hash(into hasher: inout Hasher) {
    hasher.combine(sessionID)
    hasher.combine(packets.written)
  }
}

public struct EvidenceMissingPackets: Sendable, Hashable {
  public let reason: EvidenceMissingReason
  public let count: Int
  public init(reason: EvidenceMissingReason, count: Int) {
    self.reason = reason
    self.count = count
  }
}

/// Which of three cases the capture is in: not a tally with three zeroes.
public enum EvidenceCaptureStanding: Sendable, Equatable {
  case nothingRecorded
  case complete(packets: Int)
  case incomplete(written: Int, recorded: Int, missing: [EvidenceMissingPackets])

  /// Only the reasons that have packets.
  public init(_ tally: EvidencePacketTally) {
    if tally.recorded == 0 {
      self = .nothingRecorded
      return
    }
    let missing = EvidenceMissingReason.allCases.compactMap { reason -> EvidenceMissingPackets? in
      let count = tally.withoutBytes[reason] ?? 0
      return count > 0 ? EvidenceMissingPackets(reason: reason, count: count) : nil
    }
    self =
      missing.isEmpty
      ? .complete(packets: tally.written)
      : .incomplete(written: tally.written, recorded: tally.recorded, missing: missing)
  }
}

/// The manifest: every other file by name, sorted, with its size and lower-case hex SHA-256.
public struct EvidenceManifest: Sendable, Hashable {
  public struct Entry: Sendable, Hashable {
    public let name: String
    public let byteCount: UInt64
    public let sha256: String
    public init(name: String, byteCount: UInt64, sha256: String) {
      self.name = name
      self.byteCount = byteCount
      self.sha256 = sha256
    }
  }
  public let sessionID: Int64
  public let exportedAt: Date
  public let entries: [Entry]

  public init(sessionID: Int64, exportedAt: Date, entries: [Entry]) {
    self.sessionID = sessionID
    self.exportedAt = exportedAt
    self.entries = entries.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
  }

  public var json: JSONValue {
    .fields([
      ManifestDocument.Key.formatVersion: .int(EvidenceBundle.formatVersion),
      .sessionID: .int(sessionID), .exportedAt: .string(Instant.rfc3339(exportedAt)),
      .algorithm: .string("SHA-256"),
      .files: .array(
        entries.map {
          .fields([
            ManifestDocument.FileKey.name: .string($0.name), .byteCount: .int($0.byteCount),
            .sha256: .string($0.sha256),
          ])
        }),
    ])
  }

  public var text: String { json.serialized() + "\n" }
}
