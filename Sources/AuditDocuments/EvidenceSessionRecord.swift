import Audit
import AuditRules
import AuditWording
import Foundation

/// session.json's strict field readers, by a short name: every section reads through them.
private typealias F = SessionJSONFields
private typealias D = SessionDocument

/// session.json read back into the values it was written from: what verify needs to re-derive
/// the findings and verdicts of the flows without the store. Strict: a missing key or a value of
/// another type is a problem named by its key.
public struct EvidenceSessionRecord: Sendable {
  public let project: AuditProject
  public let session: AuditSession
  public let markers: [SessionMarker]
  public let catalogueIdentifier: String
  public let exportedAt: Date
  public let exportedWith: String
  public let baseline: EvidenceBaseline?
  /// The recorder runs session.json states, and whether they were not kept.
  public let runs: [RecorderRun]
  public let runsNotKept: Bool
  /// The tracker lists the bundle's hosts were compared with; none before format version 4.
  public let trackerLists: [TrackerList.Identity]
  /// The public suffix list of flows.json's registrable domains; nil before format version 4.
  public let publicSuffixList: PublicSuffixListIdentity?
  /// The address databases flows.json's registrations come from (format version 8).
  public let addressDatabases: [AddressDatabaseIdentity]
  /// The server scans the bundle carries (format version 8), their bytes not yet read: each
  /// entry's `output` is empty until verify gives it the file's.
  public let serverScans: [(file: String, scan: StoredServerScan)]
  /// The document's format version (a version 2 bundle holds no recording).
  public let formatVersion: Int
  /// The test account's values the session was judged with; none before format version 5.
  public let testAccount: [TestDataValue]
  /// The libraries the exporter stated in its test log (format version 10).
  public let exportLibraries: [EvidenceTestLog.Tool]
  /// An imported session's proxy starts (`session.capture.proxies`, format version 10).
  public let importProxies: [RecorderRun.ProxyRun]

