import Foundation

/// A file's fingerprint (`WrittenFile.Fingerprint`: size, SHA-256, CRC-32, the deflated copy) made
/// on a thread of its own from the file's first bytes as another writes them (report.pdf, as
/// cairo writes it), and finished from the file itself once it is written: the bytes after those
/// taken may still change (cairo's Info dates are edited when it is done). The bytes come in
/// bufferfuls (the PDF sink's); each is copied and handed over while the next is written.
final class FingerprintAlongside {
  private let fingerprint: WrittenFile.Fingerprint
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
  }

  /// The file's next bytes, copied: the writer's buffer is filled again once this returns.
  func take(_ bytes: UnsafeRawBufferPointer) {
    taken += bytes.count
    let (piece, fingerprint, failure) = ([UInt8](bytes), fingerprint, failure)
    // Waits for the piece before: no more than two are held.
    worker.handOver {
      guard failure.error == nil else { return }
      do { try piece.withUnsafeBytes { try fingerprint.add($0) } } catch { failure.error = error }
    }
  }

  /// The file's facts, once it is written at `url`: its bytes after those taken read from it.
  func file(at url: URL) throws -> WrittenFile {
    worker.finish()
    if let error = failure.error { throw error }
    try fingerprint.add(fileAt: url, from: UInt64(taken))
    return try fingerprint.file(named: url.lastPathComponent)
  }

  /// The first failure of the thread, read once it is done.
  private final class Failure: @unchecked Sendable { var error: Error? }
}
