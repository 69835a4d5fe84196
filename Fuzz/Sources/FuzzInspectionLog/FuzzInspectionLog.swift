import AuditRules
import CFuzzDriver
import Foundation

/// An inspecting proxy's log, line by line, as import and the recorder read it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInspectionLog(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  _ = try? InspectionLog.parse(Data(bytes: bytes, count: count))
  return 0
}

/// libFuzzer's loop over `fuzzInspectionLog`.
@_cdecl("FuzzInspectionLog_main")
public func fuzzInspectionLogMain(
  _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  var count = argc
  var arguments = argv
  return LLVMFuzzerRunDriver(&count, &arguments) { data, size in
    guard let data else { return 0 }
    return fuzzInspectionLog(data, size)
  }
}
