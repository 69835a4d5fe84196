import Audit
import FlowStore
import Foundation
import TestSupport
import XCTest

/// A recorder run as the store keeps it for the test log: its filter, its libpcap, and each start
/// of the inspecting proxy it read, in order and with their options.
final class RecorderRunStoreTests: StoreTestCase {
  func testARunReadsBackWithItsFilterItsLibpcapAndTheProxysStarts() throws {
    let claim = RecorderClaim(
      processID: 4242, sourceName: "eth0", isLive: true, since: FlowFixture.at(0))
    let id = try store.beginRecorderRun(
      claim, at: FlowFixture.at(0), inspectionLog: "inspection.jsonl", filter: "host 10.0.0.2",
      libpcap: "libpcap version 1.10.3 (with TPACKET_V3)")
    let other = try store.beginRecorderRun(claim, at: FlowFixture.at(5), inspectionLog: nil)
    let first = RecorderRun.ProxyRun(
      tool: "mitmproxy", version: "11.0.2", options: ["mode": "regular", "listen_port": "8080"])
    let again = RecorderRun.ProxyRun(tool: "mitmproxy", version: nil, options: [:])
    try store.addProxyStart(first, toRun: id)
    try store.addProxyStart(again, toRun: id)
    try store.endRecorderRun(id, at: FlowFixture.at(10), .interrupted)

    let runs = try store.recorderRuns(from: FlowFixture.at(0), to: FlowFixture.at(20))
    XCTAssertEqual(runs.map(\.id), [id, other])
    XCTAssertEqual(runs[0].filter, "host 10.0.0.2")
    XCTAssertEqual(runs[0].libpcap, "libpcap version 1.10.3 (with TPACKET_V3)")
    XCTAssertEqual(runs[0].proxies, [first, again], "each start, in the order read")
    XCTAssertNil(runs[1].filter)
    XCTAssertNil(runs[1].libpcap)
    XCTAssertEqual(runs[1].proxies, [])
  }
}
