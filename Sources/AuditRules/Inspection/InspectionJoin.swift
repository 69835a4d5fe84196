import Audit
import Foundation

/// What a line of the log says of the connection it is about: its ends and when it was open (µs).
public protocol InspectionJoinable {
  var client: InspectionLogEntry.Endpoint { get }
  var proxy: InspectionLogEntry.Endpoint? { get }
  var serverPeer: InspectionLogEntry.Endpoint? { get }
  var start: Int64 { get }
  var end: Int64? { get }
}

extension InspectionLogEntry: InspectionJoinable {}

extension LoggedExchange: InspectionJoinable {
  public var start: Int64 { Instant.microseconds(exchange.start) }
  public var end: Int64? { exchange.end.map(Instant.microseconds) }
}

/// Which flow of a capture each line of an inspection log is about. Explicit mode: the capture
/// sees device ↔ proxy, and the line's client and proxy endpoints are the flow's two ends.
/// Transparent mode: the capture sees device ↔ server, and the line's client and the server it
/// connected to are. Ephemeral ports are reused, so the flow must also be open while the line's
/// connection was. A line that joins no flow is counted, never guessed at.
public struct InspectionJoin: Sendable, Hashable {
  /// The instants of the proxy and of the capture may differ this much (µs).
  public static let slack: Int64 = 2_000_000

  /// By flow index: the entry joined to it.
  public private(set) var entries: [Int: InspectionLogEntry] = [:]
  /// Lines that joined no flow, and lines about a flow another line had joined.
  public private(set) var unjoined: [InspectionLogEntry] = []
  public private(set) var duplicates: [InspectionLogEntry] = []
  /// Lines written under another certificate scenario than the session states: never joined.
  public private(set) var otherScenario: [InspectionLogEntry] = []

  /// Whether a line may join a session recorded under `scenario`: a line that names none (an
  /// older addon's) may; one that names another may not.
  public static func fits(_ entry: InspectionLogEntry, _ scenario: CertificateScenario?) -> Bool {
    guard let stated = entry.scenario else { return true }
    return stated == scenario
  }

  public struct Candidate: Sendable, Hashable {
    public let peers: FlowPeers
    public let isTCP: Bool
    public let first: Int64, last: Int64
    /// A flow of the store, as a line may be about it.
    public init(_ flow: StoredFlow) {
      self.init(
        peers: flow.peers, isTCP: flow.ipProtocol == .tcp,
        first: Instant.microseconds(flow.firstSeen), last: Instant.microseconds(flow.lastSeen))
    }
    public init(peers: FlowPeers, isTCP: Bool, first: Int64, last: Int64) {
      self.peers = peers
      self.isTCP = isTCP
      self.first = first
      self.last = last
    }
  }

  /// The two ends a line's connection may have in a capture: client and proxy (explicit mode),
  /// client and server (transparent mode).
  public static func ends(of entry: some InspectionJoinable) -> [FlowPeers] {
    let client = FlowEndpoint(address: plain(entry.client.address), port: entry.client.port)
    return [entry.proxy, entry.serverPeer].compactMap { $0 }.map {
      FlowPeers(client, FlowEndpoint(address: plain($0.address), port: $0.port))
    }
  }

  /// Of the candidates with the line's ends, the one open while its connection was that began
  /// nearest its start.
  static func nearest(_ entry: some InspectionJoinable, among indices: [Int], _ flows: [Candidate])
    -> Int?
  {
    let end = entry.end ?? entry.start
    return indices.filter {
      flows[$0].first <= end + slack && flows[$0].last >= entry.start - slack
    }.min {
      (abs(flows[$0].first - entry.start), $0) < (abs(flows[$1].first - entry.start), $1)
    }
  }

  /// The candidate a line is about, by index; nil for none (the recorder's flows held).
  public static func match(_ entry: some InspectionJoinable, in flows: [Candidate]) -> Int? {
    let ends = ends(of: entry)
    return nearest(
      entry, among: flows.indices.filter { flows[$0].isTCP && ends.contains(flows[$0].peers) },
      flows)
  }

  /// By flow index: the exchanges joined to it (a connection carries many), in the log's order.
  public private(set) var exchanges: [Int: [LoggedExchange]] = [:]
  /// Exchanges that joined no flow: kept without one.
  public private(set) var unjoinedExchanges: [LoggedExchange] = []

