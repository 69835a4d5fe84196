import AuditScreens
import Capture
import Foundation
import TestSupport
import XCTest

final class AtomicRenameTests: XCTestCase {
  func testWhatAKilledWriterLeftBesideADestinationGoesWhenItIsWrittenAgainAndNothingElseDoes()
    throws
  {
    let dir = TemporaryDirectory("partials")
    let destination = dir.url.appendingPathComponent("bundle.zip")
    let ended = try EndedProcess.id()
    let names = [
      ".bundle.zip.partial-\(ended)-0A1B2C3D",  // a killed export's: goes
      ".bundle.zip.partial-\(getpid())-0A1B2C3D",  // this process's own: stays
      ".other.zip.partial-\(ended)-0A1B2C3D",  // another destination's: stays
      ".bundle.zip.partial-notapid", "bundle.zip",
    ]  // not a partial name, and the file itself: stay
    for name in names { try Data("x".utf8).write(to: dir.url.appendingPathComponent(name)) }
    try FileManager.default.createDirectory(
      at: dir.url.appendingPathComponent(".bundle.zip.partial-\(ended)-DIRECTRY"),
      withIntermediateDirectories: false)
    let partial = AtomicRename.partialName(for: destination)
    XCTAssertTrue(
      partial.lastPathComponent.hasPrefix(".bundle.zip.partial-\(getpid())-"),
      partial.lastPathComponent)
    XCTAssertEqual(
      Set(try FileManager.default.contentsOfDirectory(atPath: dir.url.path)), Set(names.dropFirst())
    )
  }
}
