import Audit
import AuditRules
import Foundation

/// What `scan` says as it goes: which server, how far, what was kept.
public enum ScanWording {
  public static func target(_ t: ScanTarget) -> String {
    ServerConfigurationWording.server(host: t.host, FlowEndpoint(address: t.address, port: t.port))
  }

  public static func progress(_ t: ScanTarget, index: Int, of count: Int) -> String {
    "Scanning \(target(t)) with testssl.sh, \(index + 1) of \(count)…"
  }

  public static func kept(_ scan: StoredServerScan) -> String {
    "Scan \(scan.fileName) (SHA-256 \(scan.sha256)), kept with session \(scan.sessionID) at \(Instant.rfc3339ToTheSecond(scan.storedAt))."
  }

  public static func noneKept(_ session: Int64) -> String {
    "No scan is kept with session \(session): 'tunnelvision scan \(session)' makes one."
  }

  public static func noTargets(named: [String], allowlist: [AllowlistEntry]) -> String {
    if !named.isEmpty {
      return
        "No TCP connection of the session went to \(named.joined(separator: ", ")): nothing was scanned."
    }
    if allowlist.isEmpty {
      return
        "The project's allowlist is empty, so no server is known to be the app's own: nothing was scanned. Name hosts with --host, or allow the backend's domains ('tunnelvision project edit')."
    }
    return
      "No connection of the session went to an allowlisted host that no tracker list names: nothing was scanned. Name hosts with --host."
  }

  public static let noTestssl =
    "testssl.sh is not installed (Debian: apt install testssl.sh); or read a scan made elsewhere with --from FILE."

  public static func unreadable(_ path: String) -> String {
    "There is no readable scan file \(path)."
  }

  public static func notAScan(_ path: String, reason: String) -> String {
    "\(path) is not read as testssl.sh's or sslyze's JSON: \(reason). Nothing was kept."
  }

  public static func unusable(_ t: ScanTarget, reason: String) -> String {
    "\(target(t)): the scan gave nothing to keep (\(reason))."
  }

  public static func timedOut(_ t: ScanTarget, seconds: Int) -> String {
    "\(target(t)): not finished after \(seconds) s, stopped; nothing kept for it (--timeout gives it longer)."
  }

  public static func summary(kept: Int, of count: Int, stopped: Bool) -> String {
    let head = "\(Quantity.grouped(kept)) of \(Quantity.count(count, "server")) scanned and kept"
    return stopped ? head + "; stopped at Ctrl-C, the rest not scanned." : head + "."
  }

  public static func noneInBundle(_ session: Int64) -> String {
    "No server scan is kept with this session: what its servers offer was not scanned ('tunnelvision scan \(session)' makes one)."
  }

  public static func inBundle(_ scan: StoredServerScan, file: String) -> String {
    "\(file): \(scan.tool)'s output \(scan.fileName) (SHA-256 \(scan.sha256)), kept at \(Instant.rfc3339ToTheSecond(scan.storedAt))."
  }

  public static let unreadableInBundle =
    "It is not read as testssl.sh's JSON: nothing of it is judged."

  public static func notInSession(_ scan: ServerScan, session: Int64) -> String {
    "Note: \(ServerConfigurationWording.server(scan)) is not a server session \(session)'s connections reached; the scan is kept with the session, but says nothing of what its app contacted."
  }
}