  public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
    public let description: String
  }

  public init(_ data: Data) throws(Problem) {
    guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
      throw Problem(description: "session.json is not a JSON object")
    }
    formatVersion = Int(try F.integer(root, D.Key.formatVersion))
    (project, catalogueIdentifier) = try Self.project(root)
    let s = try F.object(root, D.Key.session)
    let id = try F.integer(s, D.SessionKey.id)
    let kind = try Self.kind(s)
    let device = try F.object(s, D.SessionKey.device)
    let inspection = try F.object(s, D.SessionKey.inspection)
    let capture = try Self.capture(s, formatVersion: formatVersion)
    importProxies = capture.proxies
    let endedAt = try F.optionalString(s, D.SessionKey.endedAt).map { text throws(Problem) in
      try F.instant(text, D.SessionKey.endedAt.fullName)
    }
    let recording = try Self.recording(s, formatVersion: formatVersion)
    runsNotKept = recording.notKept
    runs = recording.runs
    session = AuditSession(
      id: id, projectID: project.id, kind: kind,
      environment: AuditEnvironment(
        deviceModel: try F.string(device, D.DeviceKey.model),
        osVersion: try F.string(device, D.DeviceKey.osVersion),
        toolVersion: capture.toolVersion),
      inspection: InspectionConditions(
        inspectionEnabled: try F.bool(inspection, D.InspectionKey.inspectionEnabled),
        scenario: try Self.scenario(inspection)),
      startedAt: try F.instant(s, D.SessionKey.startedAt),
      endedAt: endedAt, notes: try F.string(s, D.SessionKey.notes), source: capture.source,
      recorderAtEnd: recording.recorderAtEnd,
      inspectionLogAtEnd: recording.logAtEnd.flatMap(InspectionLogState.init(name:)))
    markers = try Self.markers(s, sessionID: id)
    exportedAt = try F.instant(root, D.Key.exportedAt)
    exportedWith = try F.string(root, D.Key.exportedWith)
    trackerLists = try Self.trackerLists(root)
    addressDatabases = try Self.addressDatabases(root)
    serverScans = try Self.serverScans(root, sessionID: id)
    publicSuffixList = try Self.publicSuffixList(root, formatVersion: formatVersion)
    baseline = try Self.baseline(root)
    testAccount = try Self.testAccount(root[D.Key.testAccount])
    if formatVersion >= 10 {
      guard let libraries = EvidenceTestLog.statedLibraries(root[D.Key.testLog]) else {
        throw F.fail(D.Key.testLog.fullName, "a test log with its steps and tools")
      }
      exportLibraries = libraries
    } else {
      exportLibraries = []
    }
  }

  /// The project as session.json states it, and the catalogue it was judged against.
  static func project(_ root: [String: Any]) throws(Problem) -> (AuditProject, String) {
    let p = try F.object(root, D.Key.project)
    var allowlist: [AllowlistEntry] = []
    guard let entries = p[D.ProjectKey.allowlist] as? [[String: Any]] else {
      throw F.fail(D.ProjectKey.allowlist.fullName, "a list of entries")
    }
    for entry in entries {
      let text = try F.string(entry, D.AllowlistKey.pattern)
      guard let pattern = try? DomainPattern(parsing: text) else {
        throw F.fail(
          D.AllowlistKey.pattern.fullName, "a domain pattern (“\(TerminalText.inline(text))”)")
      }
      allowlist.append(
        AllowlistEntry(
          pattern: pattern, note: try F.optionalString(entry, D.AllowlistKey.note)))
    }
    let catalogue = try F.string(p, D.ProjectKey.catalogue)
    let project = AuditProject(
      id: try F.integer(p, D.ProjectKey.id), name: try F.string(p, D.ProjectKey.name),
      bundleIdentifier: try F.optionalString(p, D.ProjectKey.bundleIdentifier),
      catalogueVersion: catalogue, allowlist: allowlist,
      createdAt: Date(timeIntervalSince1970: 0))
    return (project, catalogue)
  }

  static func kind(_ s: [String: Any]) throws(Problem) -> AuditSessionKind {
    switch try F.string(s, D.SessionKey.kind) {
    case "baseline": return .baseline
    case "audit":
      let release = try F.object(s, D.SessionKey.release)
      return .audit(
        AppRelease(
          version: try F.string(release, D.ReleaseKey.version),
          build: try F.string(release, D.ReleaseKey.build)))
    default: throw F.fail(D.SessionKey.kind.fullName, "audit or baseline")
    }
  }

  /// What recorded the session, or the capture file it was imported from.
  static func capture(_ s: [String: Any], formatVersion: Int) throws(Problem) -> (
    toolVersion: String, source: CaptureSource?, proxies: [RecorderRun.ProxyRun]
  ) {
    if s[D.SessionKey.capture] is NSNull {
      return (try F.string(s, D.SessionKey.recordedWith), nil, [])
    }
    let c = try F.object(s, D.SessionKey.capture)
    let proxies =
      formatVersion >= 10 ? try Self.proxies(c[D.CaptureKey.proxies], in: D.CaptureKey.prefix) : []
    let toolVersion = try F.string(c, D.CaptureKey.importedWith)
    let source = CaptureSource(
      fileName: try F.string(c, D.CaptureKey.fileName),
      sha256: try F.string(c, D.CaptureKey.sha256),
      application: try F.optionalString(c, D.CaptureKey.application),
      host: try F.optionalString(c, D.CaptureKey.host))
    return (toolVersion, source, proxies)
  }

  /// session.recording: the recorder runs, whether they were not kept, what was running at the
  /// end.
  static func recording(_ s: [String: Any], formatVersion: Int) throws(Problem) -> (
    runs: [RecorderRun], notKept: Bool, recorderAtEnd: Int64?, logAtEnd: String?
  ) {
    // Before format version 3, no recording: nothing to derive the coverage from.
    let recording =
      formatVersion < 3 && s[D.SessionKey.recording] == nil
      ? [
        D.RecordingKey.basis.rawValue: SessionCoverage.Basis.runs.rawValue,
        D.RecordingKey.runs.rawValue: [[String: Any]](),
        D.RecordingKey.recorderAtEnd.rawValue: NSNull(),
        D.RecordingKey.inspectionLogAtEnd.rawValue: NSNull(),
      ]
      : try F.object(s, D.SessionKey.recording)
    var recorderAtEnd: Int64?
    if !(recording[D.RecordingKey.recorderAtEnd] is NSNull) {
      recorderAtEnd = Int64(try F.integer(recording, D.RecordingKey.recorderAtEnd))
    }
    let logAtEnd = try F.optionalString(recording, D.RecordingKey.inspectionLogAtEnd)
    let notKept =
      try F.string(recording, D.RecordingKey.basis) == SessionCoverage.Basis.runsNotKept.rawValue
    guard let runList = recording[D.RecordingKey.runs] as? [[String: Any]] else {
      throw F.fail(D.RecordingKey.runs.fullName, "a list of recorder runs")
    }
    var runs: [RecorderRun] = []
    for run in runList { runs.append(try Self.run(run, formatVersion: formatVersion)) }
    return (runs, notKept, recorderAtEnd, logAtEnd)
  }

  /// A recorder run of session.recording.runs.
  static func run(_ run: [String: Any], formatVersion: Int) throws(Problem) -> RecorderRun {
    let ended = try F.optionalString(run, D.RunKey.endedAt).map { text throws(Problem) in
      try F.instant(text, D.RunKey.endedAt.fullName)
    }
    let end = try F.optionalString(run, D.RunKey.end)
    let log = try F.optionalString(run, D.RunKey.inspectionLogState)
    let unreadable =
      run[D.RunKey.inspectionLinesUnreadable] == nil
      ? 0 : try F.integer(run, D.RunKey.inspectionLinesUnreadable)
    guard unreadable >= 0 else {
      throw F.fail(D.RunKey.inspectionLinesUnreadable.fullName, "a count")
    }
    // Format version 10's: the filter, the libpcap and the proxy's starts.
    let proxies =
      formatVersion >= 10 ? try Self.proxies(run[D.RunKey.proxies], in: D.RunKey.prefix) : []
    let filter = formatVersion >= 10 ? try F.optionalString(run, D.RunKey.filter) : nil
    let libpcap = formatVersion >= 10 ? try F.optionalString(run, D.RunKey.libpcap) : nil
    return RecorderRun(
      id: Int64(try F.integer(run, D.RunKey.id)), source: try F.string(run, D.RunKey.source),
      isLive: try F.bool(run, D.RunKey.live),
      processID: Int32(truncatingIfNeeded: try F.integer(run, D.RunKey.processID)),
      startedAt: try F.instant(run, D.RunKey.startedAt),
      aliveAt: try F.instant(run, D.RunKey.lastSignOfLife),
      endedAt: ended, end: end.flatMap(RecorderRunEnd.init(name:)),
      inspectionLog: try F.optionalString(run, D.RunKey.inspectionLog),
      inspectionLogState: log.flatMap(InspectionLogState.init(name:)),
      inspectionLinesUnreadable: Int(unreadable), filter: filter, libpcap: libpcap,
      proxies: proxies)
  }

  static func markers(_ s: [String: Any], sessionID id: Int64) throws(Problem) -> [SessionMarker] {
    guard let list = s[D.SessionKey.markers] as? [[String: Any]] else {
      throw F.fail(D.SessionKey.markers.fullName, "a list of markers")
    }
    var markers: [SessionMarker] = []
    for (index, m) in list.enumerated() {
      let at = try F.instant(m, D.MarkerKey.at)
      let markerKind: SessionMarkerKind
      switch try F.string(m, D.MarkerKey.kind) {
      case "consentGiven": markerKind = .consentGiven
      case "loggedIn": markerKind = .loggedIn
      case "loggedOut": markerKind = .loggedOut
      case "consentWithdrawn": markerKind = .consentWithdrawn
      case "custom": markerKind = .custom(try F.string(m, D.MarkerKey.label))
      default: throw F.fail(D.MarkerKey.kind.fullName, "a marker kind")
      }
      markers.append(SessionMarker(id: Int64(index + 1), sessionID: id, date: at, kind: markerKind))
    }
    return markers
  }

  static func trackerLists(_ root: [String: Any]) throws(Problem) -> [TrackerList.Identity] {
    guard let value = root[D.Key.trackerLists] else { return [] }
    guard let entries = value as? [[String: Any]] else {
      throw F.fail(D.Key.trackerLists.fullName, "a list of tracker lists")
    }
    var lists: [TrackerList.Identity] = []
    for (index, entry) in entries.enumerated() {
      typealias E = D.TrackerListKey
      lists.append(
        TrackerList.Identity(
          name: try F.string(entry, E.name, at: index),
          path: try F.string(entry, E.path, at: index),
          sha256: try F.string(entry, E.sha256, at: index),
          date: try F.string(entry, E.date, at: index)))
    }
    return lists
  }

  static func addressDatabases(_ root: [String: Any]) throws(Problem) -> [AddressDatabaseIdentity] {
    guard let value = root[D.Key.addressDatabases] else { return [] }
    guard let entries = value as? [[String: Any]] else {
      throw F.fail(D.Key.addressDatabases.fullName, "a list of address databases")
    }
    var databases: [AddressDatabaseIdentity] = []
    for (index, entry) in entries.enumerated() {
      typealias E = D.AddressDatabaseKey
      databases.append(
        AddressDatabaseIdentity(
          name: try F.string(entry, E.name, at: index),
          path: try F.string(entry, E.path, at: index),
          sha256: try F.string(entry, E.sha256, at: index),
          built: try F.string(entry, E.built, at: index)))
    }
    return databases
  }

  static func serverScans(_ root: [String: Any], sessionID: Int64) throws(Problem) -> [(
    file: String, scan: StoredServerScan
  )] {
    guard let value = root[D.Key.serverScans] else { return [] }
    guard let entries = value as? [[String: Any]] else {
      throw F.fail(D.Key.serverScans.fullName, "a list of server scans")
    }
    var scans: [(file: String, scan: StoredServerScan)] = []
    for (index, entry) in entries.enumerated() {
      typealias E = D.ServerScanKey
      let file = try F.string(entry, E.file, at: index)
      guard file == EvidenceBundle.serverScanName(index) else {
        throw F.fail(F.name(E.file, at: index), EvidenceBundle.serverScanName(index))
      }
      scans.append(
        (
          file,
          StoredServerScan(
            sessionID: sessionID,
            storedAt: try F.instant(entry, E.storedAt, at: index),
            tool: try F.string(entry, E.tool, at: index),
            fileName: try F.string(entry, E.fileName, at: index),
            sha256: try F.string(entry, E.sha256, at: index), output: Data())
        ))
    }
    return scans
  }

  static func publicSuffixList(_ root: [String: Any], formatVersion: Int) throws(Problem)
    -> PublicSuffixListIdentity?
  {
    guard let value = root[D.Key.publicSuffixList], !(value is NSNull) else { return nil }
    guard let object = value as? [String: Any] else {
      throw F.fail(D.Key.publicSuffixList.fullName, "the public suffix list's path and SHA-256")
    }
    return PublicSuffixListIdentity(
      path: try F.string(object, D.PublicSuffixListKey.path),
      sha256: try F.string(object, D.PublicSuffixListKey.sha256),
      date: formatVersion >= 10
        ? try F.optionalString(object, D.PublicSuffixListKey.date) : nil)
  }

  static func baseline(_ root: [String: Any]) throws(Problem) -> EvidenceBaseline? {
    if root[D.Key.baseline] is NSNull { return nil }
    let b = try F.object(root, D.Key.baseline)
    guard let hosts = b[D.BaselineKey.hosts] as? [String] else {
      throw F.fail(D.BaselineKey.hosts.fullName, "a list of host names")
    }
    // Format version 4's; an earlier bundle's baseline names no TLS clients.
    let clients = b[D.BaselineKey.tlsClients] ?? [String]()
    guard let tlsClients = clients as? [String] else {
      throw F.fail(D.BaselineKey.tlsClients.fullName, "a list of JA4 fingerprints")
    }
    return EvidenceBaseline(
      sessionID: try F.integer(b, D.BaselineKey.sessionID), hosts: hosts,
      tlsClients: tlsClients)
  }

  /// The inspecting proxy's starts a run or an import read (format version 10), under `place`.
  static func proxies(_ value: Any?, in place: String) throws(Problem) -> [RecorderRun.ProxyRun] {
    typealias K = D.ProxyKey
    func fail(_ key: String, _ what: String) -> Problem {
      Problem(description: "session.json's \(place)\(key) is not \(what)")
    }
    guard let list = value as? [[String: Any]] else {
      throw fail(D.RunKey.proxies.rawValue, "a list of the proxy's starts")
    }
    var proxies: [RecorderRun.ProxyRun] = []
    for proxy in list {
      guard let tool = proxy[K.tool] as? String else { throw fail(K.tool.fullName, "a string") }
      let version = proxy[K.version]
      guard version as? NSNull != nil || version as? String != nil else {
        throw fail(K.version.fullName, "a string or null")
      }
      guard let options = proxy[K.options] as? [String: String] else {
        throw fail(K.options.fullName, "an object of options")
      }
      proxies.append(
        RecorderRun.ProxyRun(tool: tool, version: version as? String, options: options))
    }
    return proxies
  }

  /// session.json's testAccount (format version 5): its values, each with its label and category.
  static func testAccount(_ value: Any?) throws(Problem) -> [TestDataValue] {
    typealias K = D.TestValueKey
    guard let value else { return [] }
    guard let object = value as? [String: Any],
      let list = object[D.TestAccountKey.values] as? [[String: Any]]
    else { throw Problem(description: "session.json's testAccount is not its values' list") }
    var values: [TestDataValue] = []
    for entry in list {
      guard let category = TestDataCategory(rawValue: try F.string(entry, K.category)) else {
        throw F.fail(K.category.fullName, "a category")
      }
      values.append(
        TestDataValue(
          label: try F.string(entry, K.label), value: try F.string(entry, K.value),
          category: category))
    }
    return values
  }

  /// The certificate scenario session.json states; a document without the key (format version
  /// 2) stated only whether the CA was trusted, which was the system's trust.
  private static func scenario(_ inspection: [String: Any]) throws(Problem) -> CertificateScenario?
  {
    typealias K = D.InspectionKey
    guard inspection[K.certificateScenario] != nil else {
      return try F.bool(inspection, K.caTrusted) ? .systemTrust : nil
    }
    guard let name = try F.optionalString(inspection, K.certificateScenario) else { return nil }
    guard let scenario = CertificateScenario(name: name) else {
      throw F.fail(K.certificateScenario.fullName, "a scenario")
    }
    return scenario
  }
}

