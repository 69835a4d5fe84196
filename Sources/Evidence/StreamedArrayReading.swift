import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Crypto
import Foundation

/// What a reading hands over, gathered (a closure's place to put it).
final class Collected<Item> { var items: [Item] = [] }

/// A JSON document read a chunk at a time as it is inflated, the elements of the array under
/// `key` in its top-level object each held to RFC 8259 and decoded as soon as it is complete, and
/// handed to `each`; the rest (the outline) decoded with the array emptied. Where the document is
/// not an object holding such an array, it is decoded whole and its elements handed over then.
final class StreamedArrayReading<Outline: Decodable, Element: Decodable> {
  private var stream: JSONArrayStream
  private let elements: (Outline) -> [Element]
  private let each: (Element) -> Void
  private var firstFault: JSONSyntax.Failure?
  private var undecodable = false
  private let decoder = JSONDecoder()
  /// How an element is read from its parsed tree, where not by `JSONDecoder`.
  private let read: ((JSONTree) throws -> Element)?
  /// The document without its array's elements, once `finish` decoded it.
  private(set) var outline: Outline?
  /// Where elements are parsed and decoded in batches while this thread reads the document on
  /// (`decodingAlongside`): a batch goes to it while it has fewer than `workerDepth` to do, and
  /// is decoded here otherwise.
  private let worker: PieceWorker?
  private var gathering = ElementBatch()
  /// The batches not handed to `each` yet, in order, and those of them handed to the worker.
  private var waiting: [ElementBatch] = []
  private var withWorker: [ElementBatch] = []
  static var batchLength: Int { 32 }

  /// Elements' bytes and where each begins in the document, and, once decoded, what reading
  /// each gave (nil when it could not be read), or nil when the strict parse refused it.
  private final class ElementBatch: @unchecked Sendable {
    var elements: [(bytes: [UInt8], at: Int)] = []
    var decoded: [Element??] = []

    func decode(_ read: (JSONTree) throws -> Element) {
      decoded = elements.map { StreamedArrayReading.readStrictly($0.bytes, read) }
    }
  }

  /// `decodingAlongside`: the elements (when `read` reads them) are parsed and decoded on a
  /// second thread too, handed to `each` in order all the same.
  init(
    key: String, elements: @escaping (Outline) -> [Element],
    read: ((JSONTree) throws -> Element)? = nil, decodingAlongside: Bool = false,
    each: @escaping (Element) -> Void
  ) {
    stream = JSONArrayStream(key: key)
    self.elements = elements
    self.read = read
    self.each = each
    worker = decodingAlongside && read != nil ? PieceWorker() : nil
  }

  deinit { worker?.stop() }

  func feed(_ chunk: Data) { stream.feed(chunk, element) }

  private func element(_ bytes: [UInt8], at: Int) {
    guard let read, worker != nil else { return decodeHere(bytes, at: at) }
    gathering.elements.append((bytes, at))
    guard gathering.elements.count == Self.batchLength else { return }
    handOver(read)
  }

  /// The batch gathered to the worker while it has fewer than two to do, else decoded here;
  /// then those decoded handed over in order, up to the first the worker has not done.
  private func handOver(_ read: @escaping (JSONTree) throws -> Element) {
    let batch = gathering
    gathering = ElementBatch()
    waiting.append(batch)
    if worker!.notDone < Self.workerDepth {
      withWorker.append(batch)
      worker!.handOver(depth: Self.workerDepth) { batch.decode(read) }
    } else {
      batch.decode(read)
    }
    // However far this thread runs ahead, it holds few batches.
    if waiting.count > Self.batchesAhead { worker!.finish() }
    takeDecoded()
  }

  static var workerDepth: Int { 2 }
  static var batchesAhead: Int { 8 }

  private func takeDecoded() {
    // The worker does its batches in order: all but the last `notDone` are done.
    let done = withWorker.count - worker!.notDone
    withWorker.removeFirst(done)
    while let first = waiting.first, first !== withWorker.first {
      waiting.removeFirst()
      take(first)
    }
  }

  /// A batch's elements handed over in order; one the strict parse refused read here as before.
  private func take(_ batch: ElementBatch) {
    for (element, decoded) in zip(batch.elements, batch.decoded) {
      if let parsed = decoded {
        take(parsed)
      } else {
        decodeHere(element.bytes, at: element.at)
      }
    }
  }

  /// The batches left, in order, before the document's end is read.
  private func drain() {
    guard let read, worker != nil else { return }
    if !gathering.elements.isEmpty { handOver(read) }
    worker!.finish()
    takeDecoded()
  }

  /// The element parsed as strictly as the syntax check reads and then read (nil inside when it
  /// cannot be); nil when the strict parse refuses it.
  fileprivate static func readStrictly(_ bytes: [UInt8], _ read: (JSONTree) throws -> Element)
    -> Element??
  {
    guard let tree = try? JSONTree.parse(bytes, strictlyAt: elementDepth) else { return nil }
    return .some(try? read(tree))
  }

  private func decodeHere(_ bytes: [UInt8], at: Int) {
    // Parsed as strictly as the syntax check reads, an element is one it would find nothing
    // wrong with: it is parsed once. Otherwise the check says what is wrong, and the element is
    // read as a decoder reads it.
    if let read, let decoded = Self.readStrictly(bytes, read) { return take(decoded) }
    let data = Data(bytes)
    if firstFault == nil, let fault = JSONSyntax.failure(in: data, depth: Self.elementDepth) {
      firstFault = JSONSyntax.Failure(reason: fault.reason, at: at + fault.at)
    }
    take(
      try? (read.map { try $0(JSONTree.parse(bytes)) } ?? decoder.decode(Element.self, from: data)))
  }

