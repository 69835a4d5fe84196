import Audit
import AuditDocuments
import Evidence
import Foundation
import TestSupport
import XCTest

/// Each bundle document's table of keys against what export writes, what the format's
/// documentation lists, and what a changed document is told.
final class BundleDocumentKeysTests: XCTestCase {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  func sampleDocument(_ name: String) throws -> Any {
    let url = Self.repository.appendingPathComponent("Samples/example-health-2.4.0-evidence.zip")
    let archive = try ZipArchiveReader(url: url)
    let entry = try XCTUnwrap(archive.entries.first { $0.name == name })
    return try JSONSerialization.jsonObject(with: try archive.data(entry))
  }

  func testTheSampleSessionJSONHasTheKeysOfItsTable() throws {
    let problems = DocumentShape.problems(
      of: try sampleDocument("session.json"), as: SessionDocument.Key.self)
    XCTAssertEqual(problems.map(\.description), [])
  }

  func testAKeyMissingAddedOrOfAnotherFormIsNamedWithItsPlace() throws {
    var root = try XCTUnwrap(try sampleDocument("session.json") as? [String: Any])
    var session = try XCTUnwrap(root["session"] as? [String: Any])
    var device = try XCTUnwrap(session["device"] as? [String: Any])
    device["model"] = nil
    device["serial"] = "R58M"
    session["device"] = device
    var markers = try XCTUnwrap(session["markers"] as? [[String: Any]])
    markers[1]["at"] = "yesterday"
    markers[0]["label"] = 3
    session["markers"] = markers
    session["endedAt"] = NSNull()
    root["session"] = session
    root["exportedWith"] = true
    // What the table says some documents leave out may be absent; nothing else may.
    var recording = try XCTUnwrap(session["recording"] as? [String: Any])
    XCTAssertNil(recording["notRecorded"])
    recording["notRecorded"] = ["stretches": 1, "seconds": "ten"]
    session["recording"] = recording
    root["session"] = session
    XCTAssertEqual(
      DocumentShape.problems(of: root, as: SessionDocument.Key.self).map(\.description),
      [
        "exportedWith is not a string", "session.device.model is missing",
        "session.device.serial is not a key of the format",
        "session.markers[0].label is not a string",
        "session.markers[1].at is not an instant as export writes it",
        "session.recording.notRecorded.seconds is not a number",
      ])
  }

  /// docs/bundle-format.md lists each key of the table, and no key the table does not have: a
  /// path in a row's first column (`session.id`, `.name` after it), or a key named in the row of
  /// the object it belongs to.
  func testTheFormatDocumentationListsTheKeysOfSessionJSON() throws {
    try assertDocumented(try documentedRows(of: "session.json"), SessionDocument.Key.self)
  }

  func testTheFormatDocumentationListsTheKeysOfAFlowOfFlowsJSON() throws {
    try assertDocumented(try documentedRows(of: "flows.json"), EvidenceFlowRecord.Key.self)
  }

  func testTheSampleFlowsJSONHasTheKeysOfItsTable() throws {
    let problems = DocumentShape.problems(
      of: try sampleDocument("flows.json"), as: FlowsDocument.Key.self)
    XCTAssertEqual(problems.map(\.description), [])
  }

  func testTheFormatDocumentationListsTheKeysOfCaptureJSON() throws {
    try assertDocumented(
      try documentedRows(of: "capture.pcapng and capture.json"), CaptureDocument.Key.self)
  }

  func testTheFormatDocumentationListsTheKeysOfManifestJSON() throws {
    let words = Self.words(try section("manifest.json"))
    for (path, name) in Self.paths(ManifestDocument.Key.self) {
      XCTAssertTrue(words.contains(name), "docs/bundle-format.md does not name \(path)")
    }
  }

  func testTheSampleCaptureAndManifestHaveTheKeysOfTheirTables() throws {
    XCTAssertEqual(
      DocumentShape.problems(of: try sampleDocument("capture.json"), as: CaptureDocument.Key.self)
        .map(\.description), [])
    XCTAssertEqual(
      DocumentShape.problems(
        of: try sampleDocument("manifest.json"), as: ManifestDocument.Key.self
      ).map(\.description), [])
  }

  func testTheFormatDocumentationListsTheKeysOfFindingsJSON() throws {
    try assertDocumented(try documentedRows(of: "findings.json"), FindingsDocument.Key.self)
  }

