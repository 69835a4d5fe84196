import Audit
import AuditRules
import AuditWording
import Foundation

/// session.json's strict field readers, by a short name: every section reads through them.
private typealias F = SessionJSONFields

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
    formatVersion = Int(try F.integer(root, "formatVersion", in: ""))
    (project, catalogueIdentifier) = try Self.project(root)
    let s = try F.object(root, "session", in: "")
    let id = try F.integer(s, "id", in: "session.")
    let kind = try Self.kind(s)
    let device = try F.object(s, "device", in: "session.")
    let inspection = try F.object(s, "inspection", in: "session.")
    let capture = try Self.capture(s, formatVersion: formatVersion)
    importProxies = capture.proxies
    let endedAt = try F.optionalString(s, "endedAt", in: "session.").map { text throws(Problem) in
      try F.instant(text, "session.endedAt")
    }
    let recording = try Self.recording(s, formatVersion: formatVersion)
    runsNotKept = recording.notKept
    runs = recording.runs
    session = AuditSession(
      id: id, projectID: project.id, kind: kind,
      environment: AuditEnvironment(
        deviceModel: try F.string(device, "model", in: "session.device."),
        osVersion: try F.string(device, "osVersion", in: "session.device."),
        toolVersion: capture.toolVersion),
      inspection: InspectionConditions(
        inspectionEnabled: try F.bool(inspection, "inspectionEnabled", in: "session.inspection."),
        scenario: try Self.scenario(inspection, bool: F.bool, optionalString: F.optionalString)),
      startedAt: try F.instant(try F.string(s, "startedAt", in: "session."), "session.startedAt"),
      endedAt: endedAt, notes: try F.string(s, "notes", in: "session."), source: capture.source,
      recorderAtEnd: recording.recorderAtEnd,
      inspectionLogAtEnd: recording.logAtEnd.flatMap(InspectionLogState.init(name:)))
    markers = try Self.markers(s, sessionID: id)
    exportedAt = try F.instant(try F.string(root, "exportedAt", in: ""), "exportedAt")
    exportedWith = try F.string(root, "exportedWith", in: "")
    trackerLists = try Self.trackerLists(root)
    addressDatabases = try Self.addressDatabases(root)
    serverScans = try Self.serverScans(root, sessionID: id)
    publicSuffixList = try Self.publicSuffixList(root, formatVersion: formatVersion)
    baseline = try Self.baseline(root)
    testAccount = try Self.testAccount(root["testAccount"], string: F.string)
    if formatVersion >= 10 {
      guard let libraries = EvidenceTestLog.statedLibraries(root["testLog"]) else {
        throw F.fail("testLog", "a test log with its steps and tools")
      }
      exportLibraries = libraries
    } else {
      exportLibraries = []
    }
  }

  /// The project as session.json states it, and the catalogue it was judged against.
  static func project(_ root: [String: Any]) throws(Problem) -> (AuditProject, String) {
    let p = try F.object(root, "project", in: "")
    var allowlist: [AllowlistEntry] = []
    guard let entries = p["allowlist"] as? [[String: Any]] else {
      throw F.fail("project.allowlist", "a list of entries")
    }
    for entry in entries {
      let text = try F.string(entry, "pattern", in: "project.allowlist[].")
      guard let pattern = try? DomainPattern(parsing: text) else {
        throw F.fail(
          "project.allowlist[].pattern", "a domain pattern (“\(TerminalText.inline(text))”)")
      }
      allowlist.append(
        AllowlistEntry(
          pattern: pattern, note: try F.optionalString(entry, "note", in: "project.allowlist[].")))
    }
    let catalogue = try F.string(p, "catalogue", in: "project.")
    let project = AuditProject(
      id: try F.integer(p, "id", in: "project."), name: try F.string(p, "name", in: "project."),
      bundleIdentifier: try F.optionalString(p, "bundleIdentifier", in: "project."),
      catalogueVersion: catalogue, allowlist: allowlist,
      createdAt: Date(timeIntervalSince1970: 0))
    return (project, catalogue)
  }

  static func kind(_ s: [String: Any]) throws(Problem) -> AuditSessionKind {
    switch try F.string(s, "kind", in: "session.") {
    case "baseline": return .baseline
    case "audit":
      let release = try F.object(s, "release", in: "session.")
      return .audit(
        AppRelease(
          version: try F.string(release, "version", in: "session.release."),
          build: try F.string(release, "build", in: "session.release.")))
    default: throw F.fail("session.kind", "audit or baseline")
    }
  }

  /// What recorded the session, or the capture file it was imported from.
  static func capture(_ s: [String: Any], formatVersion: Int) throws(Problem) -> (
    toolVersion: String, source: CaptureSource?, proxies: [RecorderRun.ProxyRun]
  ) {
    if s["capture"] is NSNull {
      return (try F.string(s, "recordedWith", in: "session."), nil, [])
    }
    let c = try F.object(s, "capture", in: "session.")
    let proxies = formatVersion >= 10 ? try Self.proxies(c["proxies"], in: "session.capture.") : []
    let toolVersion = try F.string(c, "importedWith", in: "session.capture.")
    let source = CaptureSource(
      fileName: try F.string(c, "fileName", in: "session.capture."),
      sha256: try F.string(c, "sha256", in: "session.capture."),
      application: try F.optionalString(c, "application", in: "session.capture."),
      host: try F.optionalString(c, "host", in: "session.capture."))
    return (toolVersion, source, proxies)
  }

  /// session.recording: the recorder runs, whether they were not kept, what was running at the
  /// end.
  static func recording(_ s: [String: Any], formatVersion: Int) throws(Problem) -> (
    runs: [RecorderRun], notKept: Bool, recorderAtEnd: Int64?, logAtEnd: String?
  ) {
    // Before format version 3, no recording: nothing to derive the coverage from.
    let recording =
      formatVersion < 3 && s["recording"] == nil
      ? [
        "basis": "runs", "runs": [[String: Any]](), "recorderAtEnd": NSNull(),
        "inspectionLogAtEnd": NSNull(),
      ]
      : try F.object(s, "recording", in: "session.")
    let r = "session.recording."
    var recorderAtEnd: Int64?
    if !(recording["recorderAtEnd"] is NSNull) {
      recorderAtEnd = Int64(try F.integer(recording, "recorderAtEnd", in: r))
    }
    let logAtEnd = try F.optionalString(recording, "inspectionLogAtEnd", in: r)
    let notKept =
      try F.string(recording, "basis", in: r) == SessionCoverage.Basis.runsNotKept.rawValue
    guard let runList = recording["runs"] as? [[String: Any]] else {
      throw F.fail(r + "runs", "a list of recorder runs")
    }
    var runs: [RecorderRun] = []
    for run in runList { runs.append(try Self.run(run, formatVersion: formatVersion)) }
    return (runs, notKept, recorderAtEnd, logAtEnd)
  }

  /// A recorder run of session.recording.runs.
  static func run(_ run: [String: Any], formatVersion: Int) throws(Problem) -> RecorderRun {
    let p = "session.recording.runs[]."
    let ended = try F.optionalString(run, "endedAt", in: p).map { text throws(Problem) in
      try F.instant(text, p + "endedAt")
    }
    let end = try F.optionalString(run, "end", in: p)
    let log = try F.optionalString(run, "inspectionLogState", in: p)
    let unreadable =
      run["inspectionLinesUnreadable"] == nil
      ? 0 : try F.integer(run, "inspectionLinesUnreadable", in: p)
    guard unreadable >= 0 else { throw F.fail(p + "inspectionLinesUnreadable", "a count") }
    // Format version 10's: the filter, the libpcap and the proxy's starts.
    let proxies = formatVersion >= 10 ? try Self.proxies(run["proxies"], in: p) : []
    let filter = formatVersion >= 10 ? try F.optionalString(run, "filter", in: p) : nil
    let libpcap = formatVersion >= 10 ? try F.optionalString(run, "libpcap", in: p) : nil
    return RecorderRun(
      id: Int64(try F.integer(run, "id", in: p)), source: try F.string(run, "source", in: p),
      isLive: try F.bool(run, "live", in: p),
      processID: Int32(truncatingIfNeeded: try F.integer(run, "processID", in: p)),
      startedAt: try F.instant(try F.string(run, "startedAt", in: p), p + "startedAt"),
      aliveAt: try F.instant(try F.string(run, "lastSignOfLife", in: p), p + "lastSignOfLife"),
      endedAt: ended, end: end.flatMap(RecorderRunEnd.init(name:)),
      inspectionLog: try F.optionalString(run, "inspectionLog", in: p),
      inspectionLogState: log.flatMap(InspectionLogState.init(name:)),
      inspectionLinesUnreadable: Int(unreadable), filter: filter, libpcap: libpcap,
      proxies: proxies)
  }

  static func markers(_ s: [String: Any], sessionID id: Int64) throws(Problem) -> [SessionMarker] {
    guard let list = s["markers"] as? [[String: Any]] else {
      throw F.fail("session.markers", "a list of markers")
    }
    var markers: [SessionMarker] = []
    for (index, m) in list.enumerated() {
      let at = try F.instant(
        try F.string(m, "at", in: "session.markers[]."), "session.markers[].at")
      let markerKind: SessionMarkerKind
      switch try F.string(m, "kind", in: "session.markers[].") {
      case "consentGiven": markerKind = .consentGiven
      case "loggedIn": markerKind = .loggedIn
      case "loggedOut": markerKind = .loggedOut
      case "consentWithdrawn": markerKind = .consentWithdrawn
      case "custom": markerKind = .custom(try F.string(m, "label", in: "session.markers[]."))
      default: throw F.fail("session.markers[].kind", "a marker kind")
      }
      markers.append(SessionMarker(id: Int64(index + 1), sessionID: id, date: at, kind: markerKind))
    }
    return markers
  }

  static func trackerLists(_ root: [String: Any]) throws(Problem) -> [TrackerList.Identity] {
    guard let value = root["trackerLists"] else { return [] }
    guard let entries = value as? [[String: Any]] else {
      throw F.fail("trackerLists", "a list of tracker lists")
    }
    var lists: [TrackerList.Identity] = []
    for (index, entry) in entries.enumerated() {
      let place = "trackerLists[\(index)]."
      lists.append(
        TrackerList.Identity(
          name: try F.string(entry, "name", in: place),
          path: try F.string(entry, "path", in: place),
          sha256: try F.string(entry, "sha256", in: place),
          date: try F.string(entry, "date", in: place)))
    }
    return lists
  }

  static func addressDatabases(_ root: [String: Any]) throws(Problem) -> [AddressDatabaseIdentity] {
    guard let value = root["addressDatabases"] else { return [] }
    guard let entries = value as? [[String: Any]] else {
      throw F.fail("addressDatabases", "a list of address databases")
    }
    var databases: [AddressDatabaseIdentity] = []
    for (index, entry) in entries.enumerated() {
      let place = "addressDatabases[\(index)]."
      databases.append(
        AddressDatabaseIdentity(
          name: try F.string(entry, "name", in: place),
          path: try F.string(entry, "path", in: place),
          sha256: try F.string(entry, "sha256", in: place),
          built: try F.string(entry, "built", in: place)))
    }
    return databases
  }

  static func serverScans(_ root: [String: Any], sessionID: Int64) throws(Problem) -> [(
    file: String, scan: StoredServerScan
  )] {
    guard let value = root["serverScans"] else { return [] }
    guard let entries = value as? [[String: Any]] else {
      throw F.fail("serverScans", "a list of server scans")
    }
    var scans: [(file: String, scan: StoredServerScan)] = []
    for (index, entry) in entries.enumerated() {
      let place = "serverScans[\(index)]."
      let file = try F.string(entry, "file", in: place)
      guard file == EvidenceBundle.serverScanName(index) else {
        throw F.fail(place + "file", EvidenceBundle.serverScanName(index))
      }
      scans.append(
        (
          file,
          StoredServerScan(
            sessionID: sessionID,
            storedAt: try F.instant(try F.string(entry, "storedAt", in: place), place + "storedAt"),
            tool: try F.string(entry, "tool", in: place),
            fileName: try F.string(entry, "fileName", in: place),
            sha256: try F.string(entry, "sha256", in: place), output: Data())
        ))
    }
    return scans
  }

  static func publicSuffixList(_ root: [String: Any], formatVersion: Int) throws(Problem)
    -> PublicSuffixListIdentity?
  {
    guard let value = root["publicSuffixList"], !(value is NSNull) else { return nil }
    guard let object = value as? [String: Any] else {
      throw F.fail("publicSuffixList", "the public suffix list's path and SHA-256")
    }
    return PublicSuffixListIdentity(
      path: try F.string(object, "path", in: "publicSuffixList."),
      sha256: try F.string(object, "sha256", in: "publicSuffixList."),
      date: formatVersion >= 10
        ? try F.optionalString(object, "date", in: "publicSuffixList.") : nil)
  }

  static func baseline(_ root: [String: Any]) throws(Problem) -> EvidenceBaseline? {
    if root["baseline"] is NSNull { return nil }
    let b = try F.object(root, "baseline", in: "")
    guard let hosts = b["hosts"] as? [String] else {
      throw F.fail("baseline.hosts", "a list of host names")
    }
    // Format version 4's; an earlier bundle's baseline names no TLS clients.
    let clients = b["tlsClients"] ?? [String]()
    guard let tlsClients = clients as? [String] else {
      throw F.fail("baseline.tlsClients", "a list of JA4 fingerprints")
    }
    return EvidenceBaseline(
      sessionID: try F.integer(b, "sessionID", in: "baseline."), hosts: hosts,
      tlsClients: tlsClients)
  }

  /// The inspecting proxy's starts a run or an import read (format version 10).
  static func proxies(_ value: Any?, in path: String) throws(Problem) -> [RecorderRun.ProxyRun] {
    func fail(_ key: String, _ what: String) -> Problem {
      Problem(description: "session.json's \(path)\(key) is not \(what)")
    }
    guard let list = value as? [[String: Any]] else {
      throw fail("proxies", "a list of the proxy's starts")
    }
    var proxies: [RecorderRun.ProxyRun] = []
    for proxy in list {
      guard let tool = proxy["tool"] as? String else { throw fail("proxies[].tool", "a string") }
      guard proxy["version"] as? NSNull != nil || proxy["version"] as? String != nil else {
        throw fail("proxies[].version", "a string or null")
      }
      guard let options = proxy["options"] as? [String: String] else {
        throw fail("proxies[].options", "an object of options")
      }
      proxies.append(
        RecorderRun.ProxyRun(tool: tool, version: proxy["version"] as? String, options: options))
    }
    return proxies
  }

  /// session.json's testAccount (format version 5): its values, each with its label and category.
  static func testAccount(
    _ value: Any?, string: ([String: Any], String, String) throws(Problem) -> String
  ) throws(Problem) -> [TestDataValue] {
    guard let value else { return [] }
    guard let object = value as? [String: Any], let list = object["values"] as? [[String: Any]]
    else { throw Problem(description: "session.json's testAccount is not its values' list") }
    var values: [TestDataValue] = []
    for entry in list {
      let p = "testAccount.values[]."
      guard let category = TestDataCategory(rawValue: try string(entry, "category", p)) else {
        throw Problem(description: "session.json's \(p)category is not a category")
      }
      values.append(
        TestDataValue(
          label: try string(entry, "label", p), value: try string(entry, "value", p),
          category: category))
    }
    return values
  }

  /// The certificate scenario session.json states; a document without the key (format version
  /// 2) stated only whether the CA was trusted, which was the system's trust.
  private static func scenario(
    _ inspection: [String: Any],
    bool: (_ o: [String: Any], _ key: String, _ path: String) throws(Problem) -> Bool,
    optionalString: (_ o: [String: Any], _ key: String, _ path: String) throws(Problem) -> String?
  ) throws(Problem) -> CertificateScenario? {
    let path = "session.inspection."
    guard inspection["certificateScenario"] != nil else {
      return try bool(inspection, "caTrusted", path) ? .systemTrust : nil
    }
    guard let name = try optionalString(inspection, "certificateScenario", path) else {
      return nil
    }
    guard let scenario = CertificateScenario(name: name) else {
      throw Problem(description: "session.json's \(path)certificateScenario is not a scenario")
    }
    return scenario
  }
}

