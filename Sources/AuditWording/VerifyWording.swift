import Audit
import AuditRules

/// One check of a bundle as verify states it: what it holds to, and every place it does not.
public struct VerificationCheck: Sendable, Hashable {
  public let statement: String
  public let problems: [String]
  /// False for a check that could not be made: its statement says what and why.
  public let made: Bool
  public var holds: Bool { problems.isEmpty }
  public init(statement: String, problems: [String], made: Bool = true) {
    self.statement = statement
    self.problems = problems
    self.made = made
  }
}

/// Whether a bundle's manifest is signed, and whether by a key the person trusts.
public enum SignatureStanding: Sendable, Hashable {
  case unsigned
  case signed(fingerprint: String, byTrustedKey: Bool)
}

/// Every sentence verify states of a bundle: each check's statement and its problems. The
/// verifier (Evidence) makes one check per function; the screen (AuditScreens) prints them.
public enum VerifyWording {
  // MARK: The archive

  public static let notAZip = "The file is a ZIP archive."
  public static func entriesRead(_ count: Int) -> String {
    "The archive opens and each of its \(count) entries reads back with its CRC-32."
  }
  public static let layout =
    "The archive is laid out as export writes it: one record per entry, nothing before, between or after."
  public static func notRead(_ name: String, limit: Int) -> String {
    "\(name) holds more than the \(Quantity.byteCount(UInt64(limit))) a bundle's \(name) can; it is not read"
  }

  // MARK: The manifest and the set of files

  public static let manifestThere = "manifest.json is there and lists the files."
  public static let manifestMissing = "manifest.json is missing or is not the manifest's JSON"
  public static let manifestLists = "manifest.json lists the files."
  public static func tooManyFiles(_ count: Int) -> String {
    "manifest.json lists \(count) files; a bundle has fewer than ten"
  }
  public static func manifestStatement(_ files: Int) -> String {
    "manifest.json lists \(Quantity.count(files, "file")), each with the size and SHA-256 it states."
  }
  public static let entryIncomplete =
    "an entry of manifest.json lacks its name, byteCount or sha256"
  public static func listedTwice(_ name: String) -> String {
    "manifest.json lists \(TerminalText.inline(name)) twice"
  }
  public static func sizeDiffers(_ name: String, actual: UInt64, stated: UInt64) -> String {
    "\(name) has \(actual) bytes; the manifest says \(stated)"
  }
  public static func digestDiffers(_ name: String, actual: String, stated: String) -> String {
    "\(name) has SHA-256 \(actual); the manifest says \(stated)"
  }
  public static let orderDiffers =
    "the archive's entries are not in the order manifest.json lists them"
  public static let fileSet = "No file is missing and none is extra."
  public static func missing(_ name: String) -> String {
    "\(name) is in the manifest but not in the archive"
  }
  public static func extra(_ name: String) -> String {
    "\(name) is in the archive but not in the manifest"
  }

  // MARK: The signature

  public static let signedByKeyGiven = "manifest.json is signed by the key given."
  public static let noSignature = "the bundle carries no signature.json"
  public static let signatureReads = "manifest.json's signature reads."
  public static let signatureUnreadable =
    "signature.json is not an Ed25519 signature as export writes it"
  public static let signatureWrong = "signature.json does not sign this manifest.json"
  public static func signedByOther(_ fingerprint: String, trusted: String) -> String {
    "signed by \(fingerprint), not by the key given (\(trusted))"
  }
  public static func signed(_ fingerprint: String) -> String {
    "manifest.json is signed (Ed25519, key \(fingerprint))."
  }

  // MARK: The documents

  public static func wellFormed(_ documents: Int) -> String {
    "Each of the \(Quantity.count(documents, "JSON document")) is well-formed JSON (RFC 8259)."
  }
  public static func notWellFormed(_ name: String, _ problem: String) -> String {
    "\(name) is not well-formed JSON: \(problem)"
  }
  public static let documentsReadable = "flows.json, findings.json and capture.json can be read."
  public static let documentUnreadable = "one of them is missing or is not JSON"

  // MARK: The capture

