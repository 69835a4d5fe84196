import FuzzSupport
import Import

/// pcap or pcapng, read as import reads it: decoded in time order, every packet
/// dissected and its flow's readings taken (TLS, QUIC Initial, DNS, HTTP opening, CONNECT).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCapture(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
  _ = try? CaptureImporter.analyse(FuzzFile.write(bytes, count, name: "capture"))
  return 0
}

@_cdecl("FuzzCapture_main")
public func fuzzCaptureMain(
  _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 { runFuzzer(argc, argv, fuzzCapture) }
