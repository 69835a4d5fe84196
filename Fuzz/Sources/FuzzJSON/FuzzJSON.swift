import Audit
import CFuzzDriver
import Foundation

/// The strict JSON reader verify and the catalogue loader put every document through.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  _ = JSONSyntax.failure(in: Data(bytes: bytes, count: count))
  return 0
}

/// libFuzzer's loop over `fuzzJSON`.
@_cdecl("FuzzJSON_main")
public func fuzzJSONMain(
  _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  var count = argc
  var arguments = argv
  return LLVMFuzzerRunDriver(&count, &arguments) { data, size in
    guard let data else { return 0 }
    return fuzzJSON(data, size)
  }
}
