import Dispatch
import Foundation

/// SHA-256 of bytes handed over in order, computed on a queue of its own: the reader of a capture
/// runs on one thread, and its file's digest costs it nothing on the second core.
public final class BackgroundDigest: @unchecked Sendable {
  private let digest = SHA256Digest()
  private let queue = DispatchQueue(label: "tunnelvision.capture-digest")
  /// At most two pieces wait to be hashed: memory stays bounded however fast the reader is.
  private let inFlight = DispatchSemaphore(value: 2)

  /// The bytes are copied: the caller's buffer is refilled while they are hashed.
  public init() {}

  public func update(_ bytes: UnsafeRawBufferPointer) {
    inFlight.wait()
    let copy = [UInt8](bytes)
    queue.async {
      copy.withUnsafeBytes { self.digest.update($0) }
      self.inFlight.signal()
    }
  }

  /// Lower-case hex, once every byte handed over is hashed.
  public func finalHex() -> String { queue.sync { digest.finalHex() } }
}
