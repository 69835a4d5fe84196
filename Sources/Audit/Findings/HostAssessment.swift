public enum HostGap: Sendable, Hashable {
  case allowlistEmpty
  case candidatesDisagree(attributedNameAllowed: Bool)
}

/// Where a flow went, against the project's allowlist. Reads the flow's name, never the SNI column.
/// Every flow went somewhere, so there is no "not applicable": an unnamed flow is a finding.
public enum HostAssessment: Sendable, Hashable {
  case notInAllowlist(host: String)
  case unnamed(UnnamedFlowReason)
  case allowed
  case notAssessed(HostGap)

  public init(of flow: StoredFlow, project: AuditProject) {
    guard let name = flow.name else {
      if let offer = flow.clientTLS {
        self = .unnamed(
          offer.encryptedClientHello ? .encryptedClientHello : .serverNameNotAnnounced)
      } else {
        self = .unnamed(.noClientHelloRead)
      }
      return
    }
    guard !project.allowlist.isEmpty else {
      self = .notAssessed(.allowlistEmpty)
      return
    }
    let host = DomainPattern.normalised(host: name.text)
    let covered = { (candidate: String) in project.allowlistEntry(matching: candidate) != nil }
    switch name.origin {
    case .sni, .connect:
      self = covered(host) ? .allowed : .notInAllowlist(host: host)
    case .dns:
      let others = flow.dnsOtherNames.map(DomainPattern.normalised(host:))
      let verdicts = ([host] + others).map(covered)
      if verdicts.allSatisfy({ $0 }) {
        self = .allowed
      } else if verdicts.allSatisfy({ !$0 }) {
        self = .notInAllowlist(host: host)
      } else {
        self = .notAssessed(.candidatesDisagree(attributedNameAllowed: covered(host)))
      }
    }
  }
}
