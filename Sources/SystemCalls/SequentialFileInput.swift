import CSystemCalls
import Glibc

/// A file read forward a piece at a time through one aligned buffer, straight from the device
/// where the file system allows it (O_DIRECT), else through the page cache: a large file read
/// once (an archive to verify) then fills no fresh page-cache memory, which on a virtual machine
/// costs more than the reading (docs/performance.md).
public final class SequentialFileInput {
  static let capacity = 256 << 10
  public let fileDescriptor: Int32
  private let buffer: UnsafeMutableRawPointer
  /// The file's bytes the buffer holds: from `windowStart`, `windowCount` of them.
  private var windowStart: UInt64 = 0
  private var windowCount = 0
  public private(set) var isDirect: Bool

  /// The file at `path`, open for reading.
  public static func open(path: String, direct: Bool = true) -> Result<SequentialFileInput, Errno> {
    valueOrErrno { Glibc.open(path, O_RDONLY | O_CLOEXEC) }.map {
      SequentialFileInput(fileDescriptor: $0, direct: direct)
    }
  }

  /// Takes `fileDescriptor`, open for reading, and closes it at the end.
  public init(fileDescriptor: Int32, direct: Bool = true) {
    self.fileDescriptor = fileDescriptor
    buffer = .allocate(
      byteCount: Self.capacity + SequentialFileOutput.blockSize,
      alignment: SequentialFileOutput.blockSize)
    isDirect = direct && tv_set_direct_io(fileDescriptor, 1) == 0
  }

  deinit {
    buffer.deallocate()
    Glibc.close(fileDescriptor)
  }

  /// Up to `count` bytes from `offset` (fewer only at the file's end, none past it), handed to
  /// `body` without a copy; what `body` returns.
  public func read<T>(
    at offset: UInt64, count: Int, _ body: (UnsafeRawBufferPointer) throws -> T
  ) throws -> T {
    if offset < windowStart || offset >= windowStart + UInt64(windowCount) {
      try fill(from: offset)
    }
    let skip = Int(offset - windowStart)
    let available = max(0, windowCount - skip)
    return try body(UnsafeRawBufferPointer(start: buffer + skip, count: min(count, available)))
  }

  /// The buffer filled from the block that holds `offset` (from `offset` itself when not direct).
  private func fill(from offset: UInt64) throws(Errno) {
    let block = UInt64(SequentialFileOutput.blockSize)
    let start = isDirect ? offset / block * block : offset
    windowCount = try Self.read(
      fileDescriptor, into: buffer, count: Self.capacity, at: start, direct: &isDirect
    ).get()
    windowStart = start
  }

  /// Up to `count` bytes of the file at `offset` into `buffer`: all of them, or fewer at the
  /// file's end. Direct I/O the file system refuses after all is turned off, and the rest read
  /// through the page cache.
  static func read(
    _ fileDescriptor: Int32, into buffer: UnsafeMutableRawPointer, count: Int, at offset: UInt64,
    direct isDirect: inout Bool
  ) -> Result<Int, Errno> {
    var got = 0
    while got < count {
      switch valueOrErrno({
        pread(fileDescriptor, buffer + got, count - got, off_t(offset) + off_t(got))
      }) {
      case .success(0):
        return .success(got)
      case .success(let n):
        got += n
        // A short direct read ends at the file's end.
        if isDirect && n % SequentialFileOutput.blockSize != 0 { return .success(got) }
      case .failure(let error) where error.rawValue == EINVAL && isDirect:
        isDirect = false
        _ = tv_set_direct_io(fileDescriptor, 0)
      case .failure(let error):
        return .failure(error)
      }
    }
    return .success(got)
  }
}
