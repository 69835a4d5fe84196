import CSystemCalls
import Dispatch
import Glibc

/// A file read forward a piece at a time, straight from the device where the file system allows
/// it (O_DIRECT), the next piece read on another thread while the caller uses this one: a capture
/// read twice fills no fresh page-cache memory, which on a virtual machine costs more than the
/// reading (docs/performance.md), and the device's latency is not waited for either.
public final class ReadAheadFileInput: @unchecked Sendable {
  public static let pieceSize = 1 << 20
  public let fileDescriptor: Int32
  /// Two buffers taken in turn: the caller's piece in one, the next piece read into the other.
  private let buffers: [UnsafeMutableRawPointer]
  /// What each buffer's reading gave: its byte count, or its error. Written by the reading,
  /// read by the caller once `ready` says it is done.
  private var results: [Result<Int, Errno>] = [.success(0), .success(0)]
  private let ready = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
  private let queue = DispatchQueue(label: "tunnelvision.read-ahead")
  /// Whether the reads go past the page cache; switched off on the reading's queue only.
  private var isDirect: Bool
  /// The buffer the next piece is read into or waits in, and where that piece starts.
  private var next = 0
  private var nextOffset: UInt64 = 0
  private var started = false
  private var ended = false
  /// The bytes of the first piece before the offset asked for: the reads start at a block's
  /// beginning, as direct I/O wants.
  private var skip: Int

  /// The file at `path`, open for reading from `offset` on.
  public static func open(path: String, from offset: UInt64 = 0) -> Result<
    ReadAheadFileInput, Errno
  > {
    valueOrErrno { Glibc.open(path, O_RDONLY | O_CLOEXEC) }.map {
      ReadAheadFileInput(fileDescriptor: $0, from: offset)
    }
  }

  /// Takes `fileDescriptor`, open for reading, and closes it at the end; its pieces start at
  /// `offset`.
  public init(fileDescriptor: Int32, from offset: UInt64 = 0) {
    self.fileDescriptor = fileDescriptor
    let block = UInt64(SequentialFileOutput.blockSize)
    nextOffset = offset / block * block
    skip = Int(offset - nextOffset)
    buffers = (0..<2).map { _ in
      .allocate(byteCount: Self.pieceSize, alignment: SequentialFileOutput.blockSize)
    }
    isDirect = tv_set_direct_io(fileDescriptor, 1) == 0
  }

  deinit {
    // The reading's blocks hold the input: none is under way once it goes.
    for buffer in buffers { buffer.deallocate() }
    Glibc.close(fileDescriptor)
  }

  /// The file's next piece (empty at its end), valid until the next call: at most `pieceSize`
  /// bytes, the first fewer by as many as its offset lies past a block's start.
  public func nextPiece() throws(Errno) -> UnsafeRawBufferPointer {
    if ended { return UnsafeRawBufferPointer(start: nil, count: 0) }
    if !started {
      started = true
      readNext()
    }
    let taken = next
    ready[taken].wait()
    let count = try results[taken].get()
    if count < Self.pieceSize {
      ended = true
    } else {
      // The buffer returned before is free again: the piece after this one goes into it.
      next = 1 - taken
      readNext()
    }
    let skipped = min(skip, count)
    skip = 0
    return UnsafeRawBufferPointer(start: buffers[taken] + skipped, count: count - skipped)
  }

  /// Reads the piece at `nextOffset` into buffer `next` on the reading's queue.
  private func readNext() {
    let (index, offset) = (next, nextOffset)
    nextOffset += UInt64(Self.pieceSize)
    queue.async {
      self.results[index] = SequentialFileInput.read(
        self.fileDescriptor, into: self.buffers[index], count: Self.pieceSize, at: offset,
        direct: &self.isDirect)
      self.ready[index].signal()
    }
  }
}
