import Evidence
import FuzzSupport

/// An evidence bundle as verify reads it: the ZIP reader, then every document check.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBundle(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
  _ = BundleVerifier.verify(FuzzFile.write(bytes, count, name: "bundle.zip"))
  return 0
}

@_cdecl("FuzzBundle_main")
public func fuzzBundleMain(
  _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 { runFuzzer(argc, argv, fuzzBundle) }
