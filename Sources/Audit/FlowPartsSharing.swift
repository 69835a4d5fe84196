/// The parts many flows of a session have alike (an app's few ClientHellos, its servers' answers,
/// certificates and addresses), each held once: a reader that keeps every flow of a session (verify
/// re-deriving the findings) hands each flow through `share` and keeps what it gives back. An equal
/// part is swapped for the first one seen, whose arrays and strings the flows then share.
public final class FlowPartsSharing {
  private var offers: [ClientTLSOffer: ClientTLSOffer] = [:]
  private var answers: [ServerTLSAnswer: ServerTLSAnswer] = [:]
  private var certificates: [CertificateVisibility: CertificateVisibility] = [:]
  private var keys: [CertificateKeyReading: CertificateKeyReading] = [:]
  private var names: [String: String] = [:]
  private var lists: [[String]: [String]] = [:]
  /// How many of each part are kept to share (a session of ever-new parts grows no further).
  let limit: Int

  public init(limit: Int = 4096) { self.limit = limit }

  public func share(_ flow: StoredFlow) -> StoredFlow {
    var shared = flow
    // Each address as a name: a pair of endpoints is the flow's own (its client port), and a
    // table of pairs held thousands that no later flow matched.
    shared.peers = FlowPeers(
      FlowEndpoint(address: name(flow.peers.a.address), port: flow.peers.a.port),
      FlowEndpoint(address: name(flow.peers.b.address), port: flow.peers.b.port))
    shared.clientTLS = flow.clientTLS.map(offer)
    shared.serverTLS = flow.serverTLS.map(answer)
    shared.serverCertificate = Self.kept(flow.serverCertificate, in: &certificates, limit: limit)
    shared.serverKey = flow.serverKey.map(key)
    shared.sni = flow.sni.map(name)
    shared.dnsName = flow.dnsName.map(name)
    return shared
  }

  /// A ClientHello's offer, a server's answer, a certificate's key, each held once: a reader of
  /// rows swaps each for the first equal one, and the flows share its reference.
  public func offer(_ offer: ClientTLSOffer) -> ClientTLSOffer {
    Self.kept(offer, in: &offers, limit: limit)
  }
  public func answer(_ answer: ServerTLSAnswer) -> ServerTLSAnswer {
    Self.kept(answer, in: &answers, limit: limit)
  }
  public func key(_ key: CertificateKeyReading) -> CertificateKeyReading {
    Self.kept(key, in: &keys, limit: limit)
  }

  /// A name held once; up to 15 UTF-8 bytes a String holds its text inline, nothing to share.
  public func name(_ text: String) -> String {
    text.utf8.count > 15 ? Self.kept(text, in: &names, limit: limit) : text
  }

  /// A list of names (a flow's finding ids) held once; an empty one holds nothing.
  public func list(_ names: [String]) -> [String] {
    names.isEmpty ? names : Self.kept(names, in: &lists, limit: limit)
  }

  private static func kept<T: Hashable>(_ value: T, in table: inout [T: T], limit: Int) -> T {
    if let kept = table[value] { return kept }
    if table.count < limit { table[value] = value }
    return value
  }
}
