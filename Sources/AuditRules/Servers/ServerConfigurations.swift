import Audit
import Foundation

/// The session's server scans as the findings read them: for each server (address and port),
/// the latest scan of it and that scan's judgement. Pure.
public struct ServerConfigurations: Sendable {
  public struct Judged: Sendable, Hashable {
    public let scan: ServerScan
    public let observations: [ServerConfigurationObservation]
    /// When the scan began, as the scanner states it (nil: it does not).
    public let scannedAt: Date?
  }

  private let byServer: [FlowEndpoint: Judged]

  /// `runs` oldest first: a later scan of a server stands for it.
  public init(_ runs: [ServerScanRun], judge: ServerConfigurationJudge) {
    var byServer: [FlowEndpoint: Judged] = [:]
    for run in runs {
      for scan in run.scans {
        byServer[FlowEndpoint(address: scan.address, port: scan.port)] = Judged(
          scan: scan, observations: judge.judge(scan), scannedAt: run.startedAt)
      }
    }
    self.byServer = byServer
  }

  public init() { byServer = [:] }

  public func judged(_ server: FlowEndpoint) -> Judged? { byServer[server] }
}
