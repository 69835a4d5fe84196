import CFuzzDriver
import Foundation

/// libFuzzer's loop over a target's `LLVMFuzzerTestOneInput`, from the target's entry point.
public func runFuzzer(
  _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ target: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32 {
  var count = argc
  var arguments = argv
  return LLVMFuzzerRunDriver(&count, &arguments, target)
}

/// One file a process reuses for each input, for the readers under test that take a path.
public enum FuzzFile {
  nonisolated(unsafe) static var urls: [String: URL] = [:]
  public static func write(_ bytes: UnsafePointer<UInt8>?, _ count: Int, name: String) -> URL {
    let url =
      urls[name]
      ?? FileManager.default.temporaryDirectory.appendingPathComponent(
        "tunnelvision-fuzz-\(getpid())-\(name)")
    urls[name] = url
    // Written in place, no fsync (Data.write's atomic write synced each input: a twentieth of a
    // capture input's time); the file is this process's alone.
    let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return url }
    defer { close(descriptor) }
    var done = 0
    while done < count, let bytes {
      let wrote = Foundation.write(descriptor, bytes + done, count - done)
      if wrote <= 0 { break }
      done += wrote
    }
    return url
  }

  /// The input as Data.
  public static func data(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Data {
    guard let bytes else { return Data() }
    return Data(bytes: bytes, count: count)
  }
}
