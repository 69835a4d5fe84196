import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Capture
import Crypto
import FlowStore
import Foundation

/// The bundle's ZIP while it is made: the files of the bundle's folder go in by name, and the
/// capture goes in as it is sliced. It is written at its destination under a temporary name;
/// nothing is there until `finish()`, and `abandon()` leaves nothing.
final class EvidenceBundleArchive {
  private let url: URL
  private let folder: URL
  private let modified: Date
  private let zip64Threshold: UInt64
  private var zip: ZipArchiveWriter.Archive
  /// The names already in the archive.
  private(set) var archived: Set<String> = []

  init(url: URL, folder: URL, modified: Date, zip64Threshold: UInt64) throws {
    self.url = url
    self.folder = folder
    self.modified = modified
    self.zip64Threshold = zip64Threshold
    zip = try ZipArchiveWriter.Archive(url: url, modified: modified, zip64Threshold: zip64Threshold)
  }

  /// A file of the bundle's folder, as it was written (deflated already, when it was; deflated
  /// now, when it was written to be deflated as it is archived). Once archived, the file and its
  /// deflated copy are let go: while the report is still drawn, not with the folder at the
  /// export's end, where freeing their blocks (a discard each, on a file system mounted with it)
  /// waited for the device.
  func add(_ file: WrittenFile) throws {
    let file = try file.deflatedNow(in: folder)
    let url = folder.appendingPathComponent(file.entry.name)
    try zip.add(
      ZipArchiveWriter.Entry(
        name: file.entry.name, url: url, crc32: file.crc32, deflated: file.deflated))
    archived.insert(file.entry.name)
    try? FileManager.default.removeItem(at: url)
    if let deflated = file.deflated { try? FileManager.default.removeItem(at: deflated.url) }
  }

  func finish() throws { try zip.finish() }

  func abandon() { zip.abandon() }

  /// capture.json of a capture document, written into the folder.
  func captureJSON(_ document: EvidenceCaptureDocument) throws -> WrittenFile {
    let json = try StreamedDocumentWriter(
      document.document, url: folder.appendingPathComponent(EvidenceBundle.captureJSONName))
    for flow in document.flows { try json.append { flow.tally.write(id: flow.id, to: &$0) } }
    return try json.finish()
  }

  /// Slices the capture and gives capture.json and capture.pcapng, in that order. The capture is
  /// written once, straight into the archive after capture.json as forecast, unless its first
  /// 256 KiB shrink by a fifth: then it goes to a file of its own, to be deflated into the archive
  /// like any other entry (`archived` says which). Should the slicing count otherwise than
  /// forecast, the archive is begun again with the capture.json it does count, and the capture
  /// copied over from the first one.
  func addCapture(
    for bundle: EvidenceBundle, counts: [SessionPacketCount], forecast: EvidenceCaptureDocument,
    from store: FlowStore,
    captureDirectory: URL, application: String, trace: ((String, TimeInterval) -> Void)?
  ) throws -> (EvidenceCapture, [WrittenFile]) {
    var streamed: (entry: ZipArchiveWriter.Archive.OpenEntry, forecastJSON: WrittenFile)?
    let folder = self.folder
    // Every packet comment, made once: the entry's size bound measures them, the slicing writes
    // them.
    let comments = PacketComments(of: bundle)
    let longestComment = comments.longest
    let sink = try EvidenceFileWriter(
      name: EvidenceCaptureDocument.fileName, hashingAlongside: true
    ) {
      [unowned self] first in
      if ZipArchiveWriter.probeSaysDeflate(first.prefix(ZipArchiveWriter.probeLength)) {
        return (
          try EvidenceFileWriter.create(
            folder.appendingPathComponent(EvidenceCaptureDocument.fileName)), true
        )
      }
      let forecastJSON = try captureJSON(forecast)
      try add(forecastJSON)
      let bound = EvidenceCaptureWriter.sizeBound(
        for: bundle, counts: counts, captureDirectory: captureDirectory,
        longestComment: longestComment)
      streamed = (
        try zip.beginStoredEntry(name: EvidenceCaptureDocument.fileName, sizeBound: bound),
        forecastJSON
      )
      return (zip.output, false)
    }
    let capture = try EvidenceCaptureWriter.write(
      for: bundle, counts: counts, from: store, captureDirectory: captureDirectory, into: sink,
      application: application, comments: comments)
    let captureFile = WrittenFile(entry: capture.entry, crc32: capture.crc32)
    guard let (entry, forecastJSON) = streamed else {
      trace?("  capture.pcapng shrinks when deflated: written to a file of its own first", 0)
      return (capture, [try captureJSON(capture.document), captureFile])
    }
    try zip.finishStoredEntry(captureFile)
    archived.insert(captureFile.entry.name)
    trace?("  capture.pcapng went straight into the archive", 0)
    if capture.document == forecast { return (capture, [forecastJSON, captureFile]) }

    let countedJSON = try captureJSON(capture.document)
    let first = zip
    // The first archive goes once its capture is copied, or if copying it fails.
    defer { first.abandon() }
    try first.settle()
    zip = try ZipArchiveWriter.Archive(url: url, modified: modified, zip64Threshold: zip64Threshold)
    archived = []
    try add(countedJSON)
    try zip.add(
      ZipArchiveWriter.Entry(
        name: EvidenceCaptureDocument.fileName, url: first.partial, crc32: capture.crc32,
        range: entry.dataOffset..<(entry.dataOffset + capture.entry.byteCount)))
    archived.insert(captureFile.entry.name)
    trace?("  the capture counted otherwise than forecast: the archive begun again", 0)
    return (capture, [countedJSON, captureFile])
  }
}
