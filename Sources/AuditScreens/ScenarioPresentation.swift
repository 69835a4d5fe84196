import Audit
import AuditWording
import Foundation

/// What `mitmproxy-scenario` says: how to serve a certificate scenario, and what the device
/// must (not) have installed.
public enum ScenarioPresentation {
  /// What must be so on the device for the scenario.
  public static func device(_ scenario: CertificateScenario) -> String {
    switch scenario {
    case .notInstalled:
      return
        "On the device: do not install mitmproxy's CA (remove it if it is there, from both the user and the system store)."
    case .userCA:
      return
        "On the device (Android): install mitmproxy-ca-cert.cer as a user CA (Settings › Security › Encryption & credentials › Install a certificate › CA certificate); leave the system store as it is."
    case .systemTrust:
      return
        "On the device: trust mitmproxy's CA fully (iOS: install the profile, then Settings › General › About › Certificate Trust Settings; Android: the system store, on a rooted or emulator image)."
    case .wrongHost, .expired:
      return
        "On the device: trust mitmproxy's CA as for the system scenario; the proxy then serves this certificate instead of the one it would make."
    }
  }

  /// The mitmdump command line for the scenario; `certificate`: the PEM file it serves, if any.
  public static func command(
    _ scenario: CertificateScenario, addon: String, log: String, certificate: String?
  ) -> String {
    var words = [
      "mitmdump", "-s", addon, "--set", "tunnelvision_log=\(log)", "--set",
      "tunnelvision_scenario=\(scenario.name)",
    ]
    if let certificate { words += ["--certs", "'*=\(certificate)'"] }
    return words.joined(separator: " ")
  }

  /// Said of a certificate made for the scenario.
  public static func made(_ scenario: CertificateScenario, path: String, hosts: [String])
    -> String
  {
    switch scenario {
    case .wrongHost:
      return
        "Wrote \(path): a certificate for \(hosts.joined(separator: ", ")) from mitmproxy's CA, which the proxy serves for every host the app contacts."
    default:
      return
        "Wrote \(path): a certificate for \(hosts.joined(separator: ", ")) from mitmproxy's CA that expired yesterday."
    }
  }

  public static func session(_ scenario: CertificateScenario) -> String {
    "State it when the session starts: tunnelvision session start PROJECT … --inspection --ca \(scenario.argument)"
  }
}
