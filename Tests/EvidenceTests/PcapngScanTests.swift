import Audit
import AuditDocuments
import AuditRules
import AuditScreens
import AuditWording
import Crypto
import ReportContent
import ReportLayout
import ReportModel
import XCTest

@testable import Evidence

final class PcapngScanTests: XCTestCase {
  /// What the comments of each flow named cite, all together.
  func cited(_ scan: PcapngScan) -> [Int64: Set<String>] {
    Dictionary(
      uniqueKeysWithValues: scan.commentTexts.keys.map { ($0, scan.citedFindings(ofFlow: $0)) })
  }

  func enhancedPacket(_ bytes: [UInt8], comment: String?) -> Data {
    let text = Array((comment ?? "").utf8)
    var block = [UInt8](
      repeating: 0xEE,
      count: PcapngBlocks.enhancedPacketLength(count: bytes.count, comment: text.count))
    block.withUnsafeMutableBytes { out in
      bytes.withUnsafeBytes { record in
        text.withUnsafeBytes {
          PcapngBlocks.enhancedPacket(
            into: out, record, originalLength: UInt32(bytes.count), microseconds: 7, outbound: true,
            comment: $0)
        }
      }
    }
    guard comment == nil else { return Data(block) }
    // Without a comment: its option's code set to 0 (end of options), as a block that has none.
    let at = 28 + PcapngBlocks.padded(bytes.count)
    block[at] = 0
    block[at + 1] = 0
    return Data(block)
  }

  func scan(_ data: Data, pieces: Int) -> PcapngScan {
    var scan = PcapngScan()
    var at = 0
    while at < data.count {
      let end = min(data.count, at + pieces)
      scan.feed(data.subdata(in: at..<end))
      at = end
    }
    return scan
  }

  /// A packet's comment in its two forms, appended as bytes after what is there already, and
  /// the string made from the same bytes.
  func testAPacketCommentNamesItsFlowAndFindingsOrWhereTheyWereReadEarlier() {
    let cases: [(Int64, [String], ConnectionOpening?, String)] = [
      (7, ["F1", "F2"], nil, "flow=7 findings=F1,F2"),
      (-3, [], nil, "flow=-3 findings="),
      (
        38, ["F3", "F4"], ConnectionOpening(flowID: 32, session: 2),
        "flow=38 findings= readEarlier=F3,F4 openedIn=32 session=2"
      ),
      (
        9, ["Fé"], ConnectionOpening(flowID: 1, session: nil),
        "flow=9 findings= readEarlier=Fé openedIn=1 session=none"
      ),
    ]
    for (flow, ids, opening, expected) in cases {
      XCTAssertEqual(
        EvidenceCaptureDocument.packetComment(
          flowID: flow, findingIDs: ids, openedOutside: opening),
        expected)
      var bytes = Array("kept|".utf8)
      EvidenceCaptureDocument.appendPacketComment(
        flowID: flow, findingIDs: ids, openedOutside: opening, to: &bytes)
      XCTAssertEqual(bytes, Array("kept|\(expected)".utf8))
    }
  }

  /// Whatever the pieces the capture comes in, the same packets, comments and problems.
  func testPacketsAndCommentsAreReadTheSameWhateverThePieces() {
    var capture =
      PcapngBlocks.sectionHeader(application: "t") + PcapngBlocks.interface(snaplen: 65_535)
    let comments = [
      EvidenceCaptureDocument.packetComment(flowID: 1, findingIDs: ["F1", "F2"]),
      EvidenceCaptureDocument.packetComment(flowID: 2, findingIDs: []), "no flow named here",
    ]
    var expectedUncommented = 0
    for i in 0..<60 {
      let comment: String? = i % 7 == 6 ? nil : comments[(i / 2) % comments.count]
      if comment == nil { expectedUncommented += 1 }
      capture += enhancedPacket(
        (0..<(i % 9 + 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ i) }, comment: comment)
    }
    for pieces in [1, 3, 4, 13, 64, 1_000, capture.count] {
      let s = scan(capture, pieces: pieces)
      XCTAssertEqual(s.packets, 60, "pieces of \(pieces)")
      XCTAssertEqual(s.uncommented, expectedUncommented, "pieces of \(pieces)")
      XCTAssertEqual(cited(s), [1: ["F1", "F2"], 2: []], "pieces of \(pieces)")
      XCTAssertEqual(
        s.problems, ["a packet comment does not name its flow: “no flow named here”"],
        "pieces of \(pieces)")
    }
  }

