import CFuzzDriver
import Evidence
import Foundation

/// An evidence bundle as verify reads it: the ZIP reader, then every document check.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBundle(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let url = FuzzFile.write(bytes, count, name: "bundle.zip")
  _ = BundleVerifier.verify(url)
  return 0
}

/// One file a process reuses for each input: the readers under test take a path.
enum FuzzFile {
  nonisolated(unsafe) static var urls: [String: URL] = [:]
  static func write(_ bytes: UnsafePointer<UInt8>, _ count: Int, name: String) -> URL {
    let url =
      urls[name]
      ?? FileManager.default.temporaryDirectory.appendingPathComponent(
        "tunnelvision-fuzz-\(getpid())-\(name)")
    urls[name] = url
    try? Data(bytes: bytes, count: count).write(to: url)
    return url
  }
}

/// libFuzzer's loop over `fuzzBundle`.
@_cdecl("FuzzBundle_main")
public func fuzzBundleMain(
  _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  var count = argc
  var arguments = argv
  return LLVMFuzzerRunDriver(&count, &arguments) { data, size in
    guard let data else { return 0 }
    return fuzzBundle(data, size)
  }
}
