import Audit
import AuditRules
import AuditWording
import Foundation

/// session.json, flows.json and findings.json as values (flows and findings as streamed arrays).
extension EvidenceBundle {
  public var sessionDocument: JSONValue {
    typealias D = SessionDocument
    let s = session
    var sessionObject = SessionJSON.kindJSON(s.kind)
    sessionObject[D.SessionKey.id] = .int(s.id)
    sessionObject[D.SessionKey.name] = .string(AuditPresentation.sessionName(s.kind))
    sessionObject[D.SessionKey.startedAt] = .string(Instant.rfc3339(s.startedAt))
    sessionObject[D.SessionKey.endedAt] = .optional(s.endedAt.map(Instant.rfc3339))
    sessionObject[D.SessionKey.notes] = .string(s.notes)
    sessionObject[D.SessionKey.device] = .fields([
      D.DeviceKey.model: .string(s.environment.deviceModel),
      .osVersion: .string(s.environment.osVersion),
    ])
    // A recorded session: the version of tunnelvision that recorded it; an imported one: what
    // wrote the capture, as the file says (null when it does not), and the file itself.
    sessionObject[D.SessionKey.recordedWith] =
      s.source.map { .optional($0.application) } ?? .string(s.environment.toolVersion)
    sessionObject[D.SessionKey.capture] = SessionJSON.captureJSON(s)
    if case .object(var capture) = sessionObject[D.SessionKey.capture] {
      capture[D.CaptureKey.proxies] = SessionJSON.proxiesJSON(importProxies)
      sessionObject[D.SessionKey.capture] = .object(capture)
    }
    sessionObject[D.SessionKey.inspection] = .fields([
      D.InspectionKey.inspectionEnabled: .bool(s.inspection.inspectionEnabled),
      .caTrusted: .bool(s.inspection.caTrusted),
      .certificateScenario: .optional(s.inspection.scenario?.name),
      .pinningEvidence: .string(EvidenceNotes.pinning(s.inspection)),
    ])
    sessionObject[D.SessionKey.markers] = .array(
      markers.map { SessionJSON.markerJSON($0, withID: false) })
    sessionObject[D.SessionKey.recording] = SessionJSON.recordingJSON(coverage, session: s)
    return .fields([
      D.Key.formatVersion: .int(Self.formatVersion),
      .exportedAt: .string(Instant.rfc3339(exportedAt)),
      .exportedWith: .string(exportedWith),
      .project: .fields([
        D.ProjectKey.id: .int(project.id), .name: .string(project.name),
        .bundleIdentifier: .optional(project.bundleIdentifier),
        .catalogue: .string(catalogue.identifier),
        .allowlist: .array(project.allowlist.map(SessionJSON.allowlistJSON)),
      ]),
      .session: .object(sessionObject),
      .contents: .string(ContentWording.contents(withContent: includesContent)),
      .testAccount: testAccountJSON,
      .attribution: .string(EvidenceNotes.attribution(for: session)),
      .publicSuffixList: publicSuffixList.map {
        .fields([
          D.PublicSuffixListKey.path: .string($0.path), .sha256: .string($0.sha256),
          .date: .optional($0.date),
        ])
      } ?? .null,
      .addressDatabases: .array(
        addressRegistrations.databases.map {
          .fields([
            D.AddressDatabaseKey.name: .string($0.name), .path: .string($0.path),
            .sha256: .string($0.sha256), .built: .string($0.built),
          ])
        }),
      .serverScans: .array(
        serverScans.enumerated().map { index, scan in
          .fields([
            D.ServerScanKey.file: .string(Self.serverScanName(index)),
            .fileName: .string(scan.fileName), .tool: .string(scan.tool),
            .sha256: .string(scan.sha256), .storedAt: .string(Instant.rfc3339(scan.storedAt)),
          ])
        }),
      .trackerLists: .array(
        trackerLists.map {
          .fields([
            D.TrackerListKey.name: .string($0.name), .path: .string($0.path),
            .sha256: .string($0.sha256), .date: .string($0.date),
          ])
        }),
      .testLog: testLog.json,
      .baseline: baseline.map {
        .fields([
          D.BaselineKey.sessionID: .int($0.sessionID), .hosts: .strings($0.hosts),
          .tlsClients: .strings($0.sortedTLSClients),
        ])
      } ?? .null,
    ])
  }

  public var flowsDocument: StreamedJSONObject {
    Self.flowsDocument(sessionID: session.id, flowCount: flowCount)
  }

