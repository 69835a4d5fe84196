import Audit
import AuditRules
import AuditWording
import Bytes
import Crypto
import Foundation
import SystemCalls

/// One frame of a capture file as it was recorded: when, on which link type, and its bytes.
public struct DecodedFrame: Sendable {
  /// Microseconds since the epoch.
  public let microseconds: Int64
  public let linkType: UInt32
  public let data: [UInt8]
  public let originalLength: UInt32
  /// The section header's hardware, OS and application options, if the file is pcapng.
  public let section: Int
  /// Where its record or block begins in the file.
  public var offset: UInt64 = 0

  public init(
    microseconds: Int64, linkType: UInt32, data: [UInt8], originalLength: UInt32, section: Int = 0,
    offset: UInt64 = 0
  ) {
    self.microseconds = microseconds
    self.linkType = linkType
    self.data = data
    self.originalLength = originalLength
    self.section = section
    self.offset = offset
  }
}

/// A pcapng section's environment facts.
public struct CaptureSectionInfo: Sendable, Hashable {
  public var hardware: String?
  public var os: String?
  public var application: String?
  public init(hardware: String? = nil, os: String? = nil, application: String? = nil) {
    self.hardware = hardware
    self.os = os
    self.application = application
  }
}

/// Why a capture file as a whole cannot be read, with the offset where it went wrong.
public struct CaptureFileError: Error, Sendable, Hashable, CustomStringConvertible {
  public let offset: UInt64
  public let reason: String
  public var description: String { "at byte \(offset): \(reason)" }
}

/// Reads pcap (µs and ns, both byte orders) and pcapng (several sections and interfaces,
/// `if_tsresol`, EPB, SPB and the obsolete PB) frame by frame, bounding every length by what the
/// file can hold before allocating it. Frames come to `body` in file order.
public struct CaptureFileDecoder {
  public static let maximumFrame = 262_144

  public private(set) var sections: [CaptureSectionInfo] = []
  /// Records whose length lies, or that are cut short at the end: the rest of the file was sound.
  public private(set) var damagedRecords = 0
  /// The first of them (`DamagedRecord.named`), with where each began and why.
  public private(set) var damaged: [DamagedRecord] = []

  private mutating func damage(at offset: UInt64, _ reason: String? = nil) {
    damagedRecords += 1
    if damaged.count < DamagedRecord.named {
      damaged.append(DamagedRecord(offset: Int(offset), reason: reason))
    }
  }
  /// The file's SHA-256 (lower-case hex), once `decode` has read it, if `hashing` was asked for.
  public private(set) var sha256: String?
  /// Whether `decode` computes the file's SHA-256 as it reads (no second read of the file).
  public var hashing = false

  public init() {}

  /// How the frames of a file reach a reader in time order.
  public enum FrameOrder: Sendable, Hashable {
    /// As the file holds them: they were in time order.
    case asInFile
    /// Put back in order within `TimeOrderedFrames`' window.
    case restored
  }

  /// The frames in time order. A file in order (nearly every one) is read straight through; at the
  /// first frame dated before one handed over, `restart` is called (the caller forgets what it
  /// was given) and the file is read again through `TimeOrderedFrames`, which puts frames a
  /// little out of step (several interfaces written as their packets came) back in order and
  /// refuses one further back with a sentence naming both (`reordercap`). `order` forces one way
  /// (a second pass reads as the first did). Answers the way it was read.
  @discardableResult
  public mutating func decodeInTimeOrder(
    _ url: URL, order: FrameOrder? = nil, restart: () -> Void = {},
    _ body: (DecodedFrame) throws -> Void
  ) throws -> FrameOrder {
    if order != .restored {
      var latest: Int64?
      do {
        try decode(url) { frame in
          if Instant.storableMicroseconds.contains(frame.microseconds) {
            if let latest, frame.microseconds < latest { throw OutOfOrder() }
            latest = frame.microseconds
          }
          try body(frame)
        }
        return .asInFile
      } catch is OutOfOrder where order == nil {
        restart()
      }
    }
    var ordered = TimeOrderedFrames()
    try decode(url) { try ordered.add($0, body) }
    try ordered.finish(body)
    return .restored
  }