  /// How deep an element lies: in the array of the document's object.
  private static var elementDepth: Int { 2 }

  /// An element decoded handed over, unless one before it could not be decoded.
  private func take(_ decoded: Element?) {
    guard !undecodable, let decoded else {
      undecodable = true
      return
    }
    each(decoded)
  }

  /// After the last chunk: what is wrong with the document as JSON (the first fault in it), and
  /// whether every element and the rest of it could be decoded.
  func finish() -> (syntax: String?, readable: Bool) {
    stream.finish(element)
    drain()
    worker?.stop()
    let skeleton = Data(stream.takeSkeleton())
    guard stream.foundArray else {
      outline = try? decoder.decode(Outline.self, from: skeleton)
      outline.map(elements)?.forEach(each)
      return (JSONSyntax.problem(in: skeleton), outline != nil)
    }
    var faults = stream.faults + (firstFault.map { [$0] } ?? [])
    if let fault = JSONSyntax.failure(in: skeleton) {
      faults.append(
        JSONSyntax.Failure(
          reason: fault.reason, at: stream.documentOffset(ofSkeletonByte: fault.at)))
    }
    outline = try? decoder.decode(Outline.self, from: skeleton)
    let syntax = faults.min { $0.at < $1.at }.map { "\($0.reason) at byte \($0.at)" }
    return (syntax, !undecodable && outline != nil)
  }
}

/// flows.json as verify reads it: each flow, as soon as it is complete, handed over to be compared
/// with its row of flows.csv; what is kept of it is its id and the findings it cites. (As
/// dictionaries, 20 000 flows take half a gigabyte; the document itself is 27 MB.)
final class FlowsJSONReading {
  private let csvBehind: FlowsCSVBehind
  /// flows.csv against the flows handed over so far; once finished, against every flow.
  var csv: FlowsCSVComparison { csvBehind.finished() }
  /// The flows as the store held them, to re-derive the findings from, and the findings each cites:
  /// into room for as many as capture.json lists, read before; any beyond it gathered in pieces,
  /// then one array of exactly their number. (An array grown by doubling held 32 768 flows' room
  /// for 20 000: six megabytes of a verify's peak. Pieces copied at the end held 20 000 twice, for
  /// a moment: nine more.)
  private(set) var records: [StoredFlow] = []
  private var pieces: [[StoredFlow]] = []
  private static let pieceLength = 1024
  private var citations: [[String]] = []
  /// What each flow says of the baseline, in the same order.
  private(set) var baselineClaims: [Bool?] = []
  private(set) var registrableDomains: [String?] = []
  /// Where each address flows.json names is registered, as its peers state it.
  private(set) var registrations: [String: AddressRegistration] = [:]
  var flows: [(id: Int64, findingIDs: [String])] {
    zip(records, citations).map { ($0.id, $1) }
  }
  private var reading: StreamedArrayReading<VerifiedFlows, EvidenceFlowRecord.Decoded>!
  /// The flows' parts alike, held once (an app's few ClientHellos across 20 000 flows).
  private let sharing = FlowPartsSharing()

  /// `expected`: how many flows to make room for before the first is read.
  init(csv: CSVRows?, expected: Int = 0) {
    csvBehind = FlowsCSVBehind(FlowsCSVComparison(csv))
    records.reserveCapacity(expected)
    reading = StreamedArrayReading(
      key: "flows", elements: \.flows, read: EvidenceFlowRecord.Decoded.init,
      decodingAlongside: true
    ) { [unowned self] in
      self.take($0)
    }
  }

  func feed(_ chunk: Data) { reading.feed(chunk) }

  /// Lets the flows go (with the findings each cites): verify draws the report again without
  /// them, and they are a few hundred bytes a flow.
  func forgetRecords() {
    records = []
    citations = []
  }

  func finish() -> (syntax: String?, readable: Bool) {
    let finished = reading.finish()
    records.reserveCapacity(pieces.reduce(records.count) { $0 + $1.count })
    // Each piece let go as soon as it is copied: the flows are held once, and a piece more.
    for index in pieces.indices {
      records.append(contentsOf: pieces[index])
      pieces[index] = []
    }
    pieces = []
    return finished
  }

  /// What flows.json says beside its flows, once finished.
  var outline: VerifiedFlows? { reading.outline }

  private func take(_ record: EvidenceFlowRecord.Decoded) {
    csvBehind.compare(record)
    // Into the room made, never growing it; past it, into pieces.
    let flow = sharing.share(record.flow)
    if records.count < records.capacity { records.append(flow) } else { piece(flow) }
    citations.append(sharing.list(record.findingIDs))
    baselineClaims.append(record.alsoContactedInBaseline)
    registrableDomains.append(record.registrableDomain.map(sharing.name))
    registrations.merge(record.registrations) { first, _ in first }
  }

  private func piece(_ flow: StoredFlow) {
    if pieces.last.map({ $0.count == Self.pieceLength }) ?? true {
      pieces.append([])
      pieces[pieces.count - 1].reserveCapacity(Self.pieceLength)
    }
    pieces[pieces.count - 1].append(flow)
  }
}
