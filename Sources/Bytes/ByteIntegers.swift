/// The order of an integer's bytes in a format: network and most file formats are big-endian,
/// pcap (as written here), pcapng and ZIP little-endian.
public enum Endianness: Sendable, Hashable {
  case big, little
}

extension RangeReplaceableCollection where Element == UInt8 {
  /// Appends the integer's bytes in the given order: the one way any format here writes an integer.
  @inlinable
  public mutating func appendInteger<T: FixedWidthInteger>(
    _ value: T, endianness: Endianness = .big
  ) {
    var ordered = endianness == .big ? value.bigEndian : value.littleEndian
    Swift.withUnsafeBytes(of: &ordered) { append(contentsOf: $0) }
  }
}

extension RandomAccessCollection where Element == UInt8, Index == Int {
  /// The integer whose bytes start `offset` bytes into the collection, or nil when they do not
  /// all lie inside it: the one bounds-checked way any format here reads an integer. The offset is
  /// counted from `startIndex` (a slice of a `Data` reads as a whole collection would).
  @inlinable
  public func integer<T: FixedWidthInteger>(
    at offset: Int, endianness: Endianness = .big, as: T.Type = T.self
  ) -> T? {
    let size = MemoryLayout<T>.size
    guard offset >= 0, offset <= count - size else { return nil }
    if let stored = withContiguousStorageIfAvailable({
      UnsafeRawBufferPointer($0).loadUnaligned(fromByteOffset: offset, as: T.self)
    }) {
      return endianness == .big ? T(bigEndian: stored) : T(littleEndian: stored)
    }
    var value: T = 0
    var index = startIndex + offset
    for _ in 0..<size {
      value = value << 8 | T(self[index])
      index += 1
    }
    return endianness == .big ? value : value.byteSwapped
  }
}

extension UnsafeMutableRawBufferPointer {
  /// Stores the integer's bytes at `offset` in the given order; they must lie inside the buffer.
  @inlinable
  public func storeInteger<T: FixedWidthInteger>(
    _ value: T, at offset: Int, endianness: Endianness = .big
  ) {
    precondition(offset >= 0 && offset <= count - MemoryLayout<T>.size, "stored past the end")
    storeBytes(
      of: endianness == .big ? value.bigEndian : value.littleEndian, toByteOffset: offset,
      as: T.self)
  }
}

extension RandomAccessCollection where Element == UInt8, Index == Int {
  /// A 24-bit big-endian length, as TLS handshake messages carry one.
  @inlinable
  public func uint24(at offset: Int) -> UInt32? {
    guard let high = integer(at: offset, as: UInt8.self),
      let low = integer(at: offset + 1, as: UInt16.self)
    else { return nil }
    return UInt32(high) << 16 | UInt32(low)
  }
}

/// A reading position over bytes that moves as integers and runs of bytes are taken from it,
/// bounds-checked: what would run past the end is nil and moves nothing (swift-nio's readerIndex).
public struct ByteCursor<Bytes: RandomAccessCollection>
where Bytes.Element == UInt8, Bytes.Index == Int {
  public let bytes: Bytes
  /// The offset of the next byte to read, from the start of `bytes`.
  public var offset: Int

  public init(_ bytes: Bytes, offset: Int = 0) {
    self.bytes = bytes
    self.offset = offset
  }

  public var remaining: Int { Swift.max(0, bytes.count - offset) }
  public var isAtEnd: Bool { remaining == 0 }

  @inlinable
  public mutating func read<T: FixedWidthInteger>(
    _ type: T.Type = T.self, endianness: Endianness = .big
  ) -> T? {
    guard let value = bytes.integer(at: offset, endianness: endianness, as: T.self) else {
      return nil
    }
    offset += MemoryLayout<T>.size
    return value
  }

  /// The next `count` bytes, or nil when fewer remain.
  public mutating func read(count: Int) -> Bytes.SubSequence? {
    guard count >= 0, count <= remaining else { return nil }
    let start = bytes.startIndex + offset
    offset += count
    return bytes[start..<(start + count)]
  }

  /// Moves past `count` bytes; false (and nothing moved) when fewer remain.
  public mutating func skip(_ count: Int) -> Bool { read(count: count) != nil }
}
