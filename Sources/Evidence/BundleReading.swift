import AuditDocuments
import AuditRules
import AuditWording
import Crypto
import Foundation

/// What one pass over a bundle's entries gives verify: each entry's size and SHA-256, the small
/// documents whole, and the large ones read as they are inflated (flows.json with flows.csv beside
/// it, findings.json and capture.json a record at a time, capture.pcapng a block at a time).
struct BundleReading {
  typealias Readability = (syntax: String?, readable: Bool)

  let archive: ZipArchiveReader
  private(set) var digests: [String: (UInt64, String)] = [:]
  private(set) var documents: [String: Data] = [:]
  private(set) var capture = PcapngScan()
  /// What was wrong reading the entries (a CRC, a document too large to read).
  private(set) var problems: [String] = []
  private(set) var flowsReading: FlowsJSONReading?
  private(set) var captureReading: StreamedArrayReading<VerifiedCapture, VerifiedCapture.Flow>?
  private(set) var findingsReading:
    StreamedArrayReading<VerifiedFindings, VerifiedFindings.Finding>?
  /// capture.json's flows, decoded one at a time (decoded whole, 20,000 of them took 22 MB).
  let captureFlows = Collected<VerifiedCapture.Flow>()
  /// How many flows capture.json lists, as read before flows.json: counted here while the
  /// capture's thread decodes them (its list is not to be touched meanwhile).
  private var captureFlowsListed: Int {
    captureJSONCount == nil ? captureFlows.items.count : captureFlowsCounted
  }
  private var captureFlowsCounted = 0
  /// capture.json's array, its elements only counted, while the capture's thread decodes them.
  private var captureJSONCount: JSONArrayStream?
  /// findings.json's findings, one at a time (as dictionaries, 2,414 of them took 10 MB).
  let findingList = Collected<VerifiedFindings.Finding>()
  private(set) var exchangesReading:
    StreamedArrayReading<VerifiedExchanges, EvidenceExchangesDocument.Decoded>?
  /// exchanges.json's records, one at a time.
  let exchangeList = Collected<ExchangeRecord>()
  private(set) var flowsRead: Readability?, captureRead: Readability?, findingsRead: Readability?
  private(set) var exchangesRead: Readability?

  init(_ archive: ZipArchiveReader) {
    self.archive = archive
    var oversized = Set<String>()
    // capture.pcapng, most of the archive's bytes, is hashed and scanned on a second thread
    // while this one inflates and parses the documents (each entry's stream opens the archive
    // anew, so the two share nothing); its problem takes its place in order.
    let captureAt = CaptureEntryReading.single(in: archive)
    // capture.json too, read again there once capture.pcapng is: its flows decoded on that
    // thread while this one reads flows.json, which needs only their count, counted here.
    let captureJSONAt = captureAt.flatMap { _ in
      CaptureEntryReading.single(EvidenceBundle.captureJSONName, in: archive)
    }
    let captureFlows = self.captureFlows
    let captureSide = captureAt.map { at in
      Alongside {
        (
          CaptureEntryReading(archive, archive.entries[at]),
          captureJSONAt.map { CaptureJSONReading(archive, archive.entries[$0], into: captureFlows) }
        )
      }
    }
    if captureJSONAt != nil { captureJSONCount = JSONArrayStream(key: "flows") }
    var problemsAt: [Int: [String]] = [:]
    for (index, entry) in archive.entries.enumerated() where index != captureAt {
      let before = problems.count
      let read = Self.read(entry, of: archive) { chunk, count in
        feed(entry, chunk, count: count, oversized: &oversized)
      }
      if let digest = read.digest { digests[entry.name] = digest }
      if let problem = read.problem { problems.append(problem) }
      problemsAt[index] = Array(problems[before...])
    }
    if let captureAt, let (side, json) = captureSide?.value {
      capture = side.scan
      if let digest = side.digest { digests[archive.entries[captureAt].name] = digest }
      problemsAt[captureAt] = side.problem.map { [$0] } ?? []
      problems = archive.entries.indices.flatMap { problemsAt[$0] ?? [] }
      if let json, let at = captureJSONAt {
        captureJSONCount = nil
        let entry = archive.entries[at]
        if json.digest?.1 == digests[entry.name]?.1 {
          captureReading = json.reading
        } else {
          // Other bytes than this thread read (the archive changed meanwhile): read here.
          captureFlows.items = []
          _ = Self.read(entry, of: archive) { chunk, count in
            feed(entry, chunk, count: count, oversized: &oversized)
          }
        }
      }
    }
    flowsRead = flowsReading?.finish()
    captureRead = captureReading?.finish()
    findingsRead = findingsReading?.finish()
    exchangesRead = exchangesReading?.finish()
  }

  /// An entry read to its end, each chunk handed to `feed` with the count so far: its size and
  /// SHA-256 (also when it is damaged but was read to the end: the manifest's check takes it),
  /// and what was wrong.
  static func read(
    _ entry: ZipArchiveReader.Entry, of archive: ZipArchiveReader,
    _ feed: (Data, UInt64) -> Void
  ) -> (digest: (UInt64, String)?, problem: String?) {
    let hash = SHA256Digest()
    var count: UInt64 = 0
    do {
      try archive.read(entry) { chunk in
        hash.update(chunk)
        count += UInt64(chunk.count)
        feed(chunk, count)
      }
      return ((count, hash.finalHex()), nil)
    } catch {
      return (count == entry.size ? (count, hash.finalHex()) : nil, "\(error)")
    }
  }

