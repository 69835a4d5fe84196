import CFuzzDriver
import Foundation
import Import

/// A capture file, pcap or pcapng, read as import reads it: decoded in time order, every packet
/// dissected and its flow's readings taken (TLS, QUIC Initial, DNS, HTTP opening, CONNECT).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCapture(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let url = FuzzFile.write(bytes, count, name: "capture")
  _ = try? CaptureImporter.analyse(url)
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

/// libFuzzer's loop over `fuzzCapture`.
@_cdecl("FuzzCapture_main")
public func fuzzCaptureMain(
  _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  var count = argc
  var arguments = argv
  return LLVMFuzzerRunDriver(&count, &arguments) { data, size in
    guard let data else { return 0 }
    return fuzzCapture(data, size)
  }
}
