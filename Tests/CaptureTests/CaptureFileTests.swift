import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Bytes
import Capture
import Crypto
import FlowStore
import Foundation
import Sample
import TestSupport
import XCTest

final class CaptureFileTests: XCTestCase {
  func datagram(_ i: Int, length: Int = 100) -> Data {
    var payload = Data(count: length)
    for j in 0..<length { payload[j] = UInt8(truncatingIfNeeded: i &* 31 &+ j) }
    return DatagramBuilder.datagram(
      from: ("10.0.0.2", UInt16(40_000 + i % 1000)), to: ("203.0.113.7", 443),
      transport: .udp, payload: payload)
  }

  func testEveryLocationTheWriterReturnsResolvesToItsOwnBytesAcrossRotations() throws {
    let dir = TemporaryDirectory()
    var next: UInt32 = 0
    let writer = PcapWriter(directory: dir.url, rotationBytes: 4_000) {
      next += 1
      return next
    }
    var written: [(CaptureLocation, Data, Date)] = []
    for i in 0..<200 {
      let date = FlowFixture.at(Double(i) * 0.001)
      let bytes = datagram(i, length: 50 + i % 300)
      written.append((try writer.write(bytes, at: date), bytes, date))
    }
    try writer.close()
    let library = CaptureLibrary(directory: dir.url)
    let files = try library.files()
    XCTAssertGreaterThan(files.count, 5, "rotated")
    XCTAssertEqual(files.map(\.sequence), Array(1...UInt32(files.count)))
    for file in files { XCTAssertLessThanOrEqual(file.byteCount, 4_000) }
    for (location, bytes, date) in written {
      let record = try library.record(at: location)
      XCTAssertEqual(record.bytes, bytes)
      XCTAssertEqual(record.originalLength, UInt32(bytes.count))
      XCTAssertFalse(record.isTruncated)
      XCTAssertEqual(Int64(record.timestampMicroseconds), Instant.microseconds(date))
    }
    // The same offset in two files is two different packets.
    let first = written.first { $0.0.fileSequence == 1 }!.0
    let second = written.first { $0.0.fileSequence == 2 }!.0
    XCTAssertEqual(first.offset, second.offset)
    XCTAssertNotEqual(try library.record(at: first).bytes, try library.record(at: second).bytes)
  }

  func testIndependentToolsReadEveryFileWithTheRightCount() throws {
    guard ExternalTool.which("capinfos") != nil else {
      throw XCTSkip("capinfos is not installed (make test installs tshark)")
    }
    let dir = TemporaryDirectory()
    var next: UInt32 = 0
    let writer = PcapWriter(directory: dir.url, rotationBytes: 10_000) {
      next += 1
      return next
    }
    var perFile: [UInt32: Int] = [:]
    for i in 0..<150 {
      perFile[
        try writer.write(datagram(i), at: FlowFixture.at(Double(i))).fileSequence, default: 0] += 1
    }
    try writer.close()
    for file in try CaptureLibrary(directory: dir.url).files() {
      let result = try XCTUnwrap(ExternalTool.run("capinfos", ["-c", "-M", file.url.path]))
      XCTAssertEqual(result.status, 0, result.error)
      XCTAssertTrue(
        result.output.contains("Number of packets:   \(perFile[file.sequence]!)"), result.output)
      if ExternalTool.which("tshark") != nil {
        let tshark = try XCTUnwrap(
          ExternalTool.run("tshark", ["-r", file.url.path, "-T", "fields", "-e", "udp.dstport"]))
        XCTAssertEqual(tshark.output.split(separator: "\n").count, perFile[file.sequence]!)
        XCTAssertTrue(tshark.output.split(separator: "\n").allSatisfy { $0 == "443" })
      }
    }
  }

  func testTheSnaplenTruncatesAndTheRecordSaysSo() throws {
    let dir = TemporaryDirectory()
    let writer = PcapWriter(directory: dir.url, snaplen: 64) { 1 }
    let location = try writer.write(datagram(1, length: 500), at: FlowFixture.epoch)
    try writer.close()
    let record = try CaptureLibrary(directory: dir.url).record(at: location)
    XCTAssertEqual(record.capturedLength, 64)
    XCTAssertEqual(record.originalLength, 528)
    XCTAssertTrue(record.isTruncated)
  }

  func testASequenceIsNeverReusedEvenAfterTheNewestFileWasDeleted() throws {
    let dir = TemporaryDirectory()
    let store = try FlowStore(directory: dir.url)
    func writer() -> PcapWriter {
      PcapWriter(directory: store.capturesDirectory) {
        try store.claimCaptureFileSequence(at: FlowFixture.epoch)
      }
    }
    let w1 = writer()
    let a = try w1.write(datagram(1), at: FlowFixture.epoch)
    try w1.close()
    let library = CaptureLibrary(directory: store.capturesDirectory)
    try library.delete(sequence: a.fileSequence)
    let w2 = writer()
    let b = try w2.write(datagram(2), at: FlowFixture.epoch)
    try w2.close()
    XCTAssertEqual(a.fileSequence, 1)
    XCTAssertEqual(b.fileSequence, 2)
    XCTAssertThrowsError(try library.record(at: a)) {
      XCTAssertEqual($0 as? CaptureLibraryError, .notFound(1))
    }
  }