  public static func captureHolds(_ packets: Int) -> String {
    "capture.pcapng holds \(Quantity.count(packets, "packet")), as capture.json counts them."
  }
  public static func uncommented(_ count: Int) -> String {
    "\(Quantity.count(count, "packet")) of capture.pcapng \(count == 1 ? "carries no comment naming its flow" : "carry no comment naming their flow")"
  }
  public static func packetsDiffer(_ packets: Int, written: Int?) -> String {
    "capture.pcapng holds \(packets) packets; capture.json says \(written.map(String.init) ?? "nothing") were written"
  }

  public static let captureCountsMissing =
    "capture.json's packets lack recorded, written or withoutBytes"
  public static func recordedNotSum(_ recorded: Int, sum: Int) -> String {
    "capture.json's packets.recorded is \(recorded), not written and withoutBytes together (\(sum))"
  }
  public static func flowsWrite(_ flows: Int, written: Int) -> String {
    "capture.json's flows write \(flows) packets; packets.written says \(written)"
  }
  public static func flowsRecord(_ flows: Int, recorded: Int) -> String {
    "capture.json's flows record \(flows) packets; packets.recorded says \(recorded)"
  }
  public static func filesGave(_ files: Int, written: Int) -> String {
    "capture.json's source files gave \(files) packets; packets.written says \(written)"
  }
  public static func filesHold(_ packets: Int, neverCaptured: Int, recorded: Int) -> String {
    "capture.json's source files hold \(packets) packets and \(neverCaptured) were never captured, not the \(recorded) recorded"
  }
  public static func flowCountsMissing(_ flow: Int64) -> String {
    "capture.json's flow \(flow) lacks recorded, written or withoutBytes"
  }
  public static func flowRecordedNotSum(_ flow: Int64, recorded: Int, sum: Int) -> String {
    "capture.json's flow \(flow) records \(recorded) packets, not its written and withoutBytes together (\(sum))"
  }
  public static func flowPacketCountDiffers(_ flow: Int64, flowsJSON: Int, recorded: Int) -> String
  {
    "flow \(flow) has \(flowsJSON) packets in flows.json; capture.json records \(recorded)"
  }
  public static func flowPacketsInCapture(_ flow: Int64, inCapture: Int, written: Int) -> String {
    "capture.pcapng holds \(inCapture) packets of flow \(flow); capture.json says \(written) were written"
  }

  // MARK: The documents' agreement

  public static let agreement =
    "The documents agree on the session, the export instant and the counts."
  public static func noSessionID(_ document: String) -> String {
    "\(document) has no integer sessionID"
  }
  public static func sessionDiffers(_ a: String, _ x: String, _ b: String, _ y: String) -> String {
    "\(a) is of session \(x); \(b) says session \(y)"
  }
  public static func noExportedAt(_ document: String) -> String {
    "\(document) has no exportedAt instant in RFC 3339 as export writes it"
  }
  public static func exportedAtDiffers(_ a: String, _ x: String, _ b: String, _ y: String)
    -> String
  {
    "\(a) was exported at \(x); \(b) says \(y)"
  }
  public static func endsBeforeStart(ended: String, started: String) -> String {
    "session.json's session ends at \(ended), before it starts at \(started)"
  }
  public static func flowCountDiffers(_ stated: Int?, listed: Int) -> String {
    "flows.json's flowCount is \(stated.map(String.init) ?? "missing"); it lists \(listed) flows"
  }

  // MARK: flows.csv

  public static func csvStatement(_ flows: Int) -> String {
    "flows.csv has a row for each of the \(Quantity.count(flows, "flow")), matching flows.json."
  }
  public static let csvUnreadable = "flows.csv is missing or is not UTF-8"
  public static let csvHeader = "flows.csv's header row is not the one the format defines"
  public static let csvLineEnds =
    "flows.csv ends a line otherwise than with CR LF, as RFC 4180 and export do"
  public static func csvRows(_ rows: Int, flows: Int) -> String {
    "flows.csv has \(rows) rows; flows.json has \(flows) flows"
  }
  public static func csvCells(row: Int, count: Int, expected: Int) -> String {
    "row \(row) of flows.csv has \(count) cells, not \(expected)"
  }
  public static func csvCellDiffers(
    row: Int, flow: Int64, column: String, found: String, stated: String
  )
    -> String
  {
    "row \(row) of flows.csv (flow \(flow)) has \(column) “\(found)”; flows.json says “\(stated)”"
  }

