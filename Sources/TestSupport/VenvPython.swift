import Foundation

/// The tests' own Python environment (.venv, which scripts/setup.sh makes): PyPI's independent
/// readers (maxminddb, publicsuffixlist, ja4plus) and writers (mmdb-writer).
public enum VenvPython {
  public static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent(".venv/bin/python").path

  public static var isThere: Bool { FileManager.default.isExecutableFile(atPath: path) }

  public static let missing =
    "the test's Python environment (.venv) is not there: make test makes it"
}

/// What a bundle's report.pdf says, as pdftotext reads it (its layout kept): the report taken
/// out of the archive into `scratch` first.
public enum BundleReportText {
  public static func of(bundle: String, scratch: URL) throws -> String {
    let pdf = scratch.appendingPathComponent("report-\(UUID().uuidString).pdf").path
    guard
      let taken = try ExternalTool.run(
        "sh", ["-c", "unzip -p \"$0\" report.pdf > \"$1\"", bundle, pdf]),
      taken.status == 0,
      let text = try ExternalTool.run("pdftotext", ["-layout", pdf, "-"]), text.status == 0
    else { throw Readiness.NotReady(description: "report.pdf of \(bundle) could not be read") }
    return text.output
  }
}
