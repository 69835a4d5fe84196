import Audit
import AuditRules
import AuditWording
import Foundation
import Glibc
import SystemCalls

/// The store's one recorder: a lock on `recorder.lock` in the store's directory, held while the
/// recorder runs, the file holding its claim. The kernel lets the lock go when the process ends,
/// however it ends, so a claim is true exactly while its lock is held.
public final class RecorderLock {
  public static let fileName = "recorder.lock"
  private let descriptor: Int32
  private let url: URL

  public enum Failure: Error, Sendable, Hashable {
    /// Another recorder holds the store; its claim, when it could be read.
    case held(RecorderClaim?)
    case unavailable(path: String, Errno)
  }

  /// Takes the store for a recorder, writing its claim; refused while another holds it.
  public init(storeDirectory: URL, claim: RecorderClaim) throws(Failure) {
    url = storeDirectory.appendingPathComponent(Self.fileName)
    let path = url.path
    guard
      case .success(let fd) = valueOrErrno({ Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644) }
      )
    else { throw .unavailable(path: path, .current) }
    if case .failure(let error) = nothingOrErrno({ flock(fd, LOCK_EX | LOCK_NB) }) {
      close(fd)
      if error.rawValue == EWOULDBLOCK { throw .held(Self.claim(at: url)) }
      throw .unavailable(path: path, error)
    }
    descriptor = fd
    let bytes = Array(claim.text.utf8)
    let written = bytes.withUnsafeBytes { buffer in
      ftruncate(fd, 0) == 0 ? pwrite(fd, buffer.baseAddress, buffer.count, 0) : -1
    }
    guard written == bytes.count else {
      let error = Errno.current
      close(fd)
      throw .unavailable(path: path, error)
    }
  }

  /// Gives the store up: the claim is emptied, then the lock let go.
  public func release() {
    _ = ftruncate(descriptor, 0)
    close(descriptor)
  }

  /// The claim of the recorder running on this store now; nil when none runs.
  public static func running(storeDirectory: URL) -> RecorderClaim? {
    let url = storeDirectory.appendingPathComponent(fileName)
    guard case .success(let fd) = valueOrErrno({ Glibc.open(url.path, O_RDONLY | O_CLOEXEC) })
    else { return nil }
    defer { close(fd) }
    // A shared lock is refused only while the recorder holds its exclusive one.
    if case .success = nothingOrErrno({ flock(fd, LOCK_SH | LOCK_NB) }) {
      _ = flock(fd, LOCK_UN)
      return nil
    }
    return claim(at: url)
      ?? RecorderClaim(
        processID: 0, sourceName: "an unknown source", isLive: false, since: .distantPast)
  }

  private static func claim(at url: URL) -> RecorderClaim? {
    guard let data = try? Data(contentsOf: url), data.count < 4096 else { return nil }
    return RecorderClaim.parse(String(decoding: data, as: UTF8.self))
  }
}
