import Audit
import Foundation

/// findings.json as verify reads it: the identifiers, and what cites what. Read as leniently as
/// the identifiers check needs: a finding without a string id is "?", flow ids that are not
/// numbers are none, requirements that do not read are none.
struct VerifiedFindings: Decodable {
  struct Finding: Decodable {
    let id: String?
    let flowIDs: [Int64]
    enum CodingKeys: String, CodingKey { case id, flowIDs }
    init(from decoder: Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      id = try? c.decode(String.self, forKey: .id)
      flowIDs = (try? c.decode([Int64].self, forKey: .flowIDs)) ?? []
    }
  }
  struct Requirement: Decodable {
    let id: String?
    let contraryFindingIDs: [String], supportingFindingIDs: [String]
    enum CodingKeys: String, CodingKey { case id, contraryFindingIDs, supportingFindingIDs }
    init(from decoder: Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      id = try? c.decode(String.self, forKey: .id)
      contraryFindingIDs = (try? c.decode([String].self, forKey: .contraryFindingIDs)) ?? []
      supportingFindingIDs = (try? c.decode([String].self, forKey: .supportingFindingIDs)) ?? []
    }
  }
  let findings: [Finding]
  let requirements: [Requirement]
  enum CodingKeys: String, CodingKey { case findings, requirements }
  init(from decoder: Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    findings = try c.decode([Finding].self, forKey: .findings)
    requirements = (try? c.decode([Requirement].self, forKey: .requirements)) ?? []
  }
}

/// capture.json as verify reads it: what the capture is counted against, and its flows' order
/// (as dictionaries, 20 000 flows' tallies take tens of megabytes).
struct VerifiedCapture: Decodable {
  struct Packets: Decodable { let written: Int? }
  struct Flow: Decodable { let id: Int64 }
  let packets: Packets
  let flows: [Flow]
}

/// flows.json as verify reads it: every field flows.csv flattens.
struct VerifiedFlows: Decodable { let flows: [VerifiedFlow] }

struct VerifiedFlow: Decodable {
  struct Name: Decodable {
    let text: String
    let origin: String
  }
  struct Peer: Decodable {
    let address: String
    let port: UInt16
  }
  struct ClientTLS: Decodable {
    let versionsForm: String, versions: [String], alpn: [String], droppedALPNCount: Int,
      encryptedClientHello: Bool
  }
  struct ServerTLS: Decodable {
    let answer: String, version: String?, cipherSuite: String?, fromHelloRetryRequest: Bool?,
      source: String?, alert: Int?
  }
  struct QUIC: Decodable { let version: String, end: String }
  struct Certificate: Decodable { let visibility: String, chain: [String]?, chainIsComplete: Bool? }
  let id: Int64
  let `protocol`: String
  let firstSeen: String
  let lastSeen: String
  let durationSeconds: Double
  let bytesOut: UInt64
  let bytesIn: UInt64
  let packetCount: Int
  let peers: [Peer]
  let tlsStatus: String
  let name: Name?
  let sni: String?
  let dnsName: String?
  let dnsOtherNames: [String]
  let streamOpening: String?
  let clientTLS: ClientTLS?
  let serverTLS: ServerTLS?
  let quic: QUIC?
  let serverCertificate: Certificate
  let findingIDs: [String]

  /// The row flows.csv must have for this flow, by column, derived from flows.json alone (the
  /// flattening docs/bundle-format.md describes).
  var csvCells: [String: String] {
    func peer(_ i: Int) -> String {
      guard i < peers.count else { return "" }
      return FlowEndpoint(address: peers[i].address, port: peers[i].port).text
    }
    func flag(_ value: Bool?) -> String { value.map { $0 ? "true" : "false" } ?? "" }
    let compact = { (version: String) in version.replacingOccurrences(of: " ", with: "") }
    return [
      "id": String(id), "protocol": `protocol`, "firstSeen": firstSeen, "lastSeen": lastSeen,
      "durationSeconds": JSONText.number(durationSeconds),
      "bytesOut": String(bytesOut), "bytesIn": String(bytesIn), "packetCount": String(packetCount),
      "peerA": peer(0), "peerB": peer(1), "tlsStatus": tlsStatus,
      "name": name?.text ?? "", "nameOrigin": name?.origin ?? "", "sni": sni ?? "",
      "dnsName": dnsName ?? "",
      "dnsOtherNames": dnsOtherNames.joined(separator: " "), "streamOpening": streamOpening ?? "",
      "clientVersionsForm": clientTLS?.versionsForm ?? "",
      "clientVersions": clientTLS?.versions.map(compact).joined(separator: " ") ?? "",
      "alpn": clientTLS?.alpn.joined(separator: " ") ?? "",
      "droppedALPNCount": clientTLS.map { String($0.droppedALPNCount) } ?? "",
      "encryptedClientHello": flag(clientTLS?.encryptedClientHello),
      "serverAnswer": serverTLS?.answer ?? "",
      "serverVersion": serverTLS?.version.map(compact) ?? "",
      "cipherSuite": serverTLS?.cipherSuite ?? "",
      "fromHelloRetryRequest": flag(serverTLS?.fromHelloRetryRequest),
      "serverSource": serverTLS?.source ?? "", "alert": serverTLS?.alert.map(String.init) ?? "",
      "quicVersion": quic?.version ?? "", "quicEnd": quic?.end ?? "",
      "certificateVisibility": serverCertificate.visibility,
      "serverCertificate": serverCertificate.chain?.first ?? "",
      "chainIsComplete": flag(serverCertificate.chainIsComplete),
      "findingIDs": findingIDs.joined(separator: " "),
    ]
  }
}