/// session.json's values read strictly, by their keys: each of the wrong type is a problem that
/// names its key with its object's place (and its index in a list, where given).
enum SessionJSONFields {
  typealias Problem = EvidenceSessionRecord.Problem

  static func fail(_ key: String, _ what: String) -> Problem {
    Problem(description: "session.json's \(key) is not \(what)")
  }
  /// "trackerLists[2].name" for the name of the third tracker list.
  static func name<K: DocumentKeys>(_ key: K, at index: Int?) -> String {
    guard let index, let list = K.prefix.range(of: "[]") else { return key.fullName }
    return K.prefix.replacingCharacters(in: list, with: "[\(index)]") + key.rawValue
  }
  static func object<K: DocumentKeys>(_ o: [String: Any], _ key: K, at index: Int? = nil)
    throws(Problem) -> [String: Any]
  {
    guard let v = o[key] as? [String: Any] else { throw fail(name(key, at: index), "an object") }
    return v
  }
  static func string<K: DocumentKeys>(_ o: [String: Any], _ key: K, at index: Int? = nil)
    throws(Problem) -> String
  {
    guard let v = o[key] as? String else { throw fail(name(key, at: index), "a string") }
    return v
  }
  static func optionalString<K: DocumentKeys>(_ o: [String: Any], _ key: K, at index: Int? = nil)
    throws(Problem) -> String?
  {
    if o[key] is NSNull { return nil }
    return try string(o, key, at: index)
  }
  static func integer<K: DocumentKeys>(_ o: [String: Any], _ key: K, at index: Int? = nil)
    throws(Problem) -> Int64
  {
    // The document re-derived from these values is compared byte for byte afterwards: a value
    // read here more leniently than it was written is caught there.
    guard let v = JSONNumber.integer(o[key]) else {
      throw fail(name(key, at: index), "a whole number")
    }
    return Int64(v)
  }
  static func bool<K: DocumentKeys>(_ o: [String: Any], _ key: K, at index: Int? = nil)
    throws(Problem) -> Bool
  {
    guard let v = o[key] as? Bool else { throw fail(name(key, at: index), "true or false") }
    return v
  }
  /// An instant of the key, as export writes it.
  static func instant<K: DocumentKeys>(_ o: [String: Any], _ key: K, at index: Int? = nil)
    throws(Problem) -> Date
  {
    try instant(try string(o, key, at: index), name(key, at: index))
  }
  static func instant(_ text: String, _ key: String) throws(Problem) -> Date {
    guard let date = Instant.parseWritten(text) else {
      throw fail(key, "an instant as export writes it")
    }
    return date
  }
}
