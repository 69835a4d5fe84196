import Foundation

/// How the inspecting proxy's certificate stood with the device while a session recorded: what
/// an accepted or refused certificate then says about the app.
public enum CertificateScenario: Int, Sendable, Hashable, CaseIterable {
  /// The proxy's CA is not installed on the device: accepting its certificate is accepting one
  /// no trusted CA issued.
  case notInstalled = 1
  /// Installed in the user's store (Android): trusted only by apps that opt in.
  case userCA = 2
  /// Trusted by the system (iOS full trust, Android's system store): accepting is what a
  /// validating app does; refusing shows a pin.
  case systemTrust = 3
  /// The proxy serves, with a trusted CA, a certificate for another host name.
  case wrongHost = 4
  /// The proxy serves, with a trusted CA, a certificate that has expired.
  case expired = 5

  /// The stable identifier the documents and the inspection log carry.
  public var name: String {
    switch self {
    case .notInstalled: return "notInstalled"
    case .userCA: return "userCA"
    case .systemTrust: return "systemTrust"
    case .wrongHost: return "wrongHost"
    case .expired: return "expired"
    }
  }

  /// Its word on the command line (`--ca WORD`).
  public var argument: String {
    switch self {
    case .notInstalled: return "not-installed"
    case .userCA: return "user"
    case .systemTrust: return "system"
    case .wrongHost: return "wrong-host"
    case .expired: return "expired"
    }
  }

  public init?(name: String) {
    guard let scenario = Self.allCases.first(where: { $0.name == name }) else { return nil }
    self = scenario
  }

  /// Whether the device trusts the CA that issued the certificate the proxy serves.
  public var caTrusted: Bool { self == .systemTrust || self == .wrongHost || self == .expired }
}

public struct InspectionConditions: Sendable, Hashable {
  public let inspectionEnabled: Bool
  /// nil: not stated, and then no outcome is assessed.
  public let scenario: CertificateScenario?
  public init(inspectionEnabled: Bool, scenario: CertificateScenario?) {
    self.inspectionEnabled = inspectionEnabled
    self.scenario = scenario
  }
  /// `caTrusted`: the system trusts the proxy's CA (`--ca-trusted`); otherwise not stated.
  public init(inspectionEnabled: Bool, caTrusted: Bool) {
    self.init(inspectionEnabled: inspectionEnabled, scenario: caTrusted ? .systemTrust : nil)
  }
  /// Whether the device trusted the CA of the certificates the proxy served.
  public var caTrusted: Bool { scenario?.caTrusted ?? false }
  /// Inspection on and the system trusting the proxy's CA, or pinning is not assessed so.
  public var supportsPinningEvidence: Bool { inspectionEnabled && scenario == .systemTrust }
  public static let off = InspectionConditions(inspectionEnabled: false, scenario: nil)
}

/// Where an imported session's traffic came from: the capture file, as the import read it.
public struct CaptureSource: Sendable, Hashable {
  public let fileName: String
  /// The file's SHA-256, lower-case hex: a second import of the same bytes is found by it.
  public let sha256: String
  /// What wrote the capture, as the file says (pcapng `shb_userappl`); nil when it does not.
  public let application: String?
  /// The host the capture was taken on, as the file says (`shb_hardware`, `shb_os`): not the
  /// phone's. nil when it does not.
  public let host: String?
  public init(fileName: String, sha256: String, application: String?, host: String?) {
    self.fileName = fileName
    self.sha256 = sha256
    self.application = application
    self.host = host
  }
}
