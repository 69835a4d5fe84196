import Audit

/// A server scanned in both sessions compared, as each scan judged it: what the later scan's
/// judgement says that the earlier one's did not (the configuration got worse in that), and
/// what it no longer says. Pure: the runs are read by the shell.
public struct ServerScanChange: Sendable, Hashable {
  public let host: String
  public let port: UInt16
  public let added: [ServerConfigurationObservation]
  public let removed: [ServerConfigurationObservation]

  /// The servers in both sessions' scans (the latest scan of each in each session), in the
  /// later session's order, each with what its judgement gained and lost; a server whose
  /// judgement did not change is left out.
  public static func changes(
    earlier: [ServerScanRun], later: [ServerScanRun], judge: ServerConfigurationJudge
  ) -> [ServerScanChange] {
    func latest(_ runs: [ServerScanRun]) -> [(key: String, scan: ServerScan)] {
      var order: [String] = []
      var byServer: [String: ServerScan] = [:]
      for scan in runs.flatMap(\.scans) {
        let key = "\(scan.host):\(scan.port)"
        if byServer[key] == nil { order.append(key) }
        byServer[key] = scan
      }
      return order.map { ($0, byServer[$0]!) }
    }
    let before = Dictionary(uniqueKeysWithValues: latest(earlier).map { ($0.key, $0.scan) })
    return latest(later).compactMap { key, scan in
      guard let old = before[key] else { return nil }
      let now = judge.judge(scan)
      let then = judge.judge(old)
      let change = ServerScanChange(
        host: scan.host, port: scan.port, added: now.filter { !then.contains($0) },
        removed: then.filter { !now.contains($0) })
      return change.added.isEmpty && change.removed.isEmpty ? nil : change
    }
  }
}
