import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Bytes
import Capture
import Crypto
import Foundation
import SystemCalls

/// Writes a ZIP (PKWARE APPNOTE 6.3) deterministically: entries in the order given, every
/// timestamp the one passed in, each stored or deflated by whichever is smaller, ZIP64 where a
/// size or offset needs it.
public enum ZipArchiveWriter {
  public struct Entry: Sendable {
    public let name: String
    public let url: URL
    /// The file's CRC-32 when it is already known (computed while the file was written).
    public let crc32: UInt32?
    /// The file already deflated (with `crc32`): stored or deflated by whichever is smaller, no probe.
    public let deflated: DeflatedFile?
    /// Only these bytes of the file (with `crc32`), stored: an entry copied out of another archive.
    public let range: Range<UInt64>?
    public init(
      name: String, url: URL, crc32: UInt32? = nil, deflated: DeflatedFile? = nil,
      range: Range<UInt64>? = nil
    ) {
      self.name = name
      self.url = url
      self.crc32 = crc32
      self.deflated = deflated
      self.range = range
    }
  }

  public enum Method: UInt16, Sendable {
    case stored = 0
    case deflated = 8
  }

  /// The probe: an entry whose first 256 KiB do not shrink by a fifth is stored without
  /// deflating the rest. A capture of encrypted traffic shrinks by a few per cent (its block
  /// headers and comments), which does not pay for the seconds deflating 229 MB takes (zlib runs
  /// at some 27 MB/s on such bytes) nor for holding the result; otherwise the entry is deflated
  /// whole, and stored anyway if that came out larger.
  static let probeLength = 256 * 1024
  /// zlib's fastest level: on the documents (JSON, CSV, the PDF) it runs 2.5–3.5 times faster
  /// than the default level 6 for an archive about 0.3 % larger (flows.json of the reference
  /// workload: 1.49 MB instead of 0.99 MB, in 0.07 s instead of 0.16 s).
  static let deflateLevel: Int32 = 1
  static let worthDeflating = 0.8
  static let chunk = 4 << 20

  /// Whether the first bytes of an entry shrink enough for deflating the rest to pay.
  static func probeSaysDeflate(_ probe: Data) -> Bool {
    guard !probe.isEmpty else { return false }
    var probed = false
    guard
      let out = try? Deflate.compress(
        level: deflateLevel,
        {
          defer { probed = true }
          return probed ? nil : probe
        })
    else { return false }
    return Double(out.count) < Double(probe.count) * worthDeflating
  }

  /// Writes the archive to `url` (a temporary name, renamed at the end). Returns each entry's method.
  @discardableResult
  public static func write(
    _ entries: [Entry], to url: URL, modified: Date, zip64Threshold: UInt64 = 0xFFFF_FFFF
  ) throws -> [Method] {
    let archive = try Archive(url: url, modified: modified, zip64Threshold: zip64Threshold)
    do {
      for entry in entries { try archive.add(entry) }
      try archive.finish()
    } catch {
      archive.abandon()
      throw error
    }
    return archive.methods
  }

  /// An archive written entry by entry, so that the first entries can be written while a later
  /// one is still being made. Nothing is at `url` until `finish()` renames it there.
  public final class Archive {
    /// The archive is the one file written at length (the capture and every document again):
    /// four times the default's bytes a write, a quarter of the writes, for 1.5 MiB held.
    static let bufferCapacity = 1 << 20
    let url: URL
    let partial: URL
    let out: SequentialFileOutput
    let time: UInt16, date: UInt16
    let zip64Threshold: UInt64
    var offset: UInt64 = 0
    var central = Data()
    var count: UInt64 = 0
    public private(set) var methods: [Method] = []

    public init(url: URL, modified: Date, zip64Threshold: UInt64 = 0xFFFF_FFFF) throws {
      self.url = url
      partial = AtomicRename.partialName(for: url)
      out = try EvidenceFileWriter.create(partial, shown: url, capacity: Self.bufferCapacity)
      (time, date) = ZipArchiveWriter.dosTimeAndDate(modified)
      self.zip64Threshold = zip64Threshold
    }

    /// Removes what was written; nothing is left.
    public func abandon() {
      out.close()
      try? FileManager.default.removeItem(at: partial)
    }

