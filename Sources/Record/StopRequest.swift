import Dispatch
import Foundation

/// Ctrl-C and SIGTERM, taken from the moment a recording is asked for: while the source opens (a
/// stream's file header may be long in coming) and while it records. What to do on a stop is
/// given once there is something to stop; a stop asked before then is acted on at once.
public final class StopRequest: @unchecked Sendable {
  private let lock = NSLock()
  private var asked = false
  private var action: (() -> Void)?
  private var sources: [DispatchSourceSignal] = []

  public init() {}

  /// Takes SIGINT and SIGTERM until `release()`.
  public func takeSignals() {
    sources = [SIGINT, SIGTERM].map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { [weak self] in self?.ask() }
      source.resume()
      return source
    }
  }

  public func release() {
    for source in sources { source.cancel() }
    sources = []
    signal(SIGINT, SIG_DFL)
    signal(SIGTERM, SIG_DFL)
  }

  public func ask() {
    lock.lock()
    asked = true
    let action = self.action
    lock.unlock()
    action?()
  }

  public var wasAsked: Bool {
    lock.lock()
    defer { lock.unlock() }
    return asked
  }

  /// What a stop does from now on; called at once when one was asked already.
  public func onStop(_ body: @escaping () -> Void) {
    lock.lock()
    action = body
    let already = asked
    lock.unlock()
    if already { body() }
  }
}

extension PacketCapture {
  /// Opens the source on a thread of its own, and waits for it until a stop is asked or `limit`
  /// passes: nil then (a stream that has not sent its file header yet holds nothing to record).
  public static func open(
    _ source: PacketSource, snaplen: Int32, filter: String?, until limit: Date?,
    unless stop: StopRequest
  ) throws(PacketCaptureError) -> PacketCapture? {
    let done = DispatchSemaphore(value: 0)
    let box = OpenResult()
    Thread {
      do throws(PacketCaptureError) {
        box.set(.success(try PacketCapture(source, snaplen: snaplen, filter: filter)))
      } catch {
        box.set(.failure(error))
      }
      done.signal()
    }.start()
    while done.wait(timeout: .now() + 0.1) == .timedOut {
      if stop.wasAsked || limit.map({ Date() >= $0 }) == true { return nil }
    }
    switch box.result! {
    case .success(let capture): return capture
    case .failure(let error): throw error
    }
  }
}

private final class OpenResult: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Result<PacketCapture, PacketCaptureError>?
  func set(_ result: Result<PacketCapture, PacketCaptureError>) {
    lock.lock()
    value = result
    lock.unlock()
  }
  var result: Result<PacketCapture, PacketCaptureError>? {
    lock.lock()
    defer { lock.unlock() }
    return value
  }
}