  func testTheSampleFindingsJSONHasTheKeysOfItsTable() throws {
    XCTAssertEqual(
      DocumentShape.problems(of: try sampleDocument("findings.json"), as: FindingsDocument.Key.self)
        .map(\.description), [])
  }

  func testTheFormatDocumentationListsTheKeysOfExchangesJSON() throws {
    try assertDocumented(
      try documentedRows(of: "exchanges.json"), EvidenceExchangesDocument.Key.self)
    let words = Self.words(try section("exchanges.json"))
    for key in EvidenceExchangesDocument.DocumentKey.allCases {
      XCTAssertTrue(words.contains(key.rawValue), "docs/bundle-format.md does not name \(key)")
    }
  }

  func testTheSampleExchangesJSONHasTheKeysOfItsTable() throws {
    XCTAssertEqual(
      DocumentShape.problems(
        of: try sampleDocument("exchanges.json"), as: EvidenceExchangesDocument.DocumentKey.self
      ).map(\.description), [])
  }

  func assertDocumented(
    _ rows: [DocumentedRow], _ keys: any DocumentKeys.Type, file: StaticString = #filePath,
    line: UInt = #line
  ) throws {
    let table = Self.paths(keys)
    let tablePaths = Set(table.map(\.path))
    for row in rows {
      for path in row.paths {
        XCTAssertTrue(
          tablePaths.contains(path), "docs name \(path), which the table lacks", file: file,
          line: line)
      }
    }
    for (path, name) in table {
      // Its path, or a key of it, in a first column.
      if rows.contains(where: { $0.paths.contains { $0 == path || $0.hasPrefix(path + ".") } }) {
        continue
      }
      // Else the row of its nearest documented object names it.
      let parents = rows.compactMap { row in
        row.paths.filter { path.hasPrefix($0 + ".") }.max { $0.count < $1.count }.map { (row, $0) }
      }
      let nearest = parents.max { $0.1.count < $1.1.count }?.0
      let words = nearest.map { Self.words($0.text) } ?? []
      XCTAssertTrue(
        words.contains(name), "docs/bundle-format.md does not name \(path)", file: file, line: line)
    }
  }

  struct DocumentedRow {
    let paths: [String]
    let text: String
  }

  /// The rows of the table under "## NAME": the paths of its first column and the whole row.
  func documentedRows(of name: String) throws -> [DocumentedRow] {
    let body = try section(name)
    var rows: [DocumentedRow] = []
    for line in body.split(separator: "\n") where line.hasPrefix("| `") {
      let first = line.dropFirst(2).prefix { $0 != "|" }
      var paths: [String] = []
      for part in String(first).components(separatedBy: "`").enumerated() where part.offset % 2 == 1
      {
        var path = String(part.element)
        // ".name" after "session.id": a key of the same object.
        if path.hasPrefix("."), let last = paths.last, let dot = last.lastIndex(of: ".") {
          path = String(last[..<dot]) + path
        }
        paths.append(path.replacingOccurrences(of: "[]", with: ""))
      }
      rows.append(DocumentedRow(paths: paths, text: String(line)))
    }
    XCTAssertFalse(rows.isEmpty, "no table under ## \(name)")
    return rows
  }

  /// The text under "## NAME" of docs/bundle-format.md, to the next heading of its level.
  func section(_ name: String) throws -> String {
    let text = try String(
      contentsOf: Self.repository.appendingPathComponent("docs/bundle-format.md"), encoding: .utf8)
    let section = try XCTUnwrap(text.components(separatedBy: "\n## \(name)\n").dropFirst().first)
    return section.components(separatedBy: "\n## ").first ?? section
  }

  static func words(_ text: String) -> Set<String> {
    Set(text.split { !$0.isLetter && !$0.isNumber }.map(String.init))
  }

  /// Every key of the table with its path, lists left out ("session.markers.at"); the keys of an
  /// object met again (a tally, a proxy's start) only where it is first met.
  static func paths(_ keys: any DocumentKeys.Type, under prefix: String = "") -> [(
    path: String, name: String
  )] {
    var met: Set<ObjectIdentifier> = []
    func walk(_ keys: any DocumentKeys.Type, _ prefix: String) -> [(path: String, name: String)] {
      guard met.insert(ObjectIdentifier(keys)).inserted else { return [] }
      return keys.table.flatMap { name, form in
        let path = prefix.isEmpty ? name : prefix + "." + name
        return [(path, name)] + (form.keys.map { walk($0, path) } ?? [])
      }
    }
    return walk(keys, prefix)
  }
}