    public func add(_ entry: Entry) throws {
      do { try write(entry) } catch {
        throw error as? EvidenceWriteError
          ?? EvidenceWriteError(
            "\(url.lastPathComponent) could not be written: \(SystemErrorText.reason(error))")
      }
    }

    func write(_ entry: Entry) throws {
      precondition(open == nil, "an entry is still being streamed into the archive")
      guard let input = FileHandle(forReadingAtPath: entry.url.path) else {
        throw EvidenceWriteError("\(entry.name) could not be read")
      }
      defer { try? input.close() }
      if let range = entry.range, let crc = entry.crc32 {
        let header = localHeader(
          entry.name, .stored, crc: crc, size: UInt64(range.count),
          compressedSize: UInt64(range.count),
          sizes64: UInt64(range.count) >= zip64Threshold)
        try write(header)
        try copy(from: input, at: range.lowerBound, count: UInt64(range.count), to: out)
        record(
          entry.name, .stored, crc: crc, size: UInt64(range.count),
          compressedSize: UInt64(range.count), headerLength: header.count)
        return
      }
      let size = try input.seekToEnd()
      try input.seek(toOffset: 0)
      // CRC over the whole file unless it is known, and the probe.
      var crc: UInt32 = entry.crc32 ?? 0
      var probe = Data()
      if entry.crc32 == nil {
        while let data = try input.read(upToCount: chunk), !data.isEmpty {
          crc = Deflate.crc32(crc, data)
          if probe.count < probeLength { probe.append(data.prefix(probeLength - probe.count)) }
        }
      } else if entry.deflated == nil {
        probe = try input.read(upToCount: probeLength) ?? Data()
      }
      var method = Method.stored
      var compressed: Data?
      var deflatedFile: DeflatedFile?
      if let deflated = entry.deflated, entry.crc32 != nil {
        if deflated.count < size {
          method = .deflated
          deflatedFile = deflated
        }
      } else if size > 0, ZipArchiveWriter.probeSaysDeflate(probe) {
        try input.seek(toOffset: 0)
        let whole = try Deflate.compress(level: deflateLevel) {
          let d = try input.read(upToCount: chunk)
          return (d?.isEmpty ?? true) ? nil : d
        }
        if UInt64(whole.count) < size {
          method = .deflated
          compressed = whole
        }
      }
      let compressedSize = deflatedFile?.count ?? compressed.map { UInt64($0.count) } ?? size
      let header = localHeader(
        entry.name, method, crc: crc, size: size, compressedSize: compressedSize,
        sizes64: size >= zip64Threshold || compressedSize >= zip64Threshold)
      try write(header)
      if let deflatedFile {
        guard let deflatedInput = FileHandle(forReadingAtPath: deflatedFile.url.path) else {
          throw EvidenceWriteError("\(deflatedFile.url.lastPathComponent) could not be read")
        }
        defer { try? deflatedInput.close() }
        try copy(from: deflatedInput, at: 0, count: deflatedFile.count, to: out)
      } else if let compressed {
        try write(compressed)
      } else {
        try copy(from: input, at: 0, count: size, to: out)
      }
      record(
        entry.name, method, crc: crc, size: size, compressedSize: compressedSize,
        headerLength: header.count)
    }

    /// The local header. It carries both sizes in its ZIP64 extra when `sizes64`.
    func localHeader(
      _ name: String, _ method: Method, crc: UInt32, size: UInt64, compressedSize: UInt64,
      sizes64: Bool
    ) -> Data {
      let name = Data(name.utf8)
      let needs64 = sizes64 || offset >= zip64Threshold
      var local = Data()
      local.appendInteger(UInt32(0x0403_4b50), endianness: .little)
      local.appendInteger(UInt16(needs64 ? 45 : 20), endianness: .little)
      local.appendInteger(UInt16(1 << 11), endianness: .little)
      local.appendInteger(method.rawValue, endianness: .little)
      local.appendInteger(time, endianness: .little)
      local.appendInteger(date, endianness: .little)
      local.appendInteger(crc, endianness: .little)
      local.appendInteger(sizes64 ? UInt32.max : UInt32(compressedSize), endianness: .little)
      local.appendInteger(sizes64 ? UInt32.max : UInt32(size), endianness: .little)
      local.appendInteger(UInt16(name.count), endianness: .little)
      local.appendInteger(UInt16(sizes64 ? 20 : 0), endianness: .little)
      local.append(name)
      if sizes64 {
        local.appendInteger(UInt16(1), endianness: .little)
        local.appendInteger(UInt16(16), endianness: .little)
        local.appendInteger(size, endianness: .little)
        local.appendInteger(compressedSize, endianness: .little)
      }
      return local
    }

