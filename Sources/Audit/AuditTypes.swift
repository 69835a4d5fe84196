import Foundation

public struct AllowlistEntry: Sendable, Hashable {
  public let pattern: DomainPattern
  /// "backend", "crash reporting": goes to the report.
  public let note: String?

  public init(pattern: DomainPattern, note: String? = nil) {
    self.pattern = pattern
    let trimmed = note?.trimmingWhitespace()
    self.note = (trimmed?.isEmpty ?? true) ? nil : trimmed
  }
}

public struct AuditProject: Sendable, Hashable, Identifiable {
  public let id: Int64
  public let name: String
  /// Informational: it never filters traffic.
  public let bundleIdentifier: String?
  /// A catalogue identifier, nil until one is chosen.
  public let catalogueVersion: String?
  /// In the order it was written.
  public let allowlist: [AllowlistEntry]
  public let createdAt: Date

  public init(
    id: Int64, name: String, bundleIdentifier: String?, catalogueVersion: String?,
    allowlist: [AllowlistEntry], createdAt: Date
  ) {
    self.id = id
    self.name = name
    self.bundleIdentifier = bundleIdentifier
    self.catalogueVersion = catalogueVersion
    self.allowlist = allowlist
    self.createdAt = createdAt
  }

  /// The first entry that covers the host.
  public func allowlistEntry(matching host: String) -> AllowlistEntry? {
    allowlist.first { $0.pattern.matches(host) }
  }
}

/// Everything of a project but what the store assigns.
public struct AuditProjectDraft: Sendable, Hashable {
  public var name: String
  public var bundleIdentifier: String?
  public var catalogueVersion: String?
  public var allowlist: [AllowlistEntry]

  public init(
    name: String, bundleIdentifier: String? = nil, catalogueVersion: String? = nil,
    allowlist: [AllowlistEntry] = []
  ) {
    self.name = name
    self.bundleIdentifier = bundleIdentifier
    self.catalogueVersion = catalogueVersion
    self.allowlist = allowlist
  }

  public init(_ project: AuditProject) {
    self.init(
      name: project.name, bundleIdentifier: project.bundleIdentifier,
      catalogueVersion: project.catalogueVersion, allowlist: project.allowlist)
  }
}

public struct AppRelease: Sendable, Hashable {
  public let version: String
  public let build: String
  public init(version: String, build: String) {
    self.version = version
    self.build = build
  }
}

public enum AuditSessionKind: Sendable, Hashable {
  /// Recorded without the audited app.
  case baseline
  case audit(AppRelease)

  public var release: AppRelease? {
    if case .audit(let release) = self { return release }
    return nil
  }
}

public struct AuditEnvironment: Sendable, Hashable {
  public let deviceModel: String
  public let osVersion: String
  public let toolVersion: String
  public init(deviceModel: String, osVersion: String, toolVersion: String) {
    self.deviceModel = deviceModel
    self.osVersion = osVersion
    self.toolVersion = toolVersion
  }
}

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

public struct AuditSession: Sendable, Hashable, Identifiable {
  public let id: Int64
  public let projectID: Int64
  public let kind: AuditSessionKind
  public let environment: AuditEnvironment
  public let inspection: InspectionConditions
  public let startedAt: Date
  /// nil while open.
  public let endedAt: Date?
  public let notes: String
  /// The capture file an imported session was read from; nil for a session recorded here.
  public let source: CaptureSource?
  /// The recorder run that was running when the session ended (it covers the session to its
  /// end, however it ends later); nil when none ran then, and while open.
  public let recorderAtEnd: Int64?
  /// What had become of that run's inspection log when the session ended.
  public let inspectionLogAtEnd: InspectionLogState?

  public init(
    id: Int64, projectID: Int64, kind: AuditSessionKind, environment: AuditEnvironment,
    inspection: InspectionConditions, startedAt: Date, endedAt: Date?, notes: String,
    source: CaptureSource? = nil, recorderAtEnd: Int64? = nil,
    inspectionLogAtEnd: InspectionLogState? = nil
  ) {
    self.inspectionLogAtEnd = inspectionLogAtEnd
    self.recorderAtEnd = recorderAtEnd
    self.id = id
    self.projectID = projectID
    self.kind = kind
    self.environment = environment
    self.inspection = inspection
    self.startedAt = startedAt
    self.endedAt = endedAt
    self.notes = notes
    self.source = source
  }

  public var isOpen: Bool { endedAt == nil }
  /// The year (UTC) the session began: the year a TLS document's tables are read for.
  public var startYear: Int {
    CivilTime(secondsSinceEpoch: Int64(startedAt.timeIntervalSince1970.rounded(.down))).year
  }
}

/// Everything of a session but what the store assigns (the row id and the instant).
public struct AuditSessionDraft: Sendable, Hashable {
  public var projectID: Int64
  public var kind: AuditSessionKind
  public var environment: AuditEnvironment
  public var inspection: InspectionConditions
  public var notes: String
  public var source: CaptureSource?

  public init(
    projectID: Int64, kind: AuditSessionKind, environment: AuditEnvironment,
    inspection: InspectionConditions, notes: String = "", source: CaptureSource? = nil
  ) {
    self.projectID = projectID
    self.kind = kind
    self.environment = environment
    self.inspection = inspection
    self.notes = notes
    self.source = source
  }
}

public enum SessionMarkerKind: Sendable, Hashable {
  case consentGiven, loggedIn, loggedOut
  /// The user withdrew a consent given before (O.Purp_5).
  case consentWithdrawn
  case custom(String)
}

public struct SessionMarker: Sendable, Hashable, Identifiable {
  public let id: Int64
  public let sessionID: Int64
  public let date: Date
  public let kind: SessionMarkerKind
  public init(id: Int64, sessionID: Int64, date: Date, kind: SessionMarkerKind) {
    self.id = id
    self.sessionID = sessionID
    self.date = date
    self.kind = kind
  }
}

/// The open session with its project's name: what is needed to say where a marker would go.
public struct AuditRecording: Sendable, Hashable {
  public let session: AuditSession
  public let projectName: String
  public init(session: AuditSession, projectName: String) {
    self.session = session
    self.projectName = projectName
  }
}

public enum OpenSessionMarkerOutcome: Sendable, Hashable {
  case placed(SessionMarker, in: AuditRecording)
  case noOpenSession
}

public enum AuditStoreError: Error, Sendable, Hashable {
  case emptyProjectName
  case duplicateAllowlistPattern(String)
  case projectNotFound(Int64)
  case sessionNotFound(Int64)
  /// Carries the session in the way.
  case sessionAlreadyOpen(Int64)
  case sessionAlreadyEnded(Int64)
  /// An end or a marker dated before the session began.
  case dateBeforeSessionStart
  case emptyMarkerLabel
  /// A baseline records the device without the audited app: no consent is given in it.
  case consentMarkerInBaseline
  /// A project's test account has a value of that label already.
  case testDataLabelTaken(String)
  case testDataLabelNotFound(String)

  /// Whether a marker of this kind may be placed in a session of that kind.
  public static func markerRefusal(_ marker: SessionMarkerKind, in session: AuditSessionKind)
    -> AuditStoreError?
  {
    if case .consentGiven = marker, case .baseline = session { return .consentMarkerInBaseline }
    return nil
  }
}
