import AuditRules
import Foundation
import XCTest

@testable import Evidence

/// Lists given on the command line, and those a bundle names when verify reads them again, are
/// read side by side: they come back in the order given, and of several that cannot be used the
/// first given is the one said.
final class TrackerListLoaderTests: XCTestCase {
  var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tracker-lists-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  func file(_ name: String, _ text: String) throws -> String {
    let url = directory.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url.path
  }

  /// Nothing installed under it: the lists are the ones given.
  var emptyShare: String { directory.appendingPathComponent("share").path }

  func testListsGivenComeBackInTheOrderGiven() throws {
    var paths: [String] = []
    for index in 0..<5 {
      paths.append(
        try file("list\(index).txt", "! Title: List \(index)\n||tracker\(index).example^\n"))
    }
    for order in [paths, paths.reversed()] {
      let lists = try XCTUnwrap(TrackerListLoader.lists(given: order, shareDirectory: emptyShare))
      XCTAssertEqual(lists.lists.map(\.identity.path), order)
      XCTAssertEqual(lists.lists.map(\.identity.name), order.map { "List \($0.dropLast(4).last!)" })
    }
  }

  func testOfSeveralListsThatCannotBeUsedTheFirstGivenIsSaid() throws {
    let good = try file("good.txt", "||tracker.example^\n")
    let empty = try file("empty.txt", "! nothing but a comment\n")
    let missing = directory.appendingPathComponent("missing.txt").path
    let cases: [([String], String)] = [
      ([good, missing, empty], "The tracker list \(missing) cannot be read"),
      ([good, empty, missing], "The tracker list \(empty) names no host"),
      ([empty, good, good, missing], "The tracker list \(empty) names no host"),
    ]
    for (given, said) in cases {
      XCTAssertThrowsError(try TrackerListLoader.lists(given: given, shareDirectory: emptyShare)) {
        XCTAssertTrue("\($0)".hasPrefix(said), "\($0)")
      }
    }
  }

  func testListsReadAgainComeBackInTheOrderNamedAndTheFirstGoneOrChangedIsSaid() throws {
    var paths: [String] = []
    for index in 0..<4 {
      paths.append(
        try file("list\(index).txt", "! Title: List \(index)\n||tracker\(index).example^\n"))
    }
    let identities = try XCTUnwrap(
      TrackerListLoader.lists(given: paths, shareDirectory: emptyShare)
    ).lists.map(\.identity)
    for order in [identities, identities.reversed()] {
      let (lists, missing) = TrackerListLoader.again(order)
      XCTAssertNil(missing)
      XCTAssertEqual(lists?.lists.map(\.identity), order)
    }
    try FileManager.default.removeItem(atPath: paths[3])
    try Data("||changed.example^\n".utf8).write(to: URL(fileURLWithPath: paths[1]))
    XCTAssertEqual(TrackerListLoader.again(identities).1, paths[1], "changed, before one gone")
    XCTAssertEqual(
      TrackerListLoader.again(identities.reversed()).1, paths[3], "gone, before one changed")
    XCTAssertEqual(TrackerListLoader.again([identities[0], identities[2]]).1, nil)
  }
}
