import Audit
import AuditWording
import Capture
import Foundation
import TestSupport
import XCTest

@testable import Import

/// #34: a sender of one-byte pieces could stall the reader (the cost grew with the square of the
/// pieces). Each direction now takes `ReadingLimits.piecesPerDirection` pieces; the rest are kept
/// as packets, counted and said, not reassembled.
final class ReassemblyBoundTests: XCTestCase {
  let limit = ReadingLimits.piecesPerDirection

  func testOneByteSegmentsThatNeverJoinAreBoundedAndCounted() throws {
    // The first byte never comes: 65,000 one-byte segments after it wait for it.
    var c = Conversation(
      client: ("10.0.0.2", 50_123), server: ("203.0.113.7", 443), at: 1_791_540_000_000_000)
    c.handshake()
    let base = c.clientSeq
    for i in 1...65_000 {
      c.packet(fromClient: true, flags: 0x18, Data([0x16]), sequence: base &+ UInt32(i))
    }
    let dir = TemporaryDirectory("pieces")
    let url = try CaptureBuilder.write(
      CaptureBuilder.pcap(c.frames, linkType: 101), dir.url, "pieces.pcap")
    let analysis = try CaptureImporter.analyse(url)
    XCTAssertEqual(analysis.packetCount, c.frames.count, "every packet kept")
    XCTAssertEqual(analysis.piecesNotReassembled, 65_000 - limit)
    XCTAssertTrue(
      SessionNotes.piecesNotReassembled(analysis.piecesNotReassembled).contains("63,976"))
  }

  /// #44.5: 100,000 one-byte segments in reverse order were counted as 64,512 pieces not
  /// reassembled: those past the first 64 KiB were neither read nor counted.
  func testEverySegmentNotReassembledIsCountedWhateverItsOffset() {
    var stream = StreamReassembly()
    stream.start(at: 5000)
    for i in stride(from: 99_999, through: 0, by: -1) {
      _ = stream.add(sequence: 5000 &+ UInt32(i), [0x16][...])
    }
    XCTAssertEqual(stream.refused, 100_000 - limit)
    // A stream read whole to the bound misses nothing after it.
    var whole = StreamReassembly()
    whole.start(at: 1)
    let chunk = [UInt8](repeating: 0x17, count: 1_400)
    for i in 0..<100 { _ = whole.add(sequence: 1 &+ UInt32(i * chunk.count), chunk[...]) }
    XCTAssertEqual(whole.contiguous.count, TrackedFlow.streamLimit)
    XCTAssertEqual(whole.refused, 0)
  }

  func testSegmentsInOrderStillMakeTheStreamAndOverlapsAreRead() {
    var stream = StreamReassembly()
    stream.start(at: 1000)
    XCTAssertTrue(stream.add(sequence: 1000, [1, 2, 3][...]))
    XCTAssertFalse(stream.add(sequence: 1005, [6, 7][...]), "a gap")
    XCTAssertTrue(stream.add(sequence: 1002, [3, 4, 5][...]), "overlapping the end")
    XCTAssertEqual(stream.contiguous, [1, 2, 3, 4, 5, 6, 7])
    XCTAssertEqual(stream.refused, 0)
  }

  func testCryptoFramesPastTheBoundAreCountedAndTheFirstOnesStillRead() {
    // A ClientHello-shaped message (type 1, 3-byte length) in one-byte CRYPTO frames, 190 a
    // packet, the last arriving first; 80 packets of them.
    let message: [UInt8] = [1, 0, 0, 4, 0xaa, 0xbb, 0xcc, 0xdd]
    var held: [UInt64: [UInt8]] = [:]
    var refused = 0
    XCTAssertTrue(
      CaptureAnalyser.gather(
        message.indices.reversed().map { (UInt64($0), [message[$0]]) }, into: &held,
        refused: &refused))
    XCTAssertEqual(
      CaptureAnalyser.handshakeMessage(1, in: held).map(Array.init), [0xaa, 0xbb, 0xcc, 0xdd])
    for packet in 0..<80 {
      let frames = (0..<190).map { (UInt64(100 + packet * 190 + $0), [UInt8(1)]) }
      _ = CaptureAnalyser.gather(frames, into: &held, refused: &refused)
      _ = CaptureAnalyser.handshakeMessage(1, in: held)
    }
    XCTAssertEqual(held.count, limit)
    XCTAssertEqual(refused, message.count + 80 * 190 - limit)
    XCTAssertEqual(
      CaptureAnalyser.handshakeMessage(1, in: held).map(Array.init), [0xaa, 0xbb, 0xcc, 0xdd])
  }
}
