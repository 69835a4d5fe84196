import Audit
import AuditDocuments
import AuditRules
import AuditWording
import Capture
import Crypto
import Foundation
import ReportLayout

/// Opens an evidence bundle without the store and checks it: every manifest entry's size and
/// digest, no file missing or extra, the capture's packet count against capture.json, every
/// identifier cited resolving, and flows.csv against flows.json.
public enum BundleVerifier {
  public typealias Check = VerificationCheck

  /// The most of each document read whole that verify holds: export writes a manifest of a
  /// few kilobytes and a session.json of its markers and notes. Beyond these a document is not
  /// read (its digest is still computed), so that memory stays bounded whatever the archive.
  static let wholeDocumentLimits: [String: Int] = [
    EvidenceBundle.manifestName: 1 << 16, EvidenceBundle.sessionName: 1 << 24,
    EvidenceBundle.signatureName: 1 << 12,
  ]

  public static func verify(_ url: URL) -> [Check] { verify(url, trusting: nil).checks }

  /// The checks of an archive written with ZIP64 fields from `zip64Threshold` on (tests force
  /// them on small bundles; export's is 4 GiB).
  public static func verify(_ url: URL, zip64Threshold: UInt64) -> [Check] {
    var standing = SignatureStanding.unsigned
    return verifyChecks(
      url, trustedKey: nil, standing: &standing, zip64Threshold: zip64Threshold)
  }

  /// The checks, and whether (and by whom) the manifest is signed; `trusting`: the raw Ed25519
  /// public key the signature must be by.
  public static func verify(_ url: URL, trusting trustedKey: Data?) -> (
    checks: [Check], signature: SignatureStanding
  ) {
    var standing = SignatureStanding.unsigned
    let checks = verifyChecks(url, trustedKey: trustedKey, standing: &standing)
    return (checks, standing)
  }