/// session.json's values read strictly: each of the wrong type is a problem that names its key.
enum SessionJSONFields {
  typealias Problem = EvidenceSessionRecord.Problem

  static func fail(_ key: String, _ what: String) -> Problem {
    Problem(description: "session.json's \(key) is not \(what)")
  }
  static func object(_ o: [String: Any], _ key: String, in path: String) throws(Problem)
    -> [String: Any]
  {
    guard let v = o[key] as? [String: Any] else { throw fail(path + key, "an object") }
    return v
  }
  static func string(_ o: [String: Any], _ key: String, in path: String) throws(Problem) -> String {
    guard let v = o[key] as? String else { throw fail(path + key, "a string") }
    return v
  }
  static func optionalString(_ o: [String: Any], _ key: String, in path: String) throws(Problem)
    -> String?
  {
    if o[key] is NSNull { return nil }
    return try string(o, key, in: path)
  }
  static func integer(_ o: [String: Any], _ key: String, in path: String) throws(Problem) -> Int64 {
    // The document re-derived from these values is compared byte for byte afterwards: a value
    // read here more leniently than it was written is caught there.
    guard let v = JSONNumber.integer(o[key]) else { throw fail(path + key, "a whole number") }
    return Int64(v)
  }
  static func bool(_ o: [String: Any], _ key: String, in path: String) throws(Problem) -> Bool {
    guard let v = o[key] as? Bool else { throw fail(path + key, "true or false") }
    return v
  }
  static func instant(_ text: String, _ key: String) throws(Problem) -> Date {
    guard let date = Instant.parseWritten(text) else {
      throw fail(key, "an instant as export writes it")
    }
    return date
  }
}
