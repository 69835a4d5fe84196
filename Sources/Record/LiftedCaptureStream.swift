import CPcap
import Capture
import Foundation

/// A capture file or stream as libpcap reads it for the recorder: through a `FILE` whose reads
/// pass the bytes on with their snaplen lifted (`SnaplenLifter`), so that `record --read` keeps
/// each record whole, as import does.
final class LiftedCaptureStream {
  private let descriptor: Int32
  private var lifter = SnaplenLifter()
  /// Read, not yet settled by the lifter.
  private var pending: [UInt8] = []
  /// Settled, not yet handed to libpcap, from `readyStart` on.
  private var ready: [UInt8] = []
  private var readyStart = 0
  private var ended = false
  /// What each read(2) fills, allocated once.
  private var chunk = [UInt8](repeating: 0, count: 1 << 16)

  private init(descriptor: Int32) { self.descriptor = descriptor }

  /// Why a stream could not be opened, said as libpcap says it.
  struct OpenError: Error {
    let reason: String
    init(_ path: String) { reason = "\(path): \(String(cString: strerror(errno)))" }
  }

  /// The stream at `path` ("-": standard input) as a `FILE` libpcap may read and close.
  static func open(_ path: String) -> Result<UnsafeMutablePointer<FILE>, OpenError> {
    let descriptor = path == "-" ? dup(0) : Foundation.open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return .failure(OpenError(path)) }
    let stream = LiftedCaptureStream(descriptor: descriptor)
    let functions = tv_cookie_functions(
      read: { cookie, buffer, size in
        guard let cookie, let buffer else { return -1 }
        let stream = Unmanaged<LiftedCaptureStream>.fromOpaque(cookie).takeUnretainedValue()
        return stream.read(into: UnsafeMutableRawPointer(buffer), size: size)
      },
      write: nil, seek: nil,
      close: { cookie in
        guard let cookie else { return 0 }
        let stream = Unmanaged<LiftedCaptureStream>.fromOpaque(cookie).takeRetainedValue()
        return Foundation.close(stream.descriptor)
      })
    let cookie = Unmanaged.passRetained(stream).toOpaque()
    guard let file = tv_fopencookie(cookie, "r", functions) else {
      let error = OpenError(path)
      Unmanaged<LiftedCaptureStream>.fromOpaque(cookie).release()
      Foundation.close(descriptor)
      return .failure(error)
    }
    return .success(file)
  }

  /// Up to `size` settled bytes; 0 only at the end of the stream, -1 on a read error.
  private func read(into buffer: UnsafeMutableRawPointer, size: Int) -> Int {
    while ready.count - readyStart == 0 {
      if ended { return 0 }
      let count = chunk.withUnsafeMutableBytes {
        Foundation.read(descriptor, $0.baseAddress, $0.count)
      }
      if count < 0 {
        if errno == EINTR { continue }
        return -1
      }
      if count == 0 { ended = true } else { pending += chunk[..<count] }
      let settled = lifter.settle(&pending, ended: ended)
      ready = Array(pending[..<settled])
      readyStart = 0
      pending.removeFirst(settled)
    }
    let count = min(size, ready.count - readyStart)
    ready.withUnsafeBytes {
      buffer.copyMemory(from: $0.baseAddress! + readyStart, byteCount: count)
    }
    readyStart += count
    return count
  }
}
