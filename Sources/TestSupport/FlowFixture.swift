import Audit
import AuditRules
import AuditWording
import Foundation

/// Flows and sessions for tests, with every field defaulted to something plain.
public enum FlowFixture {
  public static let epoch = Date(timeIntervalSince1970: 1_791_540_000)  // 2026-10-09T10:00:00Z

  public static func at(_ seconds: Double) -> Date {
    Instant.date(microseconds: Instant.microseconds(epoch.addingTimeInterval(seconds)))
  }

  public static func tcp(
    id: Int64 = 0, port: UInt16 = 443, at seconds: Double = 0, sni: String? = nil,
    status: TLSInspectionStatus = .encrypted, deviceAddress: String = "10.0.0.2",
    serverAddress: String = "93.184.216.34", sourcePort: UInt16 = 50000
  ) -> StoredFlow {
    StoredFlow(
      id: id, captureSessionID: 1, ipProtocol: .tcp,
      peers: FlowPeers(
        FlowEndpoint(address: deviceAddress, port: sourcePort),
        FlowEndpoint(address: serverAddress, port: port)),
      firstSeen: at(seconds), lastSeen: at(seconds + 1), bytesOut: 100, bytesIn: 200,
      packetCount: 4,
      tlsStatus: status, sni: sni)
  }

  public static func udp(
    id: Int64 = 0, port: UInt16 = 443, at seconds: Double = 0, quic: QUICReading? = nil
  ) -> StoredFlow {
    StoredFlow(
      id: id, captureSessionID: 1, ipProtocol: .udp,
      peers: FlowPeers(
        FlowEndpoint(address: "10.0.0.2", port: 50001),
        FlowEndpoint(address: "93.184.216.34", port: port)),
      firstSeen: at(seconds), lastSeen: at(seconds + 1), bytesOut: 50, bytesIn: 60, packetCount: 2,
      tlsStatus: port == 443 ? .encrypted : .plaintext, quic: quic)
  }

  /// A flow of each kind of reading the store and the documents carry: every value of every field
  /// at least once (a full TLS handshake, a refusal, QUIC, a resumption, inspection, IPv6, ICMP).
  public static var everyReading: [StoredFlow] {
    var flows: [StoredFlow] = []
    let chain = [Data([0x30, 0x82, 0x01, 0x02, 0xff]), Data([0x30, 0x03, 0x00])]
    var full = FlowFixture.tcp(at: 0, sni: "api.example.com", status: .notInspectable)
    full.dnsName = "api.example.com"
    full.dnsOtherNames = ["cdn.example.net", "other.example.org"]
    full.streamOpening = .tlsHandshake
    full.clientTLS = ClientTLSOffer(
      versionsForm: .listed, versions: [.tls13, .tls12], alpn: ["h2", "http/1.1"],
      droppedALPNCount: 1, encryptedClientHello: true)
    full.serverTLS = .negotiated(
      version: .tls12, cipherSuite: 0xc02f, fromHelloRetryRequest: true, source: .upstreamConnection
    )
    full.serverCertificate = .presented(chain: chain, chainIsComplete: false)
    full.bytesOut = 123_456_789_012
    full.streamConflicts = [
      StreamConflict(fromDevice: true, firstByte: 110, lastByte: 111),
      StreamConflict(fromDevice: false, firstByte: 1, lastByte: 1_400),
    ]
    flows.append(full)
    var refused = FlowFixture.tcp(at: 1)
    refused.clientTLS = ClientTLSOffer(versionsForm: .upTo, versions: [.tls10])
    refused.serverTLS = .refused(alert: 70)
    refused.serverCertificate = .noNegotiation
    flows.append(refused)
    var quic = FlowFixture.udp(
      at: 2, quic: QUICReading(version: QUICReading.version2, end: .server))
    quic.serverCertificate = .encryptedInHandshake
    flows.append(quic)
    var resumed = FlowFixture.tcp(at: 3)
    resumed.serverCertificate = .notSent(.sessionResumed)
    flows.append(resumed)
    var replaced = FlowFixture.tcp(at: 4, status: .inspected)
    replaced.serverCertificate = .replacedByInspection
    replaced.streamOpening = .unrecognised
    flows.append(replaced)
    var v6 = FlowFixture.tcp(
      port: 80, at: 5, status: .plaintext, deviceAddress: "fd00::2", serverAddress: "2001:db8::1")
    v6.streamOpening = .httpRequest
    flows.append(v6)
    var icmp = FlowFixture.tcp(at: 6)
    icmp.ipProtocol = .icmp
    icmp.peers = FlowPeers(
      FlowEndpoint(address: "10.0.0.2", port: 0), FlowEndpoint(address: "8.8.8.8", port: 0))
    flows.append(icmp)
    return flows
  }

  public static let environment = AuditEnvironment(
    deviceModel: "Pixel 8", osVersion: "Android 15", toolVersion: "0.1.0")

  public static func sessionDraft(
    project: Int64, kind: AuditSessionKind = .audit(AppRelease(version: "2.4.0", build: "187")),
    inspection: InspectionConditions = .off
  ) -> AuditSessionDraft {
    AuditSessionDraft(
      projectID: project, kind: kind, environment: environment, inspection: inspection, notes: "")
  }
}