  static func verifyChecks(
    _ url: URL, trustedKey: Data?, standing: inout SignatureStanding,
    zip64Threshold: UInt64 = 0xFFFF_FFFF
  ) -> [Check] {
    let archive: ZipArchiveReader
    do { archive = try ZipArchiveReader(url: url, zip64Threshold: zip64Threshold) } catch {
      return [Check(statement: "The file is a ZIP archive.", problems: ["\(error)"])]
    }
    var checks: [Check] = []
    // 1. Every entry reads back with its CRC; the digests are computed on the way.
    var digests: [String: (UInt64, String)] = [:]
    var documents: [String: Data] = [:]
    var capture = PcapngScan()
    // flows.json is read as it is inflated, each flow compared with its row of flows.csv, which
    // is pulled from its own entry alongside (wherever it lies in the archive).
    var flowsReading: FlowsJSONReading?
    func csvRows() -> CSVRows? {
      guard let entry = archive.entries.first(where: { $0.name == EvidenceBundle.flowsCSVName }),
        let stream = try? archive.stream(entry)
      else { return nil }
      return CSVRows { (try? stream.next()) ?? nil }
    }
    // capture.json's flows are decoded one at a time as it is inflated (decoded whole,
    // JSONDecoder's map of 20 000 of them took 22 MB); of each, its id is kept.
    let captureFlows = Collected<VerifiedCapture.Flow>()
    var captureReading: StreamedArrayReading<VerifiedCapture, VerifiedCapture.Flow>?
    // findings.json too, a finding at a time (as dictionaries, 2 414 findings took 10 MB).
    let findingList = Collected<VerifiedFindings.Finding>()
    var findingsReading: StreamedArrayReading<VerifiedFindings, VerifiedFindings.Finding>?
    var archiveProblems: [String] = []
    var oversized = Set<String>()
    for entry in archive.entries {
      let digest = SHA256Digest()
      var count: UInt64 = 0
      do {
        try archive.read(entry) { chunk in
          digest.update(chunk)
          count += UInt64(chunk.count)
          if entry.name == EvidenceCaptureDocument.fileName {
            capture.feed(chunk)
          } else if entry.name == EvidenceBundle.captureJSONName {
            if captureReading == nil {
              captureReading = StreamedArrayReading(key: "flows", elements: \.flows) {
                captureFlows.items.append($0)
              }
            }
            captureReading!.feed(chunk)
          } else if entry.name == EvidenceBundle.findingsName {
            if findingsReading == nil {
              findingsReading = StreamedArrayReading(key: "findings", elements: \.findings) {
                findingList.items.append($0)
              }
            }
            findingsReading!.feed(chunk)
          } else if entry.name == EvidenceBundle.flowsName {
            if flowsReading == nil { flowsReading = FlowsJSONReading(csv: csvRows()) }
            flowsReading!.feed(chunk)
          } else if let limit = Self.wholeDocumentLimits[entry.name] {
            if count > UInt64(limit) {
              documents[entry.name] = nil
              if oversized.insert(entry.name).inserted {
                archiveProblems.append(
                  "\(entry.name) holds more than the \(Quantity.byteCount(UInt64(limit))) a bundle's \(entry.name) can; it is not read"
                )
              }
            } else {
              // Room for the whole document at once: growing by doubling would leave the halves behind.
              if documents[entry.name] == nil {
                documents[entry.name] = Data(capacity: Int(min(entry.size, UInt64(limit))))
              }
              documents[entry.name]!.append(chunk)
            }
          }
        }
        digests[entry.name] = (count, digest.finalHex())
      } catch {
        archiveProblems.append("\(error)")
        // Read to the end but damaged: its digest still goes to the manifest's check.
        if count == entry.size { digests[entry.name] = (count, digest.finalHex()) }
      }
    }
    checks.append(
      Check(
        statement:
          "The archive opens and each of its \(archive.entries.count) entries reads back with its CRC-32.",
        problems: archiveProblems))
    checks.append(
      Check(
        statement:
          "The archive is laid out as export writes it: one record per entry, nothing before, between or after.",
        problems: archive.layoutProblems))
    let flowsRead = flowsReading?.finish()
    let captureRead = captureReading?.finish()
    let findingsRead = findingsReading?.finish()

    // 2. The manifest.
    guard let manifestData = documents[EvidenceBundle.manifestName],
      let manifest = try? JSONSerialization.jsonObject(with: manifestData) as? [String: Any],
      let files = manifest["files"] as? [[String: Any]]
    else {
      checks.append(
        Check(
          statement: "manifest.json is there and lists the files.",
          problems: ["manifest.json is missing or is not the manifest's JSON"]))
      return checks
    }
    var manifestProblems: [String] = []
    guard files.count <= 64 else {
      checks.append(
        Check(
          statement: "manifest.json lists the files.",
          problems: ["manifest.json lists \(files.count) files; a bundle has fewer than ten"]))
      return checks
    }
    var listed = Set<String>()
    for file in files {
      guard let name = file["name"] as? String,
        let size = (file["byteCount"] as? NSNumber)?.uint64Value,
        let sha = file["sha256"] as? String
      else {
        manifestProblems.append("an entry of manifest.json lacks its name, byteCount or sha256")
        continue
      }
      if !listed.insert(name).inserted {
        manifestProblems.append("manifest.json lists \(TerminalText.inline(name)) twice")
      }
      guard let (actualSize, actualDigest) = digests[name] else { continue }
      if actualSize != size {
        manifestProblems.append("\(name) has \(actualSize) bytes; the manifest says \(size)")
      }
      if actualDigest != sha {
        manifestProblems.append("\(name) has SHA-256 \(actualDigest); the manifest says \(sha)")
      }
    }
    // Export archives the files in the manifest's order, the manifest last: any other order
    // (an entry moved, one the manifest does not list) is not an export's.
    let signed = archive.entries.contains { $0.name == EvidenceBundle.signatureName }
    let order =
      files.compactMap { $0["name"] as? String } + [EvidenceBundle.manifestName]
      + (signed ? [EvidenceBundle.signatureName] : [])
    if archive.entries.map(\.name) != order {
      manifestProblems.append("the archive's entries are not in the order manifest.json lists them")
    }
    checks.append(
      Check(
        statement:
          "manifest.json lists \(Quantity.count(files.count, "file")), each with the size and SHA-256 it states.",
        problems: manifestProblems))
    let present = Set(archive.entries.map(\.name)).subtracting([
      EvidenceBundle.manifestName, EvidenceBundle.signatureName,
    ])
    var setProblems: [String] = []
    for name in listed.subtracting(present).sorted() {
      setProblems.append("\(name) is in the manifest but not in the archive")
    }
    for name in present.subtracting(listed).sorted() {
      setProblems.append("\(name) is in the archive but not in the manifest")
    }
    checks.append(Check(statement: "No file is missing and none is extra.", problems: setProblems))
    if let check = signatureCheck(
      documents[EvidenceBundle.signatureName], manifest: manifestData, trustedKey: trustedKey,
      standing: &standing)
    {
      checks.append(check)
    }

    // Strictly: Foundation's decoders forgive a trailing comma, which other parsers refuse.
    var streamedSyntax: [String: String?] = [:]
    if let flowsRead { streamedSyntax[EvidenceBundle.flowsName] = flowsRead.syntax }
    if let captureRead { streamedSyntax[EvidenceBundle.captureJSONName] = captureRead.syntax }
    if let findingsRead { streamedSyntax[EvidenceBundle.findingsName] = findingsRead.syntax }
    let jsonNames = (documents.keys.filter { $0.hasSuffix(".json") } + streamedSyntax.keys).sorted()
    let syntaxProblems = jsonNames.compactMap { name in
      (streamedSyntax[name] ?? JSONSyntax.problem(in: documents[name]!)).map {
        "\(name) is not well-formed JSON: \($0)"
      }
    }
    checks.append(
      Check(
        statement:
          "Each of the \(Quantity.count(jsonNames.count, "JSON document")) is well-formed JSON (RFC 8259).",
        problems: syntaxProblems))

    // 3. Documents.
    guard let flowsReading, flowsRead?.readable == true,
      findingsRead?.readable == true, let findingsOutline = findingsReading?.outline,
      captureRead?.readable == true, let captureDoc = captureReading?.outline
    else {
      checks.append(
        Check(
          statement: "flows.json, findings.json and capture.json can be read.",
          problems: ["one of them is missing or is not JSON"]))
      return checks
    }
    let flows = flowsReading.flows
    let flowIDs = flows.map(\.id)
    let flowSet = Set(flowIDs)
    let findings = findingList.items
    let findingIDs = Set(findings.compactMap(\.id))
    let flowFindings = Dictionary(
      flows.map { ($0.id, $0.findingIDs) }, uniquingKeysWith: { a, _ in a })

    // 4. The capture against capture.json.
    let written = captureDoc.packets.written
    var captureProblems = capture.problems
    if capture.uncommented > 0 {
      captureProblems.append(
        "\(Quantity.count(capture.uncommented, "packet")) of capture.pcapng \(capture.uncommented == 1 ? "carries no comment naming its flow" : "carry no comment naming their flow")"
      )
    }
    if capture.packets != written {
      captureProblems.append(
        "capture.pcapng holds \(capture.packets) packets; capture.json says \(written.map(String.init) ?? "nothing") were written"
      )
    }
    captureProblems += CaptureCounts.problems(
      captureDoc, flows: captureFlows.items, packetsInCapture: capture.packetsByFlow,
      packetCounts: Dictionary(
        flowsReading.records.map { ($0.id, $0.packetCount) }, uniquingKeysWith: { a, _ in a }))
    checks.append(
      Check(
        statement:
          "capture.pcapng holds \(Quantity.count(capture.packets, "packet")), as capture.json counts them.",
        problems: captureProblems))

    // 5. Identifiers.
    var idProblems: [String] = []
    if flowSet.count != flowIDs.count {
      idProblems.append("flows.json lists a flow id more than once")
    }
    let findingFlows = Dictionary(
      findings.compactMap { f in f.id.map { ($0, Set(f.flowIDs ?? [])) } },
      uniquingKeysWith: { a, b in a.union(b) })
    for (flow, ids) in flowFindings.sorted(by: { $0.key < $1.key }) {
      for id in ids {
        if let cited = findingFlows[id] {
          if !cited.contains(flow) {
            idProblems.append("flow \(flow) cites \(id), which does not cite flow \(flow) back")
          }
        } else {
          idProblems.append("flow \(flow) cites \(id), which findings.json does not hold")
        }
      }
    }
    var findingsSeen = Set<String>()
    for (index, finding) in findings.enumerated() {
      guard let id = finding.id else {
        idProblems.append("finding \(index + 1) of findings.json has no string id")
        continue
      }
      if !findingsSeen.insert(id).inserted {
        idProblems.append("findings.json lists \(id) more than once")
      }
      guard let flowsCited = finding.flowIDs, !flowsCited.isEmpty else {
        idProblems.append("\(id) has flowIDs that are not a non-empty list of flow ids")
        continue
      }
      for flow in flowsCited {
        if !flowSet.contains(flow) {
          idProblems.append("\(id) cites flow \(flow), which flows.json does not hold")
        } else if !(flowFindings[flow] ?? []).contains(id) {
          idProblems.append("\(id) cites flow \(flow), which does not cite \(id) back")
        }
      }
    }
    for requirement in findingsOutline.requirements {
      for id in requirement.contraryFindingIDs + requirement.supportingFindingIDs
      where !findingIDs.contains(id) {
        idProblems.append(
          "\(requirement.id ?? "a requirement") cites \(id), which findings.json does not hold")
      }
    }
    if captureFlows.items.map(\.id) != flowIDs {
      idProblems.append("capture.json does not list the flows of flows.json, in their order")
    }
    for (flow, findingsCited) in capture.comments.sorted(by: { $0.key < $1.key }) {
      guard let expected = flowFindings[flow] else {
        idProblems.append("a packet comment cites flow \(flow), which flows.json does not hold")
        continue
      }
      if findingsCited != Set(expected) {
        idProblems.append(
          "packets of flow \(flow) cite findings \(findingsCited.sorted().joined(separator: ",")); flows.json says \(expected.joined(separator: ","))"
        )
      }
    }
    checks.append(
      Check(
        statement:
          "Every flow and finding identifier cited resolves (\(Quantity.count(flowIDs.count, "flow")), \(Quantity.count(findingIDs.count, "finding"))).",
        problems: idProblems))

    // 6. What the documents must agree on.
    let session = VerifiedSessionFacts.read(documents[EvidenceBundle.sessionName])
    let manifestFacts = VerifiedSessionFacts.read(manifestData)
    let agreement = DocumentAgreement(
      sessionIDs: [
        (EvidenceBundle.manifestName, manifestFacts?.sessionID),
        (EvidenceBundle.sessionName, session?.sessionID),
        (EvidenceBundle.flowsName, flowsReading.outline?.sessionID),
        (EvidenceBundle.findingsName, findingsOutline.sessionID),
        (EvidenceBundle.captureJSONName, captureDoc.sessionID),
      ],
      exportedAt: [
        (EvidenceBundle.manifestName, manifestFacts?.exportedAt),
        (EvidenceBundle.sessionName, session?.exportedAt),
      ],
      startedAt: session?.startedAt, endedAt: session?.endedAt,
      flowCount: flowsReading.outline?.flowCount, flowsListed: flows.count)
    checks.append(Check(statement: DocumentAgreement.statement, problems: agreement.problems))

    // 7. flows.csv against flows.json.
    checks.append(flowsReading.csv.check(flowCount: flows.count))

    // capture.json and flows.json written again from the values they hold: every key, type and
    // form of theirs is then the format's, or the bytes differ.
    checks.append(
      formCheck(
        capture: captureDoc.document(flows: captureFlows.items), flows: flowsReading,
        sessionID: flowsReading.outline?.sessionID, digests: digests))

    // 8. The findings and verdicts, re-derived from flows.json and session.json.
    checks.append(
      rederivationCheck(
        session: documents[EvidenceBundle.sessionName], flows: flowsReading.records,
        baselineClaims: flowsReading.baselineClaims, citations: flowFindings,
        findings: findingsOutline, findingCount: findings.count,
        capture: captureDoc.summary, digests: digests))
    return checks
  }

