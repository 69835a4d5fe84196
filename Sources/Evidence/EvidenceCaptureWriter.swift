import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Capture
import Crypto
import FlowStore
import Foundation

public enum EvidenceCaptureError: Error, Sendable, Hashable {
  case flowNotInBundle(id: Int64)
  case destinationUnavailable(String)
  case writeFailed(String)
}

public struct EvidenceCapture: Sendable, Hashable {
  /// capture.json.
  public let document: EvidenceCaptureDocument
  /// capture.pcapng: size and SHA-256.
  public let entry: EvidenceManifest.Entry
  public let crc32: UInt32
}

/// Slices the store's rotated `.pcap` files into capture.pcapng, one source file at a time so
/// memory is bounded by a file and not by the session. The one part of the bundle that reads
/// the history and the disk.
public enum EvidenceCaptureWriter {
  /// The session's time window in microseconds, as capture records carry time.
  static func window(of bundle: EvidenceBundle) -> (start: Int64, end: Int64) {
    window(of: bundle.session)
  }

  static func window(of session: AuditSession) -> (start: Int64, end: Int64) {
    (
      Instant.microseconds(session.startedAt),
      session.endedAt.map(Instant.microseconds) ?? Int64.max
    )
  }

  /// The history's packet counts per flow and file, with those dated outside the session.
  public static func packetCounts(for bundle: EvidenceBundle, from store: FlowStore) throws
    -> [SessionPacketCount]
  {
    let (start, end) = window(of: bundle)
    return try store.packetCounts(inAuditSession: bundle.session.id, start: start, end: end)
  }

  /// The session's packet counts and its fingerprint, read on a connection of their own on
  /// another thread (`Alongside`) while the exporting thread reads the session's flows and
  /// classifies them: the second core is idle then, and the counts (400 000 packet rows stepped
  /// through on the bench's workload, once for both) are what the slicing starts with. Both are
  /// read in one read transaction whose first read is made before this returns: every read of the
  /// exporting thread comes after the fingerprint's history, so a change after it is one the
  /// final check finds.
  static func historyAhead(store: FlowStore, session: AuditSession) -> Alongside<HistoryAhead> {
    let (start, end) = window(of: session)
    // The connection is opened here and used on the reading thread alone from then on.
    let reader = Result {
      let reader = try FlowReader(store: store)
      try reader.beginSnapshot()
      return reader
    }
    return Alongside {
      let read = reader.flatMap { reader in
        Result {
          let read = try reader.packetCountsAndFingerprint(
            inAuditSession: session.id, start: start, end: end)
          try reader.endSnapshot()
          return read
        }
      }
      return HistoryAhead(fingerprint: read.map(\.fingerprint), counts: read.map(\.counts))
    }
  }

  /// capture.json as it will be, from the counts, each file's header and size, and the packets at
  /// the files' edges: no record is read.
  public static func forecast(
    for bundle: EvidenceBundle, counts: [SessionPacketCount], from store: FlowStore,
    captureDirectory: URL
  ) throws -> EvidenceCaptureDocument {
    var files: [EvidenceCaptureForecast.File] = []
    for sequence in Set(counts.compactMap(\.fileSequence)).sorted() {
      let reader: CaptureFileReader
      do {
        reader = try CaptureFileReader(
          url: captureDirectory.appendingPathComponent(CaptureFileName.of(sequence: sequence)),
          sequence: sequence)
      } catch {
        files.append(
          .init(sequence: sequence, standing: error == .notFound(sequence) ? .missing : .unreadable)
        )
        continue
      }
      let tail = EvidenceCaptureForecast.tailFrom(size: reader.fileSize, snaplen: reader.snaplen)
      let header = UInt64(PcapFormat.globalHeaderLength)
      let edges = try store.capturedPackets(
        inAuditSession: bundle.session.id, fileSequence: sequence,
        outside: tail >= header ? header...tail : nil)
      files.append(
        .init(
          sequence: sequence,
          standing: .readable(
            size: reader.fileSize, snaplen: reader.snaplen,
            edgePackets: edges.map {
              EvidenceCaptureForecast.EdgePacket(
                flowID: $0.flowID, offset: $0.offset, length: $0.length,
                microseconds: Instant.microseconds($0.date))
            })))
    }
    let (start, end) = window(of: bundle)
    return EvidenceCaptureForecast.document(
      sessionID: bundle.session.id, flowIDs: bundle.flowIDs,
      counts: counts, files: files, start: start, end: end, coverage: coverage(of: bundle))
  }

  /// capture.json's coverage: the session's, as session.json states it.
  static func coverage(of bundle: EvidenceBundle) -> [String] {
    CoverageWording.lines(bundle.coverage, open: bundle.session.isOpen, instant: Instant.rfc3339)
  }

  public static func write(
    for bundle: EvidenceBundle, counts: [SessionPacketCount], from store: FlowStore,
    captureDirectory: URL,
    into folder: URL, application: String
  ) throws -> EvidenceCapture {
    let file: EvidenceFileWriter
    do {
      file = try EvidenceFileWriter(
        url: folder.appendingPathComponent(EvidenceCaptureDocument.fileName))
    } catch {
      throw EvidenceCaptureError.destinationUnavailable(SystemErrorText.reason(error))
    }
    return try write(
      for: bundle, counts: counts, from: store, captureDirectory: captureDirectory, into: file,
      application: application)
  }