  private mutating func feed(
    _ entry: ZipArchiveReader.Entry, _ chunk: Data, count: UInt64,
    oversized: inout Set<String>
  ) {
    switch entry.name {
    case EvidenceCaptureDocument.fileName:
      capture.feed(chunk)
    case EvidenceBundle.captureJSONName where captureJSONCount != nil:
      captureJSONCount!.feed(chunk) { _, _ in captureFlowsCounted += 1 }
    case EvidenceBundle.captureJSONName:
      if captureReading == nil { captureReading = CaptureJSONReading.reading(into: captureFlows) }
      captureReading!.feed(chunk)
    case EvidenceBundle.findingsName:
      if findingsReading == nil {
        let findings = findingList
        findingsReading = StreamedArrayReading(
          key: "findings", elements: \.findings, read: VerifiedFindings.Finding.init
        ) {
          findings.items.append($0)
        }
      }
      findingsReading!.feed(chunk)
    case EvidenceBundle.exchangesName:
      if exchangesReading == nil {
        let exchanges = exchangeList
        exchangesReading = StreamedArrayReading(key: "exchanges", elements: \.exchanges) {
          exchanges.items.append($0.record)
        }
      }
      exchangesReading!.feed(chunk)
    case EvidenceBundle.flowsName:
      // Each flow is compared with its row of flows.csv, pulled from its own entry alongside
      // (wherever it lies in the archive).
      if flowsReading == nil {
        flowsReading = FlowsJSONReading(csv: csvRows(), expected: expectedFlows(in: entry))
      }
      flowsReading!.feed(chunk)
    default:
      guard let limit = BundleVerifier.wholeDocumentLimit(entry.name) else { return }
      if count > UInt64(limit) {
        documents[entry.name] = nil
        if oversized.insert(entry.name).inserted {
          problems.append(VerifyWording.notRead(entry.name, limit: limit))
        }
      } else {
        // Room for the whole document at once: growing by doubling would leave the halves behind.
        if documents[entry.name] == nil {
          documents[entry.name] = Data(capacity: Int(min(entry.size, UInt64(limit))))
        }
        documents[entry.name]!.append(chunk)
      }
    }
  }

  /// What the scan of capture.pcapng gathered per flow (its comments, its packets) let go once
  /// the checks that compare it have run: megabytes a session's re-derivation does not need.
  mutating func forgetCaptureScan() { capture = PcapngScan() }

  /// findings.json's findings let go once their identifiers are resolved: the re-derivation
  /// compares its findings with findings.json's outline and count.
  func forgetFindingsListed() { findingList.items = [] }

  /// capture.json's flows let go once capture.json is written again from them, before the
  /// re-derivation holds its flows beside flows.json's (megabytes of a 20 000 flows' bundle).
  func forgetCaptureFlows() { captureFlows.items = [] }

  /// How many flows flows.json holds, as capture.json (before it in a bundle's order) lists them;
  /// never more than one per `bytesPerFlow` of the entry, whatever capture.json says.
  private func expectedFlows(in entry: ZipArchiveReader.Entry) -> Int {
    Int(min(UInt64(captureFlowsListed), entry.size / Self.bytesPerFlow))
  }

  /// Fewer bytes than the smallest flow flows.json can hold (a flow of the sample's takes 1 KB).
  static let bytesPerFlow: UInt64 = 256

  private func csvRows() -> CSVRows? {
    guard let entry = archive.entries.first(where: { $0.name == EvidenceBundle.flowsCSVName }),
      let stream = try? archive.stream(entry)
    else { return nil }
    return CSVRows { (try? stream.next()) ?? nil }
  }
}

/// capture.pcapng read on a thread of its own: its size and SHA-256, the pcapng scan of it, and
/// what was wrong reading it. Only one such entry is read so (more are read in turn, as any other).
private struct CaptureEntryReading {
  var scan = PcapngScan()
  var digest: (UInt64, String)?
  var problem: String?

  /// The index of the archive's one entry named `name`; nil when there is none or more.
  static func single(
    _ name: String = EvidenceCaptureDocument.fileName, in archive: ZipArchiveReader
  ) -> Int? {
    let at = archive.entries.indices.filter { archive.entries[$0].name == name }
    return at.count == 1 ? at[0] : nil
  }

  init(_ archive: ZipArchiveReader, _ entry: ZipArchiveReader.Entry) {
    var scan = PcapngScan()
    (digest, problem) = BundleReading.read(entry, of: archive) { chunk, _ in scan.feed(chunk) }
    self.scan = scan
  }
}

/// capture.json read on the capture's thread: its flows decoded into `flows` a record at a time,
/// the reading (its outline and verdict, once finished), and the digest of the bytes it read.
private struct CaptureJSONReading {
  let reading: StreamedArrayReading<VerifiedCapture, VerifiedCapture.Flow>
  let digest: (UInt64, String)?

  init(
    _ archive: ZipArchiveReader, _ entry: ZipArchiveReader.Entry,
    into flows: Collected<VerifiedCapture.Flow>
  ) {
    let reading = Self.reading(into: flows)
    digest = BundleReading.read(entry, of: archive) { chunk, _ in reading.feed(chunk) }.digest
    self.reading = reading
  }

  /// capture.json's flows read as they are inflated, each decoded from its parsed tree into
  /// `flows`: on the capture's thread, or on the reading thread when the archive changed.
  static func reading(into flows: Collected<VerifiedCapture.Flow>)
    -> StreamedArrayReading<VerifiedCapture, VerifiedCapture.Flow>
  {
    StreamedArrayReading(key: "flows", elements: \.flows, read: VerifiedCapture.Flow.init) {
      flows.items.append($0)
    }
  }
}
