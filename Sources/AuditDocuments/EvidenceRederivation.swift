import Audit
import AuditRules
import AuditWording
import Foundation

/// What verify re-derives from a bundle's source documents — the flows of flows.json and the
/// project, session and markers of session.json — with the catalogue this tool carries: the
/// bytes findings.json and session.json must then have, and the findings each flow proves.
public struct EvidenceRederivation: Sendable {
  public let bundle: EvidenceBundle

  /// `trackers`: the lists session.json names, read again (the same bytes). `holdingFlows:
  /// false`: the bundle keeps what the flows prove, not the flows (as export's does).
  public init(
    record: EvidenceSessionRecord, flows: [StoredFlow], catalogue: RequirementCatalogue,
    trackers: TrackerLists? = nil, registrableDomains: RegistrableDomains = RegistrableDomains(),
    addressRegistrations: AddressRegistrations = AddressRegistrations(),
    serverScans: [StoredServerScan] = [],
    exchanges: [ExchangeRecord] = [], includesContent: Bool = false, holdingFlows: Bool = true
  ) throws(EvidenceBundleError) {
    var bundle = try EvidenceBundle(
      project: record.project, session: record.session, markers: record.markers, flows: flows,
      catalogue: catalogue, exportedWith: record.exportedWith, exportedAt: record.exportedAt,
      baseline: record.baseline, runs: record.runs, runsNotKept: record.runsNotKept,
      holdingFlows: holdingFlows, trackers: trackers, publicSuffixList: record.publicSuffixList,
      registrableDomains: registrableDomains, addressRegistrations: addressRegistrations,
      serverScans: serverScans,
      content: SessionContent(values: record.testAccount, exchanges: exchanges))
    bundle.includesContent = includesContent
    bundle.exportLibraries = record.exportLibraries
    bundle.importProxies = record.importProxies
    self.bundle = bundle
  }

  /// exchanges.json as export writes it.
  public var exchangesJSON: [UInt8] {
    let document = bundle.exchangesDocument
    var out = document.prefix
    for (index, record) in bundle.content.exchanges.enumerated() {
      document.append(EvidenceExchangesDocument.entry(record), first: index == 0, to: &out)
    }
    out += document.suffix(empty: bundle.content.exchanges.isEmpty)
    return out
  }

  /// findings.json as export writes it, handed to `take` a finding at a time: the whole
  /// document (megabytes) is never held.
  public func findingsJSON(_ take: ([UInt8]) -> Void) {
    let document = bundle.findingsDocument
    document.writePrefix(to: take)
    var entry: [UInt8] = []
    for index in bundle.findings.indices {
      entry.removeAll(keepingCapacity: true)
      document.append(bundle.findingEntry(index), first: index == 0, to: &entry)
      take(entry)
    }
    take(document.suffix(empty: bundle.findings.isEmpty))
  }

  /// session.json as export writes it.
  public var sessionJSON: [UInt8] { Array((bundle.sessionDocument.serialized() + "\n").utf8) }

  /// Per requirement, its verdict's key ("contradicted", "observed", …).
  public var verdicts: [String: String] {
    Dictionary(
      bundle.assessment.requirements.map { ($0.requirement.id, $0.verdict.key) },
      uniquingKeysWith: { a, _ in a })
  }

  /// The catalogue this tool carries under the bundle's identifier, if its source is the one
  /// findings.json names (by SHA-256): a bundle made with a catalogue file of its own is not
  /// re-derived.
  public static func catalogue(identifier: String, sourceSHA256: String?) -> RequirementCatalogue? {
    guard let catalogue = try? RequirementCatalogueLibrary.catalogue(identifier: identifier),
      catalogue.source.sha256 == sourceSHA256
    else { return nil }
    return catalogue
  }
}