  public init(
    _ log: [InspectionLogEntry], exchanges logged: [LoggedExchange] = [], flows: [Candidate],
    scenario: CertificateScenario? = nil
  ) {
    var byEnds: [FlowPeers: [Int]] = [:]
    for (i, flow) in flows.enumerated() where flow.isTCP {
      byEnds[flow.peers, default: []].append(i)
    }
    for entry in log {
      guard Self.fits(entry, scenario) else {
        otherScenario.append(entry)
        continue
      }
      let indices = Self.ends(of: entry).flatMap { byEnds[$0] ?? [] }
      guard let best = Self.nearest(entry, among: indices, flows) else {
        unjoined.append(entry)
        continue
      }
      if entries[best] != nil {
        duplicates.append(entry)
      } else {
        entries[best] = entry
      }
    }
    for exchange in logged {
      guard exchange.scenario == nil || exchange.scenario == scenario else { continue }
      let indices = Self.ends(of: exchange).flatMap { byEnds[$0] ?? [] }
      if let best = Self.nearest(exchange, among: indices, flows) {
        exchanges[best, default: []].append(exchange)
      } else {
        unjoinedExchanges.append(exchange)
      }
    }
  }

  /// An IPv4 address as a dual-stack socket reports it, as the capture has it.
  static func plain(_ address: String) -> String {
    address.hasPrefix("::ffff:") && address.contains(".") ? String(address.dropFirst(7)) : address
  }

  /// The flow as the line's outcome makes it: its status the outcome, decided by it; the server's
  /// answer the one the real server gave the proxy (the capture's ServerHello, when it saw one,
  /// was the proxy's); the certificate the app was shown the proxy's.
  public static func applying(_ entry: InspectionLogEntry, to flow: StoredFlow) -> StoredFlow {
    guard let outcome = entry.outcome else { return flow }
    var flow = flow
    switch outcome {
    case .inspected: flow.tlsStatus = .inspected
    case .notInspectable: flow.tlsStatus = .notInspectable
    case .closedAfterHandshake: flow.tlsStatus = .closedAfterHandshake
    }
    flow.tlsStatusBasis = .inspection
    if let version = entry.serverTLSVersion {
      flow.serverTLS = .negotiated(
        version: version, cipherSuite: entry.serverCipher ?? 0, fromHelloRetryRequest: false,
        source: .upstreamConnection)
    } else {
      flow.serverTLS = nil
    }
    if outcome != .notInspectable { flow.serverCertificate = .replacedByInspection }
    // The certificate the capture saw was the proxy's; the server's own is read from the line
    // (`InspectionJoin.joining`, which reads certificates).
    flow.serverKey = nil
    return flow
  }
}

/// What a log added to a session, for its notes and what import says.
public struct InspectionLogSummary: Sendable, Hashable {
  public var lines = 0, joined = 0, accepted = 0, refused = 0, closedAfterHandshake = 0
  public var withoutOutcome = 0, unjoined = 0, duplicates = 0
  /// Exchanges and WebSocket messages the log holds, and those joined to a connection.
  public var exchanges = 0, exchangesJoined = 0
  /// Lines of another certificate scenario, by the scenario they name.
  public var otherScenario: [CertificateScenario: Int] = [:]
  public init() {}

  /// Counts a line refused for naming another scenario than the session's.
  public mutating func countOtherScenario(_ entry: InspectionLogEntry) {
    lines += 1
    if let scenario = entry.scenario { otherScenario[scenario, default: 0] += 1 }
  }

  /// Counts one line more: joined with `entry`'s outcome, or not.
  public mutating func count(_ entry: InspectionLogEntry, joined: Bool) {
    lines += 1
    guard joined else {
      unjoined += 1
      return
    }
    self.joined += 1
    switch entry.outcome {
    case .inspected?: accepted += 1
    case .notInspectable?: refused += 1
    case .closedAfterHandshake?: closedAfterHandshake += 1
    case nil: withoutOutcome += 1
    }
  }

  public init(_ join: InspectionJoin, lines: Int) {
    for entry in join.entries.values { count(entry, joined: true) }
    for entry in join.unjoined { count(entry, joined: false) }
    for entry in join.otherScenario { countOtherScenario(entry) }
    duplicates = join.duplicates.count
    self.lines = lines
    exchangesJoined = join.exchanges.values.reduce(0) { $0 + $1.count }
    exchanges = exchangesJoined + join.unjoinedExchanges.count
  }

}