  // MARK: Identifiers

  public static func identifiersResolve(flows: Int, findings: Int) -> String {
    "Every flow and finding identifier cited resolves (\(Quantity.count(flows, "flow")), \(Quantity.count(findings, "finding")))."
  }
  public static let flowListedTwice = "flows.json lists a flow id more than once"
  public static func notCitedBack(flow: Int64, finding: String) -> String {
    "flow \(flow) cites \(finding), which does not cite flow \(flow) back"
  }
  public static func findingMissing(flow: Int64, finding: String) -> String {
    "flow \(flow) cites \(finding), which findings.json does not hold"
  }
  public static func findingWithoutID(_ index: Int) -> String {
    "finding \(index + 1) of findings.json has no string id"
  }
  public static func findingListedTwice(_ id: String) -> String {
    "findings.json lists \(id) more than once"
  }
  public static func findingWithoutFlows(_ id: String) -> String {
    "\(id) has flowIDs that are not a non-empty list of flow ids"
  }
  public static func flowMissing(finding: String, flow: Int64) -> String {
    "\(finding) cites flow \(flow), which flows.json does not hold"
  }
  public static func flowNotCitingBack(finding: String, flow: Int64) -> String {
    "\(finding) cites flow \(flow), which does not cite \(finding) back"
  }
  public static func requirementCitesMissing(_ requirement: String?, finding: String) -> String {
    "\(requirement ?? "a requirement") cites \(finding), which findings.json does not hold"
  }
  public static let captureFlowsDiffer =
    "capture.json does not list the flows of flows.json, in their order"
  public static func commentCitesMissingFlow(_ flow: Int64) -> String {
    "a packet comment cites flow \(flow), which flows.json does not hold"
  }
  public static func commentCitationsDiffer(flow: Int64, cited: [String], stated: [String])
    -> String
  {
    "packets of flow \(flow) cite findings \(cited.joined(separator: ",")); flows.json says \(stated.joined(separator: ","))"
  }

  // MARK: Findings, verdicts and the report, re-derived

  /// The re-derivation check: findings and verdicts are not taken on trust.
  public static let rederivedStatement =
    "findings.json, session.json and report.pdf are what flows.json, session.json's project, session and markers and capture.json's counts give, re-derived with the catalogue"

  public static func notRederived(catalogue: String) -> String {
    "The findings and verdicts were not re-derived: the bundle's catalogue “\(TerminalText.inline(catalogue))” is not one this tool carries (a catalogue file of the export's own); they are taken as findings.json states them."
  }

  public static func notRederived(exportedWith: String) -> String {
    "The findings, verdicts and report were not re-derived: the bundle was exported with “\(TerminalText.inline(exportedWith))”, this is \(ToolVersion.exportedWith), whose documents could be worded or laid out otherwise; they are taken as the bundle states them."
  }

  public static func notRederived(trackerList path: String) -> String {
    "The findings, verdicts and report were not re-derived: the tracker list \(path) the bundle was exported with is not on this machine with the same bytes (session.json trackerLists gives its SHA-256); they are taken as the bundle states them."
  }

  public static func notRederived(formatVersion: Int, current: Int) -> String {
    "The findings, verdicts and report were not re-derived: the bundle is of format version \(formatVersion), this tool writes version \(current), whose documents carry more (recorder runs and coverage from version 3, TLS parameters and client fingerprints from version 4); they are taken as the bundle states them."
  }

  public static let captureCoverageDiffers =
    "capture.json's coverage is not what session.json's recorder runs and the session's window give."

  /// A packet comment that is not the one export writes for its flow.
  public static func commentFormDiffers(flow: Int64, expected: String) -> String {
    "the packets of flow \(flow) are not commented as flows.json gives: “\(expected)”"
  }

  /// A flow says a recorder run wrote it that the session's coverage does not list: the coverage
  /// would then hide a run, or the flow claims one it was not written by.
  public static func flowRunNotListed(flow: Int64, run: Int64, listed: [Int64]) -> String {
    let runs =
      listed.isEmpty
      ? "lists no run" : "lists only \(listed.map { "run \($0)" }.joined(separator: ", "))"
    return
      "flow \(flow) of flows.json was written by recorder run \(run), but session.json's recording \(runs)"
  }

