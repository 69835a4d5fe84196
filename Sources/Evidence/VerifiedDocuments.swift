import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Crypto
import Foundation

/// findings.json as verify reads it: the identifiers, and what cites what. A finding whose id is
/// not a string, or whose flowIDs are not flow ids, reads as nil there, so that the identifiers
/// check can name it; requirements that do not read are none.
struct VerifiedFindings: Decodable {
  struct Finding: Decodable {
    let id: String?
    let flowIDs: [Int64]?
    init(from decoder: Decoder) throws {
      let c = try decoder.container(keyedBy: FindingsDocument.FindingKey.self)
      id = try? c.decode(String.self, forKey: .id)
      flowIDs = try? c.decode([Int64].self, forKey: .flowIDs)
    }
    /// The same from a parsed tree (`JSONMembers` reads as the decoder's container does).
    init(tree: JSONTree) throws(JSONTree.Unreadable) {
      let c = try JSONMembers<FindingsDocument.FindingKey>(tree)
      id = try? c.decode(String.self, forKey: .id)
      flowIDs = try? c.decode([Int64].self, forKey: .flowIDs)
    }
  }
  struct Requirement: Decodable {
    let id: String?
    let verdict: String?
    let contraryFindingIDs: [String], supportingFindingIDs: [String]
    init(from decoder: Decoder) throws {
      let c = try decoder.container(keyedBy: FindingsDocument.RequirementKey.self)
      id = try? c.decode(String.self, forKey: .id)
      verdict = try? c.decode(String.self, forKey: .verdict)
      contraryFindingIDs = (try? c.decode([String].self, forKey: .contraryFindingIDs)) ?? []
      supportingFindingIDs = (try? c.decode([String].self, forKey: .supportingFindingIDs)) ?? []
    }
  }
  struct Catalogue: Decodable {
    struct Source: Decodable {
      let sha256: String?
      init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: FindingsDocument.SourceKey.self)
        sha256 = try c.decodeIfPresent(String.self, forKey: .sha256)
      }
    }
    let identifier: String?
    let source: Source?
    init(from decoder: Decoder) throws {
      let c = try decoder.container(keyedBy: FindingsDocument.CatalogueKey.self)
      identifier = try c.decodeIfPresent(String.self, forKey: .identifier)
      source = try c.decodeIfPresent(Source.self, forKey: .source)
    }
  }
  let findings: [Finding]
  let requirements: [Requirement]
  let sessionID: Int64?
  let catalogue: Catalogue?
  init(from decoder: Decoder) throws {
    let c = try decoder.container(keyedBy: FindingsDocument.Key.self)
    catalogue = try? c.decode(Catalogue.self, forKey: .catalogue)
    findings = try c.decode([Finding].self, forKey: .findings)
    requirements = (try? c.decode([Requirement].self, forKey: .requirements)) ?? []
    sessionID = try? c.decode(Int64.self, forKey: .sessionID)
  }
}

/// capture.json as verify reads it: what the capture is counted against, and its flows' order
/// (as dictionaries, 20 000 flows' tallies take tens of megabytes).
struct VerifiedCapture: Decodable {
  /// Packets the history holds whose bytes are not in the capture, by why.
  struct WithoutBytes: Decodable {
    typealias CodingKeys = EvidenceMissingReason
    let captureFileMissing: Int, notCaptured: Int, recordUnreadable: Int
    var total: Int { captureFileMissing + notCaptured + recordUnreadable }
    var byReason: [EvidenceMissingReason: Int] {
      [
        .notCaptured: notCaptured, .captureFileMissing: captureFileMissing,
        .recordUnreadable: recordUnreadable,
      ].filter { $0.value > 0 }
    }
  }
  struct Packets: Decodable {
    typealias CodingKeys = CaptureDocument.TallyKey
    let written: Int?
    let recorded: Int?
    let withoutBytes: WithoutBytes?
  }
  struct Flow: Decodable {
    typealias CodingKeys = CaptureDocument.FlowKey
    let id: Int64
    let recorded: Int?, written: Int?
    let withoutBytes: WithoutBytes?
  }
  struct SourceFile: Decodable {
    typealias CodingKeys = CaptureDocument.SourceFileKey
    let packets: Int?, written: Int?
    let sequence: UInt32?, status: String?
    /// Derived from the sequence: the form check compares it.
    let name: String?
  }
  struct OutsideSession: Decodable {
    typealias CodingKeys = CaptureDocument.OutsideKey
    let beforeStart: Int, afterEnd: Int
  }
  let packets: Packets
  let flows: [Flow]
  let sourceFiles: [SourceFile]?
  let writtenOutsideSession: OutsideSession?
  let sessionID: Int64?
  let snaplen: UInt32?
  let coverage: [String]?

  /// What the report is drawn from, as capture.json states it.
  var summary: EvidenceCaptureSummary? {
    guard let sessionID, let written = packets.written, let without = packets.withoutBytes,
      let outside = writtenOutsideSession
    else { return nil }
    return EvidenceCaptureSummary(
      sessionID: sessionID,
      packets: EvidencePacketTally(
        written: written,
        withoutBytes: without.byReason),
      beforeStart: outside.beforeStart, afterEnd: outside.afterEnd)
  }

