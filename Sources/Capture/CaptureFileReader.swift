import Audit
import AuditRules
import AuditWording
import Bytes
import Crypto
import Foundation
import SystemCalls

/// One capture file opened for reading records at given offsets (`pread`): the header once,
/// then per record a 16-byte header and incl_len bytes, bounded by the snaplen first.
public final class CaptureFileReader {
  public let sequence: UInt32
  public let snaplen: UInt32
  public let fileSize: UInt64
  private let descriptor: Int32
  private let order: Endianness
  private let nanoseconds: Bool

  public init(url: URL, sequence: UInt32) throws(CaptureLibraryError) {
    self.sequence = sequence
    let opened = valueOrErrno { open(url.path, O_RDONLY) }
    guard case .success(let fd) = opened else {
      if opened == .failure(.noSuchFileOrDirectory) { throw .notFound(sequence) }
      throw .containerUnavailable("\(url.path): \(opened.errorText)")
    }
    descriptor = fd
    var info = stat()
    fstat(fd, &info)
    fileSize = UInt64(info.st_size)
    var header = [UInt8](repeating: 0, count: PcapFormat.globalHeaderLength)
    let got = pread(fd, &header, header.count, 0)
    guard got == header.count else {
      close(fd)
      throw .recordUnreadable(.notACapture(reason: "shorter than a pcap header"))
    }
    switch header.integer(at: 0, endianness: .little, as: UInt32.self) {
    case PcapFormat.magicMicroseconds:
      order = .little
      nanoseconds = false
    case PcapFormat.magicNanoseconds:
      order = .little
      nanoseconds = true
    case PcapFormat.magicMicroseconds.byteSwapped:
      order = .big
      nanoseconds = false
    case PcapFormat.magicNanoseconds.byteSwapped:
      order = .big
      nanoseconds = true
    default:
      close(fd)
      throw .recordUnreadable(.notACapture(reason: "no pcap magic"))
    }
    let snap = header.integer(at: 16, endianness: order, as: UInt32.self)!
    snaplen = snap == 0 || snap > PcapFormat.maximumSnaplen ? PcapFormat.maximumSnaplen : snap
  }

  deinit {
    close(descriptor)
    window.deallocate()
  }

  /// Records are read through a window of the file: reading a session's packets by ascending
  /// offset takes one `pread` per MiB instead of two per packet. The window is the reader's own
  /// memory, not an array: a record is read in place millions of times per export.
  private var window = UnsafeMutableRawBufferPointer(start: nil, count: 0)
  /// How many of the window's bytes hold the file's, from `windowStart`.
  private var windowCount = 0
  private var windowStart: UInt64 = 0
  /// The window starts small (one record read alone costs little) and doubles up to 1 MiB: a
  /// larger one falls out of the CPU's caches and costs more than the calls it saves.
  private var windowSize = 64 << 10
  static let maximumWindow = 1 << 20

  /// Makes sure `count` bytes at `offset` lie in the window; false if the file ends first.
  private func load(_ count: Int, at offset: UInt64) -> Bool {
    if offset < windowStart || offset + UInt64(count) > windowStart + UInt64(windowCount) {
      let length = Int(min(UInt64(max(windowSize, count)), fileSize - min(offset, fileSize)))
      windowSize = min(windowSize * 2, Self.maximumWindow)
      if length > window.count {
        window.deallocate()
        window = .allocate(byteCount: length, alignment: 16)
      }
      let got = pread(descriptor, window.baseAddress, length, off_t(offset))
      guard got == length else {
        windowCount = 0
        return false
      }
      windowStart = offset
      windowCount = length
    }
    return offset + UInt64(count) <= windowStart + UInt64(windowCount)
  }

  /// Where a record lies in the reader's window, with its original length and time: its bytes
  /// are read in place (`withBytes`) until the reader is asked for another record.
  public struct RecordSpan {
    public let originalLength: UInt32
    public let microseconds: UInt64
    fileprivate let start: Int, count: Int
  }

  /// The record at `offset`, checked against the file and the snaplen, in the window.
  public func locate(at offset: UInt64) throws(CaptureLibraryError) -> RecordSpan {
    guard offset >= UInt64(PcapFormat.globalHeaderLength) else {
      throw .recordUnreadable(.offsetInsideHeader(offset))
    }
    guard offset < fileSize else { throw .recordUnreadable(.offsetPastEnd(offset)) }
    let headerLength = PcapFormat.recordHeaderLength
    guard load(headerLength, at: offset) else { throw .recordUnreadable(.recordCutShort(offset)) }
    // The header's four fields, read in place (`load` made sure the window holds them).
    let raw = UnsafeRawBufferPointer(
      rebasing: window[Int(offset - windowStart)..<windowCount])
    let field = { (at: Int) in raw.integer(at: at, endianness: self.order, as: UInt32.self)! }
    let (seconds, fraction, included, original) = (field(0), field(4), field(8), field(12))
    guard included <= snaplen else {
      throw .recordUnreadable(
        .recordLargerThanSnaplen(offset: offset, length: included, snaplen: snaplen))
    }
    guard offset + UInt64(headerLength) + UInt64(included) <= fileSize,
      load(headerLength + Int(included), at: offset)
    else {
      throw .recordUnreadable(.recordCutShort(offset))
    }
    return RecordSpan(
      originalLength: original,
      microseconds: UInt64(seconds) * 1_000_000
        + (nanoseconds ? UInt64(fraction) / 1_000 : UInt64(fraction)),
      start: Int(offset - windowStart) + headerLength, count: Int(included))
  }

  /// The bytes of the record `locate` found last.
  public func withBytes<R>(of span: RecordSpan, _ body: (UnsafeRawBufferPointer) throws -> R)
    rethrows -> R
  {
    try body(bytes(of: span))
  }

  /// The record's bytes where they lie in the window: valid until the reader next reads (a
  /// `locate`) or goes. Not a closure: slicing takes every record of a session, and a generic
  /// call from another module retained what its closure captured each time.
  public func bytes(of span: RecordSpan) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(rebasing: window[span.start..<span.start + span.count])
  }

  public func record(at offset: UInt64) throws(CaptureLibraryError) -> CaptureRecord {
    let span = try locate(at: offset)
    return CaptureRecord(
      location: CaptureLocation(fileSequence: sequence, offset: offset),
      bytes: withBytes(of: span) { Data($0) },
      originalLength: span.originalLength, timestampMicroseconds: span.microseconds)
  }
}
