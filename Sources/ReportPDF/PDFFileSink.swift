import CCairoPango
import Foundation
import SystemCalls

/// Where cairo writes report.pdf: a file opened with fopen(3), written with fwrite(3) a bufferful
/// at a time (cairo writes a number or a word at a time). A write that fails (the disk full) is
/// remembered and the rest dropped, but cairo is told it succeeded: cairo 1.16 answers a failed
/// write by aborting the process on an assertion of its own (`_cairo_array_index_const`) when
/// the surface is finished. The failure is reported once cairo is done, and the file it leaves is
/// the caller's to remove.
final class PDFFileSink {
  private let file: UnsafeMutablePointer<FILE>
  let url: URL
  /// The first error: what errno said.
  private(set) var failure: String?
  /// Given the bytes that stay as written (`PDFSettledBytes`) a bufferful at a time, if set.
  var settled: ((UnsafeRawBufferPointer) -> Void)?
  private var settledBytes = PDFSettledBytes()
  private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 16)
  private var used = 0

  init(url: URL) throws {
    guard let file = fopen(url.path, "wb") else {
      buffer.deallocate()
      throw PDFWriteError(
        description:
          "\(url.lastPathComponent) could not be created in \(url.deletingLastPathComponent().path): \(Errno.current)"
      )
    }
    self.file = file
    self.url = url
  }

  deinit { buffer.deallocate() }

  func write(_ bytes: UnsafePointer<UInt8>?, _ count: Int) {
    guard failure == nil, let bytes, count > 0 else { return }
    if used + count > buffer.count { flush() }
    guard count <= buffer.count else {
      return put(UnsafeRawBufferPointer(start: bytes, count: count))
    }
    (buffer.baseAddress! + used).copyMemory(from: bytes, byteCount: count)
    used += count
  }

  private func flush() {
    guard used > 0 else { return }
    put(UnsafeRawBufferPointer(rebasing: buffer[..<used]))
    used = 0
  }

  private func put(_ bytes: UnsafeRawBufferPointer) {
    guard failure == nil else { return }
    if fwrite(bytes.baseAddress, 1, bytes.count, file) != bytes.count {
      failure = Errno.current.description
    }
    if let settled { settledBytes.take(bytes, settled) }
  }

  /// Writes what is buffered, flushes and closes the file (fclose(3)); throws the first failure.
  func close() throws {
    flush()
    if fclose(file) != 0, failure == nil { failure = Errno.current.description }
    if let failure {
      throw PDFWriteError(description: "\(url.lastPathComponent) could not be written: \(failure)")
    }
  }

  /// cairo's write callback (`cairo_write_func_t`), its closure this sink. The sink is used as
  /// the surface holds it, not retained and released for each of cairo's writes (a word or a
  /// number at a time).
  static let callback: cairo_write_func_t = { closure, data, length in
    Unmanaged<PDFFileSink>.fromOpaque(closure!)._withUnsafeGuaranteedRef {
      $0.write(data, Int(length))
    }
    return CAIRO_STATUS_SUCCESS
  }
}

/// report.pdf was drawn but could not be put on disk (no space, no permission): a failure to
/// write, not to draw.
public struct PDFWriteError: Error, CustomStringConvertible {
  public let description: String
}
