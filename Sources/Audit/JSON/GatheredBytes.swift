/// Bytes gathered a few hundred at a time in a buffer held in the value itself, and added to an
/// array a bufferful at a time: what is written a key, a bracket or a cell at a time (a JSON
/// record, a CSV row) costs a copy, not an array's append with its checks, each time. `bytes`
/// is read, changed or replaced with what is pending added first.
public struct GatheredBytes: JSONBytesOutput {
  public var bytes: [UInt8] {
    mutating get {
      settle()
      return written
    }
    set {
      pending.count = 0
      written = newValue
    }
    _modify {
      settle()
      yield &written
    }
  }
  @usableFromInline var written: [UInt8]
  @usableFromInline var pending = Pending()

  public init(_ bytes: [UInt8] = []) { written = bytes }

  /// How many bytes, pending ones included.
  public var count: Int { written.count + pending.count }

  /// Up to `capacity` bytes not added to `written` yet (an InlineArray: no allocation, and a
  /// copy of the value is a copy of them).
  @usableFromInline struct Pending {
    @usableFromInline static var capacity: Int { 512 }
    @usableFromInline var count = 0
    @usableFromInline var storage = InlineArray<512, UInt8>(repeating: 0)
    @usableFromInline init() {}
  }

  /// The bytes pending added to `written`.
  @usableFromInline mutating func settle() {
    guard pending.count > 0 else { return }
    let count = pending.count
    withUnsafeBytes(of: &pending.storage) {
      written.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[..<count]))
    }
    pending.count = 0
  }

  @inlinable public mutating func put(_ byte: UInt8) {
    if pending.count == Pending.capacity { settle() }
    let at = pending.count
    withUnsafeMutableBytes(of: &pending.storage) { $0[at] = byte }
    pending.count = at + 1
  }

  @inlinable public mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
    let count = bytes.count
    if pending.count + count > Pending.capacity {
      settle()
      guard count <= Pending.capacity else { return written.append(contentsOf: bytes) }
    }
    guard let source = bytes.baseAddress else { return }
    let at = pending.count
    withUnsafeMutableBytes(of: &pending.storage) {
      $0.baseAddress!.advanced(by: at).copyMemory(from: source, byteCount: count)
    }
    pending.count = at + count
  }
}
