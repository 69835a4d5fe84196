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

/// flows.json as verify reads it: each flow read back as the store held it, with the findings it
/// cites (`EvidenceFlowRecord.Decoded`).
struct VerifiedFlows: Decodable { let flows: [EvidenceFlowRecord.Decoded] }
