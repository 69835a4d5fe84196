import Audit
import AuditRules
import Foundation
import TestSupport
import XCTest

/// The network's own traffic is told from the app's by what it is, never found against a host.
final class InfrastructureServiceTests: XCTestCase {
  func flow(
    _ proto: IPProtocolNumber, _ a: String, _ aPort: UInt16, _ b: String, _ bPort: UInt16,
    id: Int64 = 1, at seconds: Double = 0
  ) -> StoredFlow {
    var f = FlowFixture.udp(id: id, at: seconds)
    f.ipProtocol = proto
    f.peers = FlowPeers(
      FlowEndpoint(address: a, port: aPort), FlowEndpoint(address: b, port: bPort))
    return f
  }

  func testEachServiceIsToldByItsPortsItsProtocolOrItsGroupAddress() {
    let cases: [(StoredFlow, InfrastructureService?)] = [
      (flow(.udp, "10.0.0.2", 50000, "10.0.0.1", 53), .dns),
      (flow(.tcp, "10.0.0.2", 50000, "10.0.0.1", 53), .dns),
      (flow(.udp, "0.0.0.0", 68, "255.255.255.255", 67), .dhcp),
      (flow(.udp, "fe80::1", 546, "ff02::1:2", 547), .dhcp),
      (flow(.icmpv6, "fe80::1", 0, "ff02::2", 0), .neighbourDiscovery),
      (flow(.icmpv6, "fe80::1", 0, "fe80::2", 0), .neighbourDiscovery),
      (flow(IPProtocolNumber(rawValue: 2), "10.0.0.2", 0, "224.0.0.22", 0), .multicastMembership),
      (flow(.udp, "10.0.0.2", 5353, "224.0.0.251", 5353), .localDiscovery),
      (flow(.udp, "10.0.0.2", 50000, "239.255.255.250", 1900), .localDiscovery),
      (flow(.udp, "fe80::1", 50000, "ff02::1:3", 5355), .localDiscovery),
      (flow(.udp, "10.0.0.2", 50000, "10.0.0.255", 9999), nil),
      (flow(.icmpv6, "2001:db8::2", 0, "2001:db8::1", 0), nil),
      (flow(.icmp, "10.0.0.2", 0, "9.9.9.9", 0), nil),
      (flow(.tcp, "10.0.0.2", 50000, "93.184.216.34", 443), nil),
      (flow(.udp, "10.0.0.2", 50000, "93.184.216.34", 443), nil),
    ]
    for (f, expected) in cases {
      XCTAssertEqual(InfrastructureService(of: f), expected, "\(f.peers)")
    }
    var dnsOnAnotherPort = flow(.udp, "10.0.0.2", 50000, "10.0.0.1", 5300)
    dnsOnAnotherPort.streamOpening = .dnsMessage
    XCTAssertEqual(InfrastructureService(of: dnsOnAnotherPort), .dns)
  }

  /// DNS to the resolver and neighbour discovery were "unnamed flows" against O.Purp_8; they are
  /// no host's, and the encryption check does not ask them for QUIC.
  func testTheNetworksOwnTrafficIsNeverAFindingAboutAHost() {
    let project = AuditProject(
      id: 1, name: "P", bundleIdentifier: nil, catalogueVersion: nil,
      allowlist: [AllowlistEntry(pattern: try! DomainPattern(parsing: "*.example.com"))],
      createdAt: FlowFixture.epoch)
    let session = AuditSession(
      id: 1, projectID: 1, kind: .audit(AppRelease(version: "1", build: "1")),
      environment: FlowFixture.environment,
      inspection: InspectionConditions(inspectionEnabled: true, caTrusted: true),
      startedAt: FlowFixture.at(0), endedAt: FlowFixture.at(1000), notes: "")
    var dns = flow(.udp, "10.0.0.2", 50000, "10.0.0.1", 53)
    dns.streamOpening = .dnsMessage
    let ndp = flow(.icmpv6, "fe80::1", 0, "ff02::2", 0, id: 2, at: 0.1)
    let app = FlowFixture.tcp(id: 3, at: 2, sni: "tracker.net")
    let result = FindingsClassifier.classify(
      flows: [dns, ndp, app], project: project, session: session,
      markers: [SessionMarker(id: 1, sessionID: 1, date: FlowFixture.at(0.5), kind: .consentGiven)],
      policy: FindingsPolicy(minimumTLSVersion: .tls12)!)
    XCTAssertEqual(
      result.findings.filter { $0.kind.check == .host }.map(\.evidence),
      [.hostNotInAllowlist(host: "tracker.net")], "only the app's connection")
    XCTAssertEqual(result.host.notApplicableFlowIDs, [1, 2])
    XCTAssertEqual(result.encryption.notApplicableFlowIDs, [1, 2])
    XCTAssertEqual(
      result.findings.first { $0.kind == .activityBeforeConsent }?.flowIDs, [1],
      "a name looked up before consent is activity before it; neighbour discovery is not")
  }
}
