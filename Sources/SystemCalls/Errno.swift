import Glibc

/// A system call's error number as a value (swift-system's `Errno`): what failed is carried as
/// a number and said in the system's words only where a sentence is made.
public struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
  public let rawValue: Int32
  public init(rawValue: Int32) { self.rawValue = rawValue }

  /// The calling thread's `errno`, read right after the call that set it.
  public static var current: Errno { Errno(rawValue: errno) }

  public static let interrupted = Errno(rawValue: EINTR)
  public static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
  public static let noSuchProcess = Errno(rawValue: ESRCH)

  /// The system's words for it: "No space left on device".
  public var description: String { String(cString: strerror(rawValue)) }
}

/// Runs a call that answers a negative value and sets `errno` when it fails, again while it is
/// interrupted by a signal (when asked to): its value, or the error it set.
@inlinable
public func valueOrErrno<I: FixedWidthInteger>(
  retryOnInterrupt: Bool = true, _ call: () -> I
) -> Result<I, Errno> {
  while true {
    let value = call()
    if value >= 0 { return .success(value) }
    let error = Errno.current
    if retryOnInterrupt && error == .interrupted { continue }
    return .failure(error)
  }
}

/// The same for a call that answers 0 on success and -1 with `errno` on failure.
@inlinable
public func nothingOrErrno(retryOnInterrupt: Bool = true, _ call: () -> Int32) -> Result<
  Void, Errno
> {
  valueOrErrno(retryOnInterrupt: retryOnInterrupt, call).map { _ in () }
}

extension Result where Failure == Errno {
  /// The system's words for the error; for a success, that it wrote short (a call whose count a
  /// caller holds to the one asked for, as a write's).
  public var errorText: String {
    if case .failure(let error) = self { return error.description }
    return "fewer bytes than asked for were written"
  }
}
