import Audit
@testable import Evidence
import XCTest

final class PcapngScanTests: XCTestCase {
    func enhancedPacket(_ bytes: [UInt8], comment: String?) -> Data {
        let text = Array((comment ?? "").utf8)
        var block = [UInt8](repeating: 0xEE, count: PcapngBlocks.enhancedPacketLength(count: bytes.count, comment: text.count))
        block.withUnsafeMutableBytes { out in
            bytes.withUnsafeBytes { record in text.withUnsafeBytes { PcapngBlocks.enhancedPacket(into: out, record, originalLength: UInt32(bytes.count), microseconds: 7, outbound: true, comment: $0) } }
        }
        guard comment == nil else { return Data(block) }
        // Without a comment: its option's code set to 0 (end of options), as a block that has none.
        let at = 28 + PcapngBlocks.padded(bytes.count)
        block[at] = 0; block[at + 1] = 0
        return Data(block)
    }

    func scan(_ data: Data, pieces: Int) -> PcapngScan {
        var scan = PcapngScan()
        var at = 0
        while at < data.count { let end = min(data.count, at + pieces); scan.feed(data.subdata(in: at..<end)); at = end }
        return scan
    }

    /// Whatever the pieces the capture comes in, the same packets, comments and problems.
    func testPacketsAndCommentsAreReadTheSameWhateverThePieces() {
        var capture = PcapngBlocks.sectionHeader(application: "t") + PcapngBlocks.interface(snaplen: 65_535)
        let comments = [EvidenceCaptureDocument.packetComment(flowID: 1, findingIDs: ["F1", "F2"]),
                        EvidenceCaptureDocument.packetComment(flowID: 2, findingIDs: []), "no flow named here"]
        var expectedUncommented = 0
        for i in 0..<60 {
            let comment: String? = i % 7 == 6 ? nil : comments[(i / 2) % comments.count]
            if comment == nil { expectedUncommented += 1 }
            capture += enhancedPacket((0..<(i % 9 + 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ i) }, comment: comment)
        }
        for pieces in [1, 3, 4, 13, 64, 1_000, capture.count] {
            let s = scan(capture, pieces: pieces)
            XCTAssertEqual(s.packets, 60, "pieces of \(pieces)")
            XCTAssertEqual(s.uncommented, expectedUncommented, "pieces of \(pieces)")
            XCTAssertEqual(s.comments, [1: ["F1", "F2"], 2: []], "pieces of \(pieces)")
            XCTAssertEqual(s.problems, ["a packet comment does not name its flow: “no flow named here”"], "pieces of \(pieces)")
        }
    }

    func testACaptureWithoutASectionHeaderOrWithAnImpossibleBlockIsNamed() {
        let packet = enhancedPacket([1, 2, 3, 4], comment: "flow=1")
        XCTAssertEqual(scan(packet, pieces: 5).problems, ["capture.pcapng does not begin with a section header"])
        let header = PcapngBlocks.sectionHeader(application: "t")
        var odd = packet
        odd[4] = 13; odd[5] = 0; odd[6] = 0; odd[7] = 0
        XCTAssertEqual(scan(header + odd, pieces: 7).problems, ["capture.pcapng has a block claiming 13 bytes at offset \(header.count)"])
    }
}
