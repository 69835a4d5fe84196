import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Capture
import Crypto
import Foundation
import SystemCalls

/// A file written in order through a buffer, hashed and counted as it goes.
public final class EvidenceFileWriter {
  /// The name the manifest gives it.
  public let name: String
  private var output: SequentialFileOutput?
  private var choice: TargetChoice?
  /// False when the bytes go into a file someone else owns (an archive's entry).
  private var ownsOutput = true
  /// The bytes not flushed yet: `used` of them, at the start of memory of `capacity` bytes held
  /// from the first write to the last. Not a `Data`: each packet's block made at its end
  /// zeroed its room and checked its storage first, a tenth of an export's slicing thread.
  private var buffer: UnsafeMutableRawBufferPointer
  /// The buffer's bytes: `bufferLimit`, or `alongsideBufferLimit` for a writer hashing alongside.
  private let capacity: Int
  private var used = 0
  private let fingerprint: WrittenFile.Fingerprint
  /// With `hashingAlongside`: the thread that hashes each bufferful while the next is filled in
  /// `spare`'s memory, and the first failure it met.
  private var alongside: (worker: PieceWorker, spare: UnsafeMutableRawBufferPointer)?
  private let failureAlongside = FailureAlongside()
  private var deflatesWhenArchived = false
  /// As much as the archive's probe reads (the first flush chooses the target from it), and
  /// no more: every writer open at once holds its buffer.
  static let bufferLimit = ZipArchiveWriter.probeLength
  /// A writer hashing alongside (the capture, one at a time) hands over larger pieces: a quarter
  /// of the hand-overs between the two threads, each a wait and a wake-up.
  static let alongsideBufferLimit = 1 << 20

  /// When a file of the bundle is deflated for the archive.
  public enum Deflation: Sendable {
    /// Not here: the archive stores it, or deflates it if its probe says so.
    case none
    /// As it is written, so that the archive need not read the file again nor deflate it on the
    /// thread that assembles it.
    case asWritten
    /// When the archive takes it, read back once: the thread writing it is free sooner, where
    /// what waits for it needs its digest, not its deflated bytes (the report, drawn meanwhile).
    case whenArchived
  }

  public init(url: URL, deflation: Deflation = .none) throws {
    name = url.lastPathComponent
    fingerprint = try WrittenFile.Fingerprint(
      deflatingInto: deflation == .asWritten ? DeflatedFile.url(of: url) : nil)
    deflatesWhenArchived = deflation == .whenArchived
    capacity = Self.bufferLimit
    buffer = .allocate(byteCount: capacity, alignment: 16)
    output = try Self.create(url)
  }

  deinit {
    if let (worker, spare) = alongside {
      worker.finish()
      worker.stop()
      spare.deallocate()
    }
    buffer.deallocate()
  }

  /// Where the bytes go, chosen once the first of them are known (up to the buffer's size, or all
  /// of them when there are fewer): a file to own and close, or one that stays open (an archive
  /// the bytes are an entry of).
  public typealias TargetChoice = (_ firstBytes: Data) throws -> (
    output: SequentialFileOutput, closeWhenFinished: Bool
  )

  /// `hashingAlongside`: each bufferful hashed on a thread of its own while the next is filled
  /// (the capture: its SHA-256 is a third of the slicing thread's time).
  public init(
    name: String, hashingAlongside: Bool = false, choosingTarget choose: @escaping TargetChoice
  ) throws {
    self.name = name
    choice = choose
    capacity = hashingAlongside ? Self.alongsideBufferLimit : Self.bufferLimit
    buffer = .allocate(byteCount: capacity, alignment: 16)
    fingerprint = try WrittenFile.Fingerprint(deflatingInto: nil)
    if hashingAlongside {
      alongside = (PieceWorker(), .allocate(byteCount: capacity, alignment: 16))
    }
  }

  /// A new empty file at `url`, open for writing; an error names `shown` (the file it stands for,
  /// when it is written under a temporary name) and the directory.
  static func create(
    _ url: URL, shown: URL? = nil, capacity: Int = SequentialFileOutput.defaultCapacity
  ) throws -> SequentialFileOutput {
    switch SequentialFileOutput.create(path: url.path, capacity: capacity) {
    case .success(let output): return output
    case .failure(let error):
      let name = shown ?? url
      throw EvidenceWriteError(
        "\(name.lastPathComponent) could not be created in \(name.deletingLastPathComponent().path): \(error)"
      )
    }
  }

  public func write(_ text: String) throws {
    var text = text
    try text.withUTF8 { try append(UnsafeRawBufferPointer($0)) }
  }

  public func write(_ data: Data) throws { try data.withUnsafeBytes { try append($0) } }