    /// The central record of the entry just written at `offset`, and the offset moved past it.
    /// Only the fields that overflowed go into its ZIP64 extra, in order.
    func record(
      _ entryName: String, _ method: Method, crc: UInt32, size: UInt64, compressedSize: UInt64,
      headerLength: Int
    ) {
      let name = Data(entryName.utf8)
      let sizeOver = size >= zip64Threshold
      let compressedOver = compressedSize >= zip64Threshold
      let offsetOver = offset >= zip64Threshold
      let needs64 = sizeOver || compressedOver || offsetOver
      var extra = Data()
      if needs64 {
        var fields = Data()
        if sizeOver { fields.appendInteger(size, endianness: .little) }
        if compressedOver { fields.appendInteger(compressedSize, endianness: .little) }
        if offsetOver { fields.appendInteger(offset, endianness: .little) }
        extra.appendInteger(UInt16(1), endianness: .little)
        extra.appendInteger(UInt16(fields.count), endianness: .little)
        extra.append(fields)
      }
      central.appendInteger(UInt32(0x0201_4b50), endianness: .little)
      central.appendInteger(UInt16(3 << 8 | 45), endianness: .little)
      central.appendInteger(UInt16(needs64 ? 45 : 20), endianness: .little)
      central.appendInteger(UInt16(1 << 11), endianness: .little)
      central.appendInteger(method.rawValue, endianness: .little)
      central.appendInteger(time, endianness: .little)
      central.appendInteger(date, endianness: .little)
      central.appendInteger(crc, endianness: .little)
      central.appendInteger(
        compressedOver ? UInt32.max : UInt32(compressedSize), endianness: .little)
      central.appendInteger(sizeOver ? UInt32.max : UInt32(size), endianness: .little)
      central.appendInteger(UInt16(name.count), endianness: .little)
      central.appendInteger(UInt16(extra.count), endianness: .little)
      central.appendInteger(UInt16(0), endianness: .little)
      central.appendInteger(UInt16(0), endianness: .little)
      central.appendInteger(UInt16(0), endianness: .little)
      central.appendInteger(UInt32(0o100644) << 16, endianness: .little)
      central.appendInteger(offsetOver ? UInt32.max : UInt32(offset), endianness: .little)
      central.append(name)
      central.append(extra)
      offset += UInt64(headerLength) + compressedSize
      count += 1
      methods.append(method)
    }

    /// An entry written into the archive as it is made, stored: its header goes first with the
    /// CRC-32 and sizes left open, and is written again in place once they are known. Its
    /// header carries ZIP64 sizes when `sizeBound` (the most it can hold) reaches 4 GiB.
    public struct OpenEntry: Sendable {
      public let name: String
      public let headerOffset: UInt64
      public let sizes64: Bool
      /// Where its bytes start in the archive.
      public let dataOffset: UInt64
    }
    private var open: OpenEntry?

    /// Starts a stored entry: its bytes are then written to `output`, then `finishStoredEntry`.
    public func beginStoredEntry(name: String, sizeBound: UInt64) throws -> OpenEntry {
      precondition(open == nil, "an entry is still being streamed into the archive")
      let sizes64 = sizeBound >= zip64Threshold
      let header = localHeader(name, .stored, crc: 0, size: 0, compressedSize: 0, sizes64: sizes64)
      try write(header)
      let entry = OpenEntry(
        name: name, headerOffset: offset, sizes64: sizes64,
        dataOffset: offset + UInt64(header.count))
      open = entry
      return entry
    }

    /// The archive's file, where an open entry's bytes go.
    public var output: SequentialFileOutput { out }

    func write(_ data: Data) throws { try data.withUnsafeBytes { try out.write($0) } }

    /// Everything written so far put in the file, which is closed: the archive is read, not
    /// written, from here on (a first archive whose capture entry a second one copies).
    public func settle() throws { try out.finish() }

