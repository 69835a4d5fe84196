import AuditRules
import FuzzSupport

/// A requirement catalogue file (`project new --catalogue-file`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCatalogue(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
  _ = try? RequirementCatalogue(data: FuzzFile.data(bytes, count))
  return 0
}

@_cdecl("FuzzCatalogue_main")
public func fuzzCatalogueMain(
  _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 { runFuzzer(argc, argv, fuzzCatalogue) }
