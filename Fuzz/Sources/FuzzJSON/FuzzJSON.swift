import Audit
import FuzzSupport

/// The strict JSON reader verify and the catalogue loader put every document through.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
  _ = JSONSyntax.failure(in: FuzzFile.data(bytes, count))
  return 0
}

@_cdecl("FuzzJSON_main")
public func fuzzJSONMain(
  _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 { runFuzzer(argc, argv, fuzzJSON) }
