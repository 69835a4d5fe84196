import Foundation
import TestSupport
import XCTest

/// The module graph docs/architecture.md draws is Package.swift's, and each target imports what
/// it declares: an import of a module reached only through another's dependencies builds today
/// and breaks when that other target's list changes.
final class PackageGraphTests: XCTestCase {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  struct Target {
    var name: String
    var type: String
    var path: String
    var dependencies: [String]
  }

  /// The package as SwiftPM reads it (`swift package dump-package`, with a scratch directory of
  /// its own so that a build under way keeps its lock).
  func targets() throws -> [Target] {
    let scratch = TemporaryDirectory("package-graph")
    let dumped = try XCTUnwrap(
      ExternalTool.run(
        "swift",
        [
          "package", "--package-path", Self.root.path, "--scratch-path", scratch.url.path,
          "dump-package",
        ]), "swift is not on PATH")
    XCTAssertEqual(dumped.status, 0, dumped.error)
    let json = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(dumped.output.utf8)) as? [String: Any])
    let targets = try XCTUnwrap(json["targets"] as? [[String: Any]])
    return try targets.map { target in
      let name = try XCTUnwrap(target["name"] as? String)
      let type = try XCTUnwrap(target["type"] as? String)
      let dependencies = (target["dependencies"] as? [[String: Any]] ?? []).compactMap {
        ($0.values.first as? [Any])?.first as? String
      }
      let path = target["path"] as? String ?? (type == "test" ? "Tests/\(name)" : "Sources/\(name)")
      return Target(name: name, type: type, path: path, dependencies: dependencies)
    }
  }

  func testTheModuleGraphInTheArchitectureIsThePackages() throws {
    let document = try String(
      contentsOf: Self.root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
    let section = try XCTUnwrap(document.range(of: "## The module graph"), "no module graph")
    let block = document[section.upperBound...].components(separatedBy: "```")
    XCTAssertGreaterThanOrEqual(block.count, 2)
    var drawn: [String: [String]] = [:]
    for line in block[1].split(separator: "\n") {
      let fields = line.split(separator: " ", maxSplits: 1)
      guard let name = fields.first else { continue }
      let rest = fields.count > 1 ? fields[1].trimmingCharacters(in: .whitespaces) : ""
      drawn[String(name)] =
        rest == "—" ? [] : rest.components(separatedBy: ", ").filter { !$0.isEmpty }
    }
    let declared = Dictionary(
      uniqueKeysWithValues: try targets().filter { $0.type != "system" && $0.type != "test" }.map {
        ($0.name, $0.dependencies)
      })
    XCTAssertEqual(drawn.keys.sorted(), declared.keys.sorted())
    for (name, dependencies) in declared {
      XCTAssertEqual(drawn[name], dependencies, "\(name) in docs/architecture.md")
    }
  }

  /// The modules a target's Swift files import, outside multi-line string literals (tests hold
  /// Python scripts whose imports are not Swift's).
  func imports(under path: String) throws -> Set<String> {
    let directory = Self.root.appendingPathComponent(path)
    let files = try XCTUnwrap(FileManager.default.enumerator(atPath: directory.path))
      .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
    var modules = Set<String>()
    for file in files {
      let text = try String(
        contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
      var inLiteral = false
      for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        let quotes = line.components(separatedBy: "\"\"\"").count - 1
        if !inLiteral {
          let words = line.split(separator: " ").map(String.init)
          if let at = words.firstIndex(of: "import"), at + 1 < words.count,
            words[..<at].allSatisfy({ $0.hasPrefix("@") })
          {
            modules.insert(words[at + 1])
          }
        }
        if quotes % 2 == 1 { inLiteral.toggle() }
      }
    }
    return modules
  }

  func testEachTargetImportsWhatItDeclaresAndNoMore() throws {
    let toolchain: Set = [
      "Foundation", "FoundationEssentials", "Glibc", "Dispatch", "XCTest", "Synchronization",
    ]
    var checked = 0
    for target in try targets() where target.type != "system" {
      let imported = try imports(under: target.path).subtracting(toolchain)
      XCTAssertEqual(
        imported.subtracting(target.dependencies).sorted(), [],
        "\(target.name) imports modules it does not declare")
      XCTAssertEqual(
        Set(target.dependencies).subtracting(imported).sorted(), [],
        "\(target.name) declares modules it does not import")
      checked += 1
    }
    XCTAssertGreaterThan(checked, 30)
  }
}
