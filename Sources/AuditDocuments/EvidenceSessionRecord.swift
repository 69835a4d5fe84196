import Audit
import AuditRules
import AuditWording
import Foundation

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
    func fail(_ key: String, _ what: String) -> Problem {
      Problem(description: "session.json's \(key) is not \(what)")
    }
    guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
      throw Problem(description: "session.json is not a JSON object")
    }
    func object(_ o: [String: Any], _ key: String, in path: String) throws(Problem) -> [String: Any]
    {
      guard let v = o[key] as? [String: Any] else { throw fail(path + key, "an object") }
      return v
    }
    func string(_ o: [String: Any], _ key: String, in path: String) throws(Problem) -> String {
      guard let v = o[key] as? String else { throw fail(path + key, "a string") }
      return v
    }
    func optionalString(_ o: [String: Any], _ key: String, in path: String) throws(Problem)
      -> String?
    {
      if o[key] is NSNull { return nil }
      return try string(o, key, in: path)
    }
    func integer(_ o: [String: Any], _ key: String, in path: String) throws(Problem) -> Int64 {
      // The document re-derived from these values is compared byte for byte afterwards: a
      // value read here more leniently than it was written is caught there.
      guard let v = JSONNumber.integer(o[key]) else { throw fail(path + key, "a whole number") }
      return Int64(v)
    }
    func bool(_ o: [String: Any], _ key: String, in path: String) throws(Problem) -> Bool {
      guard let v = o[key] as? Bool else { throw fail(path + key, "true or false") }
      return v
    }
    func instant(_ text: String, _ key: String) throws(Problem) -> Date {
      guard let date = Instant.parseWritten(text) else {
        throw fail(key, "an instant as export writes it")
      }
      return date
    }

    formatVersion = Int(try integer(root, "formatVersion", in: ""))
    let p = try object(root, "project", in: "")
    var allowlist: [AllowlistEntry] = []
    guard let entries = p["allowlist"] as? [[String: Any]] else {
      throw fail("project.allowlist", "a list of entries")
    }
    for entry in entries {
      let text = try string(entry, "pattern", in: "project.allowlist[].")
      guard let pattern = try? DomainPattern(parsing: text) else {
        throw fail(
          "project.allowlist[].pattern", "a domain pattern (“\(TerminalText.inline(text))”)")
      }
      allowlist.append(
        AllowlistEntry(
          pattern: pattern, note: try optionalString(entry, "note", in: "project.allowlist[].")))
    }
    catalogueIdentifier = try string(p, "catalogue", in: "project.")
    project = AuditProject(
      id: try integer(p, "id", in: "project."), name: try string(p, "name", in: "project."),
      bundleIdentifier: try optionalString(p, "bundleIdentifier", in: "project."),
      catalogueVersion: catalogueIdentifier, allowlist: allowlist,
      createdAt: Date(timeIntervalSince1970: 0))

    let s = try object(root, "session", in: "")
    let id = try integer(s, "id", in: "session.")
    let kind: AuditSessionKind
    switch try string(s, "kind", in: "session.") {
    case "baseline": kind = .baseline
    case "audit":
      let release = try object(s, "release", in: "session.")
      kind = .audit(
        AppRelease(
          version: try string(release, "version", in: "session.release."),
          build: try string(release, "build", in: "session.release.")))
    default: throw fail("session.kind", "audit or baseline")
    }
    let device = try object(s, "device", in: "session.")
    let inspection = try object(s, "inspection", in: "session.")
    var source: CaptureSource?
    var toolVersion: String
    var importProxies: [RecorderRun.ProxyRun] = []
    if s["capture"] is NSNull {
      toolVersion = try string(s, "recordedWith", in: "session.")
    } else {
      let c = try object(s, "capture", in: "session.")
      if formatVersion >= 10 {
        importProxies = try Self.proxies(c["proxies"], in: "session.capture.")
      }
      toolVersion = try string(c, "importedWith", in: "session.capture.")
      source = CaptureSource(
        fileName: try string(c, "fileName", in: "session.capture."),
        sha256: try string(c, "sha256", in: "session.capture."),
        application: try optionalString(c, "application", in: "session.capture."),
        host: try optionalString(c, "host", in: "session.capture."))
    }
    self.importProxies = importProxies
    let endedAt = try optionalString(s, "endedAt", in: "session.").map { text throws(Problem) in
      try instant(text, "session.endedAt")
    }
    // Before format version 3, no recording: nothing to derive the coverage from.
    let recording =
      formatVersion < 3 && s["recording"] == nil
      ? [
        "basis": "runs", "runs": [[String: Any]](), "recorderAtEnd": NSNull(),
        "inspectionLogAtEnd": NSNull(),
      ]
      : try object(s, "recording", in: "session.")
    let r = "session.recording."
    var recorderAtEnd: Int64?
    if !(recording["recorderAtEnd"] is NSNull) {
      recorderAtEnd = Int64(try integer(recording, "recorderAtEnd", in: r))
    }
    let logAtEnd = try optionalString(recording, "inspectionLogAtEnd", in: r)
    runsNotKept =
      try string(recording, "basis", in: r) == SessionCoverage.Basis.runsNotKept.rawValue
    guard let runList = recording["runs"] as? [[String: Any]] else {
      throw fail(r + "runs", "a list of recorder runs")
    }
    var runs: [RecorderRun] = []
    for run in runList {
      let p = r + "runs[]."
      let ended = try optionalString(run, "endedAt", in: p).map { text throws(Problem) in
        try instant(text, p + "endedAt")
      }
      let end = try optionalString(run, "end", in: p)
      let log = try optionalString(run, "inspectionLogState", in: p)
      let unreadable =
        run["inspectionLinesUnreadable"] == nil
        ? 0 : try integer(run, "inspectionLinesUnreadable", in: p)
      guard unreadable >= 0 else { throw fail(p + "inspectionLinesUnreadable", "a count") }
      // Format version 10's: the filter, the libpcap and the proxy's starts.
      let proxies = formatVersion >= 10 ? try Self.proxies(run["proxies"], in: p) : []
      let filter = formatVersion >= 10 ? try optionalString(run, "filter", in: p) : nil
      let libpcap = formatVersion >= 10 ? try optionalString(run, "libpcap", in: p) : nil
      runs.append(
        RecorderRun(
          id: Int64(try integer(run, "id", in: p)), source: try string(run, "source", in: p),
          isLive: try bool(run, "live", in: p),
          processID: Int32(truncatingIfNeeded: try integer(run, "processID", in: p)),
          startedAt: try instant(try string(run, "startedAt", in: p), p + "startedAt"),
          aliveAt: try instant(try string(run, "lastSignOfLife", in: p), p + "lastSignOfLife"),
          endedAt: ended, end: end.flatMap(RecorderRunEnd.init(name:)),
          inspectionLog: try optionalString(run, "inspectionLog", in: p),
          inspectionLogState: log.flatMap(InspectionLogState.init(name:)),
          inspectionLinesUnreadable: Int(unreadable), filter: filter, libpcap: libpcap,
          proxies: proxies))
    }
    self.runs = runs
    session = AuditSession(
      id: id, projectID: project.id, kind: kind,
      environment: AuditEnvironment(
        deviceModel: try string(device, "model", in: "session.device."),
        osVersion: try string(device, "osVersion", in: "session.device."), toolVersion: toolVersion),
      inspection: InspectionConditions(
        inspectionEnabled: try bool(inspection, "inspectionEnabled", in: "session.inspection."),
        scenario: try Self.scenario(inspection, bool: bool, optionalString: optionalString)),
      startedAt: try instant(try string(s, "startedAt", in: "session."), "session.startedAt"),
      endedAt: endedAt, notes: try string(s, "notes", in: "session."), source: source,
      recorderAtEnd: recorderAtEnd,
      inspectionLogAtEnd: logAtEnd.flatMap(InspectionLogState.init(name:)))

    guard let list = s["markers"] as? [[String: Any]] else {
      throw fail("session.markers", "a list of markers")
    }
    var markers: [SessionMarker] = []
    for (index, m) in list.enumerated() {
      let at = try instant(try string(m, "at", in: "session.markers[]."), "session.markers[].at")
      let markerKind: SessionMarkerKind
      switch try string(m, "kind", in: "session.markers[].") {
      case "consentGiven": markerKind = .consentGiven
      case "loggedIn": markerKind = .loggedIn
      case "loggedOut": markerKind = .loggedOut
      case "consentWithdrawn": markerKind = .consentWithdrawn
      case "custom": markerKind = .custom(try string(m, "label", in: "session.markers[]."))
      default: throw fail("session.markers[].kind", "a marker kind")
      }
      markers.append(SessionMarker(id: Int64(index + 1), sessionID: id, date: at, kind: markerKind))
    }
    self.markers = markers
    exportedAt = try instant(try string(root, "exportedAt", in: ""), "exportedAt")
    exportedWith = try string(root, "exportedWith", in: "")
    var lists: [TrackerList.Identity] = []
    if let value = root["trackerLists"] {
      guard let entries = value as? [[String: Any]] else {
        throw fail("trackerLists", "a list of tracker lists")
      }
      for (index, entry) in entries.enumerated() {
        let place = "trackerLists[\(index)]."
        lists.append(
          TrackerList.Identity(
            name: try string(entry, "name", in: place), path: try string(entry, "path", in: place),
            sha256: try string(entry, "sha256", in: place),
            date: try string(entry, "date", in: place)))
      }
    }
    trackerLists = lists
    var databases: [AddressDatabaseIdentity] = []
    if let value = root["addressDatabases"] {
      guard let entries = value as? [[String: Any]] else {
        throw fail("addressDatabases", "a list of address databases")
      }
      for (index, entry) in entries.enumerated() {
        let place = "addressDatabases[\(index)]."
        databases.append(
          AddressDatabaseIdentity(
            name: try string(entry, "name", in: place), path: try string(entry, "path", in: place),
            sha256: try string(entry, "sha256", in: place),
            built: try string(entry, "built", in: place)))
      }
    }
    addressDatabases = databases
    var scans: [(file: String, scan: StoredServerScan)] = []
    if let value = root["serverScans"] {
      guard let entries = value as? [[String: Any]] else {
        throw fail("serverScans", "a list of server scans")
      }
      for (index, entry) in entries.enumerated() {
        let place = "serverScans[\(index)]."
        let file = try string(entry, "file", in: place)
        guard file == EvidenceBundle.serverScanName(index) else {
          throw fail(place + "file", EvidenceBundle.serverScanName(index))
        }
        scans.append(
          (
            file,
            StoredServerScan(
              sessionID: session.id,
              storedAt: try instant(try string(entry, "storedAt", in: place), place + "storedAt"),
              tool: try string(entry, "tool", in: place),
              fileName: try string(entry, "fileName", in: place),
              sha256: try string(entry, "sha256", in: place), output: Data())
          ))
      }
    }
    serverScans = scans
    if let value = root["publicSuffixList"], !(value is NSNull) {
      guard let object = value as? [String: Any] else {
        throw fail("publicSuffixList", "the public suffix list's path and SHA-256")
      }
      publicSuffixList = PublicSuffixListIdentity(
        path: try string(object, "path", in: "publicSuffixList."),
        sha256: try string(object, "sha256", in: "publicSuffixList."),
        date: formatVersion >= 10
          ? try optionalString(object, "date", in: "publicSuffixList.") : nil)
    } else {
      publicSuffixList = nil
    }
    if root["baseline"] is NSNull {
      baseline = nil
    } else {
      let b = try object(root, "baseline", in: "")
      guard let hosts = b["hosts"] as? [String] else {
        throw fail("baseline.hosts", "a list of host names")
      }
      // Format version 4's; an earlier bundle's baseline names no TLS clients.
      let clients = b["tlsClients"] ?? [String]()
      guard let tlsClients = clients as? [String] else {
        throw fail("baseline.tlsClients", "a list of JA4 fingerprints")
      }
      baseline = EvidenceBaseline(
        sessionID: try integer(b, "sessionID", in: "baseline."), hosts: hosts,
        tlsClients: tlsClients)
    }
    testAccount = try Self.testAccount(root["testAccount"], string: string)
    if formatVersion >= 10 {
      guard let libraries = EvidenceTestLog.statedLibraries(root["testLog"]) else {
        throw fail("testLog", "a test log with its steps and tools")
      }
      exportLibraries = libraries
    } else {
      exportLibraries = []
    }
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
