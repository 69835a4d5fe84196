import AuditRules
import CFuzzDriver
import Foundation

/// A requirement catalogue file (`project new --catalogue-file`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCatalogue(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  _ = try? RequirementCatalogue(data: Data(bytes: bytes, count: count))
  return 0
}

/// libFuzzer's loop over `fuzzCatalogue`.
@_cdecl("FuzzCatalogue_main")
public func fuzzCatalogueMain(
  _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  var count = argc
  var arguments = argv
  return LLVMFuzzerRunDriver(&count, &arguments) { data, size in
    guard let data else { return 0 }
    return fuzzCatalogue(data, size)
  }
}