  func testTheListingIgnoresForeignFilesAndAnAbsentDirectoryIsEmpty() throws {
    let dir = TemporaryDirectory()
    XCTAssertEqual(
      try CaptureLibrary(directory: dir.url.appendingPathComponent("nope")).files(), [])
    let writer = PcapWriter(directory: dir.url) { 7 }
    _ = try writer.write(datagram(1), at: FlowFixture.epoch)
    try writer.close()
    for name in ["notes.txt", "00000001.pcapng", "0000002.pcap", "00000000.pcap", "abcdefgh.pcap"] {
      try Data("x".utf8).write(to: dir.path(name))
    }
    try FileManager.default.createDirectory(
      at: dir.path("00000009.pcap"), withIntermediateDirectories: true)
    let files = try CaptureLibrary(directory: dir.url).files()
    XCTAssertEqual(files.map(\.sequence), [7])
    XCTAssertEqual(files[0].byteCount, UInt64(try Data(contentsOf: files[0].url).count))
    XCTAssertNotNil(files[0].createdAt)
  }

  // MARK: The corrupt cases, each a typed error

  func hostile(_ edit: (inout Data) -> Void) throws -> (CaptureLibrary, TemporaryDirectory) {
    let dir = TemporaryDirectory()
    let writer = PcapWriter(directory: dir.url, snaplen: 1_000) { 1 }
    _ = try writer.write(datagram(1), at: FlowFixture.epoch)
    _ = try writer.write(datagram(2), at: FlowFixture.epoch)
    try writer.close()
    let url = dir.path("00000001.pcap")
    var data = try Data(contentsOf: url)
    edit(&data)
    try data.write(to: url)
    return (CaptureLibrary(directory: dir.url), dir)
  }

  func testAnOffsetInsideTheHeaderIsRefused() throws {
    let (library, dir) = try hostile { _ in }
    defer { withExtendedLifetime(dir) {} }
    XCTAssertThrowsError(try library.record(at: CaptureLocation(fileSequence: 1, offset: 8))) {
      XCTAssertEqual($0 as? CaptureLibraryError, .recordUnreadable(.offsetInsideHeader(8)))
    }
  }
  func testAnOffsetPastTheEndIsRefused() throws {
    let (library, dir) = try hostile { _ in }
    defer { withExtendedLifetime(dir) {} }
    XCTAssertThrowsError(try library.record(at: CaptureLocation(fileSequence: 1, offset: 100_000)))
    {
      XCTAssertEqual($0 as? CaptureLibraryError, .recordUnreadable(.offsetPastEnd(100_000)))
    }
  }
  func testARecordCutShortByADyingWriterIsRefused() throws {
    let second = UInt64(24 + 16 + 128)
    let (library, dir) = try hostile { $0.removeLast(10) }
    defer { withExtendedLifetime(dir) {} }
    XCTAssertNoThrow(try library.record(at: CaptureLocation(fileSequence: 1, offset: 24)))
    XCTAssertThrowsError(try library.record(at: CaptureLocation(fileSequence: 1, offset: second))) {
      XCTAssertEqual($0 as? CaptureLibraryError, .recordUnreadable(.recordCutShort(second)))
    }
  }
  func testARecordLargerThanTheSnaplenIsRefusedBeforeAnythingIsAllocated() throws {
    let (library, dir) = try hostile { data in
      data[24 + 8] = 0xff
      data[24 + 9] = 0xff
      data[24 + 10] = 0xff
      data[24 + 11] = 0x7f  // incl_len 2 GiB
    }
    defer { withExtendedLifetime(dir) {} }
    XCTAssertThrowsError(try library.record(at: CaptureLocation(fileSequence: 1, offset: 24))) {
      XCTAssertEqual(
        $0 as? CaptureLibraryError,
        .recordUnreadable(.recordLargerThanSnaplen(offset: 24, length: 0x7fff_ffff, snaplen: 1_000))
      )
    }
  }
  func testAFileThatIsNotAPcapIsRefused() throws {
    let (library, dir) = try hostile { $0[0] = 0x00 }
    defer { withExtendedLifetime(dir) {} }
    XCTAssertThrowsError(try library.record(at: CaptureLocation(fileSequence: 1, offset: 24))) {
      XCTAssertEqual(
        $0 as? CaptureLibraryError, .recordUnreadable(.notACapture(reason: "no pcap magic")))
    }
  }
  func testABigEndianNanosecondFileIsReadToo() throws {
    let dir = TemporaryDirectory()
    var file = Data()
    file.append(contentsOf: [
      0xa1, 0xb2, 0x3c, 0x4d, 0, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0, 0, 101,
    ])
    let packet = datagram(3)
    // seconds, 1 000 000 ns
    file.append(contentsOf: [0x68, 0xe7, 0x85, 0x20, 0x00, 0x0f, 0x42, 0x40])
    file.appendInteger(UInt32(packet.count))
    file.appendInteger(UInt32(packet.count))
    file.append(packet)
    try file.write(to: dir.path("00000001.pcap"))
    let record = try CaptureLibrary(directory: dir.url).record(
      at: CaptureLocation(fileSequence: 1, offset: 24))
    XCTAssertEqual(record.bytes, packet)
    XCTAssertEqual(record.timestampMicroseconds, 0x68e7_8520 * 1_000_000 + 1_000)
  }
}
