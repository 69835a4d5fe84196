import Foundation
import TestSupport
import XCTest

/// The seeded reliability run of verify (scripts/verify-mutations.py), smaller than the one
/// docs/bundle-format.md reports: altered copies of the sample bundle, each verified by the
/// built executable. None may crash verify, none may be accepted unless Python's zipfile reads
/// it as the same entries with the same bytes, and — report.pdf citing every other file's digest
/// and being drawn again — no copy rebuilt with its manifest recomputed may pass.
final class VerifyMutationsTests: XCTestCase {
  func testNoAlteredCopyOfTheSampleBundleCrashesVerifyOrIsAccepted() throws {
    let binary = try TunnelVisionExecutable.url()
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let count = 48
    let run = try XCTUnwrap(
      ExternalTool.run(
        "python3",
        [
          root.appendingPathComponent("scripts/verify-mutations.py").path, binary.path,
          root.appendingPathComponent("Samples/example-health-2.4.0-evidence.zip").path,
          String(count), "11", "--json",
        ]))
    XCTAssertEqual(run.status, 0, run.error)
    let result = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
    let tally = try XCTUnwrap(result["tally"] as? [String: Int])
    XCTAssertEqual(tally["crashed"], 0, "\(result)")
    XCTAssertEqual(tally["false accept"], 0, "\(result)")
    XCTAssertNil(tally["accepted, rebuilt with the manifest recomputed"], "\(result)")
    XCTAssertEqual(tally.values.reduce(0, +), count)
    XCTAssertGreaterThan(tally["refused"] ?? 0, count * 9 / 10)
    let rebuilt = try XCTUnwrap(result["rebuiltByEntry"] as? [String: [String: Int]])
    XCTAssertEqual(rebuilt.values.map { $0["refused"] ?? 0 }.reduce(0, +), count / 2)
  }
}
