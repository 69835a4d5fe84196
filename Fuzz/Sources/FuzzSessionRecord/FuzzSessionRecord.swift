import AuditDocuments
import CFuzzDriver
import Foundation

/// session.json read back into the values verify re-derives a bundle from.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSessionRecord(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  _ = try? EvidenceSessionRecord(Data(bytes: bytes, count: count))
  return 0
}

/// libFuzzer's loop over `fuzzSessionRecord`.
@_cdecl("FuzzSessionRecord_main")
public func fuzzSessionRecordMain(
  _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  var count = argc
  var arguments = argv
  return LLVMFuzzerRunDriver(&count, &arguments) { data, size in
    guard let data else { return 0 }
    return fuzzSessionRecord(data, size)
  }
}
