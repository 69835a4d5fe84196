import AuditRules
import FuzzSupport

/// An inspecting proxy's log, line by line, as import and the recorder read it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInspectionLog(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
  _ = try? InspectionLog.parse(FuzzFile.data(bytes, count))
  return 0
}

@_cdecl("FuzzInspectionLog_main")
public func fuzzInspectionLogMain(
  _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 { runFuzzer(argc, argv, fuzzInspectionLog) }