  init(from decoder: Decoder) throws {
    let c = try decoder.container(keyedBy: CaptureDocument.Key.self)
    writtenOutsideSession = try? c.decode(OutsideSession.self, forKey: .writtenOutsideSession)
    packets = try c.decode(Packets.self, forKey: .packets)
    sourceFiles = try? c.decode([SourceFile].self, forKey: .sourceFiles)
    flows = try c.decode([Flow].self, forKey: .flows)
    sessionID = try? c.decode(Int64.self, forKey: .sessionID)
    snaplen = try? c.decode(UInt32.self, forKey: .snaplen)
    coverage = try? c.decode([String].self, forKey: .coverage)
  }

  /// The document export would write with these values, when every one of them reads as the
  /// type it must be; the flows are streamed apart from the outline.
  func document(flows: [Flow]) -> EvidenceCaptureDocument? {
    guard let summary else { return nil }
    var files: [EvidenceSourceFile] = []
    for file in sourceFiles ?? [] {
      guard let sequence = file.sequence, let packets = file.packets, let written = file.written,
        let status = file.status.flatMap(EvidenceSourceFile.Status.init(rawValue:))
      else { return nil }
      files.append(
        EvidenceSourceFile(sequence: sequence, status: status, packets: packets, written: written))
    }
    var tallies: [(id: Int64, tally: EvidencePacketTally)] = []
    for flow in flows {
      guard let written = flow.written, let without = flow.withoutBytes else { return nil }
      tallies.append(
        (flow.id, EvidencePacketTally(written: written, withoutBytes: without.byReason)))
    }
    return EvidenceCaptureDocument(
      sessionID: summary.sessionID, snaplen: snaplen, packets: summary.packets,
      beforeStart: summary.beforeStart, afterEnd: summary.afterEnd, sourceFiles: files,
      flows: tallies, coverage: coverage ?? [])
  }
}

/// flows.json as verify reads it: each flow read back as the store held it, with the findings it
/// cites (`EvidenceFlowRecord.Decoded`), and what the document says of them.
struct VerifiedFlows: Decodable {
  let flows: [EvidenceFlowRecord.Decoded]
  let sessionID: Int64?, flowCount: Int?
  init(from decoder: Decoder) throws {
    let c = try decoder.container(keyedBy: FlowsDocument.Key.self)
    flows = try c.decode([EvidenceFlowRecord.Decoded].self, forKey: .flows)
    sessionID = try? c.decode(Int64.self, forKey: .sessionID)
    flowCount = try? c.decode(Int.self, forKey: .flowCount)
  }
}

/// exchanges.json as verify reads it: each exchange's record, decoded as it is complete.
struct VerifiedExchanges: Decodable {
  let exchanges: [EvidenceExchangesDocument.Decoded]
  let sessionID: Int64?, exchangeCount: Int?
  init(from decoder: Decoder) throws {
    let c = try decoder.container(keyedBy: EvidenceExchangesDocument.DocumentKey.self)
    exchanges = try c.decode([EvidenceExchangesDocument.Decoded].self, forKey: .exchanges)
    sessionID = try? c.decode(Int64.self, forKey: .sessionID)
    exchangeCount = try? c.decode(Int.self, forKey: .exchangeCount)
  }
}

/// What session.json and manifest.json say of the session and the export, each fact nil where
/// it does not read as its type.
struct VerifiedSessionFacts: Decodable {
  let sessionID: Int64?, exportedAt: String?, startedAt: String?, endedAt: String?
  /// session.json's keys, or else manifest.json's.
  init(from decoder: Decoder) throws {
    let s = try decoder.container(keyedBy: SessionDocument.Key.self)
    let m = try decoder.container(keyedBy: ManifestDocument.Key.self)
    exportedAt = try? s.decode(String.self, forKey: .exportedAt)
    let session = try? s.nestedContainer(keyedBy: SessionDocument.SessionKey.self, forKey: .session)
    sessionID =
      (try? session?.decode(Int64.self, forKey: .id))
      ?? (try? m.decode(Int64.self, forKey: .sessionID))
    startedAt = try? session?.decode(String.self, forKey: .startedAt)
    endedAt = try? session?.decode(String.self, forKey: .endedAt)
  }

  static func read(_ data: Data?) -> VerifiedSessionFacts? {
    data.flatMap { try? JSONDecoder().decode(VerifiedSessionFacts.self, from: $0) }
  }
}

// capture.json's flows read from a parsed tree as the synthesized decoders read them: twenty
// thousand flows through `JSONDecoder` were most of the time verify's capture thread spent on
// capture.json.
extension VerifiedCapture.WithoutBytes: JSONTreeDecodable {
  init(tree: JSONTree) throws(JSONTree.Unreadable) {
    let c = try JSONMembers<EvidenceMissingReason>(tree)
    captureFileMissing = try c.decode(Int.self, forKey: .captureFileMissing)
    notCaptured = try c.decode(Int.self, forKey: .notCaptured)
    recordUnreadable = try c.decode(Int.self, forKey: .recordUnreadable)
  }
}

extension VerifiedCapture.Flow {
  init(tree: JSONTree) throws(JSONTree.Unreadable) {
    let c = try JSONMembers<CaptureDocument.FlowKey>(tree)
    id = try c.decode(Int64.self, forKey: .id)
    recorded = try c.decodeIfPresent(Int.self, forKey: .recorded)
    written = try c.decodeIfPresent(Int.self, forKey: .written)
    withoutBytes = try c.decodeIfPresent(VerifiedCapture.WithoutBytes.self, forKey: .withoutBytes)
  }
}