  /// A frame dated before one already handed over, while the file was read as it is.
  public struct OutOfOrder: Error {}

  public mutating func decode(_ url: URL, _ body: (DecodedFrame) throws -> Void) throws {
    guard case .success(let input) = ReadAheadFileInput.open(path: url.path),
      case .success(let size) = valueOrErrno({ lseek(input.fileDescriptor, 0, SEEK_END) })
    else {
      throw CaptureFileError(offset: 0, reason: "the file cannot be opened")
    }
    var reader = ChunkReader(input: input, size: UInt64(size))
    damagedRecords = 0
    damaged = []
    let digest = hashing ? BackgroundDigest() : nil
    reader.digest = digest
    defer {
      if let digest, (try? reader.drain()) != nil { sha256 = digest.finalHex() }
    }
    guard let magic = try reader.peek(4) else {
      throw CaptureFileError(offset: 0, reason: "the file is empty")
    }
    let m =
      magic.integer(at: 0, endianness: .little, as: UInt32.self)!
    switch m {
    case 0xa1b2_c3d4, 0xd4c3_b2a1, 0xa1b2_3c4d, 0x4d3c_b2a1: try decodePcap(&reader, body)
    case 0x0A0D_0D0A: try decodePcapng(&reader, body)
    default:
      throw CaptureFileError(
        offset: 0,
        reason: "this is neither a pcap nor a pcapng file (no magic number that either begins with)"
      )
    }
  }

  mutating func decodePcap(_ r: inout ChunkReader, _ body: (DecodedFrame) throws -> Void) throws {
    guard let header = try r.read(24) else {
      throw CaptureFileError(offset: 0, reason: "the pcap header is cut short")
    }
    // The header is whole: its fields are there.
    let raw = header.integer(at: 0, endianness: .little, as: UInt32.self)!
    let order: Endianness = raw == 0xd4c3_b2a1 || raw == 0x4d3c_b2a1 ? .big : .little
    let nanos = raw == 0xa1b2_3c4d || raw == 0x4d3c_b2a1
    let linkType = header.integer(at: 20, endianness: order, as: UInt32.self)! & 0x0fff_ffff
    sections = [CaptureSectionInfo()]
    while true {
      let offset = r.offset
      // A record header read whole holds its four fields.
      guard
        let (seconds, fraction, included, original) = try r.read(
          16,
          { record in
            let field = { (at: Int) in record.integer(at: at, endianness: order, as: UInt32.self)! }
            return (Int64(field(0)), Int64(field(4)), Int(field(8)), field(12))
          })
      else {
        if r.offset < r.size { damage(at: offset) }
        return
      }
      guard included <= Self.maximumFrame else {
        throw CaptureFileError(
          offset: offset, reason: "a record claims \(included) bytes, more than any frame can have")
      }
      guard let data = try r.read(included) else {
        damage(at: offset)
        return
      }
      try body(
        DecodedFrame(
          microseconds: CaptureTimestamp.microseconds(
            seconds: seconds, fraction: fraction, perSecond: nanos ? 1_000_000_000 : 1_000_000),
          linkType: linkType,
          data: data, originalLength: original, section: 0, offset: offset))
    }
  }

