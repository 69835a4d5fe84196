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
  /// Whether files are written past the page cache (SequentialFileOutput).
  private let direct: Bool
  private var output: SequentialFileOutput?
  /// The record being made: its header and bytes, appended in place.
  private var record: [UInt8] = []
  public private(set) var currentSequence: UInt32?
  /// Bytes of the current file, written and buffered.
  private var fileLength: UInt64 = 0
  /// Whether the current file holds any record yet.
  public var currentFileHasRecords: Bool {
    output != nil && fileLength > UInt64(PcapFormat.globalHeaderLength)
  }

  public init(
    directory: URL, rotationBytes: UInt64 = PcapWriter.defaultRotationBytes,
    snaplen: UInt32 = PcapFormat.defaultSnaplen, direct: Bool = true,
    nextSequence: @escaping () throws -> UInt32
  ) {
    self.directory = directory
    self.rotationBytes = rotationBytes
    self.snaplen = snaplen
    self.direct = direct
    self.nextSequence = nextSequence
    record.reserveCapacity(PcapFormat.recordHeaderLength + Int(snaplen))
  }

  deinit { try? close() }

  /// Writes one IP datagram stamped `date`; returns where its record is.
  @discardableResult
  public func write(_ datagram: some ContiguousBytes, at date: Date) throws -> CaptureLocation {
    try datagram.withUnsafeBytes { try write(datagram: $0, at: date) }
  }

  private func write(datagram: UnsafeRawBufferPointer, at date: Date) throws -> CaptureLocation {
    let captured = UInt32(min(datagram.count, Int(snaplen)))
    let recordLength = UInt64(PcapFormat.recordHeaderLength) + UInt64(captured)
    if output == nil
      || (fileLength + recordLength > rotationBytes
        && fileLength > UInt64(PcapFormat.globalHeaderLength))
    {
      try rotate()
    }
    let offset = fileLength
    let micros = Instant.microseconds(date)
    record.removeAll(keepingCapacity: true)
    record.appendInteger(UInt32(truncatingIfNeeded: micros / 1_000_000), endianness: .little)
    record.appendInteger(UInt32(truncatingIfNeeded: micros % 1_000_000), endianness: .little)
    record.appendInteger(captured, endianness: .little)
    record.appendInteger(UInt32(truncatingIfNeeded: datagram.count), endianness: .little)
    record.append(contentsOf: datagram.prefix(Int(captured)))
    try write(record)
    fileLength += recordLength
    return CaptureLocation(fileSequence: currentSequence!, offset: offset)
  }

  /// Closes the current file and opens the next sequence.
  public func rotate() throws {
    try close()
    let sequence = try nextSequence()
    let url = directory.appendingPathComponent(CaptureFileName.of(sequence: sequence))
    switch SequentialFileOutput.create(path: url.path, direct: direct) {
    case .success(let output): self.output = output
    case .failure(let errno): throw WriterError.cannotCreate("\(url.path): \(errno)")
    }
    currentSequence = sequence
    let header = PcapFormat.globalHeader(snaplen: snaplen)
    try write(header)
    fileLength = UInt64(header.count)
  }

  private func write(_ bytes: some ContiguousBytes) throws {
    do { try bytes.withUnsafeBytes { try output?.write($0) } } catch {
      throw WriterError.writeFailed("\(error)")
    }
  }

  /// Every record written so far is in the file, for another process to read.
  public func flush() throws {
    do { try output?.push() } catch { throw WriterError.writeFailed(error.description) }
  }

  public func close() throws {
    guard let output else { return }
    self.output = nil
    do { try output.finish() } catch { throw WriterError.writeFailed(error.description) }
  }
}
