import Audit
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