  /// The most bytes capture.pcapng can take: every source file whole, and per recorded packet
  /// the most an Enhanced Packet Block adds to a pcap record (its longest comment included).
  static func sizeBound(
    for bundle: EvidenceBundle, counts: [SessionPacketCount], captureDirectory: URL,
    longestComment: Int
  ) -> UInt64 {
    var bound: UInt64 = 64 << 10
    for sequence in Set(counts.compactMap(\.fileSequence)) {
      let path = captureDirectory.appendingPathComponent(CaptureFileName.of(sequence: sequence))
        .path
      bound +=
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.uint64Value
        ?? 0
    }
    let packets = counts.reduce(0) { $0 + $1.packets }
    return bound + UInt64(packets) * UInt64(48 + 3 + longestComment + 3)
  }

  /// Slices into `file`: a file of its own, or an entry streamed into the archive.
  public static func write(
    for bundle: EvidenceBundle, counts: [SessionPacketCount], from store: FlowStore,
    captureDirectory: URL,
    into file: EvidenceFileWriter, application: String
  ) throws -> EvidenceCapture {
    try write(
      for: bundle, counts: counts, from: store, captureDirectory: captureDirectory, into: file,
      application: application, comments: PacketComments(of: bundle))
  }

  /// The same, with the packets' comments made already.
  static func write(
    for bundle: EvidenceBundle, counts: [SessionPacketCount], from store: FlowStore,
    captureDirectory: URL,
    into file: EvidenceFileWriter, application: String, comments: PacketComments
  ) throws -> EvidenceCapture {
    let (document, written) = try slice(
      for: bundle, counts: counts, from: store, captureDirectory: captureDirectory, into: file,
      application: application, comments: comments)
    return EvidenceCapture(document: document, entry: written!.entry, crc32: written!.crc32)
  }

  /// capture.json as slicing would write it, every record read but nothing written: what the
  /// report alone states, which only reading each record can make sure of.
  public static func count(for bundle: EvidenceBundle, from store: FlowStore, captureDirectory: URL)
    throws -> EvidenceCaptureDocument
  {
    try slice(
      for: bundle, counts: try packetCounts(for: bundle, from: store), from: store,
      captureDirectory: captureDirectory,
      into: nil, application: "", comments: PacketComments()
    ).document
  }

  static func slice(
    for bundle: EvidenceBundle, counts: [SessionPacketCount], from store: FlowStore,
    captureDirectory: URL,
    into file: EvidenceFileWriter?, application: String, comments: PacketComments
  ) throws -> (document: EvidenceCaptureDocument, written: WrittenFile?) {
    // Per flow, by its position in the bundle: one lookup per packet, not one per fact kept.
    let position = FlowPositions(bundle.flowIDs)
    var tally = SliceTally(flowCount: bundle.flowCount, window: window(of: bundle))
    let perFile = try tally.count(counts, position)
    var snaplen: UInt32?
    var sources: [EvidenceSourceFile] = []
    do {
      try file?.write(PcapngBlocks.sectionHeader(application: application))
      var interfaceWritten = false
      for sequence in perFile.keys.sorted() {
        let reader: CaptureFileReader
        do {
          reader = try CaptureFileReader(
            url: captureDirectory.appendingPathComponent(CaptureFileName.of(sequence: sequence)),
            sequence: sequence)
        } catch {
          let reason: EvidenceMissingReason =
            error == .notFound(sequence) ? .captureFileMissing : .recordUnreadable
          sources.append(
            try withoutBytes(sequence, reason, from: store, position: position, tally: &tally))
          continue
        }
        if !interfaceWritten {
          snaplen = reader.snaplen
          try file?.write(PcapngBlocks.interface(snaplen: reader.snaplen))
          interfaceWritten = true
        }
        sources.append(
          try copy(
            reader, from: store, position: position, into: file, tally: &tally,
            comments: comments))
      }
      if !interfaceWritten {
        try file?.write(PcapngBlocks.interface(snaplen: PcapFormat.defaultSnaplen))
      }
    } catch let error as EvidenceWriteError {
      throw EvidenceCaptureError.writeFailed(error.description)
    }
    var written: WrittenFile?
    do { written = try file?.finishFile() } catch {
      throw EvidenceCaptureError.writeFailed(SystemErrorText.reason(error))
    }
    let document = EvidenceCaptureDocument(
      sessionID: bundle.session.id, snaplen: snaplen, packets: tally.total,
      beforeStart: tally.before, afterEnd: tally.after, sourceFiles: sources,
      flows: bundle.flowIDs.enumerated().map { ($1, tally.perFlow[$0]) },
      coverage: coverage(of: bundle))
    return (document, written)
  }

