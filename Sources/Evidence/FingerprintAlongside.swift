import Foundation

/// A file's fingerprint (`WrittenFile.Fingerprint`: size, SHA-256, CRC-32, the deflated copy) made
/// on a thread of its own from the file's first bytes as another writes them (report.pdf, as
/// cairo writes it), and finished from the file itself once it is written: the bytes after those
/// taken may still change (cairo's Info dates are edited when it is done). The pieces are copied
/// into a buffer, each bufferful handed over while the next fills.
final class FingerprintAlongside {
  private let fingerprint: WrittenFile.Fingerprint
  private var buffer = UnsafeMutableRawBufferPointer.allocate(
    byteCount: EvidenceFileWriter.bufferLimit, alignment: 16)
  private var spare = UnsafeMutableRawBufferPointer.allocate(
    byteCount: EvidenceFileWriter.bufferLimit, alignment: 16)
  private var used = 0
  /// How many bytes were taken.
  private(set) var taken = 0
  private let worker = PieceWorker()
  private let failure = Failure()

  /// For the file at `url`, its deflated copy made beside it.
  init(deflating url: URL) throws {
    fingerprint = try WrittenFile.Fingerprint(deflatingInto: DeflatedFile.url(of: url))
  }

  deinit {
    worker.finish()
    worker.stop()
    buffer.deallocate()
    spare.deallocate()
  }

  /// The file's next bytes.
  func take(_ bytes: UnsafeRawBufferPointer) {
    var at = 0
    while at < bytes.count {
      let part = min(bytes.count - at, buffer.count - used)
      UnsafeMutableRawBufferPointer(rebasing: buffer[used..<used + part]).copyMemory(
        from: UnsafeRawBufferPointer(rebasing: bytes[at..<at + part]))
      used += part
      at += part
      if used == buffer.count { handOver() }
    }
    taken += bytes.count
  }

  /// The file's facts, once it is written at `url`: its bytes after those taken read from it.
  func file(at url: URL) throws -> WrittenFile {
    handOver()
    worker.finish()
    if let error = failure.error { throw error }
    try fingerprint.add(fileAt: url, from: UInt64(taken))
    return try fingerprint.file(named: url.lastPathComponent)
  }

  /// The bytes buffered handed to the thread, once it is done with those before.
  private func handOver() {
    guard used > 0 else { return }
    let (piece, fingerprint, failure) = (
      UnsafeRawBufferPointer(rebasing: buffer[..<used]), fingerprint, failure
    )
    // Waits for the bufferful before, whose memory is filled next.
    worker.handOver {
      guard failure.error == nil else { return }
      do { try fingerprint.add(piece) } catch { failure.error = error }
    }
    swap(&buffer, &spare)
    used = 0
  }

  /// The first failure of the thread, read once it is done.
  private final class Failure: @unchecked Sendable { var error: Error? }
}
