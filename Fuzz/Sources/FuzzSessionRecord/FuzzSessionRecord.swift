import AuditDocuments
import FuzzSupport

/// session.json read back into the values verify re-derives a bundle from.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSessionRecord(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
  _ = try? EvidenceSessionRecord(FuzzFile.data(bytes, count))
  return 0
}

@_cdecl("FuzzSessionRecord_main")
public func fuzzSessionRecordMain(
  _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 { runFuzzer(argc, argv, fuzzSessionRecord) }