  mutating func decodePcapng(_ r: inout ChunkReader, _ body: (DecodedFrame) throws -> Void) throws {
    var order = Endianness.little
    var interfaces: [PcapngInterface] = []
    while let head = try r.peek(8) {
      let offset = r.offset
      if head.integer(at: 0, endianness: .little, as: UInt32.self) == 0x0A0D_0D0A {
        guard let shb = try r.peek(12) else {
          throw CaptureFileError(offset: offset, reason: "a section header is cut short")
        }
        let magic = shb.integer(at: 8, endianness: .little, as: UInt32.self)
        if magic == 0x1A2B_3C4D {
          order = .little
        } else if magic == 0x4D3C_2B1A {
          order = .big
        } else {
          throw CaptureFileError(
            offset: offset + 8, reason: "the section header's byte-order magic is neither order")
        }
        interfaces = []
        sections.append(CaptureSectionInfo())
      }
      // Eight bytes were peeked, and a block read whole is at least 12 long (checked below):
      // the lengths at its ends and its type are there.
      let length = Int(head.integer(at: 4, endianness: order, as: UInt32.self)!)
      guard length >= 12, length % 4 == 0 else {
        throw CaptureFileError(
          offset: offset,
          reason: "a block claims a length of \(length) bytes, which no block can have")
      }
      if UInt64(length) > r.size - offset {
        // A last block cut short by a dying writer: the frames before it are sound.
        if !interfaces.isEmpty {
          damage(at: offset)
          return
        }
        throw CaptureFileError(
          offset: offset,
          reason: "a block claims \(length) bytes, more than the file holds after it")
      }
      guard length <= Self.maximumFrame + 65_536 else {
        throw CaptureFileError(
          offset: offset,
          reason: "a block claims \(length) bytes, more than any block of a capture needs")
      }
      guard let block = try r.read(length) else {
        damage(at: offset)
        return
      }
      guard block.integer(at: length - 4, endianness: order, as: UInt32.self) == UInt32(length)
      else {
        throw CaptureFileError(
          offset: offset, reason: "a block's trailing length does not repeat its leading one")
      }
      let type = block.integer(at: 0, endianness: order, as: UInt32.self)!
      switch type {
      case 0x0A0D_0D0A:
        sections[sections.count - 1] = Self.sectionInfo(block, length: length, order)
      case 1:
        interfaces.append(try Self.interface(block, length: length, order, at: offset))
      case 6, 2:
        if let frame = packetFrame(block, type: type, length: length, order, interfaces, at: offset)
        {
          try body(frame)
        }
      case 3:
        guard length >= 16, let first = interfaces.first,
          let original = block.integer(at: 8, endianness: order, as: UInt32.self).map(Int.init)
        else {
          damage(at: offset, "a simple packet block comes before any interface is declared")
          continue
        }
        let captured = min(original, length - 16)
        try body(
          DecodedFrame(
            microseconds: 0, linkType: first.linkType, data: Array(block[12..<(12 + captured)]),
            originalLength: UInt32(original), section: sections.count - 1, offset: offset))
      default:
        continue
      }
    }
  }

  /// What a section header block says of the capture's writer: its hardware, system and
  /// application options.
  static func sectionInfo(_ block: [UInt8], length: Int, _ order: Endianness) -> CaptureSectionInfo
  {
    var info = CaptureSectionInfo()
    for (code, value) in Self.options(block, from: 24, to: length - 4, order) {
      let text = String(decoding: value, as: UTF8.self)
      switch code {
      case 2: info.hardware = text
      case 3: info.os = text
      case 4: info.application = text
      default: break
      }
    }
    return info
  }

  /// An interface description block: its link type, and its time resolution and offset options.
  static func interface(_ block: [UInt8], length: Int, _ order: Endianness, at offset: UInt64)
    throws -> PcapngInterface
  {
    guard length >= 20, let linkType = block.integer(at: 8, endianness: order, as: UInt16.self)
    else {
      throw CaptureFileError(offset: offset, reason: "an interface description is cut short")
    }
    var resolution: Int64 = 1_000_000
    var offsetSeconds: Int64 = 0
    for (code, value) in Self.options(block, from: 16, to: length - 4, order) {
      if code == 9 && value.count >= 1 {
        let v = value[value.startIndex]
        let exponent = Int64(v & 0x7f)
        if v & 0x80 == 0, exponent <= 18 {
          resolution = (0..<exponent).reduce(1) { r, _ in r * 10 }
        } else if v & 0x80 != 0, exponent <= 62 {
          resolution = Int64(1) << exponent
        } else {
          resolution = 0  // none a time can be read in: every packet's is impossible
        }
      } else if code == 14, value.count == 8,
        let seconds = Array(value).integer(at: 0, endianness: order, as: UInt64.self)
      {
        // if_tsoffset, which libpcap adds to every time of the interface.
        offsetSeconds = Int64(bitPattern: seconds)
      }
    }
    return PcapngInterface(
      linkType: UInt32(linkType), resolution: resolution, offsetSeconds: offsetSeconds)
  }

