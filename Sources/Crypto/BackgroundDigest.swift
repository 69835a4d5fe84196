import Dispatch
import Foundation
import SystemCalls

/// SHA-256 of bytes handed over in order, computed on a queue of its own: the reader of a capture
/// runs on one thread, and its file's digest costs it nothing on the second core.
public final class BackgroundDigest: @unchecked Sendable {
  private let digest = SHA256Digest()
  private let behind = InOrderBehind(label: "tunnelvision.capture-digest")

  /// The bytes are copied: the caller's buffer is refilled while they are hashed.
  public init() {}

  public func update(_ bytes: UnsafeRawBufferPointer) {
    behind.hand({ [UInt8](bytes) }, to: { copy in copy.withUnsafeBytes { self.digest.update($0) } })
  }

  /// Lower-case hex, once every byte handed over is hashed.
  public func finalHex() -> String { behind.sync { digest.finalHex() } }
}
