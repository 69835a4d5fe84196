import Bytes
import Foundation
import SystemCalls
import TestSupport
import XCTest

@testable import TunnelVisionCLI

/// An export allocates from one malloc arena, however many threads it keeps busy; an import's
/// reading and its rows' writing each allocate from arenas of their own.
final class MallocArenasTests: XCTestCase {
  func testAnExportOnTwoCoresAllocatesFromOneArenaAsItsTraceSays() throws {
    let binary = try TunnelVisionExecutable.url()
    let dir = TemporaryDirectory("arenas")
    let store = dir.url.appendingPathComponent("store").path
    XCTAssertEqual(try ExternalTool.run(binary.path, ["sample", "--store", store])?.status, 0)
    var environment = ProcessInfo.processInfo.environment
    environment["TUNNELVISION_TRACE"] = "1"
    let export = try XCTUnwrap(
      ExternalTool.run(
        binary.path,
        ["--store", store, "export", "3", "-o", dir.url.appendingPathComponent("b.zip").path],
        environment: environment))
    XCTAssertEqual(export.status, 0, export.error)
    let phases = export.error.split(separator: "\n").filter { $0.contains("(resident") }
    // The documents are written on a second thread while the capture is sliced on this one.
    XCTAssertTrue(
      phases.contains { $0.contains("archived the entries before report.pdf") }, export.error)
    for phase in phases {
      XCTAssertTrue(phase.hasSuffix(" MiB in use, 1 malloc arena)"), String(phase))
    }
  }

  func testEveryCommandHasBlocksOfAMebibyteOrMoreMappedApart() {
    func commands(_ definition: CommandDefinition) -> [CommandDefinition] {
      [definition] + definition.subcommands.flatMap(commands)
    }
    let all = commands(TunnelVisionCommand.root)
    XCTAssertGreaterThan(all.count, 20)
    for command in all {
      XCTAssertEqual(command.mappedApartFrom, MallocArenas.mappedApartFrom, command.name)
    }
  }

  func testAnImportWritesItsPacketRowsFromAnArenaOfTheirOwn() throws {
    let binary = try TunnelVisionExecutable.url()
    let dir = TemporaryDirectory("arenas-import")
    let store = dir.url.appendingPathComponent("store").path
    // 25 000 UDP datagrams from the device to one server: more than one batch of rows (20 000),
    // so that rows go into the store on a thread of their own while the capture is read again.
    var capture: [UInt8] = []
    for field: UInt32 in [0xa1b2_c3d4, 0x0004_0002, 0, 0, 262_144, 101] {
      capture.appendInteger(field, endianness: .little)
    }
    for i in 0..<25_000 {
      var packet: [UInt8] = [0x45, 0, 0, 48, 0, 0, 0, 0, 64, 17, 0, 0, 10, 0, 0, 2, 203, 0, 113, 7]
      packet.appendInteger(UInt16(40_000 + i % 1_000))
      packet += [0, 53, 0, 28, 0, 0] + [UInt8](repeating: 0, count: 20)
      let micros = 1_791_540_000_000_000 + UInt64(i) * 1_000
      for field in [UInt32(micros / 1_000_000), UInt32(micros % 1_000_000), 48, 48] {
        capture.appendInteger(field, endianness: .little)
      }
      capture += packet
    }
    let file = dir.url.appendingPathComponent("datagrams.pcap")
    try Data(capture).write(to: file)
    XCTAssertEqual(
      try ExternalTool.run(binary.path, ["--store", store, "project", "new", "A"])?.status, 0)
    var environment = ProcessInfo.processInfo.environment
    environment["TUNNELVISION_TRACE"] = "1"
    let run = try XCTUnwrap(
      ExternalTool.run(
        binary.path,
        ["--store", store, "import", file.path, "--project", "A", "--baseline", "--json"],
        environment: environment))
    XCTAssertEqual(run.status, 0, run.error)
    let packets = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])["packets"]
    XCTAssertEqual(packets as? Int, 25_000, run.output)
    let writing = try XCTUnwrap(
      run.error.split(separator: "\n").first { $0.contains("wrote the session") }, run.error)
    let arenas = try XCTUnwrap(
      writing.split(separator: ", ").last?.split(separator: " ").first.flatMap { Int($0) },
      String(writing))
    XCTAssertGreaterThan(arenas, 1, String(writing))
  }
}
