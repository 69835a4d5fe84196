import AuditRules
import FuzzSupport

/// A HAR file an assessor brings (`import --har`), read strictly, then joined to no flows.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHAR(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
  if let read = try? HARReader.read(FuzzFile.data(bytes, count)) {
    _ = HARReader.join(read.entries, to: [])
  }
  return 0
}

@_cdecl("FuzzHAR_main")
public func fuzzHARMain(
  _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 { runFuzzer(argc, argv, fuzzHAR) }
