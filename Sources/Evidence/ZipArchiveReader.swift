import CZlib
import Foundation

/// Reads a ZIP's central directory (ZIP64 too) and streams each entry's bytes, checking its
/// CRC-32. What `verify` opens an archive an auditor received with.
public final class ZipArchiveReader {
  public struct Entry: Sendable, Hashable {
    public let name: String
    public let method: UInt16
    public let crc32: UInt32
    public let compressedSize: UInt64
    public let size: UInt64
    public let localHeaderOffset: UInt64
  }

  public let url: URL
  public let entries: [Entry]
  private let handle: FileHandle
  private let fileSize: UInt64

  public init(url: URL) throws {
    self.url = url
    if (try? url.resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory == true {
      throw EvidenceWriteError("\(url.path) is a directory, not a ZIP archive")
    }
    guard let handle = FileHandle(forReadingAtPath: url.path) else {
      throw EvidenceWriteError("\(url.path) cannot be opened")
    }
    self.handle = handle
    fileSize = try handle.seekToEnd()
    let tailLength = min(fileSize, 65_557)
    try handle.seek(toOffset: fileSize - tailLength)
    let tail = [UInt8](try handle.read(upToCount: Int(tailLength)) ?? Data())
    guard
      let eocd = stride(from: tail.count - 22, through: 0, by: -1).first(where: {
        Self.u32(tail, $0) == 0x0605_4b50
      })
    else {
      throw EvidenceWriteError(
        "\(url.lastPathComponent) is not a ZIP archive: no end of central directory")
    }
    var count = UInt64(Self.u16(tail, eocd + 10))
    var directorySize = UInt64(Self.u32(tail, eocd + 12))
    var directoryOffset = UInt64(Self.u32(tail, eocd + 16))
    if eocd >= 20, Self.u32(tail, eocd - 20) == 0x0706_4b50 {
      let recordOffset = Self.u64(tail, eocd - 20 + 8)
      try handle.seek(toOffset: recordOffset)
      let record = [UInt8](try handle.read(upToCount: 56) ?? Data())
      guard record.count == 56, Self.u32(record, 0) == 0x0606_4b50 else {
        throw EvidenceWriteError("the ZIP64 end record is damaged")
      }
      count = Self.u64(record, 32)
      directorySize = Self.u64(record, 40)
      directoryOffset = Self.u64(record, 48)
    }
    guard directoryOffset + directorySize <= fileSize, directorySize < 64 << 20, count < 100_000
    else {
      throw EvidenceWriteError("the central directory lies outside the archive")
    }
    try handle.seek(toOffset: directoryOffset)
    let directory = [UInt8](try handle.read(upToCount: Int(directorySize)) ?? Data())
    var entries: [Entry] = []
    var at = 0
    for _ in 0..<count {
      guard at + 46 <= directory.count, Self.u32(directory, at) == 0x0201_4b50 else {
        throw EvidenceWriteError("the central directory is damaged")
      }
      let nameLength = Int(Self.u16(directory, at + 28))
      let extraLength = Int(Self.u16(directory, at + 30))
      let commentLength = Int(Self.u16(directory, at + 32))
      guard at + 46 + nameLength + extraLength + commentLength <= directory.count else {
        throw EvidenceWriteError("the central directory is damaged")
      }
      var compressed = UInt64(Self.u32(directory, at + 20))
      var size = UInt64(Self.u32(directory, at + 24))
      var offset = UInt64(Self.u32(directory, at + 42))
      var extra = at + 46 + nameLength
      let extraEnd = extra + extraLength
      while extra + 4 <= extraEnd {
        let id = Self.u16(directory, extra)
        let length = Int(Self.u16(directory, extra + 2))
        if id == 1 {
          var field = extra + 4
          if size == 0xFFFF_FFFF {
            size = Self.u64(directory, field)
            field += 8
          }
          if compressed == 0xFFFF_FFFF {
            compressed = Self.u64(directory, field)
            field += 8
          }
          if offset == 0xFFFF_FFFF { offset = Self.u64(directory, field) }
        }
        extra += 4 + length
      }
      let name = String(decoding: directory[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self)
      entries.append(
        Entry(
          name: name, method: Self.u16(directory, at + 10), crc32: Self.u32(directory, at + 16),
          compressedSize: compressed, size: size, localHeaderOffset: offset))
      at += 46 + nameLength + extraLength + commentLength
    }
    self.entries = entries
  }

  deinit { try? handle.close() }

  static func u16(_ b: [UInt8], _ i: Int) -> UInt16 { UInt16(b[i]) | UInt16(b[i + 1]) << 8 }
  static func u32(_ b: [UInt8], _ i: Int) -> UInt32 {
    UInt32(u16(b, i)) | UInt32(u16(b, i + 2)) << 16
  }
  static func u64(_ b: [UInt8], _ i: Int) -> UInt64 {
    UInt64(u32(b, i)) | UInt64(u32(b, i + 4)) << 32
  }

  /// Hands the entry's bytes over in chunks; throws if the CRC-32 or the size is not what the directory says.
  public func read(_ entry: Entry, _ body: (Data) throws -> Void) throws {
    let stream = try self.stream(entry)
    while let chunk = try stream.next() { try body(chunk) }
  }

  /// The entry's bytes, pulled a piece at a time (at most 1 MiB) on a file handle of the
  /// stream's own: verify reads flows.csv's rows alongside flows.json so.
  public func stream(_ entry: Entry) throws -> EntryStream {
    guard let input = FileHandle(forReadingAtPath: url.path) else {
      throw EvidenceWriteError("\(url.path) cannot be opened")
    }
    try input.seek(toOffset: entry.localHeaderOffset)
    let local = [UInt8](try input.read(upToCount: 30) ?? Data())
    guard local.count == 30, Self.u32(local, 0) == 0x0403_4b50 else {
      throw EvidenceWriteError("\(entry.name): its local header is damaged")
    }
    let dataOffset =
      entry.localHeaderOffset + 30 + UInt64(Self.u16(local, 26)) + UInt64(Self.u16(local, 28))
    guard dataOffset + entry.compressedSize <= fileSize else {
      throw EvidenceWriteError("\(entry.name): its data runs past the end of the archive")
    }
    guard entry.method == 0 || entry.method == 8 else {
      throw EvidenceWriteError(
        "\(entry.name) uses compression method \(entry.method), which is neither stored nor deflate"
      )
    }
    try input.seek(toOffset: dataOffset)
    return try EntryStream(entry, input)
  }

  /// An entry's bytes as they are asked for: read (and inflated) a piece at a time, counted and
  /// their CRC-32 computed; at its end, a size or CRC-32 other than the directory's is an error.
  public final class EntryStream {
    private let entry: Entry
    private let input: FileHandle
    private var remaining: UInt64
    private var produced: UInt64 = 0
    private var crc: UInt32 = 0
    private var stream = z_stream()
    private var inflating = false
    private var pending = Data()
    private var chunk = Data(count: EntryStream.pieceLength)
    private var finished = false
    private var endOfStream = false
    static let pieceLength = 1 << 20

    init(_ entry: Entry, _ input: FileHandle) throws {
      self.entry = entry
      self.input = input
      remaining = entry.compressedSize
      if entry.method == 8 {
        guard inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else {
          throw EvidenceWriteError("zlib could not start inflating")
        }
        inflating = true
      }
    }

    deinit {
      if inflating { inflateEnd(&stream) }
      try? input.close()
    }

    /// The next piece, or nil at the entry's end.
    public func next() throws -> Data? {
      guard !finished else { return nil }
      let piece = entry.method == 8 ? try inflated() : try stored()
      guard let piece else {
        finished = true
        guard produced == entry.size else {
          throw EvidenceWriteError(
            "\(entry.name) has \(produced) bytes, not the \(entry.size) its header states")
        }
        guard crc == entry.crc32 else {
          throw EvidenceWriteError(
            "\(entry.name) does not match its CRC-32: the archive is damaged")
        }
        return nil
      }
      crc = Deflate.crc32(crc, piece)
      produced += UInt64(piece.count)
      guard produced <= entry.size else {
        throw EvidenceWriteError("\(entry.name) holds more bytes than its stated size")
      }
      return piece
    }

    private func read() throws -> Data? {
      guard remaining > 0 else { return nil }
      let data = try input.read(upToCount: Int(min(remaining, UInt64(Self.pieceLength)))) ?? Data()
      guard !data.isEmpty else { throw EvidenceWriteError("\(entry.name) ends early") }
      remaining -= UInt64(data.count)
      return data
    }

    private func stored() throws -> Data? { try read() }

    /// Up to a piece of inflated bytes; nil once the deflate stream has ended.
    private func inflated() throws -> Data? {
      if endOfStream { return nil }
      while true {
        if pending.isEmpty, let more = try read() { pending = more }
        var ended = false
        let (produced, consumed): (Int, Int) = try pending.withUnsafeMutableBytes {
          (input: UnsafeMutableRawBufferPointer) in
          try chunk.withUnsafeMutableBytes { (output: UnsafeMutableRawBufferPointer) in
            stream.next_in = input.bindMemory(to: Bytef.self).baseAddress
            stream.avail_in = uInt(input.count)
            stream.next_out = output.bindMemory(to: Bytef.self).baseAddress
            stream.avail_out = uInt(output.count)
            let rc = inflate(&stream, Z_NO_FLUSH)
            if rc == Z_STREAM_END {
              ended = true
            } else if rc != Z_OK && rc != Z_BUF_ERROR {
              throw EvidenceWriteError("the compressed data is damaged (zlib \(rc))")
            }
            return (output.count - Int(stream.avail_out), input.count - Int(stream.avail_in))
          }
        }
        pending.removeFirst(consumed)
        endOfStream = ended
        if produced > 0 { return chunk.prefix(produced) }
        if ended { return nil }
        // No progress: zlib wants input that is not there, or cannot take what is.
        if pending.isEmpty && remaining == 0 {
          throw EvidenceWriteError("the compressed data ends early")
        }
        if consumed == 0 && !pending.isEmpty {
          throw EvidenceWriteError("the compressed data is damaged")
        }
      }
    }
  }

  public func data(_ entry: Entry) throws -> Data {
    var out = Data()
    try read(entry) { out.append($0) }
    return out
  }
}