  public func write(_ bytes: [UInt8]) throws { try bytes.withUnsafeBytes { try append($0) } }

  /// `count` bytes made in place at the buffer's end by `fill` (a block built where it is written);
  /// made aside first when they would not fit in the buffer's room.
  public func write(count: Int, _ fill: (UnsafeMutableRawBufferPointer) -> Void) throws {
    let start = used
    guard start + count <= capacity else {
      let block = [UInt8](unsafeUninitializedCapacity: count) { bytes, made in
        fill(UnsafeMutableRawBufferPointer(bytes))
        made = count
      }
      return try write(block)
    }
    fill(UnsafeMutableRawBufferPointer(rebasing: buffer[start..<start + count]))
    used = start + count
    if used == capacity { try flush() }
  }

  /// The bytes taken into the buffer as far as it has room, flushed each time it is full: it
  /// never grows past its size (a buffer let grow doubles, and every writer open holds one).
  private func append(_ bytes: UnsafeRawBufferPointer) throws {
    var taken = 0
    while taken < bytes.count {
      let part = min(bytes.count - taken, capacity - used)
      UnsafeMutableRawBufferPointer(rebasing: buffer[used..<used + part]).copyMemory(
        from: UnsafeRawBufferPointer(rebasing: bytes[taken..<taken + part]))
      used += part
      taken += part
      if used == capacity { try flush() }
    }
  }

  /// The bytes not flushed yet.
  private var pending: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: buffer[..<used]) }

  private func flush() throws {
    guard used > 0 else { return }
    if output == nil, let choose = choice {
      let chosen = try choose(Data(pending))
      output = chosen.output
      ownsOutput = chosen.closeWhenFinished
      choice = nil
    }
    guard let (worker, spare) = alongside else {
      try Self.hashAndWrite(pending, fingerprint, output, name)
      used = 0
      return
    }
    // The bufferful before is hashed (and its memory free to fill again) once this one is handed
    // over; a failure it met stops the writing here. This one is written here and hashed there:
    // the hashing thread is the slower of the two, this one waits for it, so the copy into the
    // output's buffer is this thread's. The piece holds no reference to the writer.
    try settleAlongside()
    try Self.write(pending, output, name)
    let (piece, fingerprint, failure) = (pending, fingerprint, failureAlongside)
    worker.handOver {
      do { try fingerprint.add(piece) } catch { failure.error = error }
    }
    alongside = (worker, buffer)
    buffer = spare
    used = 0
  }

  private static func hashAndWrite(
    _ bytes: UnsafeRawBufferPointer, _ fingerprint: WrittenFile.Fingerprint,
    _ output: SequentialFileOutput?, _ name: String
  ) throws {
    try fingerprint.add(bytes)
    try write(bytes, output, name)
  }

  private static func write(
    _ bytes: UnsafeRawBufferPointer, _ output: SequentialFileOutput?, _ name: String
  ) throws {
    do { try output?.write(bytes) } catch {
      throw EvidenceWriteError("\(name) could not be written: \(error)")
    }
  }

  /// Waits for the bytes handed to the thread alongside; throws what it met.
  private func settleAlongside() throws {
    guard let (worker, _) = alongside else { return }
    worker.finish()
    if let error = failureAlongside.error { throw error }
  }

  /// The first failure of the thread alongside, read once it is done.
  private final class FailureAlongside: @unchecked Sendable { var error: Error? }

  /// Closes the file; returns its manifest entry.
  public func finish() throws -> EvidenceManifest.Entry { try finishFile().entry }

  /// Closes the file; returns its manifest entry and its CRC-32.
  public func finishFile() throws -> WrittenFile {
    if used == 0, output == nil, let choose = choice {
      // Nothing was written: the target is still chosen, so that an empty file exists.
      let chosen = try choose(Data())
      output = chosen.output
      ownsOutput = chosen.closeWhenFinished
      choice = nil
    }
    try flush()
    try settleAlongside()
    if ownsOutput {
      do { try output?.finish() } catch {
        throw EvidenceWriteError("\(name) could not be written: \(error)")
      }
    }
    var file = try fingerprint.file(named: name)
    file.deflatesWhenArchived = deflatesWhenArchived
    return file
  }
}

/// A write that failed, with what and where.
public struct EvidenceWriteError: Error, Sendable, Hashable, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}

/// A file of the bundle as written: its manifest entry, and the CRC-32 the archive will need.
public struct WrittenFile: Sendable, Hashable {
  public let entry: EvidenceManifest.Entry
  public let crc32: UInt32
  /// The file deflated, when it was deflated as it was written.
  public var deflated: DeflatedFile? = nil
  /// Written plain, to be deflated when the archive takes it (`deflatedNow(in:)`).
  public var deflatesWhenArchived = false

