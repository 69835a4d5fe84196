import Audit
import Foundation

/// A TCP connection a recorder first sees mid-stream — it began before this recorder run, one
/// killed and started again among them — continues the row an earlier run left of it: the same
/// ends, its last packet within the idle time before this one's first. The new row then carries
/// what the earlier one read (its name, its handshake, the proxy's outcome) and says which row it
/// continues, as a connection across a session's edge does. Pure: the recorder asks the store for
/// the candidates.
public enum ConnectionContinuation {
  /// Of `candidates` (rows with the flow's ends), the one the flow continues: the latest whose
  /// last packet came before the flow's first, by no more than the idle time; nil for a flow whose
  /// opening was captured, or when none fits.
  public static func predecessor(of flow: StoredFlow, among candidates: [StoredFlow])
    -> StoredFlow?
  {
    guard flow.beganBeforeCapture, flow.ipProtocol == .tcp else { return nil }
    let first = Instant.microseconds(flow.firstSeen)
    return candidates.filter {
      $0.ipProtocol == .tcp && $0.peers == flow.peers && $0.id != flow.id
        && Instant.microseconds($0.lastSeen) <= first
        && first - Instant.microseconds($0.lastSeen) <= ReadingLimits.connectionIdleMicroseconds
    }.max {
      (Instant.microseconds($0.lastSeen), $0.id) < (Instant.microseconds($1.lastSeen), $1.id)
    }
  }

  /// The earliest instant a predecessor's last packet may have (µs), for the store's query.
  public static func earliestLastPacket(before flow: StoredFlow) -> Int64 {
    Instant.microseconds(flow.firstSeen) - ReadingLimits.connectionIdleMicroseconds
  }

  /// `flow` with what `earlier` read: its names, opening, handshake, certificate and the status
  /// they decide. The earlier row saw the connection from further back, so its readings come
  /// first (the bytes a mid-stream sight first reads are no opening); the flow's own fill what
  /// it lacks. Its packets, bytes and times stay its own; whether it began before the capture is
  /// the earlier row's, which holds the opening when anything does.
  public static func inheriting(_ earlier: StoredFlow, into flow: StoredFlow) -> StoredFlow {
    var f = flow
    f.sni = earlier.sni ?? f.sni
    f.connectHost = earlier.connectHost ?? f.connectHost
    f.httpHost = earlier.httpHost ?? f.httpHost
    if earlier.dnsName != nil {
      f.dnsName = earlier.dnsName
      f.dnsOtherNames = earlier.dnsOtherNames
    }
    f.streamOpening = earlier.streamOpening ?? f.streamOpening
    f.clientTLS = earlier.clientTLS ?? f.clientTLS
    f.serverTLS = earlier.serverTLS ?? f.serverTLS
    f.serverKey = earlier.serverKey ?? f.serverKey
    if earlier.serverCertificate != .notRead { f.serverCertificate = earlier.serverCertificate }
    if let basis = earlier.tlsStatusBasis, basis != .port {
      f.tlsStatus = earlier.tlsStatus
      f.tlsStatusBasis = basis
    }
    f.beganBeforeCapture = earlier.beganBeforeCapture
    return f
  }
}