  /// A flow's packets under two comments that take turns: each packet counted for the flow, the
  /// first comment kept as its text, the difference named once however often the second recurs.
  func testACommentsFlowAndFindingsAreReadFromItsWordsAlone() {
    let cases: [(String, Int64?, Set<String>)] = [
      ("flow=23 findings=F1,F3,F4", 23, ["F1", "F3", "F4"]),
      ("flow=21 findings= readEarlier=F1,F2 openedIn=20 session=none", 21, ["F1", "F2"]),
      ("findings=F2 flow=7", 7, ["F2"]),
      ("flow=5  findings=F1,,F2,", 5, ["F1", "F2"]),
      ("flow=1 flow=2", 2, []),
      ("flow=3 findings=Fé,F2", 3, ["Fé", "F2"]),
      ("xflow=5 findingsX=F1 readEarlier", nil, []),
      ("flow= findings=", nil, []),
      ("flow=9x findings=F1", nil, ["F1"]),
      ("flow=-4 readEarlier=F9", -4, ["F9"]),
      ("", nil, []),
    ]
    for (comment, flow, findings) in cases {
      let read = PcapngScan.read(comment)
      XCTAssertEqual(read.flow, flow, comment)
      XCTAssertEqual(read.findings, findings, comment)
    }
  }

  func testAFlowsSecondCommentIsNamedOnceAndEveryPacketCounted() {
    var capture =
      PcapngBlocks.sectionHeader(application: "t") + PcapngBlocks.interface(snaplen: 65_535)
    let first = EvidenceCaptureDocument.packetComment(flowID: 4, findingIDs: ["F1"])
    let second = EvidenceCaptureDocument.packetComment(flowID: 4, findingIDs: ["F2"])
    let other = EvidenceCaptureDocument.packetComment(flowID: 5, findingIDs: [])
    for i in 0..<30 {
      capture += enhancedPacket([UInt8(i), 1, 2], comment: [first, other, second][i % 3])
    }
    for pieces in [5, 64, capture.count] {
      let s = scan(capture, pieces: pieces)
      XCTAssertEqual(s.packetsByFlow, [4: 20, 5: 10], "pieces of \(pieces)")
      XCTAssertEqual(s.commentTexts, [4: first, 5: other], "pieces of \(pieces)")
      XCTAssertEqual(cited(s), [4: ["F1", "F2"], 5: []], "pieces of \(pieces)")
      XCTAssertEqual(
        s.problems, ["packets of flow 4 carry different comments (findings F1 and F2)"],
        "pieces of \(pieces)")
    }
  }

  func testACaptureWithoutASectionHeaderOrWithAnImpossibleBlockIsNamed() {
    let packet = enhancedPacket([1, 2, 3, 4], comment: "flow=1")
    XCTAssertEqual(
      scan(packet, pieces: 5).problems, ["capture.pcapng does not begin with a section header"])
    let header = PcapngBlocks.sectionHeader(application: "t")
    var odd = packet
    odd[4] = 13
    odd[5] = 0
    odd[6] = 0
    odd[7] = 0
    XCTAssertEqual(
      scan(header + odd, pieces: 7).problems,
      ["capture.pcapng has a block claiming 13 bytes at offset \(header.count)"])
  }

  /// A seeded mutator over a valid capture: whatever the bytes and the pieces, counts and
  /// sentences, never a read outside the bytes (a debug build checks every load).
  func testTwoThousandMutatedCapturesAreReadWithoutACrashAndAsWhole() {
    var capture =
      PcapngBlocks.sectionHeader(application: "t") + PcapngBlocks.interface(snaplen: 65_535)
    for i in 0..<12 {
      capture += enhancedPacket(
        Array(repeating: UInt8(i), count: i * 5 + 1),
        comment: i % 4 == 3 ? nil : "flow=\(i % 3) findings=F\(i)")
    }
    var seed: UInt64 = 0x5EED
    func random(_ bound: Int) -> Int {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((seed >> 33) % UInt64(bound))
    }
    var faults = 0
    for _ in 0..<2_000 {
      var mutated = capture
      for _ in 0..<(1 + random(4)) {
        let at = random(mutated.count)
        switch random(3) {
        case 0: mutated[at] = UInt8(random(256))
        case 1: mutated[at] = [0, 12, 13, 28, 0xff][random(5)]
        default: mutated = mutated.prefix(at) + mutated.dropFirst(at + 1)
        }
      }
      let s = scan(mutated, pieces: 1 + random(97))
      XCTAssertLessThanOrEqual(s.packets, 12 + 4)
      if !s.problems.isEmpty { faults += 1 }
      // In pieces as whole: the same count and the same problems, at the same offsets.
      let whole = scan(mutated, pieces: max(1, mutated.count))
      XCTAssertEqual(s.packets, whole.packets)
      XCTAssertEqual(s.uncommented, whole.uncommented)
      XCTAssertEqual(s.problems, whole.problems)
      XCTAssertEqual(cited(s), cited(whole))
    }
    XCTAssertGreaterThan(faults, 100, "the mutations are seen")
  }

  func testAPacketBlockTooShortForItsFieldsIsNamed() {
    let header = PcapngBlocks.sectionHeader(application: "t")
    var short = Data([6, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0, 16, 0, 0, 0])
    short += enhancedPacket([1], comment: "flow=1")
    XCTAssertEqual(
      scan(header + short, pieces: 3).problems,
      ["capture.pcapng has a packet block of 16 bytes at offset \(header.count), too short for one"]
    )
  }
}
