import CSystemCalls
import Dispatch
import Glibc

/// A new file written from its start to its end through aligned buffers, straight to the
/// device where the file system allows it (O_DIRECT), else through the page cache. A large file
/// written once (an archive, a capture) then takes no fresh page-cache memory, whose first touch is
/// most of a buffered write's time on a virtual machine (docs/performance.md). Bytes already
/// written can be written over (a header whose sizes are known only at the end).
///
/// A full buffer is written behind: handed to a queue of the file's own while the caller fills a
/// second buffer, so that a direct write's wait for the device overlaps the work that makes the
/// next bytes. A failed write is thrown by the next call that writes, pushes or finishes.
public final class SequentialFileOutput {
  /// What direct I/O aligns buffers, offsets and lengths to.
  public static let blockSize = 4096
  /// A few writers are open at once (a document, its deflated copy, the archive): each holds two
  /// buffers of this many bytes unless it asks for more.
  public static let defaultCapacity = 256 << 10
  /// Each buffer's bytes, one write each. On a virtual machine each direct write rings the
  /// device (perf: iowrite16): a file written at length (an archive) takes fewer, larger ones.
  private let capacity: Int
  public let fileDescriptor: Int32
  private var buffer: UnsafeMutableRawPointer
  /// The buffer written behind, or free for the next one to be.
  private var spare: UnsafeMutableRawPointer
  private var used = 0
  private let writer = DispatchQueue(label: "SequentialFileOutput")
  /// The write behind, while there is one: what it ended in, once it ended.
  private var behind: (done: DispatchSemaphore, write: WriteBehind)?
  /// Bytes handed to the file (or to the write behind): a multiple of the block size while the
  /// writes are direct.
  private var flushed: UInt64 = 0
  public private(set) var isDirect: Bool
  private var isClosed = false

  /// How many bytes were written so far.
  public var position: UInt64 { flushed + UInt64(used) }

