import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Bytes
import CZlib
import Crypto
import Foundation
import SystemCalls

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
    /// The general-purpose flags and the external attributes (a Unix mode in the high half).
    public var flags: UInt16 = 0
    public var externalAttributes: UInt32 = 0
    /// The DOS time and date, which the local header must repeat.
    public var time: UInt16 = 0
    public var date: UInt16 = 0
  }

  /// How the archive departs from the layout export writes: bytes before the first entry or
  /// after the end record, a comment, a name twice, a local header that is not its directory
  /// record, encryption or a data descriptor, an attribute that is not a regular file's.
  public private(set) var layoutProblems: [String] = []

  public let url: URL
  public let entries: [Entry]
  private let handle: FileHandle
  private let fileSize: UInt64
  /// The size or offset from which export writes ZIP64 fields (4 GiB; lower in tests that force
  /// them): ZIP64 anywhere else is not the layout export writes.
  public let zip64Threshold: UInt64

  public init(url: URL, zip64Threshold: UInt64 = 0xFFFF_FFFF) throws {
    self.url = url
    self.zip64Threshold = zip64Threshold
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
      isDirectory.boolValue
    {
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
      let eocd = Self.lastEndRecord(in: tail)
    else {
      throw EvidenceWriteError(
        "\(url.lastPathComponent) is not a ZIP archive: no end of central directory")
    }
    let damaged = EvidenceWriteError("the end of the central directory is damaged")
    var count = UInt64(try Self.field(tail, eocd + 10, UInt16.self, or: damaged))
    var directorySize = UInt64(try Self.field(tail, eocd + 12, UInt32.self, or: damaged))
    var directoryOffset = UInt64(try Self.field(tail, eocd + 16, UInt32.self, or: damaged))
    let hasRecord64 =
      eocd >= 20 && tail.integer(at: eocd - 20, endianness: .little, as: UInt32.self) == 0x0706_4b50
    if hasRecord64 {
      let record64 = EvidenceWriteError("the ZIP64 end record is damaged")
      let recordOffset = try Self.field(tail, eocd - 20 + 8, UInt64.self, or: record64)
      guard fileSize >= 56, recordOffset <= fileSize - 56 else { throw record64 }
      try handle.seek(toOffset: recordOffset)
      let record = [UInt8](try handle.read(upToCount: 56) ?? Data())
      guard record.count == 56,
        record.integer(at: 0, endianness: .little, as: UInt32.self) == 0x0606_4b50
      else {
        throw record64
      }
      count = try Self.field(record, 32, UInt64.self, or: record64)
      directorySize = try Self.field(record, 40, UInt64.self, or: record64)
      directoryOffset = try Self.field(record, 48, UInt64.self, or: record64)
    }
    guard directoryOffset <= fileSize, directorySize <= fileSize - directoryOffset,
      directorySize < 64 << 20, count < 100_000
    else {
      throw EvidenceWriteError("the central directory lies outside the archive")
    }
    try handle.seek(toOffset: directoryOffset)
    let directory = [UInt8](try handle.read(upToCount: Int(directorySize)) ?? Data())
    let broken = EvidenceWriteError("the central directory is damaged")
    var entries: [Entry] = []
    var at = 0
    for _ in 0..<count {
      let (entry, problems, length) = try Self.directoryRecord(
        directory, at: at, zip64Threshold: zip64Threshold, broken: broken)
      entries.append(entry)
      layoutProblems += problems
      at += length
    }
    self.entries = entries
    let needs64 =
      directoryOffset >= zip64Threshold || directorySize >= zip64Threshold || count >= 0xFFFF
    if hasRecord64 != needs64 {
      layoutProblems.append(
        hasRecord64
          ? "the archive has a ZIP64 end record its sizes and count do not need"
          : "the archive's sizes need a ZIP64 end record it does not have")
    }
    layoutProblems += Self.layout(
      entries, eocd: eocd, tail: tail, fileSize: fileSize, directoryOffset: directoryOffset)
    for entry in entries { layoutProblems += localHeaderProblems(entry) }
  }

  deinit { try? handle.close() }

  /// One record of the central directory at `at`: its entry, what in it is not the layout
  /// export writes, and its length.
  static func directoryRecord(
    _ directory: [UInt8], at: Int, zip64Threshold: UInt64, broken: EvidenceWriteError
  ) throws -> (Entry, [String], Int) {
    guard try field(directory, at, UInt32.self, or: broken) == 0x0201_4b50,
      at + 46 <= directory.count
    else { throw broken }
    let nameLength = Int(try field(directory, at + 28, UInt16.self, or: broken))
    let extraLength = Int(try field(directory, at + 30, UInt16.self, or: broken))
    let commentLength = Int(try field(directory, at + 32, UInt16.self, or: broken))
    guard at + 46 + nameLength + extraLength + commentLength <= directory.count else {
      throw broken
    }
    let rawCompressed = UInt64(try field(directory, at + 20, UInt32.self, or: broken))
    let rawSize = UInt64(try field(directory, at + 24, UInt32.self, or: broken))
    let rawOffset = UInt64(try field(directory, at + 42, UInt32.self, or: broken))
    var (compressed, size, offset) = (rawCompressed, rawSize, rawOffset)
    // The extra fields are read inside their own bytes: a field cut short is damage.
    var extraProblems: [String] = []
    var seenZIP64 = false
    let extraStart = at + 46 + nameLength
    var extras = ByteCursor(directory[extraStart..<(extraStart + extraLength)])
    while extras.remaining >= 4 {
      guard let id = extras.read(UInt16.self, endianness: .little),
        let length = extras.read(UInt16.self, endianness: .little),
        var field = extras.read(count: Int(length)).map({ ByteCursor($0) })
      else { throw broken }
      guard id == 1, !seenZIP64 else {
        extraProblems.append(
          id == 1
            ? "a second ZIP64 extra field"
            : "an extra field of type 0x\(String(id, radix: 16, uppercase: true))")
        continue
      }
      seenZIP64 = true
      func wide() throws -> UInt64 {
        guard let value = field.read(UInt64.self, endianness: .little) else { throw broken }
        return value
      }
      if size == 0xFFFF_FFFF { size = try wide() }
      if compressed == 0xFFFF_FFFF { compressed = try wide() }
      if offset == 0xFFFF_FFFF { offset = try wide() }
      if field.remaining > 0 {
        extraProblems.append("a ZIP64 extra field longer than its values")
      }
    }
    // Export writes a value in the ZIP64 field exactly when it reaches the threshold.
    let raw = [rawSize, rawCompressed, rawOffset]
    if raw.contains(0xFFFF_FFFF) && !seenZIP64 {
      extraProblems.append("a size or offset of 0xFFFFFFFF with no ZIP64 extra field")
    }
    for (stated, value) in zip(raw, [size, compressed, offset])
    where (stated == 0xFFFF_FFFF) != (value >= zip64Threshold) {
      extraProblems.append(
        stated == 0xFFFF_FFFF
          ? "a ZIP64 value for a size or offset that fits in 32 bits"
          : "a size or offset past the ZIP64 threshold outside a ZIP64 field")
      break
    }
    let name = String(decoding: directory[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self)
    // The fields export writes the same in every record: made by Unix, ZIP 4.5; needing 2.0,
    // or 4.5 with ZIP64; UTF-8 names (a name of ASCII reads the same without the flag); one
    // disk; no internal attributes.
    let madeBy = try field(directory, at + 4, UInt16.self, or: broken)
    let needed = try field(directory, at + 6, UInt16.self, or: broken)
    let disk = try field(directory, at + 34, UInt16.self, or: broken)
    let internalAttributes = try field(directory, at + 36, UInt16.self, or: broken)
    let generalFlags = try field(directory, at + 8, UInt16.self, or: broken)
    let ascii = directory[(at + 46)..<(at + 46 + nameLength)].allSatisfy { $0 < 0x80 }
    if madeBy != 3 << 8 | 45 { extraProblems.append("“made by” 0x\(String(madeBy, radix: 16))") }
    if needed != (seenZIP64 ? 45 : 20) { extraProblems.append("“version needed” \(needed)") }
    if disk != 0 || internalAttributes != 0 {
      extraProblems.append("a disk number or internal attributes other than 0")
    }
    if generalFlags & ~0x0809 != 0 || (generalFlags & 0x0800 == 0 && !ascii) {
      extraProblems.append("general flags 0x\(String(generalFlags, radix: 16))")
    }
    var problems = extraProblems.map {
      "the directory record of \(TerminalText.inline(name)) carries \($0)"
    }
    let entry = Entry(
      name: name, method: try field(directory, at + 10, UInt16.self, or: broken),
      crc32: try field(directory, at + 16, UInt32.self, or: broken),
      compressedSize: compressed, size: size, localHeaderOffset: offset,
      flags: try field(directory, at + 8, UInt16.self, or: broken),
      externalAttributes: try field(directory, at + 38, UInt32.self, or: broken),
      time: try field(directory, at + 12, UInt16.self, or: broken),
      date: try field(directory, at + 14, UInt16.self, or: broken))
    if commentLength > 0 { problems.append("the entry \(name) carries a comment") }
    return (entry, problems, 46 + nameLength + extraLength + commentLength)
  }

  /// What the entries and the end record say of the archive's layout.
  static func layout(
    _ entries: [Entry], eocd: Int, tail: [UInt8], fileSize: UInt64, directoryOffset: UInt64
  ) -> [String] {
    var problems: [String] = []
    let commentLength = Int(tail.integer(at: eocd + 20, endianness: .little, as: UInt16.self) ?? 0)
    if commentLength > 0 {
      problems.append("the archive carries a comment of \(commentLength) bytes")
    }
    if eocd + 22 + commentLength != tail.count {
      problems.append("bytes follow the end of the central directory")
    }
    if let first = entries.map(\.localHeaderOffset).min(), first != 0 {
      problems.append("\(first) bytes come before the first entry")
    }
    var seen = Set<String>()
    for entry in entries {
      let shown = TerminalText.inline(entry.name)
      if !seen.insert(entry.name).inserted { problems.append("the entry \(shown) is there twice") }
      if entry.flags & 0x0001 != 0 { problems.append("the entry \(shown) is encrypted") }
      if entry.flags & 0x0008 != 0 { problems.append("the entry \(shown) has a data descriptor") }
      let mode = entry.externalAttributes >> 16
      if mode & 0o170000 != 0o100000 || mode & 0o7111 != 0 {
        problems.append(
          "the entry \(shown) would be extracted as mode \(String(mode, radix: 8)), not a plain file"
        )
      }
    }
    return problems
  }

  /// The local header of an entry against its central directory record.
  func localHeaderProblems(_ entry: Entry) -> [String] {
    let shown = TerminalText.inline(entry.name)
    guard let input = FileHandle(forReadingAtPath: url.path),
      entry.localHeaderOffset <= fileSize,
      (try? input.seek(toOffset: entry.localHeaderOffset)) != nil,
      let local = try? input.read(upToCount: 30).map(Array.init), local.count == 30,
      local.integer(at: 0, endianness: .little, as: UInt32.self) == 0x0403_4b50
    else { return ["the entry \(shown) has no local header where the directory says"] }
    defer { try? input.close() }
    func le16(_ at: Int) -> UInt16 { local.integer(at: at, endianness: .little, as: UInt16.self)! }
    func le32(_ at: Int) -> UInt32 { local.integer(at: at, endianness: .little, as: UInt32.self)! }
    let nameBytes = (try? input.read(upToCount: Int(le16(26))).map(Array.init)) ?? []
    var problems: [String] = []
    if nameBytes != Array(entry.name.utf8) {
      problems.append(
        "the local header of \(shown) names “\(TerminalText.inline(String(decoding: nameBytes, as: UTF8.self)))”"
      )
    }
    if le16(6) != entry.flags || le16(8) != entry.method || le32(14) != entry.crc32
      || le16(10) != entry.time || le16(12) != entry.date
    {
      problems.append("the local header of \(shown) differs from its directory record")
    }
    let sizes = (le32(18), le32(22))
    if sizes != (UInt32.max, UInt32.max),
      UInt64(sizes.0) != entry.compressedSize || UInt64(sizes.1) != entry.size
    {
      problems.append("the local header of \(shown) states other sizes than its directory record")
    }
    // Its extra is nothing, or the ZIP64 sizes export writes: where a size needs them, or for the
    // capture, whose header is written before its size is known (from the most it could hold).
    let extra = (try? input.read(upToCount: Int(le16(28))).map(Array.init)) ?? []
    var zip64Sizes = Data([0x01, 0x00, 0x10, 0x00])
    zip64Sizes.appendInteger(entry.size, endianness: .little)
    zip64Sizes.appendInteger(entry.compressedSize, endianness: .little)
    if !extra.isEmpty {
      if extra != Array(zip64Sizes) || sizes != (UInt32.max, UInt32.max) {
        problems.append(
          "the local header of \(shown) carries extra fields other than the ZIP64 sizes of its directory record"
        )
      } else if entry.name != EvidenceCaptureDocument.fileName,
        entry.size < zip64Threshold && entry.compressedSize < zip64Threshold
      {
        problems.append(
          "the local header of \(shown) takes ZIP64 sizes for sizes that fit in 32 bits")
      }
    } else if sizes == (UInt32.max, UInt32.max) {
      problems.append("the local header of \(shown) has ZIP64 placeholders with no ZIP64 sizes")
    }
    let needs64 = !extra.isEmpty || entry.localHeaderOffset >= zip64Threshold
    if le16(4) != (needs64 ? 45 : 20) {
      problems.append(
        "the local header of \(shown) needs version \(le16(4)), not the \(needs64 ? 45 : 20) export writes"
      )
    }
    return problems
  }

  /// A little-endian field of a header, or `damage` thrown when it lies past the header's end.
  /// Where the last end-of-central-directory signature ("PK\u{5}\u{6}") begins with room for
  /// its 22 bytes: the bytes compared in place, from the end (a generic integer read at each
  /// position was a tenth of reading a mutated archive).
  static func lastEndRecord(in tail: [UInt8]) -> Int? {
    var at = tail.count - 22
    while at >= 0 {
      if tail[at] == 0x50, tail[at + 1] == 0x4b, tail[at + 2] == 0x05, tail[at + 3] == 0x06 {
        return at
      }
      at -= 1
    }
    return nil
  }

  static func field<T: FixedWidthInteger>(
    _ bytes: [UInt8], _ offset: Int, _ type: T.Type, or damage: EvidenceWriteError
  ) throws -> T {
    guard let value = bytes.integer(at: offset, endianness: .little, as: T.self) else {
      throw damage
    }
    return value
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
    let localDamage = EvidenceWriteError("\(entry.name): its local header is damaged")
    guard entry.localHeaderOffset <= fileSize else { throw localDamage }
    try input.seek(toOffset: entry.localHeaderOffset)
    let local = [UInt8](try input.read(upToCount: 30) ?? Data())
    guard local.count == 30, try Self.field(local, 0, UInt32.self, or: localDamage) == 0x0403_4b50
    else {
      throw localDamage
    }
    let dataOffset =
      entry.localHeaderOffset + 30
      + UInt64(try Self.field(local, 26, UInt16.self, or: localDamage))
      + UInt64(try Self.field(local, 28, UInt16.self, or: localDamage))
    guard dataOffset <= fileSize, entry.compressedSize <= fileSize - dataOffset else {
      throw EvidenceWriteError("\(entry.name): its data runs past the end of the archive")
    }
    guard entry.method == 0 || entry.method == 8 else {
      throw EvidenceWriteError(
        "\(entry.name) uses compression method \(entry.method), which is neither stored nor deflate"
      )
    }
    try input.close()
    // A large stored entry (capture.pcapng) is read ahead: its next piece comes from the device
    // while this one is hashed and scanned.
    let source: EntryStream.Source
    if entry.method == 0 && entry.compressedSize >= UInt64(EntryStream.pieceLength) {
      guard case .success(let reader) = ReadAheadFileInput.open(path: url.path, from: dataOffset)
      else { throw EvidenceWriteError("\(url.path) cannot be opened") }
      source = .ahead(reader)
    } else {
      guard case .success(let reader) = SequentialFileInput.open(path: url.path) else {
        throw EvidenceWriteError("\(url.path) cannot be opened")
      }
      source = .sequential(reader)
    }
    return try EntryStream(entry, source, at: dataOffset)
  }

  /// An entry's bytes as they are asked for: read (and inflated) a piece at a time, counted and
  /// their CRC-32 computed; at its end, a size or CRC-32 other than the directory's is an error.
  public final class EntryStream {
    /// Where the bytes come from: pieces read when asked for, or read ahead from the entry's
    /// start on.
    enum Source {
      case sequential(SequentialFileInput)
      case ahead(ReadAheadFileInput)
    }
    private let entry: Entry
    private let input: Source
    /// Where the entry's next bytes are in the archive.
    private var position: UInt64
    private var remaining: UInt64
    private var produced: UInt64 = 0
    private var crc: UInt32 = 0
    private var stream = z_stream()
    private var inflating = false
    private var pending = Data()
    /// A piece's room: a byte more than the entry states (so that more is found out), at most
    /// a mebibyte; a small entry is not given a mebibyte of zeroes.
    private var chunk: Data
    private var finished = false
    private var endOfStream = false
    static let pieceLength = 1 << 20

    init(_ entry: Entry, _ input: Source, at position: UInt64) throws {
      self.entry = entry
      self.input = input
      self.position = position
      remaining = entry.compressedSize
      chunk = Data(count: Int(min(entry.size, UInt64(Self.pieceLength - 1))) + 1)
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
      let count = Int(min(remaining, UInt64(Self.pieceLength)))
      let data: Data
      switch input {
      case .sequential(let input): data = try input.read(at: position, count: count) { Data($0) }
      case .ahead(let input): data = Data(try input.nextPiece().prefix(count))
      }
      guard !data.isEmpty else { throw EvidenceWriteError("\(entry.name) ends early") }
      position += UInt64(data.count)
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
