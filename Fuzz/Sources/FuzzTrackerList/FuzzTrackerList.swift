import AuditRules
import Foundation
import FuzzSupport

/// A tracker list (`--tracker-list`, EasyPrivacy): its rules read, then hosts matched against it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTrackerList(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
  let text = String(decoding: FuzzFile.data(bytes, count), as: UTF8.self)
  let list = TrackerList(
    identity: TrackerList.Identity(name: "fuzz", path: "fuzz", sha256: "", date: "2026-01-01"),
    text: text)
  for host in ["tracker.example", "a.b.tracker.example", "example", "", ".", "a..b"] {
    _ = list.match(host)
  }
  for line in text.split(separator: "\n").prefix(8) { _ = list.match(String(line)) }
  return 0
}

@_cdecl("FuzzTrackerList_main")
public func fuzzTrackerListMain(
  _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 { runFuzzer(argc, argv, fuzzTrackerList) }