  /// What is made of a file's bytes as they go by: size, SHA-256, CRC-32 and, if asked, the
  /// bytes deflated into a file. One pass, whether the bytes are being written or read back.
  final class Fingerprint {
    private let digest = SHA256Digest()
    private var count: UInt64 = 0
    private var crc: UInt32 = 0
    private let deflater: FileDeflater?

    init(deflatingInto url: URL?) throws { deflater = try url.map(FileDeflater.init) }

    func add(_ data: Data) throws { try data.withUnsafeBytes { try add($0) } }

    func add(_ bytes: UnsafeRawBufferPointer) throws {
      digest.update(bytes)
      crc = Deflate.crc32(crc, bytes)
      count += UInt64(bytes.count)
      try deflater?.add(bytes)
    }

    /// The bytes of the file at `url` from `offset` to its end.
    func add(fileAt url: URL, from offset: UInt64) throws {
      guard let handle = FileHandle(forReadingAtPath: url.path) else {
        throw EvidenceWriteError("\(url.lastPathComponent) was not written")
      }
      defer { try? handle.close() }
      try handle.seek(toOffset: offset)
      while let data = try handle.read(upToCount: EvidenceFileWriter.bufferLimit), !data.isEmpty {
        try add(data)
      }
    }

    func file(named name: String) throws -> WrittenFile {
      WrittenFile(
        entry: EvidenceManifest.Entry(name: name, byteCount: count, sha256: digest.finalHex()),
        crc32: crc, deflated: try deflater?.finish())
    }
  }

  /// Bytes deflated into a file as they go by.
  struct FileDeflater {
    private let stream: DeflateStream
    private let file: SequentialFileOutput
    private let url: URL

    init(into url: URL) throws {
      file = try EvidenceFileWriter.create(url)
      stream = try DeflateStream(level: ZipArchiveWriter.deflateLevel, into: file)
      self.url = url
    }

    func add(_ bytes: UnsafeRawBufferPointer) throws {
      do { try stream.append(bytes) } catch { throw failed(error) }
    }

    func finish() throws -> DeflatedFile {
      do {
        let count = try stream.finishFile()
        try file.finish()
        return DeflatedFile(url: url, count: count)
      } catch { throw failed(error) }
    }

    private func failed(_ error: Error) -> EvidenceWriteError {
      error as? EvidenceWriteError
        ?? EvidenceWriteError(
          "\(url.lastPathComponent) could not be written: \(SystemErrorText.reason(error))")
    }
  }

  /// This file, written plain into `folder` to be deflated when archived, deflated now: read
  /// back once into its deflated copy, as writing it deflating would have made it. Read past the
  /// page cache (it was written past it) a MiB ahead: FileHandle's 4 KiB reads copied each page
  /// out of the cache, half of this thread's time here.
  func deflatedNow(in folder: URL) throws -> WrittenFile {
    guard deflatesWhenArchived else { return self }
    let url = folder.appendingPathComponent(entry.name)
    let unreadable = { (error: Errno) in
      EvidenceWriteError(
        "\(self.entry.name) could not be read back to be deflated: \(SystemErrorText.reason(error))"
      )
    }
    let input: ReadAheadFileInput
    switch ReadAheadFileInput.open(path: url.path) {
    case .success(let opened): input = opened
    case .failure(let error): throw unreadable(error)
    }
    let deflater = try FileDeflater(into: DeflatedFile.url(of: url))
    while true {
      let piece: UnsafeRawBufferPointer
      do { piece = try input.nextPiece() } catch { throw unreadable(error) }
      if piece.isEmpty { break }
      try deflater.add(piece)
    }
    var file = self
    file.deflated = try deflater.finish()
    file.deflatesWhenArchived = false
    return file
  }

  /// A file already on disk (report.pdf, drawn by Cairo), read once for the same facts, deflated.
  static func reading(_ url: URL) throws -> WrittenFile {
    let fingerprint = try Fingerprint(deflatingInto: DeflatedFile.url(of: url))
    try fingerprint.add(fileAt: url, from: 0)
    return try fingerprint.file(named: url.lastPathComponent)
  }
}

/// A file's bytes deflated (raw deflate, as a ZIP entry holds them), in a file beside it.
public struct DeflatedFile: Sendable, Hashable {
  public let url: URL
  /// How many deflated bytes.
  public let count: UInt64

  /// Where the deflated copy of `file` goes: beside it, ".deflate" added.
  static func url(of file: URL) -> URL { file.appendingPathExtension("deflate") }
}
