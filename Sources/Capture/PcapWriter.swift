import Audit
import AuditRules
import AuditWording
import Bytes
import Crypto
import Foundation
import SystemCalls

/// Writes the store's captures: classic pcap, LINKTYPE_RAW, rotated by size. Returns for each
/// packet the file sequence and byte offset of its record. Sequences come from `nextSequence`
/// (the store's claim), so a sequence is never reused, not even after the newest file was deleted.
public final class PcapWriter {
  public enum WriterError: Error, Sendable, Hashable, CustomStringConvertible {
    case cannotCreate(String)
    case writeFailed(String)
    public var description: String {
      switch self {
      case .cannotCreate(let reason): return "A capture file could not be created: \(reason)."
      case .writeFailed(let reason): return "A capture file could not be written: \(reason)."
      }
    }
  }

  public static let defaultRotationBytes: UInt64 = 64 * 1024 * 1024

  public let directory: URL
  public let rotationBytes: UInt64
  public let snaplen: UInt32
  private let nextSequence: () throws -> UInt32
  private var handle: FileHandle?
  /// Records not yet written: bytes appended in place (a `Data` took a fifth of an import's
  /// writing in its small appends).
  private var buffer: [UInt8] = []
  private let bufferLimit = 1 << 20
  public private(set) var currentSequence: UInt32?
  /// Bytes of the current file, written and buffered.
  private var fileLength: UInt64 = 0
  /// Whether the current file holds any record yet.
  public var currentFileHasRecords: Bool {
    handle != nil && fileLength > UInt64(PcapFormat.globalHeaderLength)
  }

  public init(
    directory: URL, rotationBytes: UInt64 = PcapWriter.defaultRotationBytes,
    snaplen: UInt32 = PcapFormat.defaultSnaplen, nextSequence: @escaping () throws -> UInt32
  ) {
    self.directory = directory
    self.rotationBytes = rotationBytes
    self.snaplen = snaplen
    self.nextSequence = nextSequence
  }

  deinit { try? close() }

  /// Writes one IP datagram stamped `date`; returns where its record is.
  @discardableResult
  public func write(_ datagram: Data, at date: Date) throws -> CaptureLocation {
    let captured = UInt32(min(datagram.count, Int(snaplen)))
    let recordLength = UInt64(PcapFormat.recordHeaderLength) + UInt64(captured)
    if handle == nil
      || (fileLength + recordLength > rotationBytes
        && fileLength > UInt64(PcapFormat.globalHeaderLength))
    {
      try rotate()
    }
    let offset = fileLength
    let micros = Instant.microseconds(date)
    buffer.appendInteger(UInt32(truncatingIfNeeded: micros / 1_000_000), endianness: .little)
    buffer.appendInteger(UInt32(truncatingIfNeeded: micros % 1_000_000), endianness: .little)
    buffer.appendInteger(captured, endianness: .little)
    buffer.appendInteger(UInt32(truncatingIfNeeded: datagram.count), endianness: .little)
    datagram.withUnsafeBytes { buffer.append(contentsOf: $0.prefix(Int(captured))) }
    fileLength += recordLength
    if buffer.count >= bufferLimit { try flush() }
    return CaptureLocation(fileSequence: currentSequence!, offset: offset)
  }

  /// Closes the current file and opens the next sequence.
  public func rotate() throws {
    try close()
    let sequence = try nextSequence()
    let url = directory.appendingPathComponent(CaptureFileName.of(sequence: sequence))
    guard FileManager.default.createFile(atPath: url.path, contents: nil),
      let handle = FileHandle(forWritingAtPath: url.path)
    else {
      throw WriterError.cannotCreate(url.path)
    }
    self.handle = handle
    currentSequence = sequence
    buffer.removeAll(keepingCapacity: true)
    buffer.reserveCapacity(bufferLimit + Int(PcapFormat.recordHeaderLength) + Int(snaplen))
    buffer.append(contentsOf: PcapFormat.globalHeader(snaplen: snaplen))
    fileLength = UInt64(buffer.count)
  }

  public func flush() throws {
    guard let handle, !buffer.isEmpty else { return }
    var written = 0
    while written < buffer.count {
      let wrote = valueOrErrno {
        buffer.withUnsafeBytes {
          Glibc.write(handle.fileDescriptor, $0.baseAddress! + written, $0.count - written)
        }
      }
      switch wrote {
      case .success(let count): written += count
      case .failure(let errno): throw WriterError.writeFailed(errno.description)
      }
    }
    buffer.removeAll(keepingCapacity: true)
  }

  public func close() throws {
    try flush()
    try handle?.close()
    handle = nil
  }
}