  /// The frame of an enhanced (6) or obsolete (2) packet block; nil, with the damage noted, for
  /// a block whose fields do not hold together.
  mutating func packetFrame(
    _ block: [UInt8], type: UInt32, length: Int, _ order: Endianness,
    _ interfaces: [PcapngInterface], at offset: UInt64
  ) -> DecodedFrame? {
    func u16(_ at: Int) -> UInt16? { block.integer(at: at, endianness: order, as: UInt16.self) }
    func u32(_ at: Int) -> UInt32? { block.integer(at: at, endianness: order, as: UInt32.self) }
    guard length >= 32, let interface = type == 6 ? u32(8) : u16(8).map(UInt32.init),
      let high = u32(12).map(UInt64.init), let low = u32(16).map(UInt64.init),
      let captured = u32(20).map(Int.init), let original = u32(24)
    else {
      damage(at: offset, "a packet block of \(length) bytes is too short for its fields")
      return nil
    }
    guard interface < interfaces.count else {
      damage(
        at: offset,
        "a packet block names interface \(interface), and its section declares \(interfaces.count == 1 ? "only interface 0" : interfaces.isEmpty ? "none" : "interfaces 0 to \(interfaces.count - 1)")"
      )
      return nil
    }
    guard captured <= length - 32 else {
      damage(
        at: offset, "a packet block claims \(captured) captured bytes and holds \(length - 32)")
      return nil
    }
    let described = interfaces[Int(interface)]
    let ticks = Int64(bitPattern: high << 32 | low)
    let microseconds =
      described.resolution > 0
      ? CaptureTimestamp.offset(
        Self.microseconds(ticks, described.resolution), bySeconds: described.offsetSeconds)
      : CaptureTimestamp.impossible
    return DecodedFrame(
      microseconds: microseconds, linkType: described.linkType,
      data: Array(block[28..<(28 + captured)]), originalLength: original,
      section: sections.count - 1, offset: offset)
  }

  /// Ticks of `resolution` per second as microseconds, truncated toward zero: exact for binary
  /// resolutions too (2^20 ticks a second are not a microsecond each, nor 2^10 a thousandth of a
  /// second), and a time too large for 64 bits of microseconds is the largest there is (outside
  /// any range a caller accepts) rather than an overflow.
  static func microseconds(_ ticks: Int64, _ resolution: Int64) -> Int64 {
    if resolution == 1_000_000 { return ticks }
    if resolution > 1_000_000 {
      // |ticks × 10⁶ / resolution| < |ticks|: the quotient always fits.
      return resolution.dividingFullWidth(ticks.multipliedFullWidth(by: 1_000_000)).quotient
    }
    let resolution = max(1, resolution)
    let (seconds, rest) = ticks.quotientAndRemainder(dividingBy: resolution)
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
    // |rest| < resolution ≤ 10⁶, so rest × 10⁶ fits.
    let (sum, carry) = whole.addingReportingOverflow(rest * 1_000_000 / resolution)
    return overflow || carry ? (ticks < 0 ? .min : .max) : sum
  }

  /// Options from `start` to `end` of a block: code, value; stops at end-of-options or where a length lies.
  static func options(_ block: [UInt8], from start: Int, to end: Int, _ order: Endianness) -> [(
    UInt16, ArraySlice<UInt8>
  )] {
    var result: [(UInt16, ArraySlice<UInt8>)] = []
    var at = start
    while at + 4 <= end {
      guard let code = block.integer(at: at, endianness: order, as: UInt16.self),
        let length = block.integer(at: at + 2, endianness: order, as: UInt16.self).map(Int.init),
        code != 0, at + 4 + length <= end
      else { break }
      result.append((code, block[(at + 4)..<(at + 4 + length)]))
      at += 4 + ((length + 3) & ~3)
    }
    return result
  }
}

