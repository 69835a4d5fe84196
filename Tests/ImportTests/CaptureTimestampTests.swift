import Audit
import Capture
import Foundation
import TestSupport
import XCTest

@testable import Import

/// One rule for a packet's time, in import and in record: an impossible time is counted and left
/// out by both, never wrapped, placed elsewhere or trapped on; if_tsoffset is applied by both.
final class CaptureTimestampTests: XCTestCase {
  let t0: Int64 = 1_791_540_000_000_000

  func testTheRuleAcceptsWhatIsAndRefusesWhatCannotBe() {
    XCTAssertEqual(
      CaptureTimestamp.microseconds(seconds: 1, fraction: 999_999, perSecond: 1_000_000),
      1_999_999)
    XCTAssertEqual(
      CaptureTimestamp.microseconds(seconds: 1, fraction: 999_999_999, perSecond: 1_000_000_000),
      1_999_999)
    XCTAssertEqual(
      CaptureTimestamp.microseconds(
        seconds: 10, fraction: 0, perSecond: 1_000_000, offsetSeconds: 3600), 3_610_000_000)
    for (seconds, fraction, perSecond, offset) in [
      (Int64(1), Int64(0xFFFF_FFFF), Int64(1_000_000), Int64(0)),
      (1, 1_000_000, 1_000_000, 0), (1, -1, 1_000_000, 0), (1, 0, 0, 0),
      (Int64.max / 1_000, 0, 1_000_000, 0), (0, 0, 1_000_000, Int64(1) << 62),
      (Int64.max, 0, 1_000_000, 1),
    ] {
      XCTAssertEqual(
        CaptureTimestamp.microseconds(
          seconds: seconds, fraction: fraction, perSecond: perSecond, offsetSeconds: offset),
        CaptureTimestamp.impossible, "\(seconds) \(fraction)/\(perSecond) +\(offset)")
    }
  }

  func pcapng(_ frames: [CaptureBuilder.Frame], offsetSeconds: Int64?, ticks: [UInt64?]) -> Data {
    var options: [UInt8] = []
    if let offsetSeconds {
      options = CaptureBuilder.option(14, CaptureBuilder.le(offsetSeconds)) + [0, 0, 0, 0]
    }
    let interface = CaptureBuilder.block(
      1,
      CaptureBuilder.le(UInt16(101)) + CaptureBuilder.le(UInt16(0))
        + CaptureBuilder.le(UInt32(262_144)) + options)
    var blocks = CaptureBuilder.sectionHeader() + interface
    for (frame, tick) in zip(frames, ticks) {
      var block = CaptureBuilder.enhanced(frame)
      if let tick {
        block.replaceSubrange(12..<16, with: CaptureBuilder.le(UInt32(tick >> 32)))
        block.replaceSubrange(16..<20, with: CaptureBuilder.le(UInt32(tick & 0xffff_ffff)))
      }
      blocks += block
    }
    return Data(blocks)
  }

  func frames() -> [CaptureBuilder.Frame] {
    var c = Conversation(client: ("10.0.0.2", 50_123), server: ("203.0.113.7", 443), at: t0)
    c.handshake()
    c.packet(fromClient: true, flags: 0x18, Data(repeating: 1, count: 40))
    c.close()
    return c.frames
  }

  /// What `record --read FILE --json` kept, and what it said of the times it could not keep.
  func record(_ url: URL, _ dir: TemporaryDirectory, stdin: Bool = false) throws -> (
    timesOutOfRange: Int, packets: Int, firstSeen: String
  ) {
    let binary = try TunnelVisionExecutable.url()
    let store = dir.url.appendingPathComponent("store-\(UUID().uuidString)").path
    let result = try XCTUnwrap(
      ExternalTool.run(
        binary.path,
        ["record", "--read", stdin ? "-" : url.path, "--json", "--quiet", "--store", store],
        input: stdin ? try Data(contentsOf: url) : nil))
    XCTAssertEqual(result.status, 0, result.error)
    let json = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    let first = try XCTUnwrap(
      ExternalTool.run(
        "sqlite3", [store + "/history.sqlite", "SELECT coalesce(min(first_seen), '') FROM flows"]))
    return (
      try XCTUnwrap(json["timesOutOfRange"] as? Int), try XCTUnwrap(json["packets"] as? Int),
      first.output.trimmingCharacters(in: .whitespacesAndNewlines)
    )
  }

  func testAnInterfacesTimeOffsetIsAppliedByImportAndRecordAlike() throws {
    let dir = TemporaryDirectory("tsoffset")
    let frames = frames()
    let url = try CaptureBuilder.write(
      pcapng(frames, offsetSeconds: 3600, ticks: frames.map { _ in nil }), dir.url, "offset.pcapng")
    let analysis = try CaptureImporter.analyse(url)
    XCTAssertEqual(analysis.unparseable, [:])
    let first = try XCTUnwrap(analysis.flows.first?.flow.firstSeen)
    XCTAssertEqual(
      Instant.microseconds(first), frames[0].micros + 3_600_000_000, "an hour later, as libpcap")
    let tshark = try XCTUnwrap(
      ExternalTool.run(
        "tshark", ["-r", url.path, "-c", "1", "-T", "fields", "-e", "frame.time_epoch"])
    ).output.trimmingCharacters(in: .whitespacesAndNewlines)
    XCTAssertEqual(
      Double(tshark) ?? 0, Double(frames[0].micros + 3_600_000_000) / 1e6, accuracy: 1e-6)
    let recorded = try record(url, dir)
    XCTAssertEqual(recorded.timesOutOfRange, 0)
    XCTAssertEqual(recorded.firstSeen, String(Instant.nanoseconds(first)), "record reads it alike")
  }

  func testAnImpossibleTimeIsCountedAndLeftOutByImportAndRecordAlike() throws {
    let dir = TemporaryDirectory("impossible")
    let frames = frames()
    // The last packet at 2^64 - 1 ticks; then every packet of an interface offset by 2^62 s.
    let huge = try CaptureBuilder.write(
      pcapng(
        frames, offsetSeconds: nil,
        ticks: frames.indices.map { $0 == frames.count - 1 ? .max : nil }),
      dir.url, "huge.pcapng")
    let offset = try CaptureBuilder.write(
      pcapng(frames, offsetSeconds: Int64(1) << 62, ticks: frames.map { _ in nil }), dir.url,
      "offset.pcapng")
    // A pcap record whose microseconds are 0xFFFFFFFF: not 71 minutes later.
    var pcap = CaptureBuilder.pcap(frames, linkType: 101)
    var at = 24
    for (index, frame) in frames.enumerated() {
      if index == 1 { pcap.replaceSubrange((at + 4)..<(at + 8), with: [0xff, 0xff, 0xff, 0xff]) }
      at += 16 + frame.bytes.count
    }
    let usec = try CaptureBuilder.write(pcap, dir.url, "usec.pcap")
    for (url, impossible) in [(huge, 1), (offset, frames.count), (usec, 1)] {
      let name = url.lastPathComponent
      if impossible < frames.count {
        let analysis = try CaptureImporter.analyse(url)
        XCTAssertEqual(analysis.unparseable, ["timestamp out of range": impossible], name)
        XCTAssertEqual(analysis.packetCount, frames.count - impossible, name)
      }
      for stdin in [false, true] {
        let recorded = try record(url, dir, stdin: stdin)
        XCTAssertEqual(recorded.timesOutOfRange, impossible, "\(name), stdin \(stdin)")
        XCTAssertEqual(recorded.packets, frames.count - impossible, "\(name), stdin \(stdin)")
      }
    }
  }
}