  /// findings.json and session.json against what this tool derives from the flows and from
  /// session.json's project, session and markers, with the catalogue it carries.
  static func rederivationCheck(
    session: Data?, flows: [StoredFlow], baselineClaims: [Bool?], citations: [Int64: [String]],
    findings: VerifiedFindings,
    findingCount: Int, capture: EvidenceCaptureSummary?, digests: [String: (UInt64, String)]
  ) -> Check {
    let statement = VerifyPresentation.rederivedStatement
    guard let session else {
      return Check(statement: statement, problems: ["session.json is missing"])
    }
    let record: EvidenceSessionRecord
    do { record = try EvidenceSessionRecord(session) } catch {
      return Check(statement: statement, problems: [error.description])
    }
    if let stated = findings.catalogue?.identifier, stated != record.catalogueIdentifier {
      return Check(
        statement: statement,
        problems: [
          "findings.json's catalogue is \(TerminalText.inline(stated)); session.json's project says \(TerminalText.inline(record.catalogueIdentifier))"
        ])
    }
    if (try? RequirementCatalogueLibrary.catalogue(identifier: record.catalogueIdentifier)) != nil,
      EvidenceRederivation.catalogue(
        identifier: record.catalogueIdentifier, sourceSHA256: findings.catalogue?.source?.sha256)
        == nil
    {
      return Check(
        statement: statement,
        problems: [
          "findings.json names catalogue \(TerminalText.inline(record.catalogueIdentifier)) with a source other than the one this tool carries under that identifier"
        ])
    }
    guard
      let catalogue = EvidenceRederivation.catalogue(
        identifier: record.catalogueIdentifier, sourceSHA256: findings.catalogue?.source?.sha256)
    else {
      return Check(
        statement: VerifyPresentation.notRederived(catalogue: record.catalogueIdentifier),
        problems: [], made: false)
    }
    guard record.exportedWith == ToolVersion.exportedWith else {
      return Check(
        statement: VerifyPresentation.notRederived(exportedWith: record.exportedWith),
        problems: [], made: false)
    }
    let rederived: EvidenceRederivation
    do {
      rederived = try EvidenceRederivation(record: record, flows: flows, catalogue: catalogue)
    } catch {
      return Check(statement: statement, problems: ["the documents do not make a bundle: \(error)"])
    }
    var problems: [String] = []
    let verdicts = rederived.verdicts
    for requirement in findings.requirements {
      guard let id = requirement.id else { continue }
      if requirement.verdict != verdicts[id] {
        problems.append(
          VerifyPresentation.verdictDiffers(
            id, stated: requirement.verdict, rederived: verdicts[id]))
      }
    }
    if findingCount != rederived.bundle.findings.count {
      problems.append(
        "findings.json holds \(Quantity.count(findingCount, "finding")); the flows give \(rederived.bundle.findings.count)"
      )
    }
    let differing = flows.filter {
      (citations[$0.id] ?? []) != rederived.bundle.findingIDs(ofFlow: $0.id)
    }
    for flow in differing.prefix(3) {
      problems.append(
        "flow \(flow.id) cites \((citations[flow.id] ?? []).joined(separator: ",")); its readings give \(rederived.bundle.findingIDs(ofFlow: flow.id).joined(separator: ","))"
      )
    }
    // What each flow says of the baseline follows from session.json's baseline hosts.
    let misattributed = zip(flows, baselineClaims).filter {
      $1 != rederived.bundle.alsoContactedInBaseline($0)
    }
    for (flow, claim) in misattributed.prefix(3) {
      problems.append(
        VerifyPresentation.baselineClaimDiffers(
          flow: flow.id, stated: claim, rederived: rederived.bundle.alsoContactedInBaseline(flow)))
    }
    for (name, bytes) in [
      (EvidenceBundle.findingsName, rederived.findingsJSON),
      (EvidenceBundle.sessionName, rederived.sessionJSON),
    ] {
      let digest = SHA256Digest()
      bytes.withUnsafeBytes { digest.update($0) }
      if let stated = digests[name]?.1, stated != digest.finalHex() {
        problems.append(VerifyPresentation.documentDiffers(name))
      }
    }
    // report.pdf drawn again from the same values and capture.json's counts: the same bytes.
    if let stated = digests[EvidenceBundle.reportName]?.1 {
      // The first page cites the other files' digests: those the archive's entries have.
      let cited = EvidenceBundle.reportCitedNames.map {
        EvidenceReportDigest(name: $0, sha256: digests[$0]?.1 ?? "")
      }
      if let capture, let drawn = redrawnReportDigest(rederived.bundle, capture, citing: cited) {
        if drawn != stated {
          problems.append(VerifyPresentation.documentDiffers(EvidenceBundle.reportName))
        }
      } else {
        problems.append(VerifyPresentation.reportNotRedrawn)
      }
    }
    return Check(
      statement: statement
        + " (\(Quantity.count(rederived.bundle.findings.count, "finding")), \(Quantity.count(verdicts.count, "verdict")), catalogue \(record.catalogueIdentifier))",
      problems: problems)
  }

