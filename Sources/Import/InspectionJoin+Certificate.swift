import Audit
import AuditRules

extension InspectionJoin {
  /// `applying`, with the key of the real server's certificate read from the line: the proxy's
  /// own connection is where a TLS 1.3 server's certificate can be seen.
  public static func joining(_ entry: InspectionLogEntry, to flow: StoredFlow) -> StoredFlow {
    var joined = applying(entry, to: flow)
    if entry.outcome != nil, let der = entry.serverCertificate {
      joined.serverKey = CertificateKeyReader.read(der, source: .upstreamConnection)
    }
    return joined
  }
}