    /// Finishes the stored entry `writer` wrote (its `finishFile()` result): the header is
    /// written again with the CRC-32 and sizes.
    public func finishStoredEntry(_ written: WrittenFile) throws {
      guard let entry = open else { preconditionFailure("no entry is being streamed") }
      let size = written.entry.byteCount
      guard entry.sizes64 || size < zip64Threshold else {
        throw EvidenceWriteError("\(entry.name) grew past the size its archive header was made for")
      }
      let header = localHeader(
        entry.name, .stored, crc: written.crc32, size: size, compressedSize: size,
        sizes64: entry.sizes64)
      do { try header.withUnsafeBytes { try out.overwrite($0, at: entry.headerOffset) } } catch {
        throw EvidenceWriteError("\(entry.name)'s header could not be written: \(error)")
      }
      open = nil
      record(
        entry.name, .stored, crc: written.crc32, size: size, compressedSize: size,
        headerLength: header.count)
    }

    /// Writes the central directory and the end records, and renames the archive into place.
    public func finish() throws {
      precondition(open == nil, "an entry is still being streamed into the archive")
      let centralOffset = offset
      try write(central)
      let needs64 =
        centralOffset >= zip64Threshold || UInt64(central.count) >= zip64Threshold
        || count >= 0xFFFF
      var end = Data()
      if needs64 {
        let recordOffset = centralOffset + UInt64(central.count)
        end.appendInteger(UInt32(0x0606_4b50), endianness: .little)
        end.appendInteger(UInt64(44), endianness: .little)
        end.appendInteger(UInt16(3 << 8 | 45), endianness: .little)
        end.appendInteger(UInt16(45), endianness: .little)
        end.appendInteger(UInt32(0), endianness: .little)
        end.appendInteger(UInt32(0), endianness: .little)
        end.appendInteger(count, endianness: .little)
        end.appendInteger(count, endianness: .little)
        end.appendInteger(UInt64(central.count), endianness: .little)
        end.appendInteger(centralOffset, endianness: .little)
        end.appendInteger(UInt32(0x0706_4b50), endianness: .little)
        end.appendInteger(UInt32(0), endianness: .little)
        end.appendInteger(recordOffset, endianness: .little)
        end.appendInteger(UInt32(1), endianness: .little)
      }
      end.appendInteger(UInt32(0x0605_4b50), endianness: .little)
      end.appendInteger(UInt16(0), endianness: .little)
      end.appendInteger(UInt16(0), endianness: .little)
      end.appendInteger(UInt16(min(count, 0xFFFF)), endianness: .little)
      end.appendInteger(UInt16(min(count, 0xFFFF)), endianness: .little)
      end.appendInteger(needs64 ? UInt32.max : UInt32(central.count), endianness: .little)
      end.appendInteger(needs64 ? UInt32.max : UInt32(centralOffset), endianness: .little)
      end.appendInteger(UInt16(0), endianness: .little)
      try write(end)
      try out.finish()
      do { try AtomicRename.rename(partial, to: url) } catch {
        try? FileManager.default.removeItem(at: partial)
        throw EvidenceWriteError(error.description)
      }
    }
  }

  /// A stored entry's bytes, read from one file straight into the archive's buffer.
  static func copy(
    from input: FileHandle, at start: UInt64, count: UInt64, to out: SequentialFileOutput
  ) throws {
    guard try out.copy(from: input.fileDescriptor, at: start, count: count) == count else {
      throw EvidenceWriteError("a file ended while it was being copied into the archive")
    }
  }

  /// MS-DOS time and date of an instant, in UTC: its seven bits of years run from 1980 to 2107, so
  /// an instant outside them is written as the nearest end (the exact instant is in the manifest).
  static func dosTimeAndDate(_ date: Date) -> (UInt16, UInt16) {
    let seconds = date.timeIntervalSince1970.rounded(.down)
    let first: Int64 = 315_532_800
    let last: Int64 = 4_354_819_198  // 1980-01-01T00:00:00Z, 2107-12-31T23:59:58Z
    let within = seconds >= Double(last) ? last : seconds > Double(first) ? Int64(seconds) : first
    let c = CivilTime(secondsSinceEpoch: within)
    let time = UInt16(c.hour << 11 | c.minute << 5 | c.second / 2)
    let day = UInt16((c.year - 1980) << 9 | c.month << 5 | c.day)
    return (time, day)
  }
}