  static func formCheck(
    capture: EvidenceCaptureDocument?, flows: FlowsJSONReading, sessionID: Int64?,
    digests: [String: (UInt64, String)]
  ) -> Check {
    var problems: [String] = []
    func differs(_ name: String, _ write: (([UInt8]) -> Void) -> Void) {
      let digest = SHA256Digest()
      write { bytes in bytes.withUnsafeBytes { digest.update($0) } }
      if digests[name]?.1 != digest.finalHex() {
        problems.append(VerifyPresentation.formDiffers(name))
      }
    }
    if let capture {
      differs(EvidenceBundle.captureJSONName) { sink in
        capture.document.write(
          count: capture.flows.count,
          element: { i, w in
            w.value(
              EvidenceCaptureDocument.flowEntry(
                id: capture.flows[i].id, tally: capture.flows[i].tally))
          }, to: sink)
      }
    } else {
      problems.append(VerifyPresentation.formDiffers(EvidenceBundle.captureJSONName))
    }
    if let sessionID {
      let records = flows.records
      let citations = flows.flows
      let claims = flows.baselineClaims
      differs(EvidenceBundle.flowsName) { sink in
        EvidenceBundle.flowsDocument(sessionID: sessionID, flowCount: records.count).write(
          count: records.count,
          element: { i, w in
            EvidenceFlowRecord.write(
              records[i], findingIDs: citations[i].findingIDs, alsoContactedInBaseline: claims[i],
              to: &w)
          }, to: sink)
      }
    } else {
      problems.append(VerifyPresentation.formDiffers(EvidenceBundle.flowsName))
    }
    return Check(statement: VerifyPresentation.formStatement, problems: problems)
  }

