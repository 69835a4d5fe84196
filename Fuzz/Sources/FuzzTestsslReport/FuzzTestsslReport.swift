import AuditRules
import FuzzSupport

/// testssl.sh's JSON (`scan --from`): read, then every server judged against TR-03161's
/// catalogue.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestsslReport(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
  guard let run = try? ServerScanReport.read(FuzzFile.data(bytes, count)) else { return 0 }
  for scan in run.scans { _ = judge.judge(scan) }
  return 0
}

let judge = ServerConfigurationJudge(
  policy: try! RequirementCatalogueLibrary.catalogue(identifier: "tr-03161-1_3.0").policy,
  year: 2026)

@_cdecl("FuzzTestsslReport_main")
public func fuzzTestsslReportMain(
  _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 { runFuzzer(argc, argv, fuzzTestsslReport) }