  public static func verdictDiffers(_ requirement: String, stated: String?, rederived: String?)
    -> String
  {
    "\(TerminalText.inline(requirement))'s verdict is “\(TerminalText.inline(stated ?? "none"))” in findings.json; the flows give “\(rederived ?? "none")”"
  }

  public static let reportNotRedrawn =
    "report.pdf could not be drawn again to compare (capture.json's counts unreadable, or the report's fonts not found): it is not shown to be the report of these documents"

  public static let formStatement =
    "capture.json and flows.json are, byte for byte, what export writes from the values they hold: every key, type and form is the format's."
  public static func formDiffers(_ name: String) -> String {
    "\(name) is not written as export writes the values it holds: a key, a type, a value's form or the layout departs from the format (docs/bundle-format.md)"
  }

  public static func baselineClaimDiffers(flow: Int64, stated: Bool?, rederived: Bool?)
    -> String
  {
    func text(_ v: Bool?) -> String { v.map { $0 ? "true" : "false" } ?? "null" }
    return
      "flow \(flow)'s alsoContactedInBaseline is \(text(stated)); session.json's baseline hosts give \(text(rederived))"
  }

  /// Where a document departs from its table of keys: "capture.json's coverage is missing".
  public static func keyProblem(_ name: String, _ problem: String) -> String {
    "\(name)'s \(TerminalText.inline(problem))"
  }

  public static func documentDiffers(_ name: String) -> String {
    "\(name) is not the document the flows and the session give: its bytes differ from those re-derived"
  }

  public static func catalogueDiffers(stated: String, session: String) -> String {
    "findings.json's catalogue is \(TerminalText.inline(stated)); session.json's project says \(TerminalText.inline(session))"
  }
  public static func catalogueSourceDiffers(_ identifier: String) -> String {
    "findings.json names catalogue \(TerminalText.inline(identifier)) with a source other than the one this tool carries under that identifier"
  }
  public static let sessionMissing = "session.json is missing"
  public static func notABundle(_ error: String) -> String {
    "the documents do not make a bundle: \(error)"
  }
  public static func findingCountDiffers(stated: Int, rederived: Int) -> String {
    "findings.json holds \(Quantity.count(stated, "finding")); the flows give \(rederived)"
  }
  public static func citationsDiffer(flow: Int64, stated: [String], rederived: [String]) -> String {
    "flow \(flow) cites \(stated.joined(separator: ",")); its readings give \(rederived.joined(separator: ","))"
  }
  /// The content check, made for a bundle that holds content.har.
  public static func contentRematched(exchanges: Int) -> String {
    "content.har holds \(Quantity.count(exchanges, "exchange")) and gives again, searched for session.json's test account values, the matches exchanges.json states for each"
  }
  public static let contentUnreadable = "content.har is not a HAR file tunnelvision reads"
  public static func contentMissingExchange(_ id: Int64) -> String {
    "exchange \(id) of exchanges.json is not in content.har"
  }
  public static func contentExtraExchange(_ id: Int64) -> String {
    "content.har holds exchange \(id), which exchanges.json does not list"
  }
  public static func contentMatchesDiffer(_ id: Int64, stated: Int, found: Int) -> String {
    "exchange \(id): exchanges.json states \(Quantity.count(stated, "match", "matches")), its content in content.har gives \(Quantity.grouped(found))"
  }
  public static func contentBodyDiffers(_ id: Int64) -> String {
    "exchange \(id): its request body in content.har does not have the SHA-256 exchanges.json states"
  }

  public static func rederived(findings: Int, verdicts: Int, catalogue: String) -> String {
    rederivedStatement
      + " (\(Quantity.count(findings, "finding")), \(Quantity.count(verdicts, "verdict")), catalogue \(catalogue))"
  }

  public static func scanMissing(_ file: String) -> String {
    "session.json names the server scan \(file), which the bundle does not hold"
  }

  public static func scanDiffers(_ file: String) -> String {
    "\(file) is not the scan session.json names: its SHA-256 differs"
  }
}