  /// A capture file that is gone or cannot be read: each of the bundle's packets in it counted
  /// as without its bytes, for `reason`.
  private static func withoutBytes(
    _ sequence: UInt32, _ reason: EvidenceMissingReason, from store: FlowStore,
    position: FlowPositions, tally: inout SliceTally
  ) throws -> EvidenceSourceFile {
    var count = 0
    try store.forEachPacket(inFile: sequence) { packet in
      // Packets of flows not in the bundle belong to other sessions.
      guard let at = position[packet.flowID] else { return }
      tally.add(reason, at: at)
      count += 1
    }
    return EvidenceSourceFile(
      sequence: sequence, status: reason == .captureFileMissing ? .missing : .unreadable,
      packets: count, written: 0)
  }

  /// Each of the bundle's packets in one capture file, by file offset, written as an enhanced
  /// packet block with its flow's comment (or only counted, without a file to write).
  private static func copy(
    _ reader: CaptureFileReader, from store: FlowStore,
    position: FlowPositions, into file: EvidenceFileWriter?, tally: inout SliceTally,
    comments: PacketComments
  ) throws -> EvidenceSourceFile {
    var written = 0
    var count = 0
    try store.forEachPacket(inFile: reader.sequence) { packet in
      // Packets of flows not in the bundle belong to other sessions (a flow of this session
      // added since it was read changes its fingerprint, checked at the end).
      guard let at = position[packet.flowID] else { return }
      count += 1
      let record: CaptureFileReader.RecordSpan
      do { record = try reader.locate(at: packet.offset) } catch {
        tally.add(.recordUnreadable, at: at)
        return
      }
      if let file {
        // The block is made in the writer's buffer, the record's bytes copied once, from the
        // reader's window (read again only at the next record's `locate`).
        let bytes = reader.bytes(of: record)
        try comments.withComment(at: at) { comment in
          try file.write(
            count: PcapngBlocks.enhancedPacketLength(count: bytes.count, comment: comment.count)
          ) {
            PcapngBlocks.enhancedPacket(
              into: $0, bytes, originalLength: record.originalLength,
              microseconds: record.microseconds,
              outbound: packet.direction == .outbound, comment: comment)
          }
        }
      }
      written += 1
      tally.written(at: at, microseconds: Int64(record.microseconds))
    }
    return EvidenceSourceFile(
      sequence: reader.sequence, status: .read, packets: count, written: written)
  }
}

/// What slicing counts as it goes: per flow (by its position in the bundle) and in all, and the
/// packets written outside the session's window.
struct SliceTally {
  var perFlow: [EvidencePacketTally]
  var total = EvidencePacketTally()
  var before = 0
  var after = 0
  let window: (start: Int64, end: Int64)

  init(flowCount: Int, window: (start: Int64, end: Int64)) {
    perFlow = Array(repeating: EvidencePacketTally(), count: flowCount)
    self.window = window
  }

  /// The packets the store says were never captured counted; the others' counts by file.
  mutating func count(_ counts: [SessionPacketCount], _ position: FlowPositions) throws
    -> [UInt32: Int]
  {
    var perFile: [UInt32: Int] = [:]
    for count in counts {
      guard let at = position[count.flowID] else {
        throw EvidenceCaptureError.flowNotInBundle(id: count.flowID)
      }
      if let sequence = count.fileSequence {
        perFile[sequence, default: 0] += count.packets
      } else {
        add(.notCaptured, at: at, count.packets)
      }
    }
    return perFile
  }

  mutating func add(_ reason: EvidenceMissingReason, at flow: Int, _ count: Int = 1) {
    perFlow[flow].add(reason, count)
    total.add(reason, count)
  }

  mutating func written(at flow: Int, microseconds: Int64) {
    perFlow[flow].written += 1
    total.written += 1
    if microseconds < window.start { before += 1 } else if microseconds > window.end { after += 1 }
  }
}

/// Each flow's packet comment, by the flow's position in the bundle, all made at once before the
/// slicing: the archive entry's size bound needs the longest, and packets come by file offset,
/// so flows interleave. All are kept in one buffer (an array each cost 20 000 flows 1.8 MB).
struct PacketComments {
  private var bytes: [UInt8] = []
  private var ends: [Int] = []
  /// The longest comment's length in bytes.
  private(set) var longest = 0

  /// None: for a slicing that writes no packet.
  init() {}

  init(of bundle: EvidenceBundle) {
    ends.reserveCapacity(bundle.flowCount)
    for id in bundle.flowIDs {
      let start = bytes.count
      bundle.appendPacketComment(ofFlow: id, to: &bytes)
      ends.append(bytes.count)
      longest = max(longest, bytes.count - start)
    }
    // Held through the slicing: at its size.
    bytes = bytes.fitted()
  }

  /// The comment of the flow at `flow` in the bundle, lent from the buffer whole: a slice of the
  /// array retained and released its buffer for each of the session's packets.
  func withComment<R>(at flow: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    let (from, to) = (flow == 0 ? 0 : ends[flow - 1], ends[flow])
    return try bytes.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[from..<to])) }
  }
}

/// What `EvidenceCaptureWriter.historyAhead` read: the session's fingerprint, its packet counts.
struct HistoryAhead {
  let fingerprint: Result<String, Error>
  let counts: Result<[SessionPacketCount], Error>
}