  /// A new empty file at `path` (replacing one there), open for writing.
  public static func create(
    path: String, direct: Bool = true, capacity: Int = defaultCapacity
  ) -> Result<SequentialFileOutput, Errno> {
    valueOrErrno { open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666) }.map {
      SequentialFileOutput(fileDescriptor: $0, direct: direct, capacity: capacity)
    }
  }

  /// Takes `fileDescriptor`, an empty file open for reading and writing (a header written over
  /// is read back whole blocks at a time), and closes it when finished. `capacity` is rounded up
  /// to whole blocks.
  public init(fileDescriptor: Int32, direct: Bool = true, capacity: Int = defaultCapacity) {
    self.fileDescriptor = fileDescriptor
    self.capacity = max(1, (capacity + Self.blockSize - 1) / Self.blockSize) * Self.blockSize
    buffer = .allocate(byteCount: self.capacity, alignment: Self.blockSize)
    spare = .allocate(byteCount: self.capacity, alignment: Self.blockSize)
    isDirect = direct && tv_set_direct_io(fileDescriptor, 1) == 0
  }

  deinit {
    _ = try? settle()
    buffer.deallocate()
    spare.deallocate()
    if !isClosed { Glibc.close(fileDescriptor) }
  }

  public func write(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
    guard var at = bytes.baseAddress else { return }
    var left = bytes.count
    while left > 0 {
      let n = min(left, capacity - used)
      (buffer + used).copyMemory(from: at, byteCount: n)
      used += n
      at += n
      left -= n
      if used == capacity { try flush() }
    }
  }

  /// Up to `count` bytes of `input` from `offset`, read straight into the buffer: how many there
  /// were before the input's end.
  public func copy(from input: Int32, at offset: UInt64, count: UInt64) throws(Errno) -> UInt64 {
    var copied: UInt64 = 0
    while copied < count {
      let n = min(Int(clamping: count - copied), capacity - used)
      let read = try valueOrErrno { pread(input, buffer + used, n, off_t(offset + copied)) }.get()
      if read == 0 { break }
      used += read
      copied += UInt64(read)
      if used == capacity { try flush() }
    }
    return copied
  }

  /// Writes `bytes` over bytes already written at `offset`.
  public func overwrite(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) throws(Errno) {
    precondition(offset + UInt64(bytes.count) <= position, "only written bytes can be written over")
    guard let base = bytes.baseAddress else { return }
    var count = bytes.count
    if offset + UInt64(count) > flushed {
      let from = max(offset, flushed)
      let skip = Int(from - offset)
      (buffer + Int(from - flushed)).copyMemory(from: base + skip, byteCount: count - skip)
      count = skip
    }
    guard count > 0 else { return }
    try settle()
    guard isDirect else { return try writeFully(base, count, at: offset) }
    // A direct write covers whole blocks: those holding the bytes are read, changed, written.
    let block = UInt64(Self.blockSize)
    let first = offset / block * block
    let length = Int((offset + UInt64(count) + block - 1) / block * block - first)
    let blocks = UnsafeMutableRawPointer.allocate(byteCount: length, alignment: Self.blockSize)
    defer { blocks.deallocate() }
    var read = 0
    while read < length {
      let n = try valueOrErrno {
        pread(fileDescriptor, blocks + read, length - read, off_t(first) + off_t(read))
      }.get()
      guard n > 0 else { throw Errno(rawValue: EIO) }
      read += n
    }
    (blocks + Int(offset - first)).copyMemory(from: base, byteCount: count)
    try writeFully(blocks, length, at: first)
  }

  /// Puts every byte written so far in the file, for another process to read. A direct write
  /// takes whole blocks: the last, partly filled block goes through the page cache, and its bytes
  /// stay in the buffer to be written again, fuller, later.
  public func push() throws(Errno) {
    try settle()
    guard isDirect else { return try writeFully(bufferWritten()) }
    let whole = used / Self.blockSize * Self.blockSize
    if whole > 0 {
      try writeFully(buffer, whole, at: flushed)
      flushed += UInt64(whole)
      used -= whole
      if used > 0 { buffer.copyMemory(from: buffer + whole, byteCount: used) }
    }
    guard used > 0 else { return }
    isDirect = false
    _ = tv_set_direct_io(fileDescriptor, 0)
    try writeFully(buffer, used, at: flushed)
    isDirect = tv_set_direct_io(fileDescriptor, 1) == 0
    if !isDirect {
      flushed += UInt64(used)
      used = 0
    }
  }

  /// Writes what is left and closes the file.
  public func finish() throws(Errno) {
    try push()
    flushed = position
    used = 0
    isClosed = true
    try nothingOrErrno(retryOnInterrupt: false) { Glibc.close(fileDescriptor) }.get()
  }

  /// Closes the file as it is, what is still in the buffer not written.
  public func close() {
    guard !isClosed else { return }
    _ = try? settle()
    isClosed = true
    Glibc.close(fileDescriptor)
  }

  /// The full buffer handed to the writer queue, once the write before it ended; filling goes on
  /// in the other buffer.
  private func flush() throws(Errno) {
    try settle()
    let write = WriteBehind(
      fileDescriptor: fileDescriptor, bytes: buffer, count: used, offset: flushed, direct: isDirect)
    let done = DispatchSemaphore(value: 0)
    writer.async {
      write.run()
      done.signal()
    }
    behind = (done, write)
    swap(&buffer, &spare)
    flushed += UInt64(used)
    used = 0
  }

  /// Waits for the write behind, if there is one, and takes what it ended in.
  private func settle() throws(Errno) {
    guard let (done, write) = behind else { return }
    done.wait()
    behind = nil
    switch write.result {
    case .success(let stillDirect): if isDirect && !stillDirect { stopDirect() }
    case .failure(let error): throw error
    case nil: throw Errno(rawValue: EIO)
    }
  }

  /// The buffer's bytes written at their place, the buffer emptied.
  private func bufferWritten() -> (UnsafeRawPointer, Int, UInt64) {
    defer {
      flushed += UInt64(used)
      used = 0
    }
    return (UnsafeRawPointer(buffer), used, flushed)
  }

  private func writeFully(_ piece: (UnsafeRawPointer, Int, UInt64)) throws(Errno) {
    try writeFully(piece.0, piece.1, at: piece.2)
  }

  private func writeFully(_ bytes: UnsafeRawPointer, _ count: Int, at offset: UInt64) throws(Errno)
  {
    let stillDirect = try Self.write(fileDescriptor, bytes, count, at: offset, direct: isDirect)
      .get()
    if isDirect && !stillDirect { stopDirect() }
  }

  /// Every byte written, past short writes; whether the file is still written direct after (a
  /// short direct write leaves the rest unaligned, and a file system may refuse direct I/O after
  /// all: the page cache from there on).
  fileprivate static func write(
    _ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int, at offset: UInt64, direct: Bool
  ) -> Result<Bool, Errno> {
    var direct = direct
    var done = 0
    while done < count {
      switch valueOrErrno({ pwrite(fd, bytes + done, count - done, off_t(offset) + off_t(done)) }) {
      case .success(let n) where n > 0:
        done += n
        if direct && n % blockSize != 0 { direct = stopDirect(fd) }
      case .success:
        return .failure(Errno(rawValue: EIO))
      case .failure(let error) where error.rawValue == EINVAL && direct:
        direct = stopDirect(fd)
      case .failure(let error):
        return .failure(error)
      }
    }
    return .success(direct)
  }

  private func stopDirect() { isDirect = Self.stopDirect(fileDescriptor) }

  private static func stopDirect(_ fd: Int32) -> Bool {
    _ = tv_set_direct_io(fd, 0)
    return false
  }
}

/// One buffer written behind, and what that ended in: handed to the writer queue and read back
/// only after its semaphore is signalled, so never touched by two threads at once.
private final class WriteBehind: @unchecked Sendable {
  let fileDescriptor: Int32
  let bytes: UnsafeRawPointer
  let count: Int
  let offset: UInt64
  let direct: Bool
  var result: Result<Bool, Errno>?

  init(fileDescriptor: Int32, bytes: UnsafeRawPointer, count: Int, offset: UInt64, direct: Bool) {
    (self.fileDescriptor, self.bytes, self.count, self.offset) = (
      fileDescriptor, bytes, count, offset
    )
    self.direct = direct
  }

  func run() {
    result = SequentialFileOutput.write(fileDescriptor, bytes, count, at: offset, direct: direct)
  }
}
