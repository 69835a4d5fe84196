import Audit
import AuditRules
import Capture
import Foundation
import Sample
import TestSupport
import XCTest

@testable import Import

/// #44.6: overlapping retransmissions that disagree — one server name for the reader, another for
/// the server — were read as the first copy with no word that the stream was ambiguous.
final class StreamConflictTests: XCTestCase {
  func testTwoCopiesThatAgreeAreNoConflictAndTwoThatDifferAreOne() {
    var agree = StreamReassembly()
    agree.start(at: 100)
    _ = agree.add(sequence: 100, [1, 2, 3, 4][...])
    _ = agree.add(sequence: 102, [3, 4, 5][...])
    _ = agree.add(sequence: 110, [9, 9][...])
    _ = agree.add(sequence: 109, [8, 9, 9, 7][...])
    XCTAssertNil(agree.conflict)

    // Against the stream read so far: bytes 2-3 (from 0) differ.
    var read = StreamReassembly()
    read.start(at: 100)
    _ = read.add(sequence: 100, [1, 2, 3, 4, 5][...])
    _ = read.add(sequence: 101, [2, 0, 0, 5][...])
    XCTAssertEqual(read.conflict?.first, 2)
    XCTAssertEqual(read.conflict?.last, 3)
    XCTAssertEqual(read.contiguous, [1, 2, 3, 4, 5], "the first copy is what is read")

    // Against a segment held after a gap, overlapping it partly.
    var held = StreamReassembly()
    held.start(at: 100)
    _ = held.add(sequence: 110, [1, 2, 3, 4][...])
    _ = held.add(sequence: 112, [3, 9][...])
    XCTAssertEqual(held.conflict?.first, 13)
    XCTAssertEqual(held.conflict?.last, 13)
  }

  func testAClientHelloSentTwiceWithTwoNamesIsAConflictAndAFinding() throws {
    var c = Conversation(
      client: ("10.0.0.2", 50_123), server: ("203.0.113.7", 443), at: 1_791_540_000_000_000)
    c.handshake()
    let first = TLSMessageBuilder.clientHello(serverName: "api.example.com", versions: [0x0304])
    let second = TLSMessageBuilder.clientHello(serverName: "ads.example.com", versions: [0x0304])
    XCTAssertEqual(first.count, second.count)
    let sequence = c.clientSeq
    c.packet(fromClient: true, flags: 0x18, first)
    c.packet(fromClient: true, flags: 0x18, second, sequence: sequence)
    c.close()
    let dir = TemporaryDirectory("conflict")
    let analysis = try CaptureImporter.analyse(
      CaptureBuilder.write(CaptureBuilder.pcap(c.frames, linkType: 101), dir.url, "conflict.pcap"))
    let flow = try XCTUnwrap(analysis.flows.first?.flow)
    XCTAssertEqual(flow.sni, "api.example.com")
    // "api" and "ads" differ in their second and third letters.
    let at = try XCTUnwrap(first.range(of: Data("api.example.com".utf8))).lowerBound
    XCTAssertEqual(
      flow.streamConflicts,
      [StreamConflict(fromDevice: true, firstByte: at + 2, lastByte: at + 3)])
    XCTAssertEqual(StreamConflict(text: flow.streamConflicts[0].text), flow.streamConflicts[0])

    var named = flow
    named.id = 1
    let catalogue = try RequirementCatalogue(
      data: XCTUnwrap(RequirementCatalogueLibrary.data(identifier: "tr-03161-1_3.0")))
    let context = CheckContext(
      project: AuditProject(
        id: 1, name: "P", bundleIdentifier: nil, catalogueVersion: nil,
        allowlist: [AllowlistEntry(pattern: try DomainPattern(parsing: "api.example.com"))],
        createdAt: FlowFixture.epoch),
      session: AuditSession(
        id: 1, projectID: 1, kind: .audit(AppRelease(version: "1", build: "1")),
        environment: FlowFixture.environment,
        inspection: InspectionConditions(inspectionEnabled: false, scenario: nil),
        startedAt: FlowFixture.at(0), endedAt: FlowFixture.at(10), notes: ""),
      markers: [], policy: catalogue.policy)
    XCTAssertEqual(
      HostCheck.assess(named, in: context), .finding(.streamConflict(host: "api.example.com")))
    var agreeing = named
    agreeing.streamConflicts = []
    XCTAssertEqual(HostCheck.assess(agreeing, in: context), .satisfied)
  }
}
