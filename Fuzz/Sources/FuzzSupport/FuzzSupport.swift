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

/// One file a process reuses for each input, for the readers under test that take a path. It
/// lives in memory (memfd_create), reached as /proc/self/fd/N: a file on disk truncated with
/// data in it made ext4 write it back at each input, most of a small input's time.
public enum FuzzFile {
  nonisolated(unsafe) static var descriptors: [String: Int32] = [:]
  public static func write(_ bytes: UnsafePointer<UInt8>?, _ count: Int, name: String) -> URL {
    let descriptor: Int32
    if let known = descriptors[name] {
      descriptor = known
    } else {
      descriptor = memfd_create("tunnelvision-fuzz-\(name)", 0)
      precondition(descriptor >= 0, "memfd_create failed: errno \(errno)")
      descriptors[name] = descriptor
    }
    precondition(ftruncate(descriptor, 0) == 0, "ftruncate failed: errno \(errno)")
    var done = 0
    while done < count, let bytes {
      let wrote = pwrite(descriptor, bytes + done, count - done, off_t(done))
      precondition(wrote > 0, "pwrite failed: errno \(errno)")
      done += wrote
    }
    return URL(fileURLWithPath: "/proc/self/fd/\(descriptor)")
  }

  /// The input as Data.
  public static func data(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Data {
    guard let bytes else { return Data() }
    return Data(bytes: bytes, count: count)
  }
}