  /// The SHA-256 of report.pdf drawn again, in a directory of its own; nil when it cannot be
  /// drawn (no fonts, a capture of another session).
  static func redrawnReportDigest(
    _ bundle: EvidenceBundle, _ capture: EvidenceCaptureSummary,
    citing digests: [EvidenceReportDigest]
  ) -> String? {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tunnelvision-verify-\(getpid())-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    guard
      (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true))
        != nil,
      (try? EvidenceReportRenderer.render(bundle, capture, citing: digests, into: folder)) != nil,
      let data = try? Data(contentsOf: folder.appendingPathComponent(EvidenceBundle.reportName))
    else { return nil }
    return SHA256Digest.hex(of: data)
  }

  /// The flows of flows.json, read as verify reads them; nil if the document or a flow cannot be decoded.
  static func decodeFlows(_ data: Data) -> [EvidenceFlowRecord.Decoded]? {
    let flows = Collected<EvidenceFlowRecord.Decoded>()
    let reading = StreamedArrayReading(key: "flows", elements: \VerifiedFlows.flows) {
      flows.items.append($0)
    }
    reading.feed(data)
    return reading.finish().readable ? flows.items : nil
  }

  /// signature.json against manifest.json's bytes (and the key trusted, when one is given); nil
  /// for an unsigned bundle when no key was asked for.
  static func signatureCheck(
    _ document: Data?, manifest: Data, trustedKey: Data?, standing: inout SignatureStanding
  ) -> Check? {
    guard let document else {
      guard trustedKey != nil else { return nil }
      return Check(
        statement: "manifest.json is signed by the key given.",
        problems: ["the bundle carries no signature.json"])
    }
    let object = (try? JSONSerialization.jsonObject(with: document)) as? [String: Any]
    guard let object, object["algorithm"] as? String == "Ed25519",
      let key = (object["publicKey"] as? String).flatMap({ Data(base64Encoded: $0) }),
      let signature = (object["signature"] as? String).flatMap({ Data(base64Encoded: $0) })
    else {
      return Check(
        statement: "manifest.json's signature reads.",
        problems: ["signature.json is not an Ed25519 signature as export writes it"])
    }
    let fingerprint = Ed25519Signature.fingerprint(key)
    var problems: [String] = []
    if !Ed25519Signature.verify(signature, of: manifest, publicKey: key) {
      problems.append("signature.json does not sign this manifest.json")
    }
    if let trustedKey, trustedKey != key {
      problems.append(
        "signed by \(fingerprint), not by the key given (\(Ed25519Signature.fingerprint(trustedKey)))"
      )
    }
    standing = .signed(fingerprint: fingerprint, byTrustedKey: trustedKey == key)
    return Check(
      statement: "manifest.json is signed (Ed25519, key \(fingerprint)).", problems: problems)
  }
}