/// Reads a file in order through a 1 MiB window.
struct ChunkReader {
  let input: ReadAheadFileInput
  let size: UInt64
  /// Every byte read from the file, in order, when the caller asked for the file's digest.
  var digest: BackgroundDigest?
  /// The file offset of `position`.
  private(set) var offset: UInt64 = 0
  /// The window: its bytes up to `end` are the file's from `offset - position` on. Allocated
  /// once and kept from refill to refill (a new 1 MiB buffer per refill was 70 000 page faults
  /// for a 229 MB file once the allocator gave such buffers back each time).
  private var buffer: [UInt8] = []
  private var position = 0, end = 0
  /// What the input's last piece holds beyond the window's end, and where that lies in the file.
  private var piece = UnsafeRawBufferPointer(start: nil, count: 0)
  private var pieceOffset: UInt64 = 0
  static let window = 1 << 20

  init(input: ReadAheadFileInput, size: UInt64) {
    self.input = input
    self.size = size
  }

  /// Makes sure `count` bytes lie after `position`; false if the file ends first.
  mutating func fill(_ count: Int) throws -> Bool {
    if end - position >= count { return true }
    let left = end - position
    if position > 0 {
      buffer.withUnsafeMutableBytes {
        $0.baseAddress!.copyMemory(from: $0.baseAddress! + position, byteCount: left)
      }
      position = 0
      end = left
    }
    // A small file gets a window of its size; a record longer than the window, a window of its own.
    let wanted = max(count, Int(min(UInt64(Self.window), size)))
    if buffer.count < wanted { buffer += [UInt8](repeating: 0, count: wanted - buffer.count) }
    while end < count {
      if piece.isEmpty {
        do { piece = try input.nextPiece() } catch {
          throw CaptureFileError(
            offset: pieceOffset, reason: "the file could not be read (\(error))")
        }
        if piece.isEmpty { return false }
      }
      let taken = UnsafeRawBufferPointer(rebasing: piece.prefix(buffer.count - end))
      buffer.withUnsafeMutableBytes {
        $0.baseAddress!.advanced(by: end).copyMemory(
          from: taken.baseAddress!, byteCount: taken.count)
      }
      digest?.update(taken)
      end += taken.count
      pieceOffset += UInt64(taken.count)
      piece = UnsafeRawBufferPointer(rebasing: piece.dropFirst(taken.count))
    }
    return true
  }

  /// Reads what is left of the file (for the digest: the frames may have ended before it).
  /// A byte at a time asked: each fill reads what the window holds (a small file's window is its
  /// size; asking for a whole 1 MiB grew it to that for every small file).
  mutating func drain() throws {
    position = end
    while try fill(1) { position = end }
  }

  mutating func peek(_ count: Int) throws -> [UInt8]? {
    guard try fill(count) else { return nil }
    return Array(buffer[position..<(position + count)])
  }

  /// `body` given the next `count` bytes where they lie in the window, without copying them.
  mutating func read<T>(_ count: Int, _ body: (ArraySlice<UInt8>) -> T) throws -> T? {
    guard try fill(count) else { return nil }
    defer {
      position += count
      offset += UInt64(count)
    }
    return body(buffer[position..<(position + count)])
  }

  mutating func read(_ count: Int) throws -> [UInt8]? { try read(count) { Array($0) } }
}

/// A pcapng interface as its description block declares it: what its packets' times and links are.
struct PcapngInterface {
  let linkType: UInt32
  /// Ticks per second; 0 when the block's resolution is none a time can be read in.
  let resolution: Int64
  /// if_tsoffset: seconds added to every time of the interface.
  let offsetSeconds: Int64
}