  public static func flowsDocument(sessionID: Int64, flowCount: Int) -> StreamedJSONObject {
    typealias K = FlowsDocument.Key
    return StreamedJSONObject(
      fields: [
        K.formatVersion.rawValue: .int(formatVersion), K.sessionID.rawValue: .int(sessionID),
        K.flowCount.rawValue: .int(flowCount),
      ],
      streamedKey: K.flows.rawValue)
  }

  /// The flow's name's registrable domain, as the bundle holds them.
  public func registrableDomain(of flow: StoredFlow) -> String? {
    flow.name.flatMap { registrableDomains.of($0.text) }
  }

  public func writeFlowEntry(
    _ flow: StoredFlow, registrableDomain: String? = nil, to writer: inout JSONWriter
  ) {
    EvidenceFlowRecord.write(
      flow, findingIDs: findingIDs(ofFlow: flow.id),
      alsoContactedInBaseline: alsoContactedInBaseline(flow),
      registrableDomain: registrableDomain, registrations: addressRegistrations, to: &writer)
  }

  public var findingsDocument: StreamedJSONObject {
    typealias F = FindingsDocument
    let requirements: [JSONValue] = assessment.requirements.map { r in
      let ids = { (list: [Finding]) in FindingsDocument.identifiers(of: list, in: self.findings)
      }
      var coverage: JSONValue = .null
      if let c = r.coverage {
        // One check is named as a string, as before several could be cited; several as a list.
        var fields: [F.RequirementCoverageKey: JSONValue] = [
          .flagged: .int(c.flagged), .satisfied: .int(c.satisfied),
          .notAssessed: .int(c.unassessed), .notApplicable: .int(c.notApplicable),
        ]
        if c.checks.count == 1 {
          fields[.check] = .string(c.checks[0].rawValue)
        } else {
          fields[.checks] = .strings(c.checks.map(\.rawValue))
        }
        coverage = .fields(fields)
      }
      var fields: [F.RequirementKey: JSONValue] = [
        .id: .string(r.requirement.id), .title: .string(r.requirement.title),
        .aspect: .fields([
          F.AspectKey.number: .int(r.requirement.aspect.number),
          .name: .string(r.requirement.aspect.name),
        ]),
        .testDepth: .optional(r.requirement.testDepth?.rawValue),
        .rule: .string(r.requirement.rule.name),
        .verdict: .string(r.verdict.key), .statement: .string(EvidenceWording.verdict(r)),
        .toolCoverage: .optional(r.requirement.toolCoverage),
        .contraryFindingIDs: .strings(ids(r.contraryFindings)),
        .supportingFindingIDs: .strings(ids(r.supportingFindings)),
        .coverage: coverage,
      ]
      // Only where stretches were not recorded: the bundles of sessions recorded throughout keep
      // their bytes.
      if let unrecorded = r.onlyWhereRecorded {
        fields[.onlyWhereRecorded] = FindingsDocument.unrecordedJSON(unrecorded)
      }
      return .fields(fields)
    }
    let checks = FindingsDocument.checksJSON(assessment, withFlowIDs: true)
    func source(_ s: CatalogueSource) -> JSONValue {
      .fields([
        F.SourceKey.document: .string(s.document), .title: .string(s.title),
        .version: .string(s.version), .date: .string(s.date), .sha256: .optional(s.sha256),
        .url: .optional(s.url),
      ])
    }
    typealias K = F.Key
    return StreamedJSONObject(
      fields: [
        K.formatVersion.rawValue: .int(Self.formatVersion),
        K.sessionID.rawValue: .int(session.id),
        K.catalogue.rawValue: .fields([
          F.CatalogueKey.identifier: .string(catalogue.identifier),
          .source: source(catalogue.source),
          .tls: .fields([
            F.TLSPolicyKey.minimumVersion: .string(minimum.catalogueText ?? minimum.name),
            .source: source(catalogue.tlsSource),
          ]),
        ]),
        K.requirements.rawValue: .array(requirements),
        K.checks.rawValue: checks,
        K.verdictsNote.rawValue: .string(EvidenceWording.verdictsNote),
      ], streamedKey: K.findings.rawValue)
  }

  public func findingEntry(_ index: Int) -> JSONValue {
    typealias K = FindingsDocument.FindingKey
    let finding = findings[index]
    var object = FindingsDocument.evidenceJSON(finding.evidence)
    object[K.id] = .string(FindingsDocument.identifier(index))
    object[K.statement] = .string(
      EvidenceWording.statement(of: finding.evidence, minimum: minimum))
    object[K.flowIDs] = .ints(finding.flowIDs)
    object[K.alsoContactedInBaseline] = baselineHosts[index].map(JSONValue.strings) ?? .null
    object[K.earlierReadings] = .array(
      earlierReadings[index].map(FindingsDocument.earlierReadingJSON))
    return .object(object)
  }
}
