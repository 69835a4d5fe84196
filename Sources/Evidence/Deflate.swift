import CChecksum
import CZlib
import Foundation
import SystemCalls

/// zlib's raw deflate (windowBits −15, what ZIP wants), and CRC-32 (folded by carry-less
/// multiplication where the processor can: under a third of zlib's time on the capture).
enum Deflate {
  static func crc32(_ crc: UInt32, _ data: Data) -> UInt32 {
    data.withUnsafeBytes { crc32(crc, $0) }
  }

  static func crc32(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
    guard let base = bytes.baseAddress else { return crc }
    return tunnelvision_crc32(crc, base, bytes.count)
  }

  /// Compresses whole chunks read from `next` until it returns nil.
  static func compress(level: Int32 = 6, _ next: () throws -> Data?) throws -> Data {
    let stream = try DeflateStream(level: level)
    while let input = try next() { try input.withUnsafeBytes { try stream.append($0) } }
    return try stream.finish()
  }
}

/// Raw deflate fed piece by piece: a document is deflated as it is written, by whichever core
/// writes it. zlib's output does not depend on how the input is cut. The output is kept in memory,
/// or written as it comes to a file (a document's deflated copy, which would otherwise be held
/// until the archive takes it: 3 MB for the reference workload, growing with the session).
final class DeflateStream {
  private var stream = z_stream()
  private var output = Data()
  private let file: SequentialFileOutput?
  private var written: UInt64 = 0
  private var chunk = [UInt8](repeating: 0, count: 1 << 16)
  private var finished = false

  init(level: Int32, into file: SequentialFileOutput? = nil) throws {
    self.file = file
    guard
      deflateInit2_(
        &stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
        Int32(MemoryLayout<z_stream>.size)) == Z_OK
    else {
      throw EvidenceWriteError("zlib could not start deflating")
    }
  }

  deinit { deflateEnd(&stream) }

  func append(_ input: UnsafeRawBufferPointer) throws { try pump(input, flush: Z_NO_FLUSH) }

  /// Everything deflated, the stream ended: the bytes, when they were kept in memory.
  func finish() throws -> Data {
    try end()
    return output
  }

  /// Everything deflated, the stream ended: how many bytes went to the file.
  func finishFile() throws -> UInt64 {
    try end()
    return written
  }

  private func end() throws {
    if !finished {
      try pump(UnsafeRawBufferPointer(start: nil, count: 0), flush: Z_FINISH)
      finished = true
    }
  }

  private func pump(_ input: UnsafeRawBufferPointer, flush: Int32) throws {
    stream.next_in = UnsafeMutablePointer(
      mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
    stream.avail_in = uInt(input.count)
    repeat {
      let produced: Int = try chunk.withUnsafeMutableBufferPointer { buffer in
        stream.next_out = buffer.baseAddress
        stream.avail_out = uInt(buffer.count)
        let rc = deflate(&stream, flush)
        guard rc == Z_OK || rc == Z_STREAM_END || rc == Z_BUF_ERROR else {
          throw EvidenceWriteError("zlib failed while deflating (\(rc))")
        }
        return buffer.count - Int(stream.avail_out)
      }
      if let file {
        if produced > 0 {
          try chunk.withUnsafeBytes {
            try file.write(UnsafeRawBufferPointer(rebasing: $0[0..<produced]))
          }
        }
        written += UInt64(produced)
      } else {
        output.append(contentsOf: chunk[0..<produced])
      }
    } while stream.avail_out == 0
  }
}
