import Audit
import AuditRules
import AuditWording

/// What capture.json will say, said before a record is read: from the history's counts and what
/// each capture file's header and size show. A record that turns out unreadable for a reason only
/// its own header tells (a length over the snaplen) makes the forecast wrong; the exporter
/// compares it with the capture it wrote, and makes capture.json and the report again when they
/// differ.
public enum EvidenceCaptureForecast {
  /// One source file as it stands before slicing.
  public struct File: Sendable, Hashable {
    public enum Standing: Sendable, Hashable {
      case missing
      case unreadable
      /// Opened: its size, its snaplen, and the session's packets at its edges (in the
      /// header, or close enough to the end that their record may not fit).
      case readable(size: UInt64, snaplen: UInt32, edgePackets: [EdgePacket])
    }
    public let sequence: UInt32
    public let standing: Standing
    public init(sequence: UInt32, standing: Standing) {
      self.sequence = sequence
      self.standing = standing
    }
  }

  public struct EdgePacket: Sendable, Hashable {
    public let flowID: Int64
    public let offset: UInt64
    public let length: Int
    public let microseconds: Int64
    public init(flowID: Int64 = 0, offset: UInt64, length: Int, microseconds: Int64) {
      self.flowID = flowID
      self.offset = offset
      self.length = length
      self.microseconds = microseconds
    }
  }

  /// How far from a file's end a record may start and still be cut short.
  public static func tailFrom(size: UInt64, snaplen: UInt32) -> UInt64 {
    size > UInt64(pcapRecordHeader) + UInt64(snaplen)
      ? size - UInt64(pcapRecordHeader) - UInt64(snaplen) - 1 : 0
  }

  static let pcapHeader: UInt64 = 24
  static let pcapRecordHeader = 16

  /// Would the reader give up on this record for what the file's size shows?
  static func unreadable(_ packet: EdgePacket, size: UInt64, snaplen: UInt32) -> Bool {
    if packet.offset < pcapHeader || packet.offset >= size { return true }
    let included = UInt64(min(max(packet.length, 0), Int(snaplen)))
    return packet.offset + UInt64(pcapRecordHeader) + included > size
  }

  /// capture.json as the slicing will write it, if every record the sizes do not rule out reads.
  /// `flowIDs`: the bundle's flows, in flows.json's order.
  public static func document(
    sessionID: Int64, flowIDs: [Int64], counts: [SessionPacketCount], files: [File], start: Int64,
    end: Int64, coverage: [String] = []
  ) -> EvidenceCaptureDocument {
    let position = Dictionary(
      flowIDs.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    var perFlow = [EvidencePacketTally](repeating: EvidencePacketTally(), count: flowIDs.count)
    var total = EvidencePacketTally()
    var before = 0
    var after = 0
    var perFile: [UInt32: [SessionPacketCount]] = [:]
    for count in counts {
      guard let sequence = count.fileSequence else {
        if let at = position[count.flowID], count.packets > 0 {
          perFlow[at].add(.notCaptured, count.packets)
        }
        if count.packets > 0 { total.add(.notCaptured, count.packets) }
        continue
      }
      perFile[sequence, default: []].append(count)
    }
    var snaplen: UInt32?
    var sources: [EvidenceSourceFile] = []
    for file in files.sorted(by: { $0.sequence < $1.sequence }) {
      guard let inFile = perFile[file.sequence] else { continue }
      let packets = inFile.reduce(0) { $0 + $1.packets }
      switch file.standing {
      case .missing, .unreadable:
        let reason: EvidenceMissingReason =
          file.standing == .missing ? .captureFileMissing : .recordUnreadable
        for count in inFile where count.packets > 0 {
          if let at = position[count.flowID] { perFlow[at].add(reason, count.packets) }
          total.add(reason, count.packets)
        }
        sources.append(
          EvidenceSourceFile(
            sequence: file.sequence, status: file.standing == .missing ? .missing : .unreadable,
            packets: packets, written: 0))
      case .readable(let size, let fileSnaplen, let edges):
        if snaplen == nil { snaplen = fileSnaplen }
        let lost = edges.filter { unreadable($0, size: size, snaplen: fileSnaplen) }
        var lostPerFlow: [Int64: Int] = [:]
        for packet in lost { lostPerFlow[packet.flowID, default: 0] += 1 }
        for count in inFile {
          let gone = lostPerFlow[count.flowID] ?? 0
          guard let at = position[count.flowID] else { continue }
          perFlow[at].written += count.packets - gone
          if gone > 0 { perFlow[at].add(.recordUnreadable, gone) }
        }
        if !lost.isEmpty { total.add(.recordUnreadable, lost.count) }
        total.written += packets - lost.count
        before +=
          inFile.reduce(0) { $0 + $1.beforeStart } - lost.filter { $0.microseconds < start }.count
        after += inFile.reduce(0) { $0 + $1.afterEnd } - lost.filter { $0.microseconds > end }.count
        sources.append(
          EvidenceSourceFile(
            sequence: file.sequence, status: .read, packets: packets, written: packets - lost.count)
        )
      }
    }
    return EvidenceCaptureDocument(
      sessionID: sessionID, snaplen: snaplen, packets: total, beforeStart: before, afterEnd: after,
      sourceFiles: sources, flows: flowIDs.enumerated().map { ($1, perFlow[$0]) },
      coverage: coverage)
  }
}
